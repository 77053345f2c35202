"""The page-evidence feature matrix: URL, source-type and text layers of a batch of candidates.

:func:`page_features` reads each candidate once per layer (the text layer in one batched pass)
and returns a float matrix with one column per :data:`FEATURES` name, NaN where a layer has no
evidence (text not read), plus what each layer saw (for the reasons in the breakdown).

The source-type layer is :class:`~authorag.suitability.classifier.SourceTypeClassifier` on the
URL layers only (suffix, lists, path): the text layer reads the page's words itself, and hosting
platforms are the URL layer's ``u.hosted`` cue.
Its features are the winning type's confidence in that type's column.

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


@dataclass(frozen=True, slots=True)
class FeatureBatch:
    """The features of a batch of candidates.

    Attributes:
        matrix: ``(candidates, len(FEATURES))`` floats; NaN = no evidence from that feature.
        url: the URL layer's reading per candidate.
        source_type: the source-type layer's result per candidate.
        text: the text layer's reading per candidate.
    """

    matrix: NDArray[np.float64]
    url: tuple[UrlFeatures, ...]
    source_type: tuple[SourceTypeResult, ...]
    text: TextBatch


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


def page_features(candidates: Sequence[Candidate], classifier: SourceTypeClassifier | None = None,
                  hosted: Sequence[bool] | None = None) -> FeatureBatch:
    """The feature matrix of ``candidates`` (never raises on odd URLs or text).

    ``hosted``: per candidate, whether it is user content on a hosting platform, when the caller
    already knows (the hosted tier asked the platform index); None: the URL layer asks it.
    """
    clf = default_type_classifier() if classifier is None else classifier
    urls = tuple(url_features(c.url, c.host, c.domain, None if hosted is None else hosted[i])
                 for i, c in enumerate(candidates))
    types = tuple(_source_type(clf, c) for c in candidates)
    texts = text_features([c.text for c in candidates])
    matrix = np.zeros((len(candidates), len(FEATURES)))
    if candidates:
        matrix[:, :len(URL_FEATURES)] = [u.values for u in urls]
        matrix[:, _TEXT_START:] = texts.values
    for i, s in enumerate(types):
        if s.source_type != "unknown":
            matrix[i, _TYPE_COLUMN[s.source_type]] = s.confidence
    return FeatureBatch(matrix, urls, types, texts)


__all__ = ["FEATURES", "LAYERS", "LAYER_OF", "TYPE_FEATURES", "EvidenceLayer", "FeatureBatch",
           "default_type_classifier", "page_features"]
