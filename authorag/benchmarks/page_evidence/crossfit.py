"""Labelled pages and honest (cross-fitted) page-evidence models for the TREC HM 2019 tracks.

The shipped page-evidence model is trained on every TREC HM 2019 page (NIST credibility), and
three evaluation tracks are built from those same pages (``tail-trec2019``,
``ragauth-trec2019``, ``ragauth-trec2019-resampled``). On them a method must never see the
labels of what it scores, so :class:`CrossFitPageEvidence` scores each candidate with a model
fitted without every topic in which the candidate's registrable domain appears (leave-topic-out,
and a domain's other pages go with it). Models are fitted on first use and kept per left-out set.

Example:
    >>> pages = labelled_pages()
    >>> len(pages.candidates), int(pages.labels.sum()), len(set(pages.topics.tolist()))
    (276, 166, 29)
"""
from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.benchmarks.tasks import read_rows
from authorag.evidence.features import page_features
from authorag.evidence.model import PageModel, load_page_model
from authorag.evidence.tier import PageEstimate, PageEvidence
from authorag.evidence.train import FitConfig, fit_page_model
from authorag.priors.base import AuthorityScorer
from authorag.tiers.tiered import TieredAuthority
from authorag.types import Candidate

TREC_PACKAGE, TREC_NAME = "authorag.benchmarks.data", "trec_hm2019.csv.gz"
PAGE_TASK_FAMILIES = frozenset({"tailauth", "ragauth"})
"""Task families built from the TREC HM 2019 pages the shipped model is trained on."""


@dataclass(frozen=True)
class LabelledPages:
    """The TREC HM 2019 pages as training and evaluation data.

    Attributes:
        candidates: one candidate per judged page (id = ClueWeb12 doc id, URL, full text).
        labels: NIST credibility (1 credible, 0 not).
        topics: TREC topic of each page (the cross-validation groups).
        stance: NIST stance (1 supportive of the treatment, 0 dissuasive).
        answer: the topic's correct answer (1 yes, 0 no, -1 inconclusive).
        matrix: the page-evidence features (:func:`~authorag.evidence.features.page_features`).
        sha256: checksum of the vendored file.
    """

    candidates: tuple[Candidate, ...]
    labels: NDArray[np.int64]
    topics: NDArray[np.int64]
    stance: NDArray[np.int64]
    answer: NDArray[np.int64]
    matrix: NDArray[np.float64]
    sha256: str

    def domain_topics(self) -> dict[str, frozenset[int]]:
        """Registrable domain (or host) -> the topics its pages are judged in."""
        out: dict[str, set[int]] = {}
        for c, t in zip(self.candidates, self.topics.tolist()):
            out.setdefault(c.domain or c.host or c.url, set()).add(int(t))
        return {k: frozenset(v) for k, v in out.items()}


_ANSWER = {"helpful": 1, "unhelpful": 0}


@cache
def labelled_pages() -> LabelledPages:
    """The vendored TREC HM 2019 pages with their labels and features (read once per process)."""
    rows = list(read_rows(TREC_PACKAGE, TREC_NAME))
    cands = tuple(Candidate.create(r["url"], r["text"], id=r["doc_id"]) for r in rows)
    digest = hashlib.sha256(resources.files(TREC_PACKAGE).joinpath(TREC_NAME).read_bytes()).hexdigest()
    return LabelledPages(cands, np.array([int(r["credibility"]) for r in rows]),
                         np.array([int(r["topic_id"]) for r in rows]), np.array([int(r["stance"]) for r in rows]),
                         np.array([_ANSWER.get(r["correct_stance"], -1) for r in rows]),
                         page_features(cands).matrix, digest)


