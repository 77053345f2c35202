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

from authorag.evidence.features import (
    FEATURES,
    LAYER_OF,
    LAYERS,
    MEMO_KEY_CHARS,
    MEMO_SIZE,
    UrlEvidence,
    UrlReader,
    page_features,
)
from authorag.evidence.model import PageModel, load_page_model, page_trust
from authorag.evidence.text import FAMILIES, STATUS_REASONS, SYMBOLS, TextStatus
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.trust import PAGE_EVIDENCE_SOURCE
from authorag.types import UNKNOWN_DETAIL, UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue

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

    def __init__(self, model: PageModel | None = None, *, classifier: SourceTypeClassifier | None = None,
                 memo_size: int = MEMO_SIZE) -> None:
        self.model = load_page_model() if model is None else model
        self.classifier = classifier
        self.memo_size = memo_size
        self._memo_for: tuple[PageModel, SourceTypeClassifier | None] = (self.model, classifier)
        self._reader = UrlReader(classifier, memo_size)
        self._details: dict[tuple[str, int, int], _Remembered] = {}
        # The details are remembered only for this class's own estimate (a subclass may estimate otherwise).
        self._remember = memo_size > 0 and type(self).estimate is PageEvidence.estimate

    def _fresh_memos(self) -> None:
        """Forget what was remembered for another model or classifier (both are public attributes)."""
        if self._memo_for[0] is not self.model or self._memo_for[1] is not self.classifier:
            self._memo_for = (self.model, self.classifier)
            self._reader = UrlReader(self.classifier, self.memo_size)
            self.forget_pages()

    def forget_pages(self) -> None:
        """Forget the remembered page details (the URL and source-type readings stay remembered)."""
        self._details = {}

    def estimate(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> list[PageEstimate]:
        """One estimate per candidate, in order (``hosted``: see :func:`~authorag.evidence.features.page_features`)."""
        if not candidates:
            return []
        self._fresh_memos()
        batch = page_features(candidates, hosted=hosted, reader=self._reader)
        per = self.model.contributions(batch.matrix)
        parts = np.stack([per[:, _LAYER_COLUMNS[layer]].sum(axis=1) for layer in LAYERS], axis=1)
        logits = self.model.bias + parts.sum(axis=1)
        probs = self.model.calibrated(logits)
        text_per = per[:, _TEXT_COLUMNS]
        top_text: list[list[int]] = np.argsort(-np.abs(text_per), axis=1)[:, :3].tolist()
        text_values: list[list[float]] = text_per.tolist()
        words: list[int] = batch.text.words.tolist()
        base_rate, out = self.model.base_rate, list[PageEstimate]()
        for i, (ev, status, logit, prob, part) in enumerate(zip(batch.evidence, batch.text.status, logits.tolist(),
                                                                 probs.tolist(), parts.tolist())):
            if status == "read" or status == "not_english":
                row = text_values[i]
                text_reason = _text_reason(status, words[i], [(j, row[j]) for j in top_text[i]])
            else:
                text_reason = STATUS_REASONS[status]
            out.append(_one(ev, status, words[i], logit, prob, part, text_reason, base_rate))
        return out

    def detail(self, estimate: PageEstimate, base: AuthorityDetail = UNKNOWN_DETAIL) -> AuthorityDetail:
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
        return self._filled(candidates, [UNKNOWN_DETAIL] * len(candidates), None)

    def fill(self, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail]) -> list[AuthorityDetail]:
        """``details`` with page credibility added where their tier is in :data:`FILLS_TIERS` and no
        credibility is known (the page tier behind another scorer)."""
        return self._filled(candidates, details, True)

    def _filled(self, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail],
                hosted_known: bool | None) -> list[AuthorityDetail]:
        """The details of :meth:`fill` (``hosted_known``: a base of tier ``hosted`` says the page is
        hosted) or of :meth:`score` (None: the URL layer asks the platform index).

        The detail of a candidate depends only on its URL, text, host, domain and base detail (a
        tier hands out the same detail object for the same source), so it is remembered per URL and
        text: the key holds the text's length and ``hash`` (Python's string hash is keyed per
        process, so two texts cannot be made to collide on purpose), never the text itself, so the
        memo's memory stays bounded by its size whatever the texts' length. It is used only from
        batches of two or more, and a lone miss is estimated beside another candidate: numpy adds
        the layer sums of a one-row batch in another order (pairwise, not column by column), which
        can move the last bit of a value.
        """
        self._fresh_memos()
        todo = [i for i, d in enumerate(details) if d.credibility is None and d.tier in FILLS_TIERS]
        out, memo = list(details), self._details
        if len(todo) > 1 and self._remember:
            todo, hits = [], todo
            for i in hits:
                c = candidates[i]
                hit = memo.get((c.url, len(c.text), hash(c.text)))
                if hit is not None and hit.base is details[i] and hit.host == c.host and hit.domain == c.domain:
                    out[i] = hit.detail
                else:
                    todo.append(i)
            if len(todo) == 1:
                todo.append(next(i for i in hits if i != todo[0]))
        if not todo:
            return out
        hosted = None if hosted_known is None else [details[i].tier == "hosted" for i in todo]
        for i, est in zip(todo, self.estimate([candidates[i] for i in todo], hosted)):
            out[i] = detail = self.detail(est, details[i])
            c = candidates[i]
            if len(todo) > 1 and self._remember and len(c.url) <= MEMO_KEY_CHARS:
                if len(memo) >= self.memo_size:
                    memo.clear()
                memo[(c.url, len(c.text), hash(c.text))] = _Remembered(c.host, c.domain, details[i], detail)
        return out

    def __repr__(self) -> str:
        return f"PageEvidence(model={self.model.meta.get('name', 'custom')!r})"


