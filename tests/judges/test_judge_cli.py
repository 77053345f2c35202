"""``authorag judge`` argument handling (the end-to-end run is in test_judges_openai_server.py)."""
from __future__ import annotations

import pytest

from authorag.cli import main


def test_no_inputs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "--method", "point"]) == 2
    assert "give domains/URLs" in capsys.readouterr().err


def test_bad_method_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["judge", "--method", "oracle", "nih.gov"])
    assert "invalid choice: 'oracle'" in capsys.readouterr().err
