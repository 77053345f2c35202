"""The URL and source-type layers of page evidence: what a candidate's address and source type show.

Neither layer reads the text, so :class:`UrlReader` remembers their reading per URL (bounded:
:data:`MEMO_SIZE` URLs of at most :data:`MEMO_KEY_CHARS` characters); the tier keeps one, and a
URL seen again costs a dictionary look-up.

The source-type layer is :class:`~authorag.suitability.classifier.SourceTypeClassifier` on the
URL layers only (suffix, lists, path). Its only cue is a listed content farm: no URL pattern or
source type makes a page credible (:data:`LOW_TYPES`).

Example:
    >>> from authorag.types import Candidate
    >>> ev = UrlReader().read([Candidate.create("https://a-clinic.org/faq?hop=x1", "")])[0]
    >>> ev.low_cues
    (('u.referral', 'affiliate referral parameter'),)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from authorag.bounded import BoundedDict
from authorag.evidence.url import LOW_URL_CUES, UrlFeatures, url_features
from authorag.suitability.classifier import SourceTypeClassifier, combine, split_url
from authorag.suitability.taxonomy import SourceTypeResult, unknown_source
from authorag.types import Candidate

EvidenceLayer = Literal["url", "type", "text"]
LAYERS: tuple[EvidenceLayer, ...] = ("url", "type", "text")
LOW_TYPES = frozenset({"content_farm"})
"""Source types known to mean low credibility (the type layer's only cue)."""

MEMO_SIZE = 10_000
MEMO_KEY_CHARS = 512
"""URLs whose readings are remembered: at most 10k URLs of at most 512 characters (about 1 kB each
here, as much again in the tier's memo of details); past that, the oldest are forgotten first."""


@dataclass(frozen=True, slots=True)
class UrlEvidence:
    """What the URL and source-type layers read of one candidate (nothing of its text).

    Attributes:
        url: the URL layer's reading.
        source_type: the source-type layer's result.
        low_cues: the cues of both layers known to mean low credibility, as (name, what was found).
        url_reason: what the URL layer saw, for the breakdown.
        type_reason: what the source-type layer saw, for the breakdown.
    """

    url: UrlFeatures
    source_type: SourceTypeResult
    low_cues: tuple[tuple[str, str], ...]
    url_reason: str
    type_reason: str


@cache
def default_type_classifier() -> SourceTypeClassifier:
    """The source-type classifier the layer uses: suffix, list and path rule layers, shipped lists."""
    return SourceTypeClassifier(layers=("suffix", "list", "path"))


def _source_type(clf: SourceTypeClassifier, c: Candidate) -> SourceTypeResult:
    """The classifier's rule votes for the candidate's host and path (its URL is parsed already)."""
    if c.host is None:
        return _NO_HOST
    return combine(clf.rule_votes(c.host, c.domain, split_url(c.url), "")) or _NO_TYPE


_NO_HOST = unknown_source("no readable host in the URL")
_NO_TYPE = unknown_source("no layer matched the host or path")


def url_evidence(c: Candidate, classifier: SourceTypeClassifier, hosted: bool | None = None) -> UrlEvidence:
    """The URL and source-type layers' reading of one candidate (``hosted``: the caller knows
    whether it is user content on a hosting platform; None: the URL layer asks the platform index)."""
    url = url_features(c.url, c.host, c.domain, hosted)
    stype = _source_type(classifier, c)
    low = [(name, why) for name, why in url.cues if name in LOW_URL_CUES]
    if stype.source_type in LOW_TYPES:
        low.append((f"s.{stype.source_type}", f"{stype.source_type} ({stype.reason})"))
    url_reason = "; ".join(why for _, why in url.cues) or ("URL shape only" if url.has_path else "bare domain")
    type_reason = f"{stype.source_type} ({stype.reason})" if stype.source_type != "unknown" else "type unknown"
    return UrlEvidence(url, stype, tuple(low), url_reason, type_reason)


class UrlReader:
    """The URL and source-type layers of one classifier, remembering their reading per URL.

    Args:
        classifier: the source-type classifier (default: :func:`default_type_classifier`).
        size: URLs remembered at most (0: none); past that, the oldest are forgotten first (no
            bookkeeping on a hit).
    """

    def __init__(self, classifier: SourceTypeClassifier | None = None, size: int = MEMO_SIZE) -> None:
        self.classifier = default_type_classifier() if classifier is None else classifier
        self.size = size
        self._memo: BoundedDict[tuple[str, str | None, str | None, bool | None], UrlEvidence] = BoundedDict(size)

    def read(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> tuple[UrlEvidence, ...]:
        """The reading of each candidate, in order."""
        memo, out = self._memo, []
        for i, c in enumerate(candidates):
            flag = None if hosted is None else bool(hosted[i])
            key = (c.url, c.host, c.domain, flag)
            ev = memo.get(key)
            if ev is None:
                ev = url_evidence(c, self.classifier, flag)
                if len(c.url) <= MEMO_KEY_CHARS:
                    memo.put(key, ev)
            out.append(ev)
        return tuple(out)


__all__ = ["LAYERS", "LOW_TYPES", "MEMO_KEY_CHARS", "MEMO_SIZE", "EvidenceLayer", "UrlEvidence", "UrlReader",
           "default_type_classifier", "url_evidence"]
