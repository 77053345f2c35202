"""The judge registry."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.judges import JUDGES, ListJudge, PairJudge, load_judge
from authorag.priors.base import AuthorityScorer
from authorag.testing import FakeBackend


def test_registry_builds_each_judge() -> None:
    assert sorted(JUDGES) == ["list", "pair", "point", "relevance", "utility"]
    pair = load_judge("pair", FakeBackend([]), variant="pair_rank", n_anchors=3)
    assert isinstance(pair, PairJudge) and pair.n_anchors == 3 and pair.name == "judge.pair"
    assert isinstance(load_judge("list", FakeBackend([]), output="rank"), ListJudge)
    for name, spec in JUDGES.items():
        if spec.scores == "authority":
            assert isinstance(load_judge(name, FakeBackend([])), AuthorityScorer)


def test_registry_errors() -> None:
    with pytest.raises(ConfigError, match=r"unknown judge 'oracle'; choose one of \['list', 'pair', 'point', 'relevance', 'utility'\]"):
        load_judge("oracle", FakeBackend([]))
    with pytest.raises(ConfigError, match=r"judge 'point' does not take \['window'\]"):
        load_judge("point", FakeBackend([]), window=3)
