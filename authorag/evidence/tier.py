"""PageEvidence: a credibility estimate for a page whose domain no table knows, from the page itself.

:meth:`PageEvidence.estimate` reads the URL, source-type and text layers
(:mod:`authorag.evidence.features`), applies the model (:mod:`authorag.evidence.model`) and
returns a :class:`PageEstimate` per candidate: the calibrated probability that the page is
credible, its value on the trust scale (:func:`~authorag.evidence.model.page_trust`), a
confidence and each layer's contribution with its reason.

Thin evidence keeps the page unknown: with no readable text (empty, binary, under 30 words or
not English) and no URL cue, the estimate has ``credibility=None`` and trust
:data:`~authorag.types.UNKNOWN_LEVEL`, with the reason. Bad input never raises.

:meth:`PageEvidence.detail` turns an estimate into the :class:`~authorag.types.AuthorityDetail`
the tiers pass on: tier ``page`` (when nothing else knew the source), ``authority`` left as it
was (page evidence says nothing about recognition), ``credibility`` = the trust-scale value,
``credibility_sources`` = the probability and the layers (``page.*``).

Example:
    >>> from authorag.types import Candidate
    >>> page = PageEvidence()
    >>> est = page.estimate([Candidate.create("https://zq-shop.biz/product/miracle?hop=x", ""),
    ...                      Candidate.create("https://zq-blog.biz/", "")])
    >>> est[0].thin, est[1].thin, est[1].reason
    (False, True, 'thin evidence: no page text and no URL cue')
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from authorag.evidence.features import FEATURES, LAYER_OF, LAYERS, FeatureBatch, page_features
from authorag.evidence.model import PageModel, load_page_model, page_trust
from authorag.evidence.text import FAMILIES, STATUS_REASONS, SYMBOLS
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.trust import PAGE_EVIDENCE_SOURCE
from authorag.types import UNKNOWN_AUTHORITY, UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue

MAX_CONFIDENCE = 0.5
"""A page's own evidence never claims more confidence than a suffix rule."""
FULL_WORDS = 500
"""Words of text at which the text layer's share of the confidence is full."""
URL_ONLY_CONFIDENCE = 0.3
"""Share of :data:`MAX_CONFIDENCE` a URL cue gives without text."""
FILLS_TIERS = frozenset({"unknown", "hosted", "learned", "judge"})
"""Tiers whose details the page tier adds credibility to (when they carry none): every tier that is
not a table, a suffix rule or a reserved name."""


@dataclass(frozen=True, slots=True)
class LayerEvidence:
    """One layer's part of a page estimate.

    Attributes:
        layer: ``url``, ``type``, ``text`` (or ``pool``).
        contribution: its contribution to the logit (0: no evidence or neutral).
        reason: what the layer saw.
    """

    layer: str
    contribution: float
    reason: str


@dataclass(frozen=True, slots=True)
class PageEstimate:
    """What a page's own evidence says about its credibility.

    Attributes:
        credibility: calibrated probability that the page is credible; None when thin.
        trust: the value on the trust scale (``UNKNOWN_LEVEL`` when thin).
        confidence: 0 (thin) to :data:`MAX_CONFIDENCE`.
        logit: the model's logit before calibration (0 when thin).
        layers: each layer's contribution and reason.
        reason: one line for the note.
    """

    credibility: float | None
    trust: float
    confidence: float
    logit: float
    layers: tuple[LayerEvidence, ...]
    reason: str

    @property
    def thin(self) -> bool:
        """True when the evidence was too thin to move the page off the unknown level."""
        return self.credibility is None


