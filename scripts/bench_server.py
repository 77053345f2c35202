"""Loopback load test of ``POST /v1/rerank`` with 100 documents per request (prior-only authority,
or the hybrid scorer with the local judge on a warm cache), or with pages new to the server on
every request (``--fresh-texts``) to measure what dense relevance costs against BM25 in one run
(``--against bm25``).

Starts ``authorag serve`` on 127.0.0.1 (a free port) as a subprocess, then for each concurrency
level runs an httpx async client for at most ``--duration`` seconds or ``--max-requests``
requests, whichever comes first, and reports req/s and p50/p99 latency. The load generator
runs on the same machine as the server and competes with it for CPU: say so with the numbers.

Usage:
    .venv/bin/python scripts/bench_server.py                       # 1, 8, 32 concurrent; 2 workers
    .venv/bin/python scripts/bench_server.py --workers 1 --relevance rank --json out.json
    git worktree add /tmp/base HEAD~5 && .venv/bin/python scripts/bench_server.py --baseline /tmp/base
    # a relevance against BM25, 20 new ~200-word pages per request (docs/results/perf/)
    .venv/bin/python scripts/bench_server.py --relevance dense --against bm25 --documents 20 \
        --words 200 --fresh-texts --concurrency 1 4 --duration 15 --max-requests 400 --json out.json
    # the same as a check of the cost targets (the server's default relevance, 2 workers): req/s
    # with 4 clients, p50 with 1, BM25 in the same run, ratios and the targets printed
    .venv/bin/python scripts/bench_server.py --cost-targets --json out.json
    # the default relevance on English, German and Spanish pages and BM25 on English and German
    # pages, each its own server, in one run (same settings as --cost-targets), ratios printed; with
    # --baseline, each default run on the other checkout too, just before, and after / before printed
    .venv/bin/python scripts/bench_server.py --languages-cost --json out.json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from authorag.testing import free_port, wait_until_ready

HOST = "127.0.0.1"  # loopback only, on purpose
# A mix of sources the prior knows (table), suffix-rule hosts, and unknown blogs.
SOURCES = ["https://www.nih.gov/news/{i}", "https://en.wikipedia.org/wiki/Topic_{i}", "https://www.nytimes.com/{i}",
           "https://someblog{i}.blogspot.com/post", "https://www.cdc.gov/flu/{i}", "https://www.bbc.co.uk/news/{i}",
           "https://healthy-tips-{i}.example.biz/x", "https://www.mayoclinic.org/{i}", "https://www.reddit.com/r/{i}",
           "https://www.harvard.edu/{i}"]
FILLER = ["the", "of", "and", "to", "in", "a", "is", "that", "for", "with", "as", "was", "on", "by", "patients",
          "results", "were", "not", "more", "than", "after", "which", "may", "these", "those", "health", "care",
          "risk", "group", "years", "found", "reported", "compared", "authors", "data", "number", "effect"]
COST_TARGETS = {"req_per_s_4_clients": 30.0, "p50_ms_1_client": 60.0}
"""The default relevance's cost targets on 2 workers, 20 new ~200-word pages per request
(docs/server.md, Performance): at least this many req/s with 4 clients, p50 at most this with 1."""
WORDS = ["cranberry", "juice", "urinary", "tract", "infection", "clinical", "trial", "women", "recurrent", "evidence", "review", "prevention", "antibiotics", "bacteria", "bladder", "study", "placebo", "dose", "daily"]
QUERY = "does cranberry juice prevent urinary tract infections"
PAGE_LANGUAGES: dict[str, tuple[str, list[str], list[str]]] = {
    "en": (QUERY, WORDS, FILLER),
    "de": ("Verhindert Cranberrysaft Harnwegsinfektionen bei Frauen?",
           ["Cranberrysaft", "Harnwegsinfektionen", "Frauen", "verhindert", "klinische", "Studie", "wiederkehrende",
            "Blase", "Bakterien", "Antibiotika", "Vorbeugung", "Placebo", "Dosis", "täglich", "Wirkung", "Übersicht",
            "Harnwege", "Saft", "Beschwerden"],
           ["der", "die", "und", "in", "den", "von", "zu", "das", "mit", "sich", "des", "auf", "für", "ist", "im",
            "nicht", "ein", "eine", "auch", "bei", "nach", "wurde", "waren", "mehr", "als", "Patienten", "Ergebnisse",
            "Jahren", "Gruppe", "Risiko", "Daten", "Autoren", "berichtet", "verglichen", "gefunden", "Anzahl"]),
    "es": ("¿El jugo de arándano previene las infecciones urinarias en mujeres?",
           ["jugo", "arándano", "previene", "infecciones", "urinarias", "mujeres", "ensayo", "clínico", "recurrentes",
            "vejiga", "bacterias", "antibióticos", "prevención", "placebo", "dosis", "diaria", "efecto", "revisión",
            "evidencia"],
           ["el", "la", "de", "que", "y", "en", "los", "las", "del", "se", "por", "un", "una", "con", "no", "para",
            "es", "al", "como", "más", "pacientes", "resultados", "fueron", "después", "años", "grupo", "riesgo",
            "datos", "autores", "informaron", "comparados", "encontraron", "número", "salud", "estudio"]),
}
"""language -> (query, topic words, filler words) of the requests' pages (``--language``): ~30 % topic words."""


