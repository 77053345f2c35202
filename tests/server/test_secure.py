"""What an open server shows and whom it answers: /readyz URLs by allowlist, Host names (421),
the key on /metrics and /openapi.json, no CDN-loaded docs page by default, and limits within
their ranges at start-up.

Before: /readyz showed query parameters whose names were not on a redaction list
(``client_secret``, ``api-key``, ``X-Amz-Signature``, a key file's absolute path); the server
answered any Host header; /metrics, /openapi.json and /docs answered without the key; and
``max_header_bytes = 10`` or ``read_timeout_s = 1e-9`` started a server that refused everything.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.server.app import create_app
from authorag.server.config import ServerConfig, public_url
from authorag.server.middleware import LOOPBACK_HOSTS, allowed_hosts_for

KEY = "secure-key"
LEAKY = ("rediss://user:pw1@cache.internal:6380/0?client_secret=s1&api-key=s2&access-token=s3&auth_token=s4"
         "&private_token=s5&X-Amz-Signature=s6&ssl_keyfile=/etc/authorag/private/client-key.pem#frag")


@pytest.fixture(scope="module")
def secure_url(serve: Any) -> Iterator[str]:
    cfg = ServerConfig(relevance="rank", api_key=KEY, scorer=ScorerSettings(judge_cache=LEAKY),
                       allowed_hosts=LOOPBACK_HOSTS)
    with serve(create_app(cfg)) as url:
        yield url


def test_readyz_shows_scheme_host_port_and_path_only(secure_url: str) -> None:
    for headers in ({}, {"Authorization": f"Bearer {KEY}"}):
        text = httpx.get(f"{secure_url}/readyz", headers=headers).text
        for secret in ("pw1", "user", "s1", "s2", "s3", "s4", "s5", "s6", "client-key", "/etc/", "frag"):
            assert secret not in text, secret
        config = httpx.get(f"{secure_url}/readyz", headers=headers).json()["config"]
        assert config["scorer"]["judge_cache"] == "rediss://cache.internal:6380/0"


def test_public_url_keeps_queries_only_when_asked() -> None:
    assert public_url("redis://cache/0?password=x&db=1", queries=True) == "redis://cache/0?password=***&db=1"
    assert public_url("redis://cache/0?password=x&db=1") == "redis://cache/0"
    assert public_url("unix:///run/redis/redis.sock?db=1") == "unix:///redis.sock"
    assert public_url("unix:///run/redis/redis.sock?db=1", paths=True) == "unix:///run/redis/redis.sock"
    assert public_url("http://[::1]:99999/x") == "(a URL that cannot be parsed, hidden)"
    shown = ServerConfig(scorer=ScorerSettings(judge_cache="redis://c/0?db=1"), show_url_queries=True).public()
    assert shown["scorer"]["judge_cache"] == "redis://c/0?db=1"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io"])
def test_other_host_names_get_421(secure_url: str, host: str) -> None:
    r = httpx.get(f"{secure_url}/healthz", headers={"Host": host})
    assert r.status_code == 421
    assert r.json()["error"]["code"] == "misdirected_request"
    assert "--allowed-hosts" in r.json()["error"]["message"]


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST."])
def test_loopback_host_names_are_served(secure_url: str, host: str) -> None:
    assert httpx.get(f"{secure_url}/healthz", headers={"Host": host}).status_code == 200


def test_allowed_hosts_follow_the_bind_address() -> None:
    from authorag.cli.serve import with_bind

    assert allowed_hosts_for("127.0.0.1", ()) == LOOPBACK_HOSTS
    assert allowed_hosts_for("::1", ()) == LOOPBACK_HOSTS
    assert allowed_hosts_for("0.0.0.0", ()) == ("*",)
    assert with_bind(ServerConfig(), "127.0.0.1").allowed_hosts == LOOPBACK_HOSTS
    cfg = ServerConfig.from_env({"AUTHORAG_ALLOWED_HOSTS": "api.example.org,localhost"})
    assert with_bind(cfg, "127.0.0.1").allowed_hosts == ("api.example.org", "localhost")
    with pytest.raises(ConfigError, match=r"allowed_hosts entries are host names .* got 'http://x/'"):
        ServerConfig(allowed_hosts=("http://x/",))


@pytest.mark.parametrize("path", ["/metrics", "/openapi.json"])
def test_metrics_and_openapi_need_the_key(secure_url: str, path: str) -> None:
    r = httpx.get(f"{secure_url}{path}")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert httpx.get(f"{secure_url}{path}", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_pages_are_off_by_default(secure_url: str, path: str) -> None:
    assert httpx.get(f"{secure_url}{path}", headers={"Authorization": f"Bearer {KEY}"}).status_code == 404


def test_docs_pages_with_the_flag_need_the_key(serve: Any) -> None:
    with serve(create_app(ServerConfig(relevance="rank", api_key=KEY, docs=True))) as url:
        assert httpx.get(f"{url}/docs").status_code == 401
        page = httpx.get(f"{url}/docs", headers={"Authorization": f"Bearer {KEY}"})
        assert page.status_code == 200 and "/openapi.json" in page.text


@pytest.mark.parametrize(("kw", "message"), [
    ({"max_header_bytes": 10}, r"max_header_bytes must be in \[1024, 1048576\], got 10: .* set --max-header-bytes "
                               r"\(AUTHORAG_MAX_HEADER_BYTES, or max_header_bytes in \[server\]\)"),
    ({"read_timeout_s": 1e-9}, r"read_timeout_s must be in \[0.1, 3600\], got 1e-09: .* set --read-timeout"),
    ({"max_body_bytes": 100}, r"max_body_bytes must be in \[1024, 1073741824\], got 100"),
    ({"max_documents": 10**10}, r"max_documents must be in \[1, 1000000000\], got 10000000000"),
    ({"policy": RerankPolicy(allow=("*",))}, r"allow: bad domain pattern '\*'.*fix --allow \(AUTHORAG_ALLOW"),
])
def test_absurd_settings_refuse_to_start(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ServerConfig(**kw)


def test_serve_says_one_line_for_a_bad_allow(capsys: pytest.CaptureFixture[str]) -> None:
    from authorag.cli import main

    assert main(["serve", "--port", "1", "--allow", "*"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad domain pattern '*'" in err and "Traceback" not in err


@pytest.mark.parametrize(("flags", "hosts"), [
    ([], "localhost,127.0.0.1,::1"),
    (["--host", "0.0.0.0"], "*"),
    (["--allowed-hosts", "api.example.org", "--allowed-hosts", "localhost"], "api.example.org,localhost"),
])
def test_serve_gives_its_workers_the_host_names(monkeypatch: pytest.MonkeyPatch, flags: list[str], hosts: str) -> None:
    import os

    import uvicorn

    from authorag.cli import main
    from authorag.cli.serve import check_port_free as real_check

    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: None)  # the process boundary
    monkeypatch.setattr("authorag.cli.serve.check_port_free", lambda host, port: real_check("127.0.0.1", port))
    monkeypatch.setattr(os, "environ", {k: v for k, v in os.environ.items() if not k.startswith("AUTHORAG_")})
    from authorag.testing import free_port

    assert main(["serve", "--relevance", "rank", "--port", str(free_port()), *flags]) == 0
    assert os.environ["AUTHORAG_ALLOWED_HOSTS"] == hosts