_LAYER_COLUMNS = {layer: np.array([LAYER_OF[f] == layer for f in FEATURES]) for layer in LAYERS}
_TEXT_COLUMNS = np.array([j for j, f in enumerate(FEATURES) if LAYER_OF[f] == "text"])
_CUE_NAMES = {f"t.{f}": why for f, (why, _) in FAMILIES.items()} | {f"t.{s}": why for s, (why, _) in SYMBOLS.items()} \
    | {"t.ids": "DOI or PubMed words", "t.len": "page length"}
_TEXT_NAMES = [_CUE_NAMES[FEATURES[j]] for j in _TEXT_COLUMNS.tolist()]
"""The breakdown's name of each text feature, by its place among the text columns."""


@dataclass(frozen=True, slots=True)
class _Remembered:
    """The detail a candidate got, with what it depends on besides its URL and text."""

    host: str | None
    domain: str | None
    base: AuthorityDetail
    detail: AuthorityDetail


def _one(ev: UrlEvidence, status: TextStatus, words: int, logit: float, prob: float, parts: list[float],
         text_reason: str, base_rate: float) -> PageEstimate:
    """One candidate's estimate from its layers' readings and the model's numbers."""
    layers = (LayerEvidence("url", round(parts[0], 4), ev.url_reason),
              LayerEvidence("type", round(parts[1], 4), ev.type_reason),
              LayerEvidence("text", round(parts[2], 4), text_reason))
    cues = ev.url.cues
    if status != "read" and not cues:
        why = "no page text" if status == "empty" else STATUS_REASONS[status]
        return PageEstimate(None, UNKNOWN_LEVEL, 0.0, 0.0, layers, f"thin evidence: {why} and no URL cue")
    share = min(1.0, words / FULL_WORDS) if status == "read" else 0.0
    confidence = MAX_CONFIDENCE * max(share, URL_ONLY_CONFIDENCE if cues else 0.0)
    trust = page_trust(prob, base_rate)
    top = layers[0]  # the first of the largest |contribution|s, as max() picks it
    for le in layers[1:]:
        if abs(le.contribution) > abs(top.contribution):
            top = le
    reason = f"page evidence: credible with p={prob:.2f} (trust {trust:.3f}); strongest layer {top.layer} " \
             f"({top.contribution:+.2f}: {top.reason})"
    return PageEstimate(prob, trust, round(confidence, 4), logit, layers, reason)


def _text_reason(status: str, words: int, top: list[tuple[int, float]]) -> str:
    """The status, words read and the (up to three) text features that moved the logit most, with their
    sign (``top``: place among the text columns, contribution)."""
    cues = ", ".join([f"{_TEXT_NAMES[j]} {v:+.2f}" for j, v in top if abs(v) >= 0.01])
    head = f"{words} words read" if status == "read" else STATUS_REASONS["not_english"]
    return f"{head}; {cues}" if cues else head


__all__ = ["FILLS_TIERS", "MAX_CONFIDENCE", "LayerEvidence", "PageEstimate", "PageEvidence"]
