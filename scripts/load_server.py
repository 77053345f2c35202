"""The worst requests under the documented limits: CPU time, peak memory, /healthz latency.

Starts ``authorag serve`` (one worker, the default limits and BM25 relevance) on 127.0.0.1 and
sends each scenario below ``--runs`` times, one request at a time. Each scenario is the
costliest shape found for one code path that the limits still allow (bodies up to 5 MiB,
1,000 documents, 512 distinct query words, 32 rank fields, 1,000 URLs, a 100,000-character
answer with 500 statements, 5,000 citations and 200 sources). The ``mcp_`` scenarios are calls
of ``authorag mcp --transport http`` (BM25 relevance) instead. For every request it reads:

* the server's CPU time for it (``/proc/PID/stat`` user + system, before and after), and
  again a second or more after the answer (``cpu_total_s``: work still running after a 503);
* the server's peak RSS while it ran (the peak is reset through ``/proc/PID/clear_refs``
  before each request and read from ``VmHWM`` after), and its RSS when idle;
* the latency of ``GET /healthz`` sent every 20 ms from another connection while it runs,
  and, for comparison, over as long a time with nothing else sent (the machine's own noise:
  other jobs on a shared machine delay the probes too).

The targets (per request: <= 2 s of CPU in total, <= 500 MB peak RSS, every /healthz within 100 ms)
are checked and the exit status is 1 when one is missed. With ``--baseline CHECKOUT`` the same
scenarios run first against a server importing that checkout, and ratios are printed.

Usage:
    .venv/bin/python scripts/load_server.py --json docs/results/server/load.json
    .venv/bin/python scripts/load_server.py --baseline /tmp/base --runs 1 --scenario audit_markers
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authorag.testing import free_port, wait_until_ready

TARGET_CPU_S, TARGET_RSS_MB, TARGET_HEALTHZ_MS = 2.0, 500.0, 100.0
MAX_BODY = 5 * 1024 * 1024
QUERY = " ".join(f"t{i}" for i in range(512))  # 512 distinct words, 3,401 characters


def _fill(make: Callable[[int], str], n: int, budget: int) -> list[str]:
    """``n`` texts ``make(i)`` cut to share ``budget`` characters."""
    per = budget // n
    return [(make(i) * (per // max(1, len(make(i))) + 1))[:per] for i in range(n)]


def bm25_max() -> tuple[str, dict[str, Any]]:
    texts = _fill(lambda i: " ".join(f"t{(i * 7 + j) % 512}" for j in range(64)) + " ", 1000, MAX_BODY - 120_000)
    return "/v2/rerank", {"query": QUERY, "documents": [f"url: https://site-{i}.org/p\ntext: {t}" for i, t in enumerate(texts)],
                          "top_n": 10}


def bm25_vocabulary() -> tuple[str, dict[str, Any]]:
    texts = _fill(lambda i: " ".join(f"w{i}x{j}" for j in range(600)) + " ", 1000, MAX_BODY - 120_000)
    return "/v2/rerank", {"query": QUERY, "documents": [f"https://h{i}.net/p\n{t}" for i, t in enumerate(texts)]}


def bm25_unicode() -> tuple[str, dict[str, Any]]:  # the regex tokenizer (non-ASCII text), 2 bytes a letter
    texts = _fill(lambda i: "".join(f"été{j % 97}ß " for j in range(60)), 1000, (MAX_BODY - 300_000) * 2 // 3)
    return "/v2/rerank", {"query": " ".join(f"été{i}ß" for i in range(97)), "documents": texts}


def rank_fields_max() -> tuple[str, dict[str, Any]]:
    fields = [f"field_{k}" for k in range(32)]
    docs = [{"url": f"https://www.site-{i}.com/a", **{f: f"{f} value {i} " * 7 for f in fields}} for i in range(1000)]
    return "/v1/rerank", {"query": QUERY, "documents": docs, "rank_fields": fields, "return_documents": True}


def echo_max() -> tuple[str, dict[str, Any]]:
    meta = {"nested": [{"k": list(range(20)), "s": "x" * 40}] * 20, "n": 2**70, "f": 1.5}
    return "/rerank", {"query": "flu vaccine", "documents": [{"text": f"doc {i} flu", "url": f"https://e{i}.org/",
                                                              "meta": meta} for i in range(1000)]}


def authority_max() -> tuple[str, dict[str, Any]]:
    return "/v1/authority", {"urls": [f"https://sub{i}.host-{i}.co.uk/" + "p/" * 2_400 for i in range(1000)]}


def _sources(n: int) -> list[dict[str, str]]:
    return [{"id": str(i + 1), "url": f"https://www.source-{i}.org/page/{i}", "title": "t" * 40} for i in range(n)]


def audit_statements() -> tuple[str, dict[str, Any]]:
    words = "says something about the health outcomes of adults in a trial that ran for years " * 2
    sentences = [f"Statement {k} {words.strip()} [{','.join(str((k * 10 + j) % 200 + 1) for j in range(10))}]."
                 for k in range(500)]
    return "/v1/audit", {"question": "q", "answer": " ".join(sentences)[:100_000], "sources": _sources(200)}


def audit_markers() -> tuple[str, dict[str, Any]]:
    return "/v1/audit", {"question": "q", "answer": "a [1]" * 4_999 + ".", "sources": _sources(1)}


def audit_links() -> tuple[str, dict[str, Any]]:
    links = " ".join(f"See [page {i}](https://www.new-{i}.org/x) [n{i}]." for i in range(150))  # 150 + 49 + 1 sources
    notes = "\n\nSources:\n" + "\n".join(f"[n{i}] https://www.note-{i}.org/y" for i in range(49))
    filler = "and more words about it " * 3_300  # one long sentence: the answer at its size limit
    return "/v1/audit", {"question": "q", "answer": (links + " " + filler)[:95_000] + "." + notes, "sources": _sources(1)}


def audit_annotations() -> tuple[str, dict[str, Any]]:
    text = " ".join(f"Claim {k} holds." for k in range(500))
    spans = [{"type": "url_citation", "url_citation": {"start_index": 0, "end_index": len(text),
                                                       "url": f"https://www.cite-{k}.org/"}} for k in range(10)]
    return "/v1/audit", {"question": "q", "answer": text, "annotations": spans}


def audit_lexical() -> tuple[str, dict[str, Any]]:  # one long statement, one source repeating its words
    return "/v1/audit", {"question": "q", "answer": "a " * 50_000,
                         "sources": [{"id": "1", "url": "https://a.org/", "text": "a " * 2_300_000}]}


def audit_lexical_sources() -> tuple[str, dict[str, Any]]:  # every statement against 200 sources
    tail = " and more words about the trial" * 4
    answer = " ".join(f"Claim {k} says that w{k}a w{k}b w{k}c w{k}d hold{tail} [1]." for k in range(500))[:100_000]
    return "/v1/audit", {"question": "q", "answer": answer, "sources": _sources(200)}


def audit_lexical_partial() -> tuple[str, dict[str, Any]]:  # sources repeating some of a statement's runs
    statement = "a " * 45_000 + " ".join(f"u{j}" for j in range(8_000))
    texts = [f"a a a. u{3 * i} u{3 * i + 1} u{3 * i + 2}." * 4 for i in range(200)]
    return "/v1/audit", {"question": "q", "answer": statement[:100_000],
                         "sources": [{**s, "text": t} for s, t in zip(_sources(200), texts)]}


def rank_fields_repeated() -> tuple[str, dict[str, Any]]:  # one large field named 32 times
    docs = [{"url": f"https://www.site-{i}.com/a", "body": f"value {i} " * 470} for i in range(1000)]
    return "/v1/rerank", {"query": "value", "documents": docs, "rank_fields": ["body"] * 32}


def _mcp_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def mcp_rerank_policy() -> tuple[str, dict[str, Any]]:  # the longest allow and deny lists, 1,000 documents
    docs = [{"url": f"https://www.page-{i}.news.site-{i}.org/a", "text": f"flu shots {i} " * 100} for i in range(1000)]
    policy = {"allow": [f"*.allowed-{k}.org" for k in range(100)], "deny": [f"denied-{k}.example.net" for k in range(100)]}
    return "/mcp", _mcp_call("rerank", {"query": "flu shots", "documents": docs, "policy": policy})


def mcp_rerank_policy_long() -> tuple[str, dict[str, Any]]:  # lists over the limit: refused before any work
    docs = [{"url": f"https://www.page-{i}.news.site-{i}.org/a", "text": f"flu shots {i}"} for i in range(1000)]
    policy = {"allow": [f"*.allowed-{k}.org" for k in range(5000)], "deny": [f"denied-{k}.example.net" for k in range(5000)]}
    return "/mcp", _mcp_call("rerank", {"query": "flu shots", "documents": docs, "policy": policy})


def mcp_audit_lexical() -> tuple[str, dict[str, Any]]:  # audit_lexical as an MCP call
    return "/mcp", _mcp_call("audit_answer", audit_lexical()[1])


SCENARIOS: dict[str, Callable[[], tuple[str, dict[str, Any]]]] = {
    "bm25_max": bm25_max, "bm25_vocabulary": bm25_vocabulary, "bm25_unicode": bm25_unicode,
    "rank_fields_max": rank_fields_max, "echo_max": echo_max, "authority_max": authority_max,
    "audit_statements": audit_statements, "audit_markers": audit_markers, "audit_links": audit_links,
    "audit_annotations": audit_annotations, "audit_lexical": audit_lexical,
    "audit_lexical_sources": audit_lexical_sources, "audit_lexical_partial": audit_lexical_partial,
    "rank_fields_repeated": rank_fields_repeated, "mcp_rerank_policy": mcp_rerank_policy,
    "mcp_rerank_policy_long": mcp_rerank_policy_long,
    "mcp_audit_lexical": mcp_audit_lexical,
}


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _status_mb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _probe(url: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(timeout=30) as client:
        while not stop.is_set():
            start = time.perf_counter()
            client.get(f"{url}/healthz")
            out.append((time.perf_counter() - start) * 1000)
            stop.wait(0.02)


def idle_probes(url: str, seconds: float) -> list[float]:
    """/healthz latencies with nothing else sent: the machine's own noise, for comparison."""
    stop, probes = threading.Event(), []
    prober = threading.Thread(target=_probe, args=(url, stop, probes), daemon=True)
    prober.start()
    time.sleep(seconds)
    stop.set()
    prober.join()
    return probes


