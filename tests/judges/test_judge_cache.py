"""JudgeCache / CachedBackend: hits and misses, key parts, persistence, WAL, concurrency."""
from __future__ import annotations

import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from authorag.errors import JudgeError
from authorag.judges.backends import load_backend
from authorag.judges.backends.base import ChatRequest, Completion
from authorag.judges.backends.cache import CachedBackend, JudgeCache, cache_key, default_cache_path
from authorag.testing import FakeBackend, fake_completion


def _request(domain: str = "nature.com", version: str = "point-v1") -> ChatRequest:
    return ChatRequest(messages=[{"role": "user", "content": f"Domain: {domain}"}],
                       max_tokens=1, grammar="root ::= [0-9]", logprobs=True,
                       prompt_version=version)


def test_miss_then_hit(tmp_path: Path) -> None:
    fake = FakeBackend([fake_completion("7", {"7": 0.6, "8": 0.4})])
    backend = CachedBackend(fake, JudgeCache(tmp_path / "c.sqlite3"))
    first, second = backend.complete(_request()), backend.complete(_request())
    assert (first.cached, second.cached) == (False, True)
    assert second.text == "7" and len(fake.requests) == 1
    assert second.logprobs is not None
    assert second.logprobs[0].top == pytest.approx({"7": math.log(0.6), "8": math.log(0.4)})
    assert (backend.cache.hits, backend.cache.misses) == (1, 1)


@pytest.mark.parametrize(
    ("other_request", "other_model"),
    [
        (_request(version="point-v2"), "fake-model"),
        (_request(domain="cdc.gov"), "fake-model"),
        (_request(), "other-model"),
    ],
    ids=["prompt-version", "item", "model"],
)
def test_key_parts_cause_misses(other_request: ChatRequest, other_model: str) -> None:
    cache = JudgeCache(":memory:")
    CachedBackend(FakeBackend(["1"]), cache).complete(_request())
    other = FakeBackend(["2"], model=other_model)
    assert CachedBackend(other, cache).complete(other_request).text == "2"
    assert len(other.requests) == 1 and len(cache) == 2


def test_constrained_probs_is_part_of_the_key() -> None:
    plain = _request()
    constrained = ChatRequest(messages=plain.messages, max_tokens=1, grammar=plain.grammar,
                              logprobs=True, prompt_version="point-v1", constrained_probs=True)
    assert cache_key("local", "m", plain) != cache_key("local", "m", constrained)


def test_key_ignores_mapping_order_and_backend_name_matters() -> None:
    a = ChatRequest(messages=[{"role": "user", "content": "x"}])
    b = ChatRequest(messages=[{"content": "x", "role": "user"}])
    assert cache_key("local", "m", a) == cache_key("local", "m", b)
    assert cache_key("local", "m", a) != cache_key("openai", "m", a)


def test_persists_across_instances_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "judge.sqlite3"
    with JudgeCache(path) as cache:
        assert cache.journal_mode == "wal"
        CachedBackend(FakeBackend(["5"]), cache).complete(_request())
    fake = FakeBackend([])
    with JudgeCache(path) as reopened:
        assert CachedBackend(fake, reopened).complete(_request()).text == "5"
    assert fake.requests == []


def test_memory_cache() -> None:
    cache = JudgeCache(":memory:")
    cache.put("k", Completion(text="3", prompt_tokens=12, dropped_features=("json_schema",)))
    got = cache.get("k")
    assert got == Completion(text="3", prompt_tokens=12, cached=True,
                             dropped_features=("json_schema",))
    assert cache.journal_mode == "memory" and cache.clear() == 1 and cache.get("k") is None


def test_failures_are_not_cached() -> None:
    fake = FakeBackend([JudgeError("server down"), "7"])
    backend = CachedBackend(fake, JudgeCache(":memory:"))
    with pytest.raises(JudgeError, match="server down"):
        backend.complete(_request())
    assert backend.complete(_request()).cached is False
    assert backend.complete(_request()).cached is True


async def test_async_hit() -> None:
    fake = FakeBackend(["4"])
    backend = CachedBackend(fake, JudgeCache(":memory:"))
    assert (await backend.acomplete(_request())).cached is False
    assert (await backend.acomplete(_request())).cached is True
    assert len(fake.requests) == 1


def test_concurrent_threads(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    backend = CachedBackend(FakeBackend(lambda r: str(len(r.messages[0]["content"]) % 10)), cache)

    def work(worker: int) -> list[str]:
        return [backend.complete(_request(domain=f"d{i}-{worker % 4}.org")).text
                for i in range(40)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(8)))  # re-raises any worker's exception
    assert results[0] == results[4] and len(results[0]) == 40
    assert len(cache) == 160  # 40 items x 4 distinct worker groups
    assert cache.hits + cache.misses == 320


def test_concurrent_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    JudgeCache(path).close()
    code = (
        "import sys\n"
        "from authorag.judges.backends.cache import JudgeCache\n"
        "from authorag.judges.backends.base import Completion\n"
        "c = JudgeCache(sys.argv[1])\n"
        "for i in range(150):\n"
        "    c.put(f'{sys.argv[2]}-{i}', Completion(text=str(i)))\n"
        "    assert c.get(f'{sys.argv[2]}-{i}').text == str(i)\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), name])
             for name in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert len(JudgeCache(path)) == 300


def test_factory_wraps_with_cache(tmp_path: Path) -> None:
    backend = load_backend("openai", base_url="http://127.0.0.1:1/v1", model="m",
                           cache=tmp_path / "c.sqlite3")
    assert isinstance(backend, CachedBackend) and backend.name == "openai"


def test_default_path_follows_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AUTHORAG_CACHE_DIR", str(tmp_path))
    assert default_cache_path() == tmp_path / "judge_cache.sqlite3"
