"""scripts/bench_dense_cache.py: the three timings in one run; the docs quote its committed result."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "docs" / "results" / "perf" / "bench_dense_cache.json"


def test_docs_quote_the_committed_result() -> None:
    r = json.loads(RESULT.read_text(encoding="utf-8"))
    assert r["command"] == "python scripts/bench_dense_cache.py --rounds 3 --out docs/results/perf/bench_dense_cache.json"
    m = r["seconds_per_call"]
    text = " ".join((ROOT / "docs" / "relevance.md").read_text(encoding="utf-8").split())
    assert r["command"] in text
    quoted = f"{m['off']:.2f} s per call with the cache off, {m['first']:.2f} s for a first call, " \
             f"{m['repeat'] * 1000:.1f} ms when the same pages come back"
    assert quoted in text
    assert f"{m['full']:.2f} s for the model's full window" in text


def test_one_run_times_off_first_and_repeat() -> None:
    pytest.importorskip("sentence_transformers")
    module = load_script("bench_dense_cache")
    out = module.measure(4, 1)
    assert out["candidates"] == 4 and list(out["seconds_per_call"]) == ["full", "off", "first", "repeat"]
    assert out["lead_to_full"] == out["seconds_per_call"]["off"] / out["seconds_per_call"]["full"]
    assert out["ratio_to_off"]["off"] == 1.0
    assert out["seconds_per_call"]["repeat"] < out["seconds_per_call"]["off"]