class FoldModels:
    """Calibrated models fitted without a set of topics, made on first use and kept.

    Args:
        pages: the labelled pages.
        cfg: how to fit (layers, regularization).
    """

    def __init__(self, pages: LabelledPages, cfg: FitConfig | None = None) -> None:
        self.pages = pages
        self.cfg = FitConfig() if cfg is None else cfg
        self._models: dict[frozenset[int], PageModel] = {}

    def without(self, topics: frozenset[int]) -> PageModel:
        """The model fitted on every page outside ``topics``."""
        model = self._models.get(topics)
        if model is None:
            keep = ~np.isin(self.pages.topics, list(topics))
            p = self.pages
            model = fit_page_model(p.matrix[keep], p.labels[keep], p.topics[keep], self.cfg,
                                   meta={"left_out_topics": sorted(topics)})
            self._models[topics] = model
        return model

    @property
    def fitted(self) -> int:
        """How many models were fitted so far."""
        return len(self._models)


class CrossFitPageEvidence(PageEvidence):
    """:class:`PageEvidence` whose model for a candidate never saw its domain's topics.

    A candidate whose domain has no labelled page is scored by the shipped model (fitted on every
    page, it saw nothing of that candidate; with other ``FoldModels`` settings, the model they fit
    on every page). Use it in place of the shipped tier on any track built from the labelled pages.
    """

    name = "page-crossfit"

    def __init__(self, folds: FoldModels) -> None:
        shipped = folds.cfg == FitConfig()
        super().__init__(load_page_model() if shipped else folds.without(frozenset()))
        self.folds = folds
        self._topics_of = folds.pages.domain_topics()

    def estimate(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> list[PageEstimate]:
        """One estimate per candidate, each from the model fitted without the candidate's topics."""
        groups: dict[frozenset[int], list[int]] = {}
        for i, c in enumerate(candidates):
            groups.setdefault(self._topics_of.get(c.domain or c.host or c.url, frozenset()), []).append(i)
        out: list[PageEstimate | None] = [None] * len(candidates)
        for topics, idx in groups.items():
            tier = PageEvidence(self.folds.without(topics) if topics else self.model, classifier=self.classifier)
            flags = None if hosted is None else [hosted[i] for i in idx]
            for i, est in zip(idx, tier.estimate([candidates[i] for i in idx], flags)):
                out[i] = est
        return [e for e in out if e is not None]


def crossfit_page_tier(cfg: FitConfig | None = None) -> CrossFitPageEvidence:
    """The cross-fitted tier over the vendored pages (one per call: fitted models are kept inside)."""
    return CrossFitPageEvidence(FoldModels(labelled_pages(), cfg))


def honest_scorer(scorer: AuthorityScorer, task_family: str, cfg: FitConfig | None = None) -> AuthorityScorer:
    """``scorer`` with its page tier cross-fitted when the task is built from the labelled pages.

    Any other scorer or task family is returned as it is (the shipped model never saw their labels).
    """
    if task_family not in PAGE_TASK_FAMILIES or not isinstance(scorer, TieredAuthority) or scorer.page is None:
        return scorer
    honest = copy.copy(scorer)
    honest.page = crossfit_page_tier(cfg)
    honest.name = f"{scorer.name}[crossfit]"
    return honest


def model_meta(pages: LabelledPages, cfg: FitConfig) -> dict[str, Any]:
    """What the shipped model's ``meta`` records about its training data."""
    return {"name": "trec_hm2019_nist_credibility", "data": f"{TREC_PACKAGE}/{TREC_NAME}", "data_sha256": pages.sha256,
            "labels": "NIST page credibility (TREC HM 2019, golden-gaze balanced sample)",
            "groups": "TREC topic (Platt scaling on leave-topic-out logits)", "credible": int(pages.labels.sum()),
            "weak_labels": "none (UT1 and CRED-1 list 2 of the 276 pages' domains)", "l2": cfg.l2}


__all__ = ["PAGE_TASK_FAMILIES", "CrossFitPageEvidence", "FoldModels", "LabelledPages", "crossfit_page_tier",
           "honest_scorer", "labelled_pages", "model_meta"]
