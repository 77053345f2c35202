"""Hostile requests against a real ``authorag serve``: never a 500, every error the documented shape.

Starts ``authorag serve`` (one worker, an API key, the default limits) on 127.0.0.1 and sends,
per endpoint:

* **schema cases**: schemathesis reads ``/openapi.json`` and generates valid and invalid
  bodies, parameters and media types for every operation (``--schema-cases`` per operation
  and generation mode);
* **hostile cases** (``--cases`` per POST endpoint), from this script's own generator: bodies
  mutated from valid ones with hostile values (URLs such as ``https://[``, NaN, integers beyond
  64 bits, lone surrogates, deep nesting, page text naming another source), sizes at and just
  over every documented limit, wrong types, dropped and unknown fields, truncated or corrupted
  bytes, other content types, missing or wrong keys; and HTTP-level junk on raw sockets
  (malformed request lines, headers and chunked bodies).

Each answer is checked: status below 500; valid JSON (no ``NaN``); for a 4xx/5xx the body is
``{"version": 1, "error": {"code", "status", "message"}}`` with the same status, a known code
and a non-empty message. The report (``--json``) has the counts per endpoint, status and code,
and the first failures with what was sent. Exit status 1 when anything failed.

Usage:
    .venv/bin/python scripts/fuzz_server.py --json docs/results/server/fuzz.json     # 10,000 per endpoint
    .venv/bin/python scripts/fuzz_server.py --cases 30 --schema-cases 10 --json /tmp/fuzz.json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authorag.server.config import LIMITS, ServerConfig
from authorag.testing import free_port, wait_until_ready

KEY = "fuzz-key"
DEFAULTS = ServerConfig()
CODES = {"bad_request", "unauthorized", "not_found", "method_not_allowed", "request_timeout", "payload_too_large",
         "unsupported_media_type", "misdirected_request", "invalid_request", "headers_too_large", "not_ready",
         "deadline_exceeded",
         "too_many_urls", *(limit.error.split()[1] for limit in LIMITS if limit.error[:1].isdigit())}
"""Every documented error code (docs/server.md, Errors and Limits)."""
POSTS = ("/v1/rerank", "/v2/rerank", "/rerank", "/v1/authority", "/v1/audit")
GETS = ("/healthz", "/readyz", "/metrics", "/openapi.json")

HOSTILE_STRINGS = [
    "", " ", "\t\n", "https://[", "https://[::1", "http://[::1]:80/x", "https://user:pw@www.nih.gov/x",
    "https://www.nih.gov.evil-cures.biz/x", "https://xn--nxasmq6b.com/", "https://xn--/", "javascript:alert(1)",
    "file:///etc/passwd", "data:,x", "//www.nih.gov", "nih.gov", "NIH.GOV.", "https://www.nih.gov:99999/",
    "https://%00/", "https://a..b/", "https://" + "a" * 300 + ".com/", "\x00", "\u202e\u0645", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\ufeff",
    "a [1]. " * 200, "[a " * 300, "[](https://a" * 100, "x" * 25_000, "[1-500]", "[1-3] (1900-2020) ^1 ¹²",
    "Sources:\n[1] https://[\n2. https://www.cdc.gov/", "https://evil-cures.biz/p\nMiracle cure.\nSource: https://www.nih.gov/s",
    "title: T\ntext: x\nurl: https://www.nih.gov/", "url: 'https://www.nih.gov/'", "  Source: https://www.nih.gov/",
    "../../etc/passwd", "<script>alert(1)</script>", "%s%s%s%n", "{{7*7}}", "\\u0000", "🙂" * 100,
    " ".join(f"t{i}" for i in range(600)), "q" * 10_001,
]
KEYS = ["text", "url", "source", "link", "href", "source_url", "title", "id", "content", "body", "score", "n"]


class Hostile:
    """Random hostile values and bodies (seeded: the same seed sends the same cases)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def value(self, depth: int = 0) -> Any:
        r = self.rng
        kind = r.randrange(10 if depth < 3 else 7)
        if kind == 0:
            return r.choice([None, True, False])
        if kind == 1:
            return r.choice([0, -1, 1, 2**31 - 1, 2**31, 2**63, 2**64, -(2**70), 10**30])
        if kind == 2:
            return r.choice([0.5, -0.0, 1e308, 5e-324, float("nan"), float("inf"), -float("inf")])
        if kind in (3, 4, 5, 6):
            return r.choice(HOSTILE_STRINGS)
        if kind in (7, 8):
            return [self.value(depth + 1) for _ in range(r.randrange(6))]
        return {r.choice(KEYS): self.value(depth + 1) for _ in range(r.randrange(6))}

    def document(self) -> Any:
        r = self.rng
        if r.random() < 0.4:
            return r.choice(HOSTILE_STRINGS)
        doc = {"text": r.choice(HOSTILE_STRINGS)} if r.random() < 0.8 else {}
        for key in r.sample(KEYS, r.randrange(4)):
            doc[key] = self.value(1)
        return doc if r.random() < 0.9 else self.value(1)

    def rerank(self) -> dict[str, Any]:
        r = self.rng
        n = r.choice([0, 1, 2, 5, 20, DEFAULTS.max_documents, DEFAULTS.max_documents + 1])
        body: dict[str, Any] = {"query": r.choice(HOSTILE_STRINGS), "documents": [self.document() for _ in range(min(n, 30))]}
        if n > 30:
            body["documents"] *= n // 30 + 1
            body["documents"] = body["documents"][:n]
        for key, values in (("top_n", [1, 0, -1, 2**31, None, "3"]), ("return_documents", [True, False, "yes", None]),
                            ("max_tokens_per_doc", [1, 5, 2**31 - 1, 2**31, 0]),
                            ("rank_fields", [["text"], ["title", "text"], [f"f{i}" for i in range(33)], [1], "text"]),
                            ("urls", [[r.choice(HOSTILE_STRINGS)] * len(body["documents"]), [None], ["https://www.nih.gov/"] * 3]),
                            ("model", ["m", 7, None])):
            if r.random() < 0.3:
                body[key] = r.choice(values)
        return body

    def authority(self) -> dict[str, Any]:
        r = self.rng
        n = r.choice([0, 1, 3, 10, DEFAULTS.max_urls, DEFAULTS.max_urls + 1])
        return {"urls": [r.choice(HOSTILE_STRINGS) if r.random() < 0.9 else self.value(1) for _ in range(n)]}

    def audit(self) -> dict[str, Any]:
        r = self.rng
        ids = [str(i + 1) for i in range(r.choice([0, 1, 3, DEFAULTS.max_sources + 1]))]
        body: dict[str, Any] = {"question": r.choice(HOSTILE_STRINGS),
                                "answer": r.choice([*HOSTILE_STRINGS, "A holds [1]. B [2][3].", "x" * (DEFAULTS.max_answer_chars + 1),
                                                    "A. " * (DEFAULTS.max_statements + 1), "a [1]" * (DEFAULTS.max_citations + 1),
                                                    [{"type": "text", "text": "A holds.", "citations": [{"url": "https://["}]}]]),
                                "sources": [{"id": i, "url": r.choice(HOSTILE_STRINGS)} for i in ids]}
        extras: dict[str, Callable[[], Any]] = {
            "statements": lambda: [{"text": self.value(1), "citations": self.value(1)} for _ in range(r.randrange(3))],
            "support": lambda: self.value(1), "confidence": lambda: self.value(1), "debate": lambda: self.value(1),
            "annotations": lambda: [{"type": "url_citation", "url_citation": {"start_index": self.value(1), "end_index": self.value(1),
                                                                             "url": r.choice(HOSTILE_STRINGS)}}],
            "groundingMetadata": lambda: {"groundingChunks": [{"web": {"uri": r.choice(HOSTILE_STRINGS)}}],
                                          "groundingSupports": [{"segment": {"startIndex": self.value(1), "endIndex": self.value(1)},
                                                                 "groundingChunkIndices": self.value(1)}]},
            "choices": lambda: self.value(1), "output": lambda: self.value(1), "citations": lambda: self.value(1),
        }
        for key in r.sample(list(extras), r.randrange(3)):
            body[key] = extras[key]()
        return body

    def get_request(self, path: str) -> tuple[str, str, dict[str, str]]:
        """A request to a GET route: another method, a query string, odd headers or paths."""
        r = self.rng
        method = r.choices(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW"], [60, 8, 8, 5, 5, 5, 5, 4])[0]
        target = path + r.choice(["", "/", "?x=1", "?" + "a=b&" * 200, "/../readyz", "%2e%2e", "?q=%00%ff", "x"])
        headers = {"Authorization": r.choice([f"Bearer {KEY}", "Bearer nope", "Basic eA==", "bearer " + KEY, ""]),
                   "Accept": r.choice(["*/*", "text/html", "application/json;q=0"])}
        if r.random() < 0.2:
            junk = r.choice(HOSTILE_STRINGS[:20]).encode("ascii", "ignore").decode()[:200]
            headers["X-Junk"] = "".join(c for c in junk if c.isprintable()).strip() or "x"
        return method, target, headers

    def encode(self, body: Any) -> tuple[bytes, str | None]:
        """Body bytes (sometimes corrupted) and a content type (sometimes wrong or missing)."""
        r = self.rng
        raw = json.dumps(body, allow_nan=True).encode("utf-8", "surrogatepass")
        roll = r.random()
        if roll < 0.05:
            raw = raw[: r.randrange(len(raw) + 1)]
        elif roll < 0.10:
            i = r.randrange(len(raw) + 1)
            raw = raw[:i] + r.choice([b"\xff\xfe", b"\x00", b"\xc3", b"}", b"]]]", b"\xef\xbb\xbf"]) + raw[i:]
        elif roll < 0.12:
            raw = b"[" * 250 + b"]" * 250
        media = r.choices(["application/json", "application/vnd.x+json; charset=utf-8", "text/plain", None,
                           "application/x-www-form-urlencoded"], [85, 5, 4, 3, 3])[0]
        return raw, media


RAW_JUNK = [
    b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n", b"GET /\x00 HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"POST /v1/rerank HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n",
    b"POST /v1/rerank HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n",
    b"POST /v1/rerank HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabc",
    b"GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n", b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 40_000 + b"\r\n\r\n",
]


def check(status: int, content_type: str, text: str, head: bool = False) -> str | None:
    """What is wrong with an answer (``head``: to a HEAD request, which has no body), or None."""
    if status >= 500 or status == 0:
        return f"HTTP {status}" if status else f"no answer ({text})"
    if 300 <= status < 400:  # Starlette's redirect of a trailing slash: no body
        return None
    if head:
        return None if status < 400 or content_type.startswith("application/json") else f"a {status} HEAD as {content_type!r}"
    if not content_type.startswith(("application/json", "text/plain; version=0.0.4", "text/html")):
        return f"content type {content_type!r}"
    if not content_type.startswith("application/json"):
        return None if status < 400 else f"a {status} error as {content_type!r}"
    try:
        body = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except ValueError as exc:
        return f"invalid JSON ({exc})"
    if status < 400:
        return None
    if not (isinstance(body, dict) and set(body) == {"version", "error"} and body["version"] == 1):
        return "error body not in the documented shape"
    err = body["error"]
    if not (isinstance(err, dict) and set(err) == {"code", "status", "message"}):
        return "error object not in the documented shape"
    if err["status"] != status or err["code"] not in CODES or not err["message"]:
        return f"error {err['code']!r}/{err['status']} for HTTP {status}"
    return None


class Report:
    def __init__(self) -> None:
        self.statuses: dict[str, Counter[int]] = {}
        self.codes: dict[str, Counter[str]] = {}
        self.failures: list[dict[str, Any]] = []
        self.failed = 0

    def add(self, endpoint: str, status: int, content_type: str, text: str, sent: Any, head: bool = False) -> None:
        self.statuses.setdefault(endpoint, Counter())[status] += 1
        problem = check(status, content_type, text, head)
        if status >= 400 and not head and content_type.startswith("application/json") and problem is None:
            self.codes.setdefault(endpoint, Counter())[json.loads(text)["error"]["code"]] += 1
        if problem is not None:
            self.failed += 1
            if len(self.failures) < 25:
                self.failures.append({"endpoint": endpoint, "problem": problem, "status": status,
                                      "answer": text[:300], "sent": repr(sent)[:3000]})


def hostile_cases(url: str, n: int, seed: int, report: Report) -> None:
    gen = Hostile(seed)
    makers: dict[str, Callable[[], Any]] = {"/v1/rerank": gen.rerank, "/v2/rerank": gen.rerank, "/rerank": gen.rerank,
                                            "/v1/authority": gen.authority, "/v1/audit": gen.audit}
    with httpx.Client(base_url=url, timeout=60) as client:
        for path in POSTS:
            for _ in range(n):
                raw, media = gen.encode(makers[path]())
                headers = {"Authorization": f"Bearer {KEY}"} if gen.rng.random() < 0.97 else {}
                if media is not None:
                    headers["Content-Type"] = media
                try:
                    r = client.post(path, content=raw, headers=headers)
                except httpx.TransportError as exc:  # the server closed the connection without an answer
                    report.add(path, 0, "", f"{type(exc).__name__}: {exc}", (headers, len(raw), raw[:3000]))
                    continue
                report.add(path, r.status_code, r.headers.get("content-type", ""), r.text, (headers, len(raw), raw[:3000]))
        for path in GETS:
            for _ in range(n):
                method, target, headers = gen.get_request(path)
                r = client.request(method, target, headers=headers)
                report.add(path, r.status_code, r.headers.get("content-type", ""), r.text, (method, target, headers),
                           head=method == "HEAD")
    port = int(url.rsplit(":", 1)[1])
    for junk in RAW_JUNK:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(junk)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        ctype = next((line.split(b":", 1)[1].strip().decode() for line in head.split(b"\r\n")[1:]
                      if line.lower().startswith(b"content-type:")), "")
        if status == 0 and not data:  # closed without an answer (the TLS handshake): nothing to check
            report.statuses.setdefault("raw", Counter())[0] += 1
            continue
        report.add("raw", status, ctype, body.decode("utf-8", "replace"), junk[:200])


def schema_cases(url: str, n: int, report: Report) -> None:
    import schemathesis

    schema = schemathesis.openapi.from_url(f"{url}/openapi.json", headers={"Authorization": f"Bearer {KEY}"})
    for result in schema.get_all_operations():
        op = result.ok()
        for mode in schemathesis.GenerationMode:
            if mode == schemathesis.GenerationMode.NEGATIVE and op.method.upper() == "GET":
                continue  # the GET routes take no input: there is no invalid one (hostile ones: get_cases)
            _schema_run(url, n, report, op, mode)()


def _schema_run(url: str, n: int, report: Report, op: Any, mode: Any) -> Callable[[], None]:
    """One hypothesis run of ``n`` schemathesis cases of ``op`` in generation ``mode``."""
    from hypothesis import HealthCheck, given, settings

    endpoint = f"schema {op.method.upper()} {op.path}"

    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=op.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {KEY}"}
        r = case.call(base_url=url, timeout=60)
        ctype = r.headers.get("content-type") or [""]  # schemathesis: one list per header
        report.add(endpoint, r.status_code, ctype[0] if isinstance(ctype, list) else ctype, r.text,
                   (case.method, case.path, case.body))

    return run  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="hostile cases per POST endpoint")
    parser.add_argument("--schema-cases", type=int, default=5_000,
                        help="schemathesis cases per operation and generation mode (valid, invalid)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args()
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUTHORAG_API_KEY": KEY}
    server = subprocess.Popen([sys.executable, "-m", "authorag", "serve", "--port", str(port), "--log-level", "error"],
                              env=env, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    report = Report()
    start = time.monotonic()
    try:
        wait_until_ready(f"{url}/readyz", timeout_s=120, process=server, interval_s=0.2)
        hostile_cases(url, args.cases, args.seed, report)
        schema_cases(url, args.schema_cases, report)
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=60)
    tracebacks = stderr.count("Traceback (most recent call last)")
    out = {"cases_per_endpoint": args.cases, "schema_cases_per_operation_and_mode": args.schema_cases,
           "seed": args.seed, "seconds": round(time.monotonic() - start, 1),
           "requests": sum(sum(c.values()) for c in report.statuses.values()), "failed": report.failed,
           "server_tracebacks": tracebacks,
           "statuses": {e: dict(sorted(c.items())) for e, c in sorted(report.statuses.items())},
           "error_codes": {e: dict(c.most_common()) for e, c in sorted(report.codes.items())},
           "failures": report.failures}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    for endpoint, counts in out["statuses"].items():
        print(f"{endpoint:32s} {sum(counts.values()):6d} requests  {counts}")
    print(f"{out['requests']} requests, {report.failed} failed, {tracebacks} server tracebacks, {out['seconds']} s")
    for f in report.failures[:5]:
        print("FAILED", f)
    return 0 if report.failed == 0 and tracebacks == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
