"""Hostile suitability matrices (tests/hostile/matrices.py): each is a ConfigError naming the file."""
from __future__ import annotations

from pathlib import Path

import pytest
from hostile.matrices import matrix_variants

from authorag.errors import ConfigError
from authorag.suitability.matrix import load_matrix

VARIANTS = matrix_variants()


def test_there_are_enough_variants() -> None:
    assert len(VARIANTS) >= 41 and len({v.name for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_hostile_matrix(tmp_path: Path, variant) -> None:
    path = tmp_path / f"{variant.name}.yaml"
    path.write_bytes(variant.data)
    with pytest.raises(ConfigError, match=variant.expect) as info:
        load_matrix(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_not_read(device: str) -> None:
    with pytest.raises(ConfigError, match=f"suitability matrix '{device}' is not a regular file"):
        load_matrix(device)