_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def measure(url: str, pid: int, path: str, raw: bytes, timeout: float) -> dict[str, Any]:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    idle_mb = _status_mb(pid, "VmRSS")
    stop, probes = threading.Event(), []
    prober = threading.Thread(target=_probe, args=(url, stop, probes), daemon=True)
    cpu0, wall0 = _cpu_s(pid), time.perf_counter()
    prober.start()
    try:
        r = httpx.post(f"{url}{path}", content=raw, headers=_HEADERS, timeout=timeout)
        status, size = r.status_code, len(r.content)
        if path == "/mcp" and r.status_code == 200:  # a tool error is an MCP answer with status 200
            status = "tool_error" if r.json().get("result", {}).get("isError") else 200
    except httpx.TimeoutException:
        status, size = "timeout", 0
    wall = time.perf_counter() - wall0
    cpu = _cpu_s(pid) - cpu0
    stop.set()
    prober.join()
    idle = idle_probes(url, max(1.0, wall))
    cpu_total = _cpu_s(pid) - cpu0  # also what ran on after the answer (a request past its deadline)
    return {"status": status, "response_bytes": size, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "cpu_total_s": round(cpu_total, 3),
            "idle_rss_mb": round(idle_mb, 1), "peak_rss_mb": round(_status_mb(pid, "VmHWM"), 1),
            "healthz_max_ms": round(max(probes), 1) if probes else None, "healthz_probes": len(probes),
            "healthz_idle_max_ms": round(max(idle), 1) if idle else None}


