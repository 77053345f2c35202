"""A sentence-transformers model directory read with transformers alone (:class:`PooledTransformer`).

Importing sentence-transformers pulls pandas, pyarrow, scikit-learn, scipy, sympy and Pillow into
the process, a few hundred megabytes a server worker never uses. A directory whose
``modules.json`` lists a Transformer, a Pooling (mean, CLS or max tokens) and optionally a
Normalize module is read here with ``transformers.AutoTokenizer`` and ``transformers.AutoModel``
instead, computing the same embeddings; :func:`pooled_pipeline` says whether a directory is one.
A plain BERT encoder (the bundled MiniLM) is built without ``AutoModel``, whose import costs more
than the model (:mod:`authorag.relevance.bert`).
Any other pipeline is loaded by sentence-transformers (:func:`authorag.relevance.dense.DenseEncoder`).
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.relevance.bert import bert_tokens, load_bert, plain_bert

TRANSFORMER = "sentence_transformers.models.Transformer"
POOLING = "sentence_transformers.models.Pooling"
NORMALIZE = "sentence_transformers.models.Normalize"

POOLING_MODES = ("mean", "cls", "max")
"""How :class:`PooledTransformer` turns token embeddings into one vector: their mean over the text's
tokens, the first (CLS) token's, or their element-wise maximum."""

_LEGACY_MODES = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls",
                 "pooling_mode_max_tokens": "max"}


