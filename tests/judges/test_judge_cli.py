"""``authorag judge`` argument handling (the end-to-end run is in test_judges_openai_server.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from authorag.cli import main


def test_no_inputs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "--method", "point"]) == 2
    assert "give domains/URLs" in capsys.readouterr().err


def test_bad_method_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["judge", "--method", "oracle", "nih.gov"])
    assert "invalid choice: 'oracle'" in capsys.readouterr().err


@pytest.mark.parametrize(("line", "message"), [
    ('{"text": "no url here"}', "in.jsonl:2: no URL; give it under one of url, source, link, href, source_url"),
    ('{"url": ', "in.jsonl:2: not valid JSON (Expecting value)"),
    ('{"url": null, "link": " "}', "in.jsonl:2: no URL; give it under one of url"),
])
def test_input_lines_without_a_url_name_the_line(tmp_path: Path, line: str, message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Was: a JSON line without ``url`` ended in a KeyError traceback; the other keys were not read."""
    path = tmp_path / "in.jsonl"
    path.write_text('{"source": "https://www.nih.gov/x"}\n' + line + "\n", encoding="utf-8")
    code = main(["judge", "--input", str(path), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1"])
    assert code == 1 and message in capsys.readouterr().err
