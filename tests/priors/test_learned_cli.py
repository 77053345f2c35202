"""``authorag priors train``: writes a loadable artifact and JSON metadata; bad sources fail cleanly."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from authorag.cli import main
from authorag.priors.learned.model import load_learned_prior


def test_train_writes_a_loadable_artifact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "moz_prior.npz"
    assert main(["priors", "train", "--source", "moz", "--seed", "1", "--out", str(out), "--json"]) == 0
    meta = json.loads(capsys.readouterr().out)
    assert meta["version"] == 1 and meta["sources"] == ["moz"] and meta["seed"] == 1
    assert meta["artifact"] == str(out) and out.is_file() and out.with_suffix(".json").is_file()
    prior = load_learned_prior(out)
    assert prior.meta["sources"] == ["moz"]
    assert np.all(prior.predict(["example.org"]).authority >= 0)


def test_train_rejects_unknown_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["priors", "train", "--exclude", "nope", "--out", str(tmp_path / "x.npz")]) == 1
    assert "unknown prior source(s) ['nope']" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
