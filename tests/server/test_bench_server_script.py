"""scripts/bench_server.py end to end, briefly: it starts a 2-worker server, drives closed- and
open-loop levels with its raw client and writes a JSON report whose numbers add up."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_server_script_reports_levels(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(ROOT / "scripts" / "bench_server.py"), "--relevance", "rank", "--documents", "20",
           "--concurrency", "1", "4", "--rate", "50", "--duration", "1", "--max-requests", "40",
           "--json", str(out)]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert (report["workers"], report["documents"], report["relevance"]) == (2, 20, "rank")
    closed, opened = report["levels"][:2], report["levels"][2]
    assert [lv["concurrency"] for lv in closed] == [1, 4]
    for lv in [*closed, opened]:
        assert lv["errors"] == 0 and 0 < lv["requests"] <= 40
        assert 0 < lv["p50_ms"] <= lv["p99_ms"]
        assert lv["req_per_s"] == pytest.approx(lv["requests"] / lv["seconds"], rel=0.05)  # seconds has 3 decimals
    assert opened["offered_per_s"] == 50 and opened["requests"] == 40  # 1 s x 50/s, capped at 40
    assert "c=  4" in proc.stdout and "rate=50/s" in proc.stdout


def _bench_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_server", ROOT / "scripts" / "bench_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fresh_texts_are_new_for_every_variant_and_document_and_have_the_words_asked() -> None:
    payload = _bench_module().payload
    first, again, other = payload(3, 1, 200, True), payload(3, 1, 200, True), payload(3, 2, 200, True)
    texts = [d.split("\ntext: ", 1)[1] for d in first["documents"]]
    assert first == again  # seeded by variant and index
    assert len(set(texts)) == 3 and [len(t.split()) for t in texts] == [200, 200, 200]
    assert not set(texts) & {d.split("\ntext: ", 1)[1] for d in other["documents"]}
    plain = payload(3, 1, 200)  # without fresh_texts: the same words for every variant
    assert plain["documents"][0].split("\ntext: ", 1)[1] == payload(3, 2, 200)["documents"][0].split("\ntext: ", 1)[1]


@pytest.mark.slow
def test_overload_script_reports_refusals_memory_and_healthz(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    out = tmp_path / "overload.json"
    cmd = [sys.executable, str(ROOT / "scripts" / "overload_server.py"), "--relevance", "dense", "--workers", "1",
           "--clients", "4", "--documents", "20", "--duration", "4", "--max-requests", "60",
           "--serve-arg=--max-encoding-documents=20", "--json", str(out)]
    subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300, cwd=ROOT)
    report = json.loads(out.read_text())
    assert (report["clients"], report["documents"], report["workers"]) == (4, 20, 1)
    assert report["answers"].get("503 overloaded", 0) > 0  # 4 clients x 20 new pages, room for 20 at once
    assert sum(report["answers"].values()) == report["requests"] <= 60
    assert 0 < report["rss_idle_mb"] <= report["rss_peak_mb"]
    assert 0 < report["pss_idle_mb"] <= report["rss_idle_mb"]  # shared pages counted once
    assert report["healthz_probes"] > 0 and report["refusal_p50_ms"] is not None
    assert set(report["targets_met"]) == {"rss_peak_mb <= 1536", "healthz_p99_ms <= 100", "refusal_max_ms <= 50"}


def test_cost_targets_say_which_are_met_with_the_ratios_to_bm25() -> None:
    targets = _bench_module().targets
    default = [{"concurrency": 1, "req_per_s": 20.0, "p50_ms": 48.0, "server_cpu_ms_per_req": 45.0},
               {"concurrency": 4, "req_per_s": 25.0, "p50_ms": 150.0, "server_cpu_ms_per_req": 50.0}]
    bm25 = [{"concurrency": 1, "req_per_s": 200.0, "p50_ms": 4.0, "server_cpu_ms_per_req": 5.0},
            {"concurrency": 4, "req_per_s": 250.0, "p50_ms": 14.0, "server_cpu_ms_per_req": 5.0}]
    out = targets(default, bm25)
    assert out["met"] == {"req_per_s_4_clients": False, "p50_ms_1_client": True}
    assert (out["bm25_over_default_req_per_s"], out["default_over_bm25_p50"]) == (10.0, 12.0)
    assert out["lines"][0] == "target req/s with 4 clients >= 30: 25.0 (NOT met); BM25 250.0 req/s, x10.0 the default's"
    assert out["lines"][1] == "target p50 with 1 client <= 60 ms: 48.0 ms (met); BM25 4.0 ms, the default x12.0 BM25's"
    assert out["lines"][2].startswith("server CPU per request: default 50.0 ms, BM25 5.0 ms (x10.0); load average")


@pytest.mark.slow
def test_encode_script_measures_each_setting_in_its_own_process(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    out = tmp_path / "encode.json"
    cmd = [sys.executable, str(ROOT / "scripts" / "bench_encode.py"), "--threads", "1", "--batch", "2", "4",
           "--pages", "4", "--json", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300, cwd=ROOT)
    results = json.loads(out.read_text())["results"]
    assert [(r["threads"], r["batch"], r["pages"], r["copies"]) for r in results] == [(1, 2, 4, 1), (1, 4, 4, 1)]
    for r in results:
        assert r["cpu_ms_per_page"] > 0 and 0 < r["rss_before_mb"] <= r["rss_peak_mb"]


def test_pages_in_german_and_spanish_carry_a_question_and_words_in_that_language() -> None:
    from authorag.relevance.language import detect_language

    payload = _bench_module().payload
    for language in ("de", "es"):
        body = payload(4, 1, 200, True, language)
        texts = [d.split("\ntext: ", 1)[1] for d in body["documents"]]
        assert [len(t.split()) for t in texts] == [200] * 4 and len(set(texts)) == 4
        assert detect_language(body["query"], texts).language == language
        assert all(detect_language(t).language == language for t in texts)
    assert payload(2, 1, 200, True) == payload(2, 1, 200, True, "en")  # English stays as it was


def test_languages_cost_with_a_baseline_measures_each_default_before_its_after(tmp_path: Path) -> None:
    """The servers are faked (the process boundary): each run's levels come from a table."""
    bench = _bench_module()
    cpu = {"before default en": 30.0, "default en": 20.0, "before default de": 160.0, "default de": 150.0,
           "before default es": 165.0, "default es": 155.0, "bm25 en": 5.0, "bm25 de": 6.0}
    calls: list[tuple[str | None, str, int, str]] = []

    def measure(source: Path | None, relevance: str, offset: int, language: str) -> tuple[list[dict[str, Any]], None]:
        calls.append((None if source is None else source.name, relevance, offset, language))
        name = f"{'before ' if source is not None else ''}{'default' if relevance == 'cascade-or-bm25' else relevance} {language}"
        ms = cpu[name]
        return [{"concurrency": 1, "p50_ms": ms, "req_per_s": 1000 / ms, "server_cpu_ms_per_req": ms, "errors": 0},
                {"concurrency": 4, "p50_ms": 2 * ms, "req_per_s": 2000 / ms, "server_cpu_ms_per_req": ms,
                 "errors": 0}], None

    report = bench.languages_cost(measure, "cascade-or-bm25", 0.5, tmp_path / "base")
    assert [(c[0], c[1], c[3]) for c in calls] == [
        ("base", "cascade-or-bm25", "en"), (None, "cascade-or-bm25", "en"), ("base", "cascade-or-bm25", "de"),
        (None, "cascade-or-bm25", "de"), ("base", "cascade-or-bm25", "es"), (None, "cascade-or-bm25", "es"),
        (None, "bm25", "en"), (None, "bm25", "de")]
    assert len({c[2] for c in calls}) == len(calls)  # no two servers share pages
    assert report["summary"]["default de"]["after_over_before"] == {"req_per_s": 1.07, "p50": 0.94,
                                                                    "server_cpu": 0.94}
    assert "after_over_before" not in report["summary"]["bm25 de"]
    assert report["summary"]["default de"]["req_per_s_over_default_en"] == pytest.approx(0.13)
    assert "   default de: after / before: req/s x1.07, p50 x0.94, server CPU x0.94" in report["lines"][-2]
