"""Suitability benchmark code: metrics on hand-worked fixtures, data files, committed results."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.benchmarks.suitability import _rows, confusion, handmade_instances, source_type_eval  # pyright: ignore[reportPrivateUsage]
from authorag.suitability import SOURCE_TYPES

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "suitability" / "results.json"


def test_confusion_by_hand() -> None:
    pairs = [("news", "news"), ("news", "blog"), ("blog", "blog"), ("news", "news")]
    assert confusion(pairs) == {"news": {"news": 2, "blog": 1}, "blog": {"blog": 1}}
    assert confusion([]) == {}


def test_labelled_set_covers_every_type() -> None:
    rows = _rows("source_types_v1.csv")
    labels = {r["label"] for r in rows}
    assert len(rows) >= 300
    assert labels == set(SOURCE_TYPES) - {"unknown"}
    assert len({r["url"] for r in rows}) == len(rows)


def test_handmade_instances_are_balanced_and_seeded() -> None:
    a, b = handmade_instances(), handmade_instances()
    assert [[d.key for d in i.documents] for i in a] == [[d.key for d in i.documents] for i in b]
    assert len(a) == 12
    for inst in a:
        stances = [d.meta["stance"] for d in inst.documents]
        assert len(stances) == 6 and sum(stances) == 3


def test_source_type_eval_matches_committed_results() -> None:
    committed = json.loads(RESULTS.read_text())["source_types"]
    fresh = source_type_eval()
    for name, m in fresh["layers"].items():
        assert m["accuracy"] == pytest.approx(committed["layers"][name]["accuracy"]), name
        assert m["confusion"] == committed["layers"][name]["confusion"], name
    assert fresh["overlap"] == pytest.approx(committed["overlap"])


@pytest.mark.slow
def test_rag_results_match_committed() -> None:
    from authorag.benchmarks.suitability import run_all

    committed = json.loads(RESULTS.read_text())["rag"]
    fresh = run_all(prototypes=True)["rag"]
    for task, r in fresh.items():
        for name, by_k in r["accuracy"].items():
            assert by_k == pytest.approx(committed[task]["accuracy"][name]), (task, name)


def test_paired_accuracy_delta_by_hand() -> None:
    from authorag.benchmarks.suitability import paired_accuracy_delta

    # other fixes item 2 and breaks nothing: +1/4; every resample's delta is in {0, 1/4, ..., 1}.
    out = paired_accuracy_delta(["a", "b", "c", "d"], ["a", "x", "c", "x"], ["a", "b", "c", "x"], n_boot=200)
    assert out["value"] == 0.25
    assert 0.0 <= out["ci95"][0] <= 0.25 <= out["ci95"][1] <= 1.0


def test_llm_layer_eval_with_a_fake_model() -> None:
    from authorag.benchmarks.suitability import llm_layer_eval
    from authorag.testing import FakeBackend

    out = llm_layer_eval(FakeBackend(lambda req: "news"))
    rules = out["rules"]
    # The model says "news" for everything: LLM-only accuracy is the share of news URLs.
    n_news = sum(r["label"] == "news" for r in _rows("source_types_v1.csv"))
    assert out["llm_only"]["accuracy"] == pytest.approx(n_news / out["n"])
    assert out["delta_llm_only_vs_rules"]["value"] == pytest.approx(n_news / out["n"] - rules["accuracy"])
    # Fallback changes only the rules' unknowns: those that are news become right.
    assert out["fallback"]["accuracy"] - rules["accuracy"] == pytest.approx(
        out["rules_unknown_llm_only"]["accuracy"] * out["n_rules_unknown"] / out["n"])
    assert out["llm_calls"] <= out["n"]
