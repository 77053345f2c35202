"""The judge registry: one entry per judge (name → class, extra, what it scores).

Example:
    >>> from authorag.testing import FakeBackend
    >>> judge = load_judge("point", FakeBackend(["7"]), use_logprobs=False)
    >>> judge.judge(["nih.gov"]).scores[0].raw
    7.0
    >>> sorted(JUDGES)
    ['list', 'pair', 'point', 'relevance', 'utility']
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Literal

from authorag.errors import ConfigError
from authorag.judges.backends.base import LLMBackend
from authorag.judges.base import JudgeBase
from authorag.judges.list_judge import ListJudge
from authorag.judges.pair_judge import PairJudge
from authorag.judges.point_judge import PointJudge
from authorag.judges.relevance_judge import RelevanceJudge, UtilityJudge


@dataclass(frozen=True, slots=True)
class JudgeSpec:
    """One registered judge.

    Attributes:
        name: registry key (``point``, ``pair``, ``list``, ``relevance``, ``utility``).
        cls: the judge class.
        scores: ``authority`` (an AuthorityScorer) or ``relevance`` (a RelevanceScorer).
        extra: the authorag extra its default backends need.
        description: one line for ``--help`` and docs.
    """

    name: str
    cls: type[JudgeBase]
    scores: Literal["authority", "relevance"]
    extra: str
    description: str


JUDGES: dict[str, JudgeSpec] = {
    "point": JudgeSpec("point", PointJudge, "authority", "llm", "one item → 0–9 score (expected digit from logprobs)"),
    "pair": JudgeSpec("pair", PairJudge, "authority", "llm", "pairwise PairRank/PointScore; AverageScore or BubbleSort"),
    "list": JudgeSpec("list", ListJudge, "authority", "llm", "whole list → ListRank permutation or PointScore per item"),
    "relevance": JudgeSpec("relevance", RelevanceJudge, "relevance", "llm", "document relevance to a question (RAG baseline)"),
    "utility": JudgeSpec("utility", UtilityJudge, "relevance", "llm", "pseudo-answer, then document usefulness (RAG baseline)"),
}


def load_judge(name: str, backend: LLMBackend, **kwargs: Any) -> JudgeBase:
    """Build the registered judge ``name`` on ``backend``.

    Raises:
        ConfigError: unknown name, or an argument the judge does not take.
    """
    spec = JUDGES.get(name)
    if spec is None:
        raise ConfigError(f"unknown judge {name!r}; choose one of {sorted(JUDGES)}")
    accepted = _accepted(spec.cls)
    unknown = sorted(set(kwargs) - accepted)
    if unknown:
        raise ConfigError(f"judge {name!r} does not take {unknown}; it takes {sorted(accepted)}")
    return spec.cls(backend, **kwargs)


def _accepted(cls: type[JudgeBase]) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        names |= {p for p, v in inspect.signature(init).parameters.items() if v.kind is v.KEYWORD_ONLY}
    return names


__all__ = ["JUDGES", "JudgeSpec", "load_judge"]
