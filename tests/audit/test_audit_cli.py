"""``authorag audit``: one answer, a batch with --out (aggregates, Markdown, plot), errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.cli import main

ANSWER = {
    "question": "Do flu vaccines prevent influenza?", "debate": True,
    "answer": "Flu vaccines cut the risk [1]. Side effects are mild [2][2].\n\nSources:\n"
              "[1] https://www.bbc.co.uk/news/health\n[2] https://www.dailymail.co.uk/health",
}


def test_single_answer_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(ANSWER))
    assert main(["audit", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["version"] == 1 and out["citation_matrix"] == [[1, 0], [0, 1]]
    assert out["metrics"]["credibility_rate"] == 0.5 and out["metrics"]["citation_accuracy"] is None


def test_single_answer_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(ANSWER))
    assert main(["audit", str(path)]) == 0
    captured = capsys.readouterr()
    assert "  [0] cites 1; supported by ?; relevant None: Flu vaccines cut the risk." in captured.out
    assert "  credibility_rate: 0.5" in captured.out
    assert "no LLM judge" in captured.err


def test_batch_with_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    rows = [{**ANSWER, "system": "A"}, {**ANSWER, "system": "A", "answer": "Nothing cited."}, {**ANSWER, "system": "B"}]
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert main(["audit", str(path), "--out", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "aggregate.json", "aggregate.md", "profile.png", "reports.jsonl"]
    agg = json.loads((tmp_path / "out" / "aggregate.json").read_text())["systems"]
    assert agg["A"]["answers"] == 2 and agg["B"]["answers"] == 1
    # pooled over A's cited sources: 1 credible of 2 with known credibility -> 0.5, Agresti-Coull
    assert agg["A"]["pooled"]["credibility_rate"]["rate"] == 0.5
    assert agg["A"]["pooled"]["credibility_rate"]["lo"] == pytest.approx(0.0945, abs=1e-3)
    assert "| credibility_rate (pooled) | 0.50 | 0.09–0.91 (agresti-coull) | 2 |" in capsys.readouterr().out


def test_errors_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(ANSWER) + "\n" + json.dumps({**ANSWER, "answer": "Bad [9]."}) + "\n")
    assert main(["audit", str(path)]) == 1
    assert f"{path}:2: citation [9] in 'Bad [9].' refers to source id '9'" in capsys.readouterr().err
    bad = tmp_path / "x.json"
    bad.write_text("{nope")
    assert main(["audit", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().err


def test_plot_needs_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    from authorag.audit.batch import plot
    from authorag.errors import MissingDependencyError

    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(MissingDependencyError, match=r"audit plots needs .*pip install 'authorag\[bench\]'"):
        plot({}, tmp_path / "p.png")


@pytest.mark.parametrize("body", [{"question": "q"}, {"question": "q", "answer": "  "},
                                  {"question": "q", "choices": [{"message": {"content": ""}}]}])
def test_an_empty_answer_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: dict[str, object]) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(body))
    assert main(["audit", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}: the answer is empty (no text under 'answer' or a chat message, and no 'statements'): " \
           "nothing to audit" in captured.err


def test_an_empty_batch_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text("\n")
    assert main(["audit", str(path)]) == 1
    assert f"{path}: no answers in it" in capsys.readouterr().err


def test_long_statements_end_in_an_ellipsis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = "Flu vaccines cut the risk of influenza in adults and children " + "by a clear margin " * 4 + "[1]."
    path = tmp_path / "a.json"
    path.write_text(json.dumps({**ANSWER, "answer": long + "\n\nSources:\n[1] https://www.bbc.co.uk/news/health"}))
    assert main(["audit", str(path)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  [0]"))
    shown = line.split(": ", 1)[1]
    assert len(shown) == 90 and shown.endswith("…")
    assert shown == "Flu vaccines cut the risk of influenza in adults and children by a clear margin by a clea…"


def test_html_says_where_it_wrote_and_what_it_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, page = tmp_path / "a.json", tmp_path / "audit.html"
    path.write_text(json.dumps(ANSWER))
    assert main(["audit", str(path), "--html", str(page)]) == 0
    err = capsys.readouterr().err
    size = page.stat().st_size >> 10
    assert (f"authorag audit: wrote {page} ({size} KiB): 1 answer, 2 statements, 2 sources: citation and support "
            "heatmaps, sortable sources, metrics with intervals; open it in a browser (no network needed)") in err