def payload(n_docs: int, variant: int = 0, words: int = 40, fresh_texts: bool = False,
            language: str = "en") -> dict[str, Any]:
    """A Cohere v1 request with ``n_docs`` YAML-style documents of ``words`` words each, the query
    and the pages in ``language`` (:data:`PAGE_LANGUAGES`).

    ``variant`` > 0 gives every document a URL path no other variant uses (same hosts), so a
    server that caches parsed URLs sees new URLs on every request. ``fresh_texts`` also gives
    every document of every variant its own text (topic words and filler drawn from a generator
    seeded by variant and index), so a server that remembers pages (dense relevance) sees only
    new ones.
    """
    query, topic, filler = PAGE_LANGUAGES[language]
    docs = []
    for i in range(n_docs):
        url = SOURCES[i % len(SOURCES)].format(i=i) + (f"/v{variant}" if variant else "")
        if fresh_texts:
            rng = random.Random(variant * 1_000_003 + i)
            text = " ".join(rng.choice(topic) if rng.random() < 0.3 else rng.choice(filler) for _ in range(words))
        else:
            text = " ".join(topic[(i + j) % len(topic)] for j in range(words))
        docs.append(f"title: Document {i}\nurl: {url}\ntext: {text}")
    return {"model": "authorag-authority", "query": query, "documents": docs, "top_n": 10}


def run(coro: Any) -> Any:
    """Run the load generator on uvloop when installed (authorag[server] brings it): it keeps the
    client's own scheduling delays, which open-loop latencies include, smaller."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def start_server(port: int, workers: int, relevance: str, judge: str, judge_model: str | None,
                 source: Path | None = None, extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """``authorag serve`` in a subprocess; ``source`` runs the package from another checkout."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = f"{source}{os.pathsep}{env.get('PYTHONPATH', '')}"
        where = subprocess.run([sys.executable, "-c", "import authorag; print(authorag.__file__)"], env=env,
                               cwd=source, capture_output=True, text=True, check=True).stdout.strip()
        if not where.startswith(str(source.resolve())):
            raise SystemExit(f"--baseline {source}: the server would import authorag from {where}")
    cmd = [sys.executable, "-m", "authorag", "serve", "--host", HOST, "--port", str(port),
           "--workers", str(workers), "--relevance", relevance, "--judge", judge]
    if judge_model:
        cmd += ["--judge-model", judge_model]
    cmd += list(extra)
    # cwd comes first on sys.path for `python -m`: run from the checkout being measured.
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=source)
    try:
        wait_until_ready(f"http://{HOST}:{port}/readyz", timeout_s=120, process=proc, interval_s=0.2)
    except RuntimeError as exc:
        proc.terminate()
        raise SystemExit(str(exc)) from None
    # One worker answered; give the others time to finish loading and listen, or the first
    # connections all land on the first worker.
    time.sleep(3.0 if workers > 1 else 0.0)
    return proc


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds of ``pid`` and its children (uvicorn workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    while pids:
        p = pids.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                pids += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


class Meter:
    """Wall time and CPU (server processes and this client) from construction to :meth:`report`."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.start, self.cpu0, self.client0 = time.perf_counter(), cpu_seconds(server_pid), time.process_time()

    def report(self, latencies: list[float], errors: int) -> dict[str, Any]:
        """Requests, req/s, p50/p99 latency and CPU per request since construction."""
        wall = time.perf_counter() - self.start
        server_cpu = cpu_seconds(self.server_pid) - self.cpu0
        client_cpu = time.process_time() - self.client0
        lat = sorted(latencies)
        return {"requests": len(lat), "errors": errors, "seconds": round(wall, 3),
                "req_per_s": round(len(lat) / wall, 1),
                "p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
                "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2) if lat else None,
                # CPU per request does not depend on how busy the machine is, unlike req/s and latency.
                "server_cpu_ms_per_req": round(1000 * server_cpu / max(1, len(lat)), 2),
                "client_cpu_ms_per_req": round(1000 * client_cpu / max(1, len(lat)), 2)}


class RawConnection:
    """One keep-alive HTTP/1.1 connection that sends a prebuilt request and reads the reply.

    A load generator must cost far less CPU than the server it measures; httpx spends 5-6 ms
    of CPU per 100-document request, which on a 2-core machine starves the server. This one
    writes fixed bytes and reads ``Content-Length`` bodies (what uvicorn sends), nothing more.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int = 0) -> None:
        self.reader, self.writer, self.port = reader, writer, port

    @classmethod
    async def open(cls, port: int) -> RawConnection:
        return cls(*await asyncio.open_connection(HOST, port), port=port)

    async def send(self, request: bytes) -> int:
        """Send ``request``; returns the response status once its body is read. A connection the
        server closed while idle (its keep-alive timeout, while slow requests warmed the others)
        is opened again and the request sent once more."""
        self.writer.write(request)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionResetError) as exc:
            if isinstance(exc, asyncio.IncompleteReadError) and exc.partial:
                raise
            self.writer.close()
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
                break
        await self.reader.readexactly(length)
        return status

    def close(self) -> None:
        self.writer.close()


