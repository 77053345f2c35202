"""Everyday CLI behaviour: pipes, banners, progress, help that matches the code."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from authorag.cli import build_parser, main
from authorag.progress import ProgressEvent, listen, report


def test_piped_score_is_tsv_with_full_input(capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://someone.blogspot.com/a-very-long-path/with/many/segments/index.html"
    assert main(["score", url, "nih.gov", "--no-learned"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].split("\t") == ["input", "domain", "trust", "why", "recognition", "credibility", "tier",
                                    "page evidence", "sources"]
    # a user's page on a hosting platform: hosted tier; page evidence is opt-in (--page-evidence)
    assert lines[1].split("\t")[:9] == [url, "someone.blogspot.com", "0.350", "recognition only", "0.400", "unknown",
                                        "hosted", "-", "hosted.blog=0.40"]
    assert lines[2].split("\t")[:8] == ["nih.gov", "nih.gov", "0.858", "credible", "0.979", "0.87", "table", "-"]
    assert main(["score", url, "--no-learned", "--page-evidence"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert row[7:] == ["abstained: no page text; no known cue in the address; the hosting platform's address is not "
                       "evidence", "hosted.blog=0.40"]
    assert "0.3 = nothing known; below 0.3 = known low credibility" in out.err  # the legend, once, off stdout
    # every tier a row can show is in the legend (the page tier was missing)
    assert "tier = which layer answered (reserved, hosted, table, rule, learned, judge, page, unknown)" in out.err


def test_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "score", "--json", "--no-learned", *["nih.gov"] * 3000],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141 and "Traceback" not in err and "BrokenPipe" not in err


def test_serve_banner(capsys: pytest.CaptureFixture[str]) -> None:
    from authorag.cli.serve import _banner  # pyright: ignore[reportPrivateUsage]
    from authorag.server.config import ServerConfig

    _banner(argparse.Namespace(host="127.0.0.1", port=8000, workers=2), ServerConfig(relevance="rank"))
    err = capsys.readouterr().err
    assert "authorag serve: http://127.0.0.1:8000  (2 workers)" in err
    assert "openapi   http://127.0.0.1:8000/openapi.json\n" in err  # the docs pages only with --docs
    assert "scorer    reserved>hosted>table" in err
    assert ("relevance rank; fusion window (on topic from 0.55 of the best relevance), signal trust, weight 0.5, "
            "unknown level 0.3") in err
    assert "encoding" not in err  # no encoder with rank relevance


def test_serve_banner_says_how_dense_relevance_encodes(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sentence_transformers")
    from authorag.cli.serve import _banner  # pyright: ignore[reportPrivateUsage]
    from authorag.server.config import ServerConfig

    _banner(argparse.Namespace(host="127.0.0.1", port=8000, workers=2), ServerConfig(relevance="dense", encode_threads=1))
    assert ("\n  encoding  1 torch thread(s) per worker, 8 pages per pass, 300 new pages in flight per worker "
            "(--encode-threads, --encode-batch, --max-encoding-documents)\n") in capsys.readouterr().err


def test_help_shows_the_defaults_that_apply() -> None:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))  # pyright: ignore[reportPrivateUsage]
    demo, rerank = sub.choices["demo"].format_help(), sub.choices["rerank"].format_help()
    assert "share of the source signal in the fused score, in [0, 1] (default 0.5)" in " ".join(demo.split())
    assert "share of the source signal in the fused score, in [0, 1] (default 0.5)" in " ".join(rerank.split())


def test_progress_events_reach_listeners_only_inside_the_block() -> None:
    seen: list[ProgressEvent] = []
    report("outside", 1)
    with listen(seen.append):
        report("judge.point", 1, unit="calls")
        report("judge.point", 2, 3, unit="calls")
    report("outside", 2)
    assert seen == [ProgressEvent("judge.point", 1, None, "calls"), ProgressEvent("judge.point", 2, 3, "calls")]


def test_bench_list_is_cached(tmp_path: Path) -> None:
    env = {**os.environ, "AUTHORAG_CACHE_DIR": str(tmp_path)}
    cmd = [sys.executable, "-m", "authorag", "bench", "list", "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    second = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    assert first == second and '"name": "credauth-mbfc"' in first
    assert len(list((tmp_path / "bench").glob("tasks-*.json"))) == 1