def run_server(checkout: Path, names: list[str], runs: int, timeout: float) -> dict[str, list[dict[str, Any]]]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    mcp = names[0].startswith("mcp_")
    command = ["mcp", "--transport", "http"] if mcp else ["serve", "--log-level", "error"]
    command += ["--relevance", "bm25"]
    server = subprocess.Popen([sys.executable, "-m", "authorag", *command, "--port", str(port)], env=env, cwd=checkout)
    url = f"http://127.0.0.1:{port}"
    out: dict[str, list[dict[str, Any]]] = {}
    try:
        wait_until_ready(f"{url}/readyz", timeout_s=120, process=server, interval_s=0.2)
        if not mcp:
            httpx.post(f"{url}/v2/rerank", json={"query": "warm up", "documents": ["url: https://www.nih.gov/\ntext: x"]})
        for name in names:
            path, body = SCENARIOS[name]()
            raw = json.dumps(body, ensure_ascii=False).encode()
            assert len(raw) <= MAX_BODY, f"{name}: {len(raw)} bytes, over the body limit"
            out[name] = []
            for _ in range(runs):
                result = measure(url, server.pid, path, raw, timeout)
                out[name].append({"request_bytes": len(raw), **result})
                print(f"  {checkout.name or checkout}: {name:18s} {result}", flush=True)
                if result["status"] == "timeout":
                    break
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return out


