"""Page evidence: a calibrated credibility estimate for pages no table knows, from the page itself.

Layers (each with its contribution and reason in the breakdown): URL evidence
(:mod:`~authorag.evidence.url`), source type (:mod:`authorag.suitability`), text evidence
(:mod:`~authorag.evidence.text`); the model (:mod:`~authorag.evidence.model`) is fitted by
:mod:`~authorag.evidence.train` and :func:`page_trust` maps its probability to the trust scale.
:class:`PageEvidence` is the tier (``ScorerSettings(page_evidence=True)`` adds it to the default
composition).

Example:
    >>> from authorag.types import Candidate
    >>> est = PageEvidence().estimate([Candidate.create("https://zq-shop.biz/cart?ref=x", "")])[0]
    >>> est.trust < 0.3, [layer.layer for layer in est.layers]
    (True, ['url', 'type', 'text'])
"""
from __future__ import annotations

from authorag.evidence.model import TRUST_HIGH, TRUST_LOW, PageModel, load_page_model, page_trust
from authorag.evidence.tier import LayerEvidence, PageEstimate, PageEvidence

__all__ = ["TRUST_HIGH", "TRUST_LOW", "LayerEvidence", "PageEstimate", "PageEvidence", "PageModel", "load_page_model",
           "page_trust"]
