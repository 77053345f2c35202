"""Leave-source-out for the learned prior in the bench: label source and MBFC-derived tail sources."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from authorag.benchmarks.methods import MethodContext, learned_for
from authorag.benchmarks.registry import build_method
from authorag.priors.learned.model import LearnedModel, save_model
from authorag.priors.learned.train import train_learned_prior


@pytest.fixture(scope="module")
def tiny() -> LearnedModel:
    return train_learned_prior(["moz"], tail=("cred1",), seed=0)


@pytest.mark.parametrize(("family", "label_source", "cache_name"), [
    ("credauth", None, "learned_prior_tail_ut1.npz"),  # MBFC-derived labels: no CRED-1
    ("domainauth", "majestic", "learned_prior_without_majestic_tail_ut1+cred1.npz"),
])
def test_learned_for_leaves_the_label_origin_out(tiny: LearnedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 family: str, label_source: str | None, cache_name: str) -> None:
    monkeypatch.setenv("AUTHORAG_CACHE_DIR", str(tmp_path))
    (tmp_path / "bench").mkdir()
    save_model(tiny, tmp_path / "bench" / cache_name)  # stands in for the trained model: no training here
    got = learned_for(MethodContext(task_family=family, label_source=label_source))
    assert np.array_equal(got.model.weights, tiny.weights)


def test_rag_and_tail_tracks_use_the_shipped_model() -> None:
    method = build_method("learned", MethodContext(task_family="ragauth", label_source=None))
    assert method.info()["tail_sources"] == ["ut1", "cred1"] and method.info()["excluded_sources"] == []