class PageEvidence:
    """The page-evidence tier (usable alone as an ``AuthorityScorer`` of tier ``page``).

    Args:
        model: the model (default: the shipped one, :func:`~authorag.evidence.model.load_page_model`).
        classifier: the source-type classifier of the type layer (default: URL rule layers).

    Example:
        >>> from authorag.types import Candidate
        >>> d = PageEvidence().score([Candidate.create("https://zq-shop.biz/cart?ref=x", "")])[0]
        >>> d.tier, d.authority, d.credibility < 0.3
        ('page', None, True)
    """

    name = "page"

    def __init__(self, model: PageModel | None = None, *, classifier: SourceTypeClassifier | None = None) -> None:
        self.model = load_page_model() if model is None else model
        self.classifier = classifier

    def estimate(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> list[PageEstimate]:
        """One estimate per candidate, in order (``hosted``: see :func:`~authorag.evidence.features.page_features`)."""
        if not candidates:
            return []
        batch = page_features(candidates, self.classifier, hosted)
        per = self.model.contributions(batch.matrix)
        parts = np.stack([per[:, _LAYER_COLUMNS[layer]].sum(axis=1) for layer in LAYERS], axis=1)
        logits = self.model.bias + parts.sum(axis=1)
        probs = self.model.calibrated(logits)
        top_text = np.argsort(-np.abs(per[:, _TEXT_COLUMNS]), axis=1)[:, :3]
        return [self._one(batch, i, float(logits[i]), float(probs[i]), parts[i].tolist(),
                          [(int(_TEXT_COLUMNS[j]), float(per[i, _TEXT_COLUMNS[j]])) for j in top_text[i]])
                for i in range(len(candidates))]

    def _one(self, batch: FeatureBatch, i: int, logit: float, prob: float, parts: list[float],
             top_text: list[tuple[int, float]]) -> PageEstimate:
        url, stype, status = batch.url[i], batch.source_type[i], batch.text.status[i]
        words = int(batch.text.words[i])
        reasons = {
            "url": "; ".join(why for _, why in url.cues) or ("URL shape only" if url.has_path else "bare domain"),
            "type": (f"{stype.source_type} ({stype.reason})" if stype.source_type != "unknown" else "type unknown"),
            "text": _text_reason(status, words, top_text) if status in ("read", "not_english") else batch.text.reason(i),
        }
        layers = (LayerEvidence("url", round(parts[0], 4), reasons["url"]),
                  LayerEvidence("type", round(parts[1], 4), reasons["type"]),
                  LayerEvidence("text", round(parts[2], 4), reasons["text"]))
        if status != "read" and not url.cues:
            why = "no page text" if status == "empty" else batch.text.reason(i)
            return PageEstimate(None, UNKNOWN_LEVEL, 0.0, 0.0, layers, f"thin evidence: {why} and no URL cue")
        share = min(1.0, words / FULL_WORDS) if status == "read" else 0.0
        confidence = MAX_CONFIDENCE * max(share, URL_ONLY_CONFIDENCE if url.cues else 0.0)
        trust = page_trust(prob, self.model.base_rate)
        top = max(layers, key=lambda le: abs(le.contribution))
        reason = f"page evidence: credible with p={prob:.2f} (trust {trust:.3f}); strongest layer {top.layer} " \
                 f"({top.contribution:+.2f}: {top.reason})"
        return PageEstimate(prob, trust, round(confidence, 4), logit, layers, reason)

    def detail(self, estimate: PageEstimate, base: AuthorityDetail = UNKNOWN_AUTHORITY) -> AuthorityDetail:
        """``base`` with the page's credibility added (tier ``page`` when ``base`` is unknown).

        A thin estimate returns ``base`` with the reason added to its note.
        """
        note = f"{base.note}; {estimate.reason}" if base.note else estimate.reason
        if estimate.credibility is None:
            return dataclasses.replace(base, note=note)
        url, stype, text = estimate.layers
        sources = (SourceValue(PAGE_EVIDENCE_SOURCE, estimate.trust, round(estimate.credibility, 4)),
                   SourceValue("page.url", url.contribution, url.reason),
                   SourceValue("page.type", stype.contribution, stype.reason),
                   SourceValue("page.text", text.contribution, text.reason))
        unknown = base.tier == "unknown"
        return AuthorityDetail(base.authority, estimate.confidence if unknown else base.confidence,
                               "page" if unknown else base.tier, base.sources, estimate.trust,
                               (*base.credibility_sources, *sources), base.matched, note)

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """``AuthorityScorer`` protocol: the page tier alone (every candidate treated as unknown)."""
        return [self.detail(e) for e in self.estimate(candidates)]

    def fill(self, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail]) -> list[AuthorityDetail]:
        """``details`` with page credibility added where their tier is in :data:`FILLS_TIERS` and no
        credibility is known (the page tier behind another scorer)."""
        todo = [i for i, d in enumerate(details) if d.tier in FILLS_TIERS and d.credibility is None]
        out = list(details)
        hosted = [details[i].tier == "hosted" for i in todo]  # the hosted tier already asked the platform index
        for i, est in zip(todo, self.estimate([candidates[i] for i in todo], hosted)):
            out[i] = self.detail(est, details[i])
        return out

    def __repr__(self) -> str:
        return f"PageEvidence(model={self.model.meta.get('name', 'custom')!r})"


_LAYER_COLUMNS = {layer: np.array([LAYER_OF[f] == layer for f in FEATURES]) for layer in LAYERS}
_TEXT_COLUMNS = np.array([j for j, f in enumerate(FEATURES) if LAYER_OF[f] == "text"])
_CUE_NAMES = {f"t.{f}": why for f, (why, _) in FAMILIES.items()} | {f"t.{s}": why for s, (why, _) in SYMBOLS.items()} \
    | {"t.ids": "DOI or PubMed words", "t.len": "page length"}


def _text_reason(status: str, words: int, top: list[tuple[int, float]]) -> str:
    """The status, words read and the (up to three) text features that moved the logit most, with their sign."""
    cues = ", ".join(f"{_CUE_NAMES[FEATURES[j]]} {v:+.2f}" for j, v in top if abs(v) >= 0.01)
    head = f"{words} words read" if status == "read" else STATUS_REASONS["not_english"]
    return f"{head}; {cues}" if cues else head


__all__ = ["FILLS_TIERS", "MAX_CONFIDENCE", "LayerEvidence", "PageEstimate", "PageEvidence"]
