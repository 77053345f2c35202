"""LLM authority judges (Point / Pair / List), relevance and utility judges.

Judges score on the AuthorityBench 0–9 scale (normalized to 0–1 for fusion), record how each
score was produced (``logprob`` expectation or ``greedy`` parse) and the prompt version, and
implement :class:`~authorag.priors.base.AuthorityScorer` (tier ``judge``). Backends live in
:mod:`authorag.judges.backends`; the registry in :mod:`authorag.judges.registry`.

Example:
    >>> from authorag.testing import FakeBackend
    >>> PointJudge(FakeBackend(["8"]), use_logprobs=False).judge(["nih.gov"]).scores[0].raw
    8.0
"""
from __future__ import annotations

from authorag.judges.base import ItemScore, JudgeCost, JudgeRun
from authorag.judges.items import JudgeItem
from authorag.judges.list_judge import ListJudge
from authorag.judges.pair_judge import PairJudge
from authorag.judges.point_judge import PointJudge
from authorag.judges.registry import JUDGES, load_judge
from authorag.judges.relevance_judge import RelevanceJudge, UtilityJudge

__all__ = [
    "JUDGES",
    "ItemScore",
    "JudgeCost",
    "JudgeItem",
    "JudgeRun",
    "ListJudge",
    "PairJudge",
    "PointJudge",
    "RelevanceJudge",
    "UtilityJudge",
    "load_judge",
]