def raw_request(path: str, port: int, body: bytes) -> bytes:
    head = (f"POST {path} HTTP/1.1\r\nhost: {HOST}:{port}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n")
    return head.encode() + body


async def run_level(port: int, path: str, bodies: list[bytes], concurrency: int, duration: float,
                    max_requests: int, server_pid: int, client: str) -> dict[str, Any]:
    """``concurrency`` workers send requests until the time or count budget is spent.

    Worker ``w`` sends ``bodies[(w + k * concurrency) % len(bodies)]`` for its ``k``-th request,
    so with many distinct bodies (``--fresh-urls``) the server keeps seeing new URLs.
    """
    latencies: list[float] = []
    errors = 0
    url = f"http://{HOST}:{port}{path}"
    headers = {"content-type": "application/json"}
    requests = [raw_request(path, port, b) for b in bodies]
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=30) as hx:
        conns = [await RawConnection.open(port) for _ in range(concurrency)] if client == "raw" else []

        async def send(w: int, k: int) -> int:
            if client == "raw":
                return await conns[w].send(requests[(w + k * concurrency) % len(requests)])
            r = await hx.post(url, content=bodies[(w + k * concurrency) % len(bodies)], headers=headers)
            return r.status_code

        for w in range(concurrency):  # warm every connection (and the server's caches)
            await send(w, 0)

        started = 0

        async def worker(w: int) -> None:
            nonlocal errors, started
            k = 1
            while time.perf_counter() < stop_at and started < max_requests:
                started += 1  # counted before sending, so the level never exceeds max_requests
                t0 = time.perf_counter()
                status = await send(w, k)
                k += 1
                if status == 200:
                    latencies.append(time.perf_counter() - t0)
                else:
                    errors += 1

        meter = Meter(server_pid)
        stop_at = meter.start + duration
        await asyncio.gather(*(worker(w) for w in range(concurrency)))
        result = meter.report(latencies, errors)
        for c in conns:
            c.close()
    return {"concurrency": concurrency, **result}


