"""Hostile answer files (tests/hostile/audits.py) through ``authorag audit``: exit code 1 and one
error line naming the file, never a traceback."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile.audits import audit_variants

from authorag.cli import main

VARIANTS = audit_variants()


def test_there_are_enough_variants() -> None:
    assert len(VARIANTS) >= 23 and len({v.name for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_hostile_answer_file(tmp_path: Path, variant, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{variant.name}{variant.suffix}"
    path.write_bytes(variant.data)
    assert main(["audit", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("authorag: error: ") and "\n" not in err
    assert re.search(variant.expect, err), err


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_not_read(device: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``authorag audit /dev/zero`` read forever."""
    assert main(["audit", device]) == 1
    assert f"input file '{device}' is not a regular file" in capsys.readouterr().err
