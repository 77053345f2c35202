"""``authorag mcp`` through the real ``mcp`` client library: over stdio (the command as a subprocess)
and over streamable HTTP (the command serving on loopback); answers checked against the CLI's."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from authorag.compose import ScorerSettings
from authorag.policy import RerankPolicy
from authorag.server.config import ServerConfig
from authorag.server.mcp import AuthorityMcpServer
from authorag.server.mcp_tools import ToolInputError, call_tool
from authorag.server.schemas import API_VERSION
from authorag.server.service import INLINE_ITEMS, RerankService
from authorag.testing import free_port, wait_until_ready
from authorag.types import AuthorityDetail

TOOLS = ["score_sources", "rerank", "audit_answer"]
URLS = ["https://www.cdc.gov/flu", "https://johndoe.wordpress.com/x", "nih.gov", "https://zq-unknown-site-2931.biz/x",
        "http://10.0.0.1/x", "https://someone.blogspot.com/post"]
QUERY = "does cranberry juice prevent urinary tract infections"
DOCS = [  # (source URL, text): as tests/integrations/conftest.py's corpus
    ("https://cranberrycure.blogspot.com/post", "Does cranberry juice prevent urinary tract infections? Yes! Cranberry "
     "juice prevents every urinary tract infection, doctors hate this trick."),
    ("https://www.nih.gov/news/cranberry-uti", "A review of clinical trials of cranberry products found a modest "
     "reduction of recurrent infections in some women."),
    ("https://www.mayoclinic.org/cranberry", "Cranberry juice and urinary tract infections: the evidence that "
     "cranberry prevents infection is mixed."),
    ("https://healthy-tips-4u.example.biz/cranberry", "Cranberry juice prevents urinary tract infections: drink "
     "cranberry juice daily instead of antibiotics."),
]
ANSWER = {"question": "Does cranberry juice prevent urinary tract infections?",
          "answer": "The evidence is mixed [1]. Some blogs claim it always works [2].",
          "sources": [{"id": "1", "url": DOCS[2][0], "text": DOCS[2][1]}, {"id": "2", "url": DOCS[0][0], "text": DOCS[0][1]}]}
LIMITS = ["--max-urls", "8", "--max-documents", "10", "--max-body-bytes", "20000"]


def _cli(*argv: str) -> str:
    return subprocess.run([sys.executable, "-m", "authorag", *argv], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def cli_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What ``authorag score --json``, ``authorag rerank`` and ``authorag audit --json`` say for the same input."""
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "docs.jsonl").write_text("".join(json.dumps({"url": u, "text": t}) + "\n" for u, t in DOCS), encoding="utf-8")
    (tmp / "answer.json").write_text(json.dumps(ANSWER), encoding="utf-8")
    return {"score": json.loads(_cli("score", "--json", *URLS)),
            "rerank": [json.loads(line) for line in _cli("rerank", "-q", QUERY, "-i", str(tmp / "docs.jsonl"),
                                                         "--relevance", "cascade-or-bm25").splitlines()],
            "rerank_w08": [json.loads(line) for line in _cli("rerank", "-q", QUERY, "-i", str(tmp / "docs.jsonl"),
                                                             "--relevance", "cascade-or-bm25", "--weight", "0.8").splitlines()],
            "audit": json.loads(_cli("audit", str(tmp / "answer.json"), "--json"))}


def _stdio(*flags: str) -> StdioServerParameters:
    # The SDK passes only a few variables to the child by default; this one must import this checkout.
    return StdioServerParameters(command=sys.executable, args=["-m", "authorag", "mcp", *flags], env=dict(os.environ))


