"""scripts/eval_dense_passages.py: the passage cut, passage-max with the real MiniLM, and the
committed table the trust README quotes."""
from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from _scripts import load_script

from authorag.types import Candidate

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "trust" / "passages" / "compare.json"


def _script() -> ModuleType:
    return load_script("eval_dense_passages")


def test_passages_cut_the_first_n_windows_of_words() -> None:
    cut = _script().passages
    assert cut("a b c d e", 2, 2) == ["a b", "c d"]
    assert cut("a b c", 8, 2) == ["a b", "c"]
    assert cut("   ", 4, 90) == ["   "]  # no words: the text itself, so every page has a passage


def test_passage_max_finds_an_answer_behind_a_boilerplate_lead() -> None:
    pytest.importorskip("sentence_transformers")
    from authorag.relevance.dense import DenseRelevance

    script = _script()
    lead = " ".join(["Home", "About", "Contact", "Donate", "Newsletter", "Careers", "Press", "Login"] * 3)
    answer = "Laetrile (amygdalin) has not been shown to treat cancer in clinical trials and can cause cyanide poisoning."
    page = Candidate.create("https://a.example.org/", f"{lead} {answer}", id="a")
    dense = DenseRelevance(cache_size=None)
    query = "is laetrile an effective cancer treatment"
    [one] = script.PassageMax(dense, 1, 24).score(query, [page])
    [two] = script.PassageMax(dense, 2, 24).score(query, [page])
    [answer_alone] = dense.cosines(query, [answer])
    assert two == pytest.approx(answer_alone, abs=1e-6)  # the second passage is the answer itself
    assert two > one + 0.2  # the lead alone is navigation


def test_the_readme_quotes_the_committed_table() -> None:
    results = json.loads(RESULT.read_text(encoding="utf-8"))["results"]
    text = (ROOT / "benchmarks" / "results" / "trust" / "README.md").read_text(encoding="utf-8")
    default = results["default"]
    cells = [f"{default[f'ragauth-trec2019-resampled | rerank k=3 ({rel})']['value']:.3f}"
             for rel in ("bm25", "dense", "maxp-1", "maxp-2", "maxp-4", "maxp-8")]
    assert cells[0] == "0.710"
    row = next(line for line in text.splitlines() if line.startswith("| RAGAuth resampled | rerank k = 3 | 0.710 ("))
    assert [c.strip().split(" ")[0] for c in row.split("|")[3:9]] == cells


def test_rows_markdown_keeps_one_column_per_method_and_drops_the_breakdown_on_request() -> None:
    from authorag.benchmarks.tracks.scorer_study import rows_markdown

    cell = {"value": 0.5, "ci": [0.25, 0.75]}
    results = {"a": {"t | m (bm25)": cell, "t | m (bm25), domain x": cell},
               "b": {"t | m (bm25)": {"value": 1.0, "ci": [1.0, 1.0]}, "t | m (bm25), domain x": cell}}
    assert rows_markdown(results, "T", "intro", breakdown=False).splitlines() == [
        "# T", "", "intro", "", "| track | metric | a | b |", "|---|---|---|---|",
        "| t | m (bm25) | 0.500 [0.25, 0.75] | 1.000 [1.00, 1.00] |"]
    assert len(rows_markdown(results, "T", "intro").splitlines()) == 8
