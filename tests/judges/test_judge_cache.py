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


BAD_ROWS = ["{broken", "[1, 2]", "{}", '{"text": 5}', '{"text": "7", "logprobs": "x"}',
            '{"text": "7", "logprobs": [{"token": "7"}]}', '{"text": "7", "prompt_tokens": "many"}',
            '{"text": "7", "dropped_features": ["teleport"]}', "[" * 100_000 + "]" * 100_000, "", "null"]


@pytest.mark.parametrize("value", BAD_ROWS, ids=range(len(BAD_ROWS)))
def test_a_bad_row_is_a_miss_logged_once_then_replaced(tmp_path: Path, value: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    """Was: a damaged row ('{broken', [1,2], missing fields) raised JSONDecodeError out of the judge tier."""
    import sqlite3

    path = tmp_path / "c.sqlite3"
    fake = FakeBackend(["7", "8", "9"])
    backend = CachedBackend(fake, JudgeCache(path))
    backend.complete(_request("a.org"))
    backend.complete(_request("b.org"))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE completions SET value = ?", (value,))
    with caplog.at_level("WARNING", logger="authorag.judges.backends.cache"):
        again = CachedBackend(fake, JudgeCache(path))
        assert again.cache.get(cache_key("fake", "fake-model", _request("a.org"))) is None
        assert again.cache.get(cache_key("fake", "fake-model", _request("b.org"))) is None
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "ignoring an unreadable entry" in warnings[0] and str(path) in warnings[0]
    answer = again.complete(_request("a.org"))  # a miss: the model answers, and the row is replaced
    assert (answer.text, answer.cached, len(fake.requests)) == ("9", False, 3)
    assert again.complete(_request("a.org")).cached


def test_a_bad_row_never_reaches_the_judge_tier(tmp_path: Path) -> None:
    """The hybrid scorer judges the domain again instead of failing (the server answered 500)."""
    import sqlite3

    from authorag.judges import PointJudge
    from authorag.tiers.hybrid import HybridAuthority
    from authorag.types import candidates_from

    path = tmp_path / "c.sqlite3"
    fake = FakeBackend(lambda req: "8")
    judge = PointJudge(load_backend_from(fake, JudgeCache(path)), on_failure="skip", use_logprobs=False)
    first = HybridAuthority(_EmptyTable(), None, judge).score(candidates_from(["zq-unknown.biz"]))[0]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE completions SET value = '{broken'")
    judge = PointJudge(load_backend_from(fake, JudgeCache(path)), on_failure="raise", use_logprobs=False)
    again = HybridAuthority(_EmptyTable(), None, judge).score(candidates_from(["zq-unknown.biz"]))[0]
    assert first.tier == again.tier == "judge" and again.authority == pytest.approx(first.authority)
    assert len(fake.requests) == 2


def load_backend_from(fake: FakeBackend, cache: JudgeCache) -> CachedBackend:
    return CachedBackend(fake, cache)


class _EmptyTable:
    name = "prior"

    def score(self, candidates):  # an AuthorityScorer that knows nothing
        from authorag.types import UNKNOWN_DETAIL

        return [UNKNOWN_DETAIL for _ in candidates]


@pytest.mark.parametrize("content", [b"this is not a database, just text\n" * 10, b"\x00" * 4096,
                                     b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_file_that_is_not_a_database_is_named(tmp_path: Path, content: bytes) -> None:
    """Was: start-up stopped with sqlite3.DatabaseError 'file is not a database', without the file."""
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.errors import ConfigError

    path = tmp_path / "junk.sqlite3"
    path.write_bytes(content)
    with pytest.raises(ConfigError, match=rf"judge cache '{path}' cannot be used as a SQLite database .*"
                                          r"choose another with --cache PATH"):
        JudgeCache(path)
    with pytest.raises(ConfigError, match=rf"judge cache '{path}'"):
        load_scorer(ScorerSettings(judge="openai", judge_base_url="http://127.0.0.1:9/v1", judge_model="m",
                                    judge_cache=str(path)))


def test_a_folder_as_the_cache_file_is_named(tmp_path: Path) -> None:
    from authorag.errors import ConfigError

    with pytest.raises(ConfigError, match=rf"judge cache '{tmp_path}' cannot be used"):
        JudgeCache(tmp_path)


def test_the_cache_is_bounded_and_evicts_the_oldest(tmp_path: Path) -> None:
    """Was: the SQLite cache grew without limit."""
    cache = JudgeCache(tmp_path / "c.sqlite3", max_entries=20)
    for i in range(50):
        cache.put(f"k{i}", Completion(text=str(i % 10)))
        assert len(cache) <= 20
    kept = [i for i in range(50) if cache.get(f"k{i}") is not None]
    assert kept == list(range(50 - len(kept), 50)) and 18 <= len(kept) <= 20  # the newest, in one block
    assert cache.evicted == 50 - len(kept)
    cache.put("k49", Completion(text="replaced"))  # a replacement does not evict
    assert cache.get("k49").text == "replaced" and len(cache) == len(kept)


def test_two_writers_share_the_bound(tmp_path: Path) -> None:
    a, b = JudgeCache(tmp_path / "c.sqlite3", max_entries=100), JudgeCache(tmp_path / "c.sqlite3", max_entries=100)
    peak = 0
    for i in range(400):
        (a if i % 2 else b).put(f"k{i}", Completion(text="1"))
        peak = max(peak, len(a))
    assert peak <= 120  # each writer counts after every tenth of the bound it writes


def test_max_entries_is_checked() -> None:
    from authorag.errors import ConfigError

    with pytest.raises(ConfigError, match="max_entries must be a positive integer or None, got 0"):
        JudgeCache(":memory:", max_entries=0)


def test_a_failing_write_is_skipped_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache._conn.execute("PRAGMA query_only = ON")  # every write now fails inside SQLite
    with caplog.at_level("WARNING", logger="authorag.judges.backends.cache"):
        cache.put("k", Completion(text="7"))
        cache.put("k2", Completion(text="7"))
    assert [r.getMessage().split(": ", 1)[1][:14] for r in caplog.records if r.levelname == "WARNING"] == ["cannot write ("]
    assert cache.get("k") is None
