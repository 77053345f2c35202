"""Page evidence: a credibility estimate for pages no table knows, from the page itself, that speaks
only on cues it found and abstains otherwise.

Layers (each with its contribution and reason in the breakdown): URL evidence
(:mod:`~authorag.evidence.url`), source type (:mod:`authorag.suitability`), text evidence
(:mod:`~authorag.evidence.text`: the language from :mod:`~authorag.evidence.lang`, the cues
per language); the model (:mod:`~authorag.evidence.model`) scores the cues found and calibrates
the score, and :func:`page_trust` maps its probability to the trust scale. :class:`PageEvidence`
is the tier (``ScorerSettings(page_evidence=True)`` adds it to the default composition).

Example:
    >>> from authorag.types import Candidate
    >>> text = "Download the registry fixer now! It removes every virus and malware. Click for an instant scan."
    >>> est = PageEvidence().estimate([Candidate.create("https://zq-pcfix.biz/get", text)])[0]
    >>> est.trust < 0.3, est.cues
    (True, ('download-and-fix spam (download, fixer, malware, virus, click, instant)',))
"""
from __future__ import annotations

from authorag.evidence.model import TRUST_HIGH, TRUST_LOW, PageModel, load_page_model, page_trust
from authorag.evidence.tier import LayerEvidence, PageEstimate, PageEvidence

__all__ = ["TRUST_HIGH", "TRUST_LOW", "LayerEvidence", "PageEstimate", "PageEvidence", "PageModel", "load_page_model",
           "page_trust"]