async def run_rate(port: int, path: str, bodies: list[bytes], rate: float, connections: int, duration: float,
                   max_requests: int, server_pid: int) -> dict[str, Any]:
    """Open loop: requests start on a fixed schedule (``rate`` per second) over at most
    ``connections`` keep-alive sockets, whether or not earlier ones have finished.

    Latency counts from each request's scheduled start, so time spent waiting for a free
    connection (queueing when the server falls behind) is included: no coordinated omission.
    """
    requests = [raw_request(path, port, b) for b in bodies]
    conns = [await RawConnection.open(port) for _ in range(connections)]
    for c in conns:  # warm every connection
        await c.send(requests[0])
    free: asyncio.Queue[RawConnection] = asyncio.Queue()
    for c in conns:
        free.put_nowait(c)
    latencies: list[float] = []
    errors = 0
    in_flight = peak = 0

    async def one(i: int, scheduled: float) -> None:
        nonlocal errors, in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        conn = await free.get()
        status = await conn.send(requests[i % len(requests)])
        free.put_nowait(conn)
        in_flight -= 1
        if status == 200:
            latencies.append(time.perf_counter() - scheduled)
        else:
            errors += 1

    total = min(max_requests, int(duration * rate))
    tasks: list[asyncio.Task[None]] = []
    meter = Meter(server_pid)
    for i in range(total):
        scheduled = meter.start + i / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(i, scheduled)))
    await asyncio.gather(*tasks)
    result = meter.report(latencies, errors)
    for c in conns:
        c.close()
    return {"offered_per_s": rate, "connections": connections, "peak_in_flight": peak, **result}


def breakdown(n_docs: int, relevance: str, repeat: int = 200) -> dict[str, float]:
    """CPU ms per request of each in-process step (no HTTP), averaged over ``repeat`` runs."""
    from authorag import adapters
    from authorag.server.config import ServerConfig
    from authorag.server.documents import read_documents
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    svc = RerankService(ServerConfig(relevance=relevance))  # type: ignore[arg-type]
    reranker = svc.reranker
    body = json.dumps(payload(n_docs))
    req = RerankRequest.model_validate_json(body)
    docs = read_documents(req.documents, None, rank_fields=None, max_chars=20_000, max_tokens=None)
    cands, _ = adapters.candidates_of(docs.urls, docs.texts, None, "rank")
    steps = {  # the steps RerankService.rerank takes
        "validate (pydantic)": lambda: RerankRequest.model_validate_json(body),
        "read documents (urls, budget)": lambda: read_documents(req.documents, None, rank_fields=None,
                                                                max_chars=20_000, max_tokens=None),
        "build candidates (adapters.candidates_of)": lambda: adapters.candidates_of(docs.urls, docs.texts, None, "rank"),
        "AuthorityReranker.rerank": lambda: reranker.rerank(req.query, cands, top_k=req.top_n),
        "service total (all of the above + response dict)": lambda: svc.rerank(req, "v1"),
    }
    out: dict[str, float] = {}
    for name, step in steps.items():
        step()
        t0 = time.process_time()
        for _ in range(repeat):
            step()
        out[name] = round(1000 * (time.process_time() - t0) / repeat, 3)
    return out


