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


def test_serve_on_a_busy_port_says_so_before_the_banner(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err == (f"authorag: error: 127.0.0.1:{port} is in use (another authorag serve?); stop the program "
                   "listening there or pick another --port\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["--port", "0"], "--port must be in 1..65535, got 0"),
    (["--host", "203.0.113.7", "--port", "8000"], "cannot listen on 203.0.113.7:8000"),
])
def test_serve_refuses_an_address_it_cannot_bind(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 message: str) -> None:
    assert main(["serve", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and "authorag serve: http" not in err


def test_the_install_hint_names_the_clone_or_wheel_it_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    from authorag import _optional
    from authorag.errors import MissingDependencyError

    class Dist:
        def __init__(self, record: str | None) -> None:
            self.record = record

        def read_text(self, name: str) -> str | None:
            assert name == "direct_url.json"
            return self.record

    cases = [
        ('{"dir_info": {"editable": true}, "url": "file:///home/me/authorag"}',
         "pip install 'authorag[server]' (this authorag came from /home/me/authorag: "
         "pip install -e '/home/me/authorag[server]')"),
        ('{"archive_info": {}, "url": "file:///tmp/dist/authorag-0.1.0-py3-none-any.whl"}',
         "pip install 'authorag[server]' (this authorag came from /tmp/dist/authorag-0.1.0-py3-none-any.whl: "
         "pip install '/tmp/dist/authorag-0.1.0-py3-none-any.whl[server]')"),
        ('{"url": "https://example.org/authorag.tar.gz", "archive_info": {}}', "pip install 'authorag[server]'"),
        (None, "pip install 'authorag[server]'"),
    ]
    for record, hint in cases:
        monkeypatch.setattr(metadata, "distribution", lambda name, record=record: Dist(record))
        assert _optional.install_hint("server") == hint
    with pytest.raises(MissingDependencyError, match=r"Install it with: pip install 'authorag\[bench\]'$"):
        _optional.require("surely_not_installed_pkg", extra="bench", feature="x")
