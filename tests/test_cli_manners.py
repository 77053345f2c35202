"""What a newcomer meets first in the CLI: help texts, empty input, a busy port, JSON versions."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from authorag.cli import build_parser, main


def _help(*argv: str) -> str:
    parser = build_parser()
    out = io.StringIO()
    stdout, sys.stdout = sys.stdout, out
    try:
        with pytest.raises(SystemExit):
            parser.parse_args([*argv, "--help"])
    finally:
        sys.stdout = stdout
    return " ".join(out.getvalue().split())  # argparse wraps at the terminal width


def test_score_help_describes_the_command_and_its_argument() -> None:
    text = _help("score")
    assert "Score how authoritative the source of each URL or domain is" in text
    assert "URL_OR_DOMAIN a URL (https://www.nih.gov/health) or a domain (nih.gov)" in text
    assert "--input FILE, -i FILE also read URLs or domains from FILE" in text


def test_rerank_query_has_help() -> None:
    assert "--query QUERY, -q QUERY the question the candidates were retrieved for" in _help("rerank")


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n"])
def test_score_with_an_empty_input_file_names_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        content: str) -> None:
    f = tmp_path / "empty.txt"
    f.write_text(content, encoding="utf-8")
    assert main(["score", "-i", str(f)]) == 2
    err = capsys.readouterr().err
    assert err == (f"authorag score: {f} has no URL or domain (one per line; blank lines and lines starting "
                   "with # are skipped), and no URL_OR_DOMAIN was given\n")


def test_score_with_an_empty_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["score", "-i", "-"]) == 2
    assert capsys.readouterr().err.startswith("authorag score: stdin has no URL or domain")


def test_score_with_an_empty_file_and_an_argument_scores_the_argument(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    f.write_text("", encoding="utf-8")
    assert main(["score", "nih.gov", "-i", str(f)]) == 0
    assert "nih.gov" in capsys.readouterr().out