def targets(levels: list[dict[str, Any]], bm25: list[dict[str, Any]]) -> dict[str, Any]:
    """The cost targets against the levels measured (1 and 4 clients), with the ratios to BM25."""
    by = {lv["concurrency"]: lv for lv in levels}
    base = {lv["concurrency"]: lv for lv in bm25}
    rps, p50 = by[4]["req_per_s"], by[1]["p50_ms"] or float("inf")
    want_rps, want_p50 = COST_TARGETS["req_per_s_4_clients"], COST_TARGETS["p50_ms_1_client"]
    met = {"req_per_s_4_clients": rps >= want_rps, "p50_ms_1_client": p50 <= want_p50}
    ratio_rps = base[4]["req_per_s"] / max(rps, 1e-9)
    ratio_p50 = p50 / max(base[1]["p50_ms"] or 1e-9, 1e-9)
    lines = [f"target req/s with 4 clients >= {want_rps:g}: {rps} ({'met' if met['req_per_s_4_clients'] else 'NOT met'}); "
             f"BM25 {base[4]['req_per_s']} req/s, x{ratio_rps:.1f} the default's",
             f"target p50 with 1 client <= {want_p50:g} ms: {p50} ms ({'met' if met['p50_ms_1_client'] else 'NOT met'}); "
             f"BM25 {base[1]['p50_ms']} ms, the default x{ratio_p50:.1f} BM25's",
             f"server CPU per request: default {by[4]['server_cpu_ms_per_req']} ms, BM25 "
             f"{base[4]['server_cpu_ms_per_req']} ms (x{by[4]['server_cpu_ms_per_req'] / max(base[4]['server_cpu_ms_per_req'], 1e-9):.1f}); "
             f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (a shared machine lowers req/s "
             "and raises p50; the ratios to BM25 move less)"]
    return {"targets": COST_TARGETS, "met": met, "bm25_over_default_req_per_s": round(ratio_rps, 2),
            "default_over_bm25_p50": round(ratio_p50, 2), "lines": lines}


LANGUAGE_RUNS = (("default", "en"), ("default", "de"), ("default", "es"), ("bm25", "en"), ("bm25", "de"))
"""(relevance, language) of each server ``--languages-cost`` runs, in this order."""


def languages_cost(measure: Any, default: str, load_before: float, baseline: Path | None = None) -> dict[str, Any]:
    """Each of :data:`LANGUAGE_RUNS` measured (its own server: none has seen another's pages), its
    req/s with 4 clients and p50 with 1 printed, with the ratios to the English default and to BM25.
    With a ``baseline`` checkout, each default run is measured on the baseline first (``before
    default LANG``), in the same run, and the ratios after / before are printed."""
    plan = [(f"{relevance} {language}", relevance, language, None) for relevance, language in LANGUAGE_RUNS]
    if baseline is not None:  # each language's before just ahead of its after
        plan = [row for name, rel, lang, src in plan
                for row in ([(f"before {name}", rel, lang, baseline)] if rel == "default" else []) + [(name, rel, lang, src)]]
    runs: dict[str, list[dict[str, Any]]] = {}
    for i, (name, relevance, language, source) in enumerate(plan):
        runs[name], _ = measure(source, default if relevance == "default" else relevance, 4 * i, language)
    summary: dict[str, dict[str, Any]] = {}
    for name, levels in runs.items():
        by = {lv["concurrency"]: lv for lv in levels}
        summary[name] = {"req_per_s_4_clients": by[4]["req_per_s"], "p50_ms_1_client": by[1]["p50_ms"],
                         "server_cpu_ms_per_req_4_clients": by[4]["server_cpu_ms_per_req"],
                         "errors": sum(lv["errors"] for lv in levels)}
    base = summary["default en"]
    lines = []
    for name, row in summary.items():
        language = name.split()[-1]
        bm25 = summary.get("bm25 " + language, summary["bm25 en"])
        row["req_per_s_over_default_en"] = round(row["req_per_s_4_clients"] / max(base["req_per_s_4_clients"], 1e-9), 2)
        row["p50_over_default_en"] = round((row["p50_ms_1_client"] or 0) / max(base["p50_ms_1_client"] or 1e-9, 1e-9), 2)
        row["p50_over_bm25"] = round((row["p50_ms_1_client"] or 0) / max(bm25["p50_ms_1_client"] or 1e-9, 1e-9), 2)
        lines.append(f"{name:>17}: {row['req_per_s_4_clients']:>7} req/s with 4 clients (x{row['req_per_s_over_default_en']}"
                     f" the English default's), p50 {row['p50_ms_1_client']} ms with 1 (x{row['p50_over_default_en']} "
                     f"the English default's, x{row['p50_over_bm25']} BM25's), server CPU "
                     f"{row['server_cpu_ms_per_req_4_clients']} ms/req, {row['errors']} errors")
    lines += _after_over_before(summary)
    for line in lines:
        print(line)
    print(f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs")
    return {"endpoint": "/v1/rerank", "command": "scripts/bench_server.py --languages-cost", "relevance": default,
            "baseline": None if baseline is None else str(baseline),
            "documents": 20, "words_per_document": 200, "fresh_texts": True, "workers": 2,
            "queries": {lang: PAGE_LANGUAGES[lang][0] for lang in dict.fromkeys(lang for _, lang in LANGUAGE_RUNS)},
            "cpus": os.cpu_count(), "load_average_before": load_before, "load_average_after": os.getloadavg()[0],
            "python": platform.python_version(), "summary": summary, "lines": lines, "runs": runs}


def _after_over_before(summary: dict[str, dict[str, Any]]) -> list[str]:
    """For each default run measured before too: its req/s, p50 and server CPU after over before."""
    lines = []
    for name, row in summary.items():
        old = summary.get(f"before {name}")
        if old is None:
            continue
        ratios = {"req_per_s": row["req_per_s_4_clients"] / max(old["req_per_s_4_clients"], 1e-9),
                  "p50": (row["p50_ms_1_client"] or 0) / max(old["p50_ms_1_client"] or 1e-9, 1e-9),
                  "server_cpu": row["server_cpu_ms_per_req_4_clients"] / max(old["server_cpu_ms_per_req_4_clients"], 1e-9)}
        row["after_over_before"] = {k: round(v, 2) for k, v in ratios.items()}
        lines.append(f"{name:>17}: after / before: req/s x{ratios['req_per_s']:.2f}, p50 x{ratios['p50']:.2f}, "
                     f"server CPU x{ratios['server_cpu']:.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2, help="uvicorn worker processes (default 2 = cores here)")
    ap.add_argument("--relevance", default="bm25", choices=["bm25", "rank", "dense", "cascade", "cascade-or-bm25"])
    ap.add_argument("--cost-targets", action="store_true",
                    help="check the default relevance's cost targets: the server's default relevance against "
                         "bm25 in one run, 2 workers, 20 new ~200-word pages per request, 1 and 4 clients for "
                         "15 s each; prints each target with the measured value (overrides those options)")
    ap.add_argument("--against", choices=["bm25", "rank", "dense", "cascade", "cascade-or-bm25"],
                    help="also measure this checkout with this relevance in the same run, then print "
                         "--relevance's numbers over it (e.g. the default cascade-or-bm25 against bm25)")
    ap.add_argument("--words", type=int, default=40, help="words per document (default 40)")
    ap.add_argument("--language", default="en", choices=list(PAGE_LANGUAGES),
                    help="language of the query and the pages (default en)")
    ap.add_argument("--languages-cost", action="store_true",
                    help="as --cost-targets, for the server's default relevance on English, German and Spanish "
                         "pages and BM25 on English and German pages, each its own server, in one run; prints "
                         "req/s with 4 clients and p50 with 1 of each, and the ratios; with --baseline, each "
                         "default run is measured on that checkout too, just before")
    ap.add_argument("--fresh-texts", action="store_true",
                    help="every document of every request is a page the server has not seen (new text "
                         "and URL): what dense relevance must encode; implies --fresh-urls")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--rate", type=float, nargs="*", default=[],
                    help="also run open-loop levels at these request rates (per second) over "
                         "max(--concurrency) connections; latency counts from the scheduled start")
    ap.add_argument("--documents", type=int, default=100)
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per level (upper bound)")
    ap.add_argument("--max-requests", type=int, default=5000, help="requests per level (upper bound)")
    ap.add_argument("--client", default="raw", choices=["raw", "httpx"],
                    help="load generator: 'raw' (prebuilt HTTP/1.1 bytes on keep-alive sockets, cheap) "
                         "or 'httpx' (a real client library, 5-6 ms CPU per request)")
    ap.add_argument("--fresh-urls", action="store_true",
                    help="every request carries 100 URLs never sent before (cold URL cache); "
                         "default: the same request body every time")
    ap.add_argument("--judge", default="none", choices=["none", "local"],
                    help="'local': hybrid scorer with the embedded judge; one untimed request first "
                         "fills the judge cache, then every level runs on a warm cache")
    ap.add_argument("--judge-model", help="GGUF path or registered name for --judge local")
    ap.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                    help="first measure a server running the authorag package of another checkout "
                         "(e.g. a git worktree of an older commit), then this one, and print ratios")
    ap.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for `authorag serve` (repeatable), e.g. --serve-arg=--no-reuse-port")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--breakdown", action="store_true", help="only print in-process CPU ms per step (no HTTP)")
    args = ap.parse_args(argv)
    if args.cost_targets or args.languages_cost:
        from authorag.server.config import ServerConfig

        args.relevance, args.against, args.workers, args.documents = ServerConfig().relevance, "bm25", 2, 20
        args.words, args.fresh_texts, args.concurrency, args.duration = 200, True, [1, 4], 15.0
        args.max_requests = 400
    if args.breakdown:
        for name, ms in breakdown(args.documents, args.relevance).items():
            print(f"{ms:>8.3f} ms  {name}")
        return 0
    load_before = os.getloadavg()[0]
    args.fresh_urls = args.fresh_urls or args.fresh_texts
    body = json.dumps(payload(args.documents, words=args.words, language=args.language)).encode()
    per_level = args.max_requests + max(args.concurrency)  # distinct bodies a level may need

    def level_bodies(level: int, language: str = args.language) -> list[bytes]:
        if not args.fresh_urls:
            return [body if language == args.language else json.dumps(payload(args.documents, words=args.words,
                                                                              language=language)).encode()]
        first = 1 + level * per_level  # levels never share a URL
        return [json.dumps(payload(args.documents, v, args.words, args.fresh_texts, language)).encode()
                for v in range(first, first + per_level)]

    def measure(source: Path | None, relevance: str = args.relevance, offset: int = 0,
                language: str = args.language) -> tuple[list[dict[str, Any]], float | None]:
        port = free_port(HOST)
        proc = start_server(port, args.workers, relevance, args.judge, args.judge_model, source,
                            args.serve_arg if source is None else ())
        warm_s = None
        try:
            url = f"http://{HOST}:{port}/v1/rerank"
            if args.judge != "none":
                t0 = time.perf_counter()
                for _ in range(3 * args.workers):  # per-request judge budgets may need more than one pass
                    httpx.post(url, content=body, headers={"content-type": "application/json"}, timeout=1800)
                warm_s = round(time.perf_counter() - t0, 1)
            levels = [run(run_level(port, "/v1/rerank", level_bodies(offset + i, language), c, args.duration,
                                            args.max_requests, proc.pid, args.client))
                      for i, c in enumerate(args.concurrency)]
            n = len(args.concurrency)
            levels += [run(run_rate(port, "/v1/rerank", level_bodies(offset + n + i, language), r, max(args.concurrency),
                                            args.duration, args.max_requests, proc.pid))
                       for i, r in enumerate(args.rate)]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        return levels, warm_s

    if args.languages_cost:
        report = languages_cost(measure, args.relevance, load_before, args.baseline)
        if args.json:
            args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        return 0
    runs: dict[str, list[dict[str, Any]]] = {}
    if args.baseline is not None:
        runs["baseline"], _ = measure(args.baseline)
    elif args.against is not None:  # other levels, so neither server has seen the other's pages
        runs["baseline"], _ = measure(None, args.against, len(args.concurrency) + len(args.rate))
    levels, warm_s = measure(None)
    runs["current"] = levels
    report = {"endpoint": "/v1/rerank", "documents": args.documents, "request_bytes": len(body),
              "workers": args.workers, "relevance": args.relevance,
              "authority": "prior (no judge)" if args.judge == "none" else f"hybrid, judge {args.judge} (warm cache)",
              "judge_model": args.judge_model, "cache_warmup_seconds": warm_s,
              "client": ("raw keep-alive sockets" if args.client == "raw" else "httpx.AsyncClient")
              + " in one asyncio process on the same machine", "fresh_urls": args.fresh_urls,
              "baseline": str(args.baseline) if args.baseline is not None else (
                  None if args.against is None else f"this checkout, --relevance {args.against}"),
              "words_per_document": args.words, "fresh_texts": args.fresh_texts,
              "cpus": os.cpu_count(), "load_average_before": load_before, "python": platform.python_version(),
              "levels": levels, "baseline_levels": runs.get("baseline")}
    for name, lvs in runs.items():
        if args.against is not None:
            name = args.relevance if name == "current" else args.against
        for lv in lvs:
            level = f"c={lv['concurrency']:>3}" if "concurrency" in lv else f"rate={lv['offered_per_s']:g}/s"
            print(f"{name:>8} {level}  {lv['req_per_s']:>7} req/s  p50 {lv['p50_ms']} ms  "
                  f"p99 {lv['p99_ms']} ms  server CPU {lv['server_cpu_ms_per_req']} ms/req, client CPU "
                  f"{lv['client_cpu_ms_per_req']} ms/req  ({lv['requests']} requests, {lv['errors']} errors, "
                  f"{lv['seconds']} s)")
    if "baseline" in runs:
        for old, new in zip(runs["baseline"], runs["current"]):
            level = f"c={new['concurrency']:>3}" if "concurrency" in new else f"rate={new['offered_per_s']:g}/s"
            print(f"ratio {level}  req/s x{new['req_per_s'] / max(old['req_per_s'], 1e-9):.2f}  "
                  f"p50 x{(new['p50_ms'] or 0) / max(old['p50_ms'] or 1e-9, 1e-9):.2f}  "
                  f"p99 x{(new['p99_ms'] or 0) / max(old['p99_ms'] or 1e-9, 1e-9):.2f}  server CPU/req "
                  f"x{new['server_cpu_ms_per_req'] / max(old['server_cpu_ms_per_req'], 1e-9):.2f}")
    if args.cost_targets:
        report["targets"] = targets(levels, runs["baseline"])
        for line in report["targets"]["lines"]:
            print(line)
    print(json.dumps({k: v for k, v in report.items() if k not in ("levels", "baseline_levels", "targets")}))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
