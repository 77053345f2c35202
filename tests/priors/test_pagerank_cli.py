"""``authorag priors build`` end to end through ``authorag.cli.main``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.cli import main
from authorag.priors.pagerank import DEFAULT_MAX_ITER, DEFAULT_TOL, PageRankPrior

EDGES = ("source\ttarget\n"
         "https://en.wikipedia.org/wiki/Flu\thttps://www.nih.gov/flu\n"
         "https://www.cdc.gov/flu\thttps://nih.gov/\n"
         "https://nih.gov/a\thttps://cdc.gov/b\n"
         "https://a.example.com/x\thttps://b.example.com/y\n"
         "garbage\tnih.gov\n")


def test_build_from_tsv_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edges = tmp_path / "links.tsv"
    edges.write_text(EDGES, encoding="utf-8")
    out = tmp_path / "prior.csv.gz"
    assert main(["priors", "build", "--edges", str(edges), "--out", str(out), "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["version"] == 1
    assert (summary["nodes"], summary["edges"], summary["rows"]) == (4, 3, 5)
    assert (summary["self_links"], summary["skipped"], summary["skipped_by_reason"]) == (1, 1, {"invalid": 1})
    assert (summary["engine"], summary["damping"], summary["tol"]) == ("networkx", 0.85, DEFAULT_TOL)
    assert summary["top"] == ["nih.gov", "cdc.gov", "example.com", "wikipedia.org"]
    prior = PageRankPrior.load(out)
    assert prior.lookup("https://www.nih.gov/").authority == 1.0
    assert prior.lookup("https://en.wikipedia.org/").authority == 0.0


def test_engines_write_the_same_prior(tmp_path: Path) -> None:
    edges = tmp_path / "links.tsv"
    edges.write_text(EDGES, encoding="utf-8")
    files = {}
    for engine in ("networkx", "scipy"):
        files[engine] = tmp_path / f"{engine}.csv.gz"
        assert main(["priors", "build", "--edges", str(edges), "--out", str(files[engine]),
                     "--engine", engine, "--damping", "0.9", "--quiet"]) == 0
    nx_prior, sp_prior = (PageRankPrior.load(files[e]) for e in ("networkx", "scipy"))
    assert nx_prior.domains == sp_prior.domains
    assert sp_prior.pagerank.tolist() == pytest.approx(nx_prior.pagerank.tolist(), abs=1e-12)


def test_build_from_csv_with_named_columns_and_text_summary(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    edges = tmp_path / "links.csv"
    edges.write_text("to,from\nnih.gov,en.wikipedia.org\ncdc.gov,nih.gov\n", encoding="utf-8")
    out = tmp_path / "p.csv.gz"
    argv = ["priors", "build", "--edges", str(edges), "--src-col", "from", "--dst-col", "to", "--out", str(out)]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: 3 domains, 2 edges from 2 links")
    assert PageRankPrior.load(out).domains[0] == "cdc.gov"


def test_build_from_html_jsonl(tmp_path: Path) -> None:
    pages = tmp_path / "pages.jsonl"
    pages.write_text("\n".join(json.dumps(p) for p in [
        {"url": "https://en.wikipedia.org/wiki/Flu", "html": '<a href="https://www.nih.gov/">n</a><a href="/wiki/X">x</a>'},
        {"url": "https://www.nih.gov/", "html": '<a href="https://cdc.gov/">c</a>'},
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "p.csv.gz"
    assert main(["priors", "build", "--html-jsonl", str(pages), "--out", str(out), "--quiet"]) == 0
    assert set(PageRankPrior.load(out).domains) == {"wikipedia.org", "nih.gov", "cdc.gov"}


def test_build_from_html_dir(tmp_path: Path) -> None:
    site = tmp_path / "mirror" / "www.nih.gov"
    site.mkdir(parents=True)
    (site / "index.html").write_text('<a href="https://www.cdc.gov/flu">cdc</a>', encoding="utf-8")
    out = tmp_path / "p.csv.gz"
    assert main(["priors", "build", "--html-dir", str(tmp_path / "mirror"), "--out", str(out)]) == 0
    assert PageRankPrior.load(out).domains == ("cdc.gov", "nih.gov")


def test_nothing_readable_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edges = tmp_path / "links.tsv"
    edges.write_text("a\tb\nnot a url\talso not\n", encoding="utf-8")
    assert main(["priors", "build", "--edges", str(edges), "--out", str(tmp_path / "p.csv.gz"), "--quiet"]) == 1
    assert "no readable links in the input (1 rows skipped" in capsys.readouterr().err


def test_input_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["priors", "build", "--out", "x.csv.gz"])
    assert "one of the arguments --edges --html-dir --html-jsonl is required" in capsys.readouterr().err


def test_help_states_the_library_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["priors", "build", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_TOL:g})" in help_text
    assert f"(default {DEFAULT_MAX_ITER})" in help_text


def test_build_with_weight_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edges = tmp_path / "domains.csv"
    edges.write_text("src,dst,n\na.org,b.org,3\na.org,c.org,1\nb.org,a.org,oops\n", encoding="utf-8")
    out = tmp_path / "p.csv.gz"
    argv = ["priors", "build", "--edges", str(edges), "--src-col", "src", "--dst-col", "dst",
            "--weight-col", "n", "--out", str(out), "--json", "--quiet"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["links"], summary["skipped_by_reason"]) == (4.0, {"bad weight": 1})
    assert PageRankPrior.load(out).domains == ("b.org", "c.org", "a.org")