def _serve_http(*flags: str) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "mcp", "--transport", "http", "--port", str(port), *flags],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/readyz", process=proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """``authorag mcp --transport http`` on loopback with small limits (default composition and policy)."""
    yield from _serve_http(*LIMITS)


async def _answers(client: Client) -> dict[str, Any]:
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == TOOLS
    assert all(t.input_schema["type"] == "object" and t.output_schema is not None for t in listed)
    assert all(t.annotations is not None and t.annotations.read_only_hint for t in listed)
    out: dict[str, Any] = {}
    calls = {"score": ("score_sources", {"urls": URLS}),
             "rerank": ("rerank", {"query": QUERY, "documents": [{"url": u, "text": t} for u, t in DOCS]}),
             "rerank_w08": ("rerank", {"query": QUERY, "documents": [t for _, t in DOCS], "urls": [u for u, _ in DOCS],
                                       "policy": {"weight": 0.8}}),
             "audit": ("audit_answer", ANSWER)}
    for key, (name, arguments) in calls.items():
        result = await client.call_tool(name, arguments)  # the client checks it against the output schema
        assert not result.is_error, result.content
        assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
        out[key] = result.structured_content
    return out


def _same_as_cli(mcp: dict[str, Any], cli: dict[str, Any]) -> None:
    for got, want in zip(mcp["score"]["results"], cli["score"], strict=True):
        shared = set(got) & set(want)
        assert shared >= {"input", "domain", "authority", "confidence", "tier", "credibility", "matched", "sources",
                          "credibility_sources", "note", "source_type", "source_type_confidence"}
        assert {k: got[k] for k in shared} == {k: want[k] for k in shared}
    assert [r["tier"] for r in mcp["score"]["results"]] == ["table", "hosted", "table", "unknown", "reserved", "hosted"]
    for key in ("rerank", "rerank_w08"):
        results, rows = mcp[key]["results"], cli[key]
        assert [DOCS[r["index"]][0] for r in results] == [row["url"] for row in rows], key
        assert [r["relevance_score"] for r in results] == pytest.approx([row["score"] for row in rows]), key
        assert [r["authority"] for r in results] == [row["authority"] for row in rows], key
    assert mcp["rerank_w08"]["meta"]["authorag"]["policy"]["weight"] == 0.8
    assert mcp["rerank"]["meta"]["authorag"]["policy"]["weight"] == RerankPolicy().weight
    # BM25 alone puts the stuffed blog first; the default window lets trust order the on-topic pages
    # (the NIH paraphrase names too few of the query's words to be on topic for BM25; with page
    # evidence off by default the blog keeps its user-content level, 0.35, above the unknown page,
    # 0.30; it repeats the question, keyword-stuffed, and example.biz restates it: neither gets a
    # lead on relevance over Mayo, so trust orders them, the blog above example.biz at both weights)
    for key in ("rerank", "rerank_w08"):
        assert [DOCS[r["index"]][0].split("/")[2] for r in mcp[key]["results"]] == [
            "www.mayoclinic.org", "cranberrycure.blogspot.com", "healthy-tips-4u.example.biz", "www.nih.gov"], key
    assert mcp["audit"] == cli["audit"]
    assert [(s["id"], s["tier"]) for s in mcp["audit"]["sources"]] == [("1", "table"), ("2", "hosted")]


async def test_stdio_tools_answer_as_the_cli(cli_answers: dict[str, Any]) -> None:
    async with Client(_stdio()) as client:
        _same_as_cli(await _answers(client), cli_answers)


async def test_http_tools_answer_as_the_cli(http_url: str, cli_answers: dict[str, Any]) -> None:
    async with Client(f"{http_url}/mcp") as client:
        _same_as_cli(await _answers(client), cli_answers)


BAD = [  # (tool, arguments, the tool error's text)
    ("score_sources", {"url": ["nih.gov"]}, 'score_sources: invalid arguments: urls: Field required; url: Extra inputs are '
     'not permitted. Fix: send arguments like {"urls": ["https://www.cdc.gov/flu", "someone.blogspot.com"]}'),
    ("score_sources", {"urls": "nih.gov"}, "score_sources: invalid arguments: urls: Input should be a valid list. Fix:"),
    ("score_sources", {"urls": [f"site{i}.com" for i in range(9)]},
     "score_sources: urls has 9 entries, the limit is 8 per request; split the request (server setting --max-urls)"),
    ("rerank", {"query": QUERY}, "rerank: invalid arguments: documents: Field required. Fix: send arguments like "
     '{"query": "do flu shots work?"'),
    ("rerank", {"query": QUERY, "documents": ["x"] * 11},
     "rerank: documents has 11 entries, the limit is 10 per request; split the request into batches of at most 10"),
    ("rerank", {"query": QUERY, "documents": ["x"], "policy": {"weight": 1.5}},
     "rerank: invalid policy: policy: weight must be in [0, 1], got 1.5. Fix: send policy fields as the tool's input "
     "schema describes them"),
    ("rerank", {"query": QUERY, "documents": ["x"], "policy": {"wieght": 0.5}},
     "rerank: unknown policy field(s) ['wieght']. Fix: use only mode, fusion, weight,"),
    ("rerank", {"query": QUERY, "documents": ["x"], "policy": {"top_k": 2}},
     "rerank: unknown policy field(s) ['top_k'] (use the 'top_n' argument to cap the results)"),
    ("rerank", {"query": QUERY, "documents": ["x"], "policy": {"allow": "*.gov"}},
     "rerank: invalid policy: allow: Input should be a list"),
    ("rerank", {"query": QUERY, "documents": ["a", "b"], "urls": ["https://x.org"]},
     "rerank: urls has 1 entries but documents has 2; send one URL (or null) per document"),
    ("audit_answer", {"question": "q", "answer": "Yes [3].", "sources": [{"id": "1", "url": "https://x.org"}]},
     "audit_answer: citation [3] in 'Yes [3].' refers to source id '3', which is not among the source ids ['1']"),
    ("audit_answer", {"answer": "Yes."}, "audit_answer: invalid arguments: question: Field required. Fix:"),
    ("no_such_tool", {}, "unknown tool 'no_such_tool'. Fix: call one of score_sources, rerank, audit_answer"),
]


async def test_bad_input_gives_a_tool_error_with_a_fix(http_url: str) -> None:
    async with Client(f"{http_url}/mcp") as client:
        for name, arguments, text in BAD:
            result = await client.call_tool(name, arguments)
            assert result.is_error, (name, arguments)
            message = result.content[0].text  # type: ignore[union-attr]
            assert message.startswith(text), message
        ok = await client.call_tool("score_sources", {"urls": ["nih.gov"]})  # the server is still up
        assert not ok.is_error and ok.structured_content["results"][0]["tier"] == "table"  # type: ignore[index]


async def test_stdio_bad_input_keeps_the_server_running() -> None:
    async with Client(_stdio("--max-urls", "2")) as client:
        bad = await client.call_tool("score_sources", {"urls": ["a.com", "b.com", "c.com"]})
        assert bad.is_error and "the limit is 2 per request" in bad.content[0].text  # type: ignore[union-attr]
        ok = await client.call_tool("score_sources", {"urls": ["a.com", "b.com"]})
        assert not ok.is_error


def test_stdio_survives_a_line_that_is_not_json() -> None:
    # Raw JSON-RPC lines, as a broken client would write them: the server answers each, and what follows.
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ))
    assert proc.stdin is not None and proc.stdout is not None
    try:
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        for line in ("this is not JSON", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})):
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        refused = json.loads(proc.stdout.readline())  # the line that is not JSON gets a parse error
        assert (refused["id"], refused["error"]["code"]) == (None, -32700)
        assert json.loads(proc.stdout.readline())["id"] == 1
        for message in ({"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rerank", "arguments": {}}},
                        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}):
            proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        answers = {a["id"]: a for a in (json.loads(proc.stdout.readline()), json.loads(proc.stdout.readline()))}
        error, listed = answers[2], answers[3]  # the call waits for the scorer; the listing may come first
        assert error["result"]["isError"] is True
        assert error["result"]["content"][0]["text"].startswith("rerank: invalid arguments: query: Field required")
        assert [t["name"] for t in listed["result"]["tools"]] == TOOLS
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_stdio_answers_every_line_it_cannot_read() -> None:
    # before, these lines got no answer at all and the client waited forever
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "mcp", "--relevance", "rank", "--max-body-bytes", "20000"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ))
    assert proc.stdin is not None and proc.stdout is not None
    call = '{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "score_sources", "arguments": %s}}'
    lines = [call % (2, '{"urls": ' + "[" * 300 + "]" * 300 + "}"),  # nested 300 levels
             call % (3, '{"urls": ["\\ud800.com"]}'),  # a lone surrogate escape
             call % (4, '{"urls": ["a.c')[:70],  # cut short
             call % (5, json.dumps({"urls": ["x" * 30_000]})),  # over the size limit
             json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/list"})]
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    try:
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"}):
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        for line in lines:
            proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        answers = [json.loads(proc.stdout.readline()) for _ in lines]
    finally:
        proc.kill()
        proc.wait(timeout=30)
    errors = [(a["id"], a["error"]["code"], a["error"]["message"]) for a in answers[:4]]
    assert errors == [
        (2, -32600, "the message is not a valid JSON-RPC request: it is nested too deep; send a flatter message"),
        (3, -32600, ("the message is not a valid JSON-RPC request: it holds a lone surrogate escape (\\ud800-\\udfff); "
                     "send text as UTF-8")),
        (None, -32700, "parse error: the line is not complete JSON (cut short?); send one JSON-RPC message per line"),
        (None, -32600, ("the message is over the limit of 20000 bytes; send a smaller one (server setting "
                        "--max-body-bytes)")),
    ]
    assert answers[4]["id"] == 6 and [t["name"] for t in answers[4]["result"]["tools"]] == TOOLS


def test_http_limits_and_key() -> None:
    for base in _serve_http("--api-key", "k3y", "--max-body-bytes", "2000"):
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
        r = httpx2.post(f"{base}/mcp", json=call, headers=headers)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert r.json()["error"]["message"].startswith("missing or wrong API key: send 'Authorization: Bearer <key>'")
        big = httpx2.post(f"{base}/mcp", content=b"x" * 3000, headers={**headers, "Authorization": "Bearer k3y",
                                                                         "Content-Type": "application/json"})
        assert big.status_code == 413 and "the limit is 2000 bytes" in big.json()["error"]["message"]
        assert httpx2.get(f"{base}/healthz").json() == {"status": "ok", "version": API_VERSION}  # probes need no key

        async def listed(root: str) -> list[str]:
            http = httpx2.AsyncClient(headers={"Authorization": "Bearer k3y"})
            async with Client(streamable_http_client(f"{root}/mcp", http_client=http)) as client:
                return [t.name for t in (await client.list_tools()).tools]

        import anyio

        assert anyio.run(listed, base) == TOOLS


def test_http_read_timeout_and_protocol_errors_are_json() -> None:
    """Was: ``authorag mcp`` took ``--read-timeout`` but waited for headers without a limit and
    answered a slow body with a text/plain 408 (or a 500), a malformed request with text/plain."""
    for base in _serve_http("--read-timeout", "1"):
        port = int(base.rsplit(":", 1)[1])
        slow_body = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc")
        for junk, status, start in ((slow_body, 408, "the request body did not arrive within 1 s (got 9 bytes)"),
                                    (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1", 408,
                                     "the request headers did not arrive within 1 s"),
                                    (b"GARBAGE\r\n\r\n", 400, "the request is not valid HTTP/1.1")):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(junk)
                sock.settimeout(10)
                raw = b""
                while chunk := sock.recv(65536):
                    raw += chunk
            head, _, body = raw.partition(b"\r\n\r\n")
            assert head.startswith(f"HTTP/1.1 {status} ".encode()) and b"application/json" in head.lower(), raw
            error = json.loads(body)["error"]
            assert error["status"] == status and error["message"].startswith(start), error
        assert httpx2.get(f"{base}/healthz").json() == {"status": "ok", "version": API_VERSION}  # still up


# ---- in process: the tool schemas and failures of the scorer --------------------------------------------------

async def test_policy_schema_shows_the_servers_values() -> None:
    server = AuthorityMcpServer(ServerConfig(relevance="rank", policy=RerankPolicy(weight=0.5, deny=("*.biz",))))
    async with Client(server.server) as client:
        rerank = {t.name: t for t in (await client.list_tools()).tools}["rerank"]
    policy = rerank.input_schema["properties"]["policy"]["anyOf"][0]
    assert sorted(policy["properties"]) == sorted(["mode", "fusion", "weight", "signal", "on_topic",
                                                   "meaning_on_topic", "credibility_weight", "unknown_level",
                                                   "min_authority", "rrf_k", "normalize", "allow", "deny",
                                                   "suitability_weight"])
    assert (policy["properties"]["weight"]["default"], policy["properties"]["deny"]["default"]) == (0.5, ["*.biz"])
    assert policy["properties"]["weight"]["description"] == "share of the source signal in the fused score, in [0, 1]"
    assert policy["additionalProperties"] is False
    assert rerank.input_schema["additionalProperties"] is False and rerank.input_schema["required"] == ["query",
                                                                                                     "documents"]


async def test_a_scorer_that_cannot_load_gives_tool_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.csv"
    server = AuthorityMcpServer(ServerConfig(relevance="rank", scorer=ScorerSettings(prior_files=(f"mine={missing}",))))
    async with Client(server.server) as client:
        assert [t.name for t in (await client.list_tools()).tools] == TOOLS  # listing needs no scorer
        result = await client.call_tool("score_sources", {"urls": ["nih.gov"]})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith("score_sources: the authority scorer failed to load: ") and str(missing) in text
    assert text.endswith("fix the server's settings (authorag mcp flags, AUTHORAG_* variables) and restart it")


class _BrokenScorer:
    """An authority scorer with a bug: every call raises (what an unexpected failure looks like)."""

    name = "broken"

    def score(self, candidates: Any) -> Any:
        raise RuntimeError("secret internal detail")


async def test_an_unexpected_failure_is_a_tool_error_and_the_server_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    server = AuthorityMcpServer(ServerConfig(relevance="rank"), scorer=_BrokenScorer())
    async with Client(server.server) as client:
        first = await client.call_tool("score_sources", {"urls": ["nih.gov"]})
        again = await client.call_tool("rerank", {"query": "q", "documents": ["url: https://nih.gov/x"]})
        listed = (await client.list_tools()).tools
    for result, name in ((first, "score_sources"), (again, "rerank")):
        assert result.is_error
        assert result.content[0].text == (  # type: ignore[union-attr]
            f"{name}: the server failed on this call (RuntimeError); it has been logged, please report it with the "
            "arguments that caused it")
    assert [t.name for t in listed] == TOOLS
    assert "tool 'score_sources' failed" in caplog.text  # the detail stays in the server's log


class _StuckScorer:
    """An authority scorer that answers only when released (a judge that hangs, say)."""

    name = "stuck"

    def __init__(self) -> None:
        self.release = threading.Event()

    def score(self, candidates: Any) -> Any:
        self.release.wait(30)
        return [AuthorityDetail(0.5, 0.0, "unknown") for _ in candidates]


async def test_a_call_past_the_request_deadline_is_a_tool_error() -> None:
    scorer = _StuckScorer()
    server = AuthorityMcpServer(ServerConfig(relevance="rank", request_deadline_s=0.5, judge_deadline_s=0.1),
                                scorer=scorer)
    try:
        async with Client(server.server) as client:
            start = time.monotonic()
            late = await client.call_tool("score_sources", {"urls": ["nih.gov"]})
            took = time.monotonic() - start
            scorer.release.set()
            ok = await client.call_tool("score_sources", {"urls": ["nih.gov"]})
    finally:
        scorer.release.set()
    assert late.is_error and late.content[0].text == (  # type: ignore[union-attr]
        "score_sources: the request did not finish within the server's deadline of 0.5 s; retry later, or send "
        "fewer or shorter documents (server setting --request-deadline)")
    assert 0.4 < took < 5, took
    assert not ok.is_error


async def test_large_calls_run_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import authorag.server.mcp as mcp_module

    threads: list[str] = []
    run_tool = mcp_module.run_tool

    def recording(*args: Any) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return run_tool(*args)

    monkeypatch.setattr(mcp_module, "run_tool", recording)
    server = AuthorityMcpServer(ServerConfig(relevance="rank"))
    assert not server.service.offload  # prior-only: small calls run inline
    async with Client(server.server) as client:
        for n in (3, INLINE_ITEMS + 1):
            result = await client.call_tool("score_sources", {"urls": [f"site{i}.com" for i in range(n)]})
            assert not result.is_error
        audit = await client.call_tool("audit_answer", ANSWER)
        assert not audit.is_error
    assert threads[0] == threading.current_thread().name  # the event loop's thread
    assert threads[1].startswith("authorag-cpu") and threads[2].startswith("authorag-cpu"), threads


def test_the_errors_docs_quote() -> None:
    service = RerankService(ServerConfig(relevance="rank"))  # default limits
    quoted = " ".join((Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text().split())
    for name, arguments in (("score_sources", {"urls": "cdc.gov"}), ("rerank", {"query": "q", "documents": ["x"] * 1200})):
        with pytest.raises(ToolInputError) as err:
            call_tool(service, name, arguments)
        assert f"`{err.value}`" in quoted


def test_http_host_names_are_those_of_authorag_serve(http_url: str) -> None:
    """The same Host check as ``authorag serve`` (421), on the health routes the SDK does not guard too."""
    for path in ("/healthz", "/mcp"):
        r = httpx2.get(f"{http_url}{path}", headers={"Host": "evil.example:8765"})
        assert r.status_code == 421 and r.json()["error"]["code"] == "misdirected_request"
    assert httpx2.get(f"{http_url}/healthz", headers={"Host": "localhost:8765"}).status_code == 200
    for base in _serve_http("--allowed-hosts", "api.example.org", "--allowed-hosts", "127.0.0.1"):
        assert httpx2.get(f"{base}/healthz", headers={"Host": "api.example.org"}).status_code == 200
        assert httpx2.get(f"{base}/healthz", headers={"Host": "localhost"}).status_code == 421
