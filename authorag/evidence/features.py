"""The page-evidence feature matrix: URL, source-type and text layers of a batch of candidates.

:func:`page_features` reads each candidate once per layer (the text layer in one batched pass)
and returns a float matrix with one column per :data:`FEATURES` name, NaN where a layer has no
evidence (text not read), plus what each layer saw (for the reasons in the breakdown).

The source-type layer is :class:`~authorag.suitability.classifier.SourceTypeClassifier` on the
URL layers only (suffix, lists, platform, path): the text layer reads the page's words itself.
Its features are the winning type's confidence in that type's column.

Example:
    >>> from authorag.types import Candidate
    >>> batch = page_features([Candidate.create("https://a-clinic.org/faq", "A short page.")])
    >>> batch.matrix.shape == (1, len(FEATURES)), batch.text[0].status
    (True, 'too_short')
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from authorag.evidence.text import TEXT_FEATURES, TextFeatures, text_features
from authorag.evidence.url import URL_FEATURES, UrlFeatures, url_features
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.suitability.taxonomy import SOURCE_TYPES, SourceTypeResult
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
    text: tuple[TextFeatures, ...]


@cache
def default_type_classifier() -> SourceTypeClassifier:
    """The source-type classifier the layer uses: URL rule layers only, shipped lists."""
    return SourceTypeClassifier(layers=("suffix", "list", "platform", "path"))


def page_features(candidates: Sequence[Candidate], classifier: SourceTypeClassifier | None = None) -> FeatureBatch:
    """The feature matrix of ``candidates`` (never raises on odd URLs or text)."""
    clf = default_type_classifier() if classifier is None else classifier
    urls = tuple(url_features(c.url, c.host, c.domain) for c in candidates)
    types = tuple(clf.classify_url(c.url) for c in candidates)
    texts = tuple(text_features([c.text for c in candidates]))
    matrix = np.zeros((len(candidates), len(FEATURES)))
    for i, (u, s, t) in enumerate(zip(urls, types, texts)):
        matrix[i, :len(URL_FEATURES)] = u.values
        if s.source_type != "unknown":
            matrix[i, _TYPE_COLUMN[s.source_type]] = s.confidence
        matrix[i, _TEXT_START:] = [np.nan if v is None else v for v in t.values]
    return FeatureBatch(matrix, urls, types, texts)


__all__ = ["FEATURES", "LAYERS", "LAYER_OF", "TYPE_FEATURES", "EvidenceLayer", "FeatureBatch",
           "default_type_classifier", "page_features"]