def pooled_pipeline(path: Path) -> tuple[str, bool] | None:
    """The pooling mode and whether the embeddings are normalized, when ``path``'s ``modules.json``
    is Transformer -> Pooling (one of :data:`POOLING_MODES`) -> optional Normalize; else None (the
    directory needs sentence-transformers)."""
    try:
        modules = json.loads((path / "modules.json").read_text(encoding="utf-8"))
        types = [str(m["type"]) for m in modules]
        if types not in ([TRANSFORMER, POOLING], [TRANSFORMER, POOLING, NORMALIZE]) or modules[0].get("path", ""):
            return None
        pooling = json.loads((path / str(modules[1]["path"]) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    mode = _pooling_mode(pooling) if isinstance(pooling, dict) else None
    return None if mode is None else (mode, len(types) == 3)


def _pooling_mode(config: dict[str, Any]) -> str | None:
    """The one supported mode ``config`` (a Pooling ``config.json``) names, else None."""
    if "pooling_mode" in config:
        mode = config["pooling_mode"]
        return mode if mode in POOLING_MODES else None
    on = [key for key, value in config.items() if key.startswith("pooling_mode_") and value]
    return _LEGACY_MODES[on[0]] if len(on) == 1 and on[0] in _LEGACY_MODES else None


class PooledTransformer:
    """A Transformer -> Pooling -> optional Normalize sentence-transformers model, run with transformers.

    Args:
        path: the model directory (:func:`pooled_pipeline` is not None for it).
        device: torch device (None: a GPU when torch sees one, else the CPU).
        max_tokens: tokens of each text read, the special ones included (None: the directory's
            ``max_seq_length``; a larger value is capped at it).
        quantize: applied to the loaded transformers model (e.g. int8 linear layers), or None.

    Raises:
        ValueError: ``path`` is not a supported pipeline.
    """

    def __init__(self, path: Path, *, device: str | None = None, max_tokens: int | None = None,
                 quantize: Callable[[Any], Any] | None = None) -> None:
        pipeline = pooled_pipeline(path)
        if pipeline is None:
            raise ValueError(f"{path} is not a Transformer -> Pooling ({'/'.join(POOLING_MODES)}) -> optional "
                             "Normalize sentence-transformers model; load it with sentence-transformers")
        import torch
        from transformers import AutoTokenizer

        self.pooling, self.normalize = pipeline
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer: Any = AutoTokenizer.from_pretrained(str(path), use_fast=True, local_files_only=True)
        self.bert_config = plain_bert(path)
        """The directory's config when :func:`~authorag.relevance.bert.load_bert` builds its encoder
        (transformers' modelling layer is then never imported), else None (``AutoModel``)."""
        model = _auto_model(path) if self.bert_config is None else load_bert(path, self.bert_config)
        model = model.to(self.device).eval()
        self.model: Any = model if quantize is None else quantize(model)
        own = _max_seq_length(path, self.tokenizer, self.model, self.bert_config)
        self.max_seq_length = own if max_tokens is None else min(max_tokens, own)
        self._tokenizing = threading.Lock()  # a fast tokenizer's truncation is set per call: one call at a time

    def encode(self, texts: Sequence[str], *, batch_size: int = 32, normalize_embeddings: bool = False,
               convert_to_numpy: bool = True, show_progress_bar: bool = False) -> Any:
        """Embed ``texts`` in batches of ``batch_size`` (the longest texts together, as
        sentence-transformers batches them): a float32 array of shape ``(len(texts), dim)`` (a
        torch tensor when ``convert_to_numpy`` is False); ``show_progress_bar`` is accepted and
        ignored."""
        import torch

        del show_progress_bar
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        parts: list[Any] = []
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                parts.append(self._batch([texts[i] for i in order[start:start + batch_size]], normalize_embeddings))
        if not parts:
            return np.zeros((0, 0), dtype=np.float32) if convert_to_numpy else torch.zeros((0, 0))
        stacked = torch.cat(parts)[torch.tensor(np.argsort(order))]
        if not convert_to_numpy:
            return stacked
        out: NDArray[np.float32] = stacked.cpu().numpy().astype(np.float32)
        return out

    def _batch(self, texts: list[str], normalize: bool) -> Any:
        """The embeddings of one batch (under ``torch.inference_mode``)."""
        import torch

        with self._tokenizing:
            features = self.tokenizer([t.strip() for t in texts], padding=True, truncation="longest_first",
                                      max_length=self.max_seq_length, return_tensors="pt")
        features = {k: v.to(self.device) for k, v in features.items()}
        if self.bert_config is None:
            tokens = self.model(**features, return_dict=False)[0]
        else:
            types = features.get("token_type_ids")
            tokens = bert_tokens(self.model, int(self.bert_config["num_attention_heads"]), features["input_ids"],
                                 torch.zeros_like(features["input_ids"]) if types is None else types,
                                 features["attention_mask"])
        mask = features["attention_mask"].unsqueeze(-1).to(tokens.dtype)
        if self.pooling == "cls":
            pooled = tokens[:, 0]
        elif self.pooling == "max":
            pooled = tokens.masked_fill(mask == 0, -1e9).max(dim=1).values
        else:
            pooled = (tokens * mask).sum(dim=1) / torch.clamp(mask.sum(dim=1), min=1e-9)
        if self.normalize or normalize:
            pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
        return pooled

    def __repr__(self) -> str:
        return (f"PooledTransformer(pooling={self.pooling!r}, normalize={self.normalize!r}, "
                f"max_seq_length={self.max_seq_length})")


def _auto_model(path: Path) -> Any:
    """The directory's model read by ``transformers.AutoModel`` (any architecture)."""
    from transformers import AutoModel

    return AutoModel.from_pretrained(str(path), local_files_only=True)


def _max_seq_length(path: Path, tokenizer: Any, model: Any, model_config: dict[str, Any] | None = None) -> int:
    """The directory's ``max_seq_length`` (``sentence_bert_config.json``), else the smaller of the
    tokenizer's and the model's position limits (from ``model_config``, else the model's own config)."""
    try:
        config = json.loads((path / "sentence_bert_config.json").read_text(encoding="utf-8"))
        value = config.get("max_seq_length") if isinstance(config, dict) else None
    except (OSError, ValueError):
        value = None
    if isinstance(value, int) and value > 0:
        return value
    positions = model_config.get("max_position_embeddings") if model_config is not None else \
        getattr(model.config, "max_position_embeddings", 0)
    limits = [int(tokenizer.model_max_length), int(positions or 0)]
    return min(v for v in limits if v > 0) if any(v > 0 for v in limits) else 512