def run_servers(checkout: Path, names: list[str], runs: int, timeout: float) -> dict[str, list[dict[str, Any]]]:
    """``authorag serve`` for the HTTP API's scenarios, then ``authorag mcp --transport http`` for the ``mcp_`` ones."""
    out: dict[str, list[dict[str, Any]]] = {}
    for group in ([n for n in names if not n.startswith("mcp_")], [n for n in names if n.startswith("mcp_")]):
        if group:
            out.update(run_server(checkout, group, runs, timeout))
    return out


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    finished = [r for r in runs if r["status"] != "timeout"]
    worst = {k: max((r[k] for r in finished if r[k] is not None), default=None)
             for k in ("cpu_s", "cpu_total_s", "peak_rss_mb", "healthz_max_ms", "healthz_idle_max_ms", "wall_s")}
    return {**worst, "statuses": sorted({str(r["status"]) for r in runs}), "request_bytes": runs[0]["request_bytes"],
            "timed_out": len(finished) < len(runs)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS), help="default: all")
    parser.add_argument("--baseline", type=Path, help="also run against the authorag package of this checkout (first)")
    parser.add_argument("--no-baseline", action="append", default=[], choices=list(SCENARIOS),
                        help="a scenario not sent to the baseline (one the old code runs for minutes)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per request")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = args.scenario or list(SCENARIOS)
    report: dict[str, Any] = {"targets": {"cpu_s": TARGET_CPU_S, "peak_rss_mb": TARGET_RSS_MB, "healthz_max_ms": TARGET_HEALTHZ_MS},
                              "runs": args.runs, "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0]}
    if args.baseline is not None:
        report["baseline"] = {n: summary(r) for n, r in run_servers(args.baseline.resolve(), [n for n in names if n not in args.no_baseline], args.runs, args.timeout).items()}
    current = {n: summary(r) for n, r in run_servers(ROOT, names, args.runs, args.timeout).items()}
    report["current"] = current
    missed = []
    for name, s in current.items():
        ok = (s["statuses"] in (["200"], ["422"], ["tool_error"]) and s["cpu_total_s"] <= TARGET_CPU_S
              and s["peak_rss_mb"] <= TARGET_RSS_MB
              and s["healthz_max_ms"] is not None and s["healthz_max_ms"] <= TARGET_HEALTHZ_MS)
        missed += [] if ok else [name]
        line = (f"{name:18s} {s['request_bytes'] / 1e6:5.2f} MB  status {','.join(s['statuses'])}  cpu {s['cpu_s']:.2f} s  "
                f"peak RSS {s['peak_rss_mb']:.0f} MB  /healthz max {s['healthz_max_ms']} ms "
                f"(idle {s['healthz_idle_max_ms']} ms)  {'ok' if ok else 'MISSED'}")
        base = report.get("baseline", {}).get(name)
        if base is not None:
            line += (f"  | baseline: cpu {base['cpu_s']} s, peak {base['peak_rss_mb']} MB, /healthz max "
                     f"{base['healthz_max_ms']} ms{' (timed out)' if base['timed_out'] else ''}")
        print(line)
    report["missed"] = missed
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
