"""The page-evidence feature matrix: URL, source-type and text layers of a batch of candidates.

:func:`page_features` reads each candidate once per layer (the text layer in one batched pass)
and returns a float matrix with one column per :data:`FEATURES` name, NaN where a layer has no
evidence (text not read), plus what each layer saw (for the reasons in the breakdown).

The source-type layer is :class:`~authorag.suitability.classifier.SourceTypeClassifier` on the
URL layers only (suffix, lists, path): the text layer reads the page's words itself, and hosting
platforms are the URL layer's ``u.hosted`` cue.
Its features are the winning type's confidence in that type's column.

Neither layer reads the text, so :class:`UrlReader` remembers their reading per URL (bounded:
:data:`MEMO_SIZE` URLs of at most :data:`MEMO_KEY_CHARS` characters); the tier keeps one, and a
URL seen again costs a dictionary look-up for those two layers.

Example:
    >>> from authorag.types import Candidate
    >>> batch = page_features([Candidate.create("https://a-clinic.org/faq", "A short page.")])
    >>> batch.matrix.shape == (1, len(FEATURES)), batch.text.status[0]
    (True, 'too_short')
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from authorag.evidence.text import TEXT_FEATURES, TextBatch, text_features
from authorag.evidence.url import URL_FEATURES, UrlFeatures, url_features
from authorag.suitability.classifier import SourceTypeClassifier, combine, split_url
from authorag.suitability.taxonomy import SOURCE_TYPES, SourceTypeResult, unknown_source
from authorag.types import Candidate

EvidenceLayer = Literal["url", "type", "text"]
LAYERS: tuple[EvidenceLayer, ...] = ("url", "type", "text")
TYPE_FEATURES: tuple[str, ...] = tuple(f"s.{t}" for t in SOURCE_TYPES if t != "unknown")
FEATURES: tuple[str, ...] = (*URL_FEATURES, *TYPE_FEATURES, *TEXT_FEATURES)
"""Every feature name, in matrix column order."""
LAYER_OF: dict[str, EvidenceLayer] = {**{n: "url" for n in URL_FEATURES}, **{n: "type" for n in TYPE_FEATURES},
                                      **{n: "text" for n in TEXT_FEATURES}}
_TYPE_COLUMN = {t: len(URL_FEATURES) + i for i, t in enumerate(t for t in SOURCE_TYPES if t != "unknown")}
_TEXT_START = len(URL_FEATURES) + len(TYPE_FEATURES)


MEMO_SIZE = 10_000
MEMO_KEY_CHARS = 512
"""URLs whose readings are remembered: at most 10k URLs of at most 512 characters (about 1 kB each
here, as much again in the tier's memo of details); a full memo is forgotten at once."""


@dataclass(frozen=True, slots=True)
class UrlEvidence:
    """What the URL and source-type layers read of one candidate (nothing of its text).

    Attributes:
        url: the URL layer's reading.
        source_type: the source-type layer's result.
        row: the candidate's URL and source-type columns of the feature matrix.
        url_reason: what the URL layer saw, for the breakdown.
        type_reason: what the source-type layer saw, for the breakdown.
    """

    url: UrlFeatures
    source_type: SourceTypeResult
    row: tuple[float, ...]
    url_reason: str
    type_reason: str


@dataclass(frozen=True, slots=True)
class FeatureBatch:
    """The features of a batch of candidates.

    Attributes:
        matrix: ``(candidates, len(FEATURES))`` floats; NaN = no evidence from that feature.
        url: the URL layer's reading per candidate.
        source_type: the source-type layer's result per candidate.
        text: the text layer's reading per candidate.
        evidence: the URL and source-type layers' reading per candidate, with their reasons.
    """

    matrix: NDArray[np.float64]
    url: tuple[UrlFeatures, ...]
    source_type: tuple[SourceTypeResult, ...]
    text: TextBatch
    evidence: tuple[UrlEvidence, ...]


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
_TYPE_ZEROS = (0.0,) * len(TYPE_FEATURES)


def url_evidence(c: Candidate, classifier: SourceTypeClassifier, hosted: bool | None = None) -> UrlEvidence:
    """The URL and source-type layers' reading of one candidate (``hosted``: see :func:`page_features`)."""
    url = url_features(c.url, c.host, c.domain, hosted)
    stype = _source_type(classifier, c)
    types = _TYPE_ZEROS
    if stype.source_type != "unknown":
        at = _TYPE_COLUMN[stype.source_type] - len(URL_FEATURES)
        types = (*_TYPE_ZEROS[:at], stype.confidence, *_TYPE_ZEROS[at + 1:])
    url_reason = "; ".join(why for _, why in url.cues) or ("URL shape only" if url.has_path else "bare domain")
    type_reason = f"{stype.source_type} ({stype.reason})" if stype.source_type != "unknown" else "type unknown"
    return UrlEvidence(url, stype, (*url.values, *types), url_reason, type_reason)


class UrlReader:
    """The URL and source-type layers of one classifier, remembering their reading per URL.

    Args:
        classifier: the source-type classifier (default: :func:`default_type_classifier`).
        size: URLs remembered at most (0: none); a full memo is emptied at once (a service's working
            set refills it; no per-entry bookkeeping on the hot path).
    """

    def __init__(self, classifier: SourceTypeClassifier | None = None, size: int = MEMO_SIZE) -> None:
        self.classifier = default_type_classifier() if classifier is None else classifier
        self.size = size
        self._memo: dict[tuple[str, str | None, str | None, bool | None], UrlEvidence] = {}

    def read(self, candidates: Sequence[Candidate], hosted: Sequence[bool] | None = None) -> tuple[UrlEvidence, ...]:
        """The reading of each candidate, in order."""
        memo, out = self._memo, []
        for i, c in enumerate(candidates):
            flag = None if hosted is None else bool(hosted[i])
            key = (c.url, c.host, c.domain, flag)
            ev = memo.get(key)
            if ev is None:
                ev = url_evidence(c, self.classifier, flag)
                if len(c.url) <= MEMO_KEY_CHARS and self.size > 0:
                    if len(memo) >= self.size:
                        memo.clear()
                    memo[key] = ev
            out.append(ev)
        return tuple(out)


def page_features(candidates: Sequence[Candidate], classifier: SourceTypeClassifier | None = None,
                  hosted: Sequence[bool] | None = None, reader: UrlReader | None = None) -> FeatureBatch:
    """The feature matrix of ``candidates`` (never raises on odd URLs or text).

    ``hosted``: per candidate, whether it is user content on a hosting platform, when the caller
    already knows (the hosted tier asked the platform index); None: the URL layer asks it.
    ``reader``: where the URL and source-type readings are remembered (its classifier is used;
    None: read afresh with ``classifier``).
    """
    if reader is None:
        reader = UrlReader(classifier, size=0)
    evidence = reader.read(candidates, hosted)
    texts = text_features([c.text for c in candidates])
    matrix = np.empty((len(candidates), len(FEATURES)))
    if candidates:
        matrix[:, :_TEXT_START] = [ev.row for ev in evidence]
        matrix[:, _TEXT_START:] = texts.values
    return FeatureBatch(matrix, tuple(ev.url for ev in evidence), tuple(ev.source_type for ev in evidence), texts,
                        evidence)


__all__ = ["FEATURES", "LAYERS", "LAYER_OF", "MEMO_KEY_CHARS", "MEMO_SIZE", "TYPE_FEATURES", "EvidenceLayer",
           "FeatureBatch", "UrlEvidence", "UrlReader", "default_type_classifier", "page_features", "url_evidence"]
