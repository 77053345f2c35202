"""Honest page-evidence scorers for the tracks built from labelled pages.

The shipped page-evidence model (:mod:`authorag.evidence.model`) has hand-set cue weights and a
calibration fitted on RAMDocs documents and hand-written dev pages: it never saw the labels of
the TREC HM 2019 pages the ``tailauth`` and ``ragauth`` tracks are built from, so those tracks
judge it on data it was not fitted on and :func:`honest_scorer` returns the scorer as it is.

Example:
    >>> from authorag.compose import load_scorer
    >>> scorer = load_scorer()
    >>> honest_scorer(scorer, "ragauth") is scorer
    True
"""
from __future__ import annotations

from authorag.priors.base import AuthorityScorer

PAGE_TASK_FAMILIES = frozenset({"tailauth", "ragauth"})
"""Task families built from the TREC HM 2019 pages."""


def honest_scorer(scorer: AuthorityScorer, task_family: str) -> AuthorityScorer:
    """``scorer`` unchanged: the page tier was calibrated on no collection a track is built from
    (``task_family`` is kept so a future fitted tier can be swapped for a cross-fitted one here)."""
    del task_family
    return scorer


__all__ = ["PAGE_TASK_FAMILIES", "honest_scorer"]
