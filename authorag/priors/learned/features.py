"""Domain-name features for the learned prior: vectorized, deterministic, no network.

A registrable domain ``best-cheap-pills-online.biz`` is split at its first dot into the *name*
(``best-cheap-pills-online``) and the public *suffix* (``biz``). Features:

- hashed sparse indices (2**18 buckets): character n-grams (2–5) of ``^name$``, alphabetic
  tokens of the name (split at hyphens, digits, underscores), the suffix and its last label;
- a small dense block (:data:`DENSE_NAMES`): suffix class (gov, edu, mil, int, national
  government / academic second levels, ccTLD, legacy generic, new gTLD, private), name length,
  digit and hyphen counts, dictionary-word coverage, spam-keyword count, brand-likeness.

Everything runs on a batch at once with numpy (a polynomial rolling hash over a byte matrix,
names grouped by length), so featurizing 100k domains takes well under a second. Hashes are fixed constants, never
Python's salted ``hash``: the same domain always gives the same features.

Example:
    >>> f = featurize(["nasa.gov", "best-cheap-pills-online.biz"])
    >>> len(f), f.dense.shape == (2, len(DENSE_NAMES))
    (2, True)
    >>> float(f.dense[1, DENSE_NAMES.index("spam_words")])  # best, cheap, pill, pills, online
    5.0
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError
from authorag.priors.learned._namehash import (
    P,
    hash_index,
    read_batch,
    string_hashes,
    word_stats,
)

HASH_BITS = 18
"""Size of the hashed feature space: 2**18 weights (1 MiB as float32)."""
NGRAM_SIZES = (2, 3, 4, 5)
MAX_CHARS = 40
"""Names are truncated to this many characters before hashing (lengths use the real length)."""
_BUCKETS = (7, 10, 13, 17, 24, MAX_CHARS)
"""Names are processed in groups of similar length so that short names do not pay for long ones."""
_SALT_TOKEN = 0x5BD1E995
_SALT_SUFFIX = 0x61C88647
_SALT_TLD = 0x7FEB352D

_GOV_SLD = frozenset({"gov", "gob", "gouv", "go", "govt", "gv", "admin", "mil", "gc", "bund"})
_ACADEMIC_SLD = frozenset({"ac", "edu", "sch"})
_CC_SLD = frozenset({"co", "com", "net", "org", "or", "ne", "ltd", "plc", "nic", "info", "biz",
                     "nom", "in", "me", "web", "firm", "gen", "res", "int", "pp", "ind", "news"})
_LEGACY = frozenset({"com", "net", "org", "info", "biz", "name", "pro", "aero", "coop", "museum",
                     "mobi", "jobs", "travel", "tel", "cat", "asia", "xxx", "post"})
SUFFIX_CLASSES = ("gov", "mil", "edu", "int", "cc_gov", "cc_academic", "cc_second_level", "cctld",
                  "legacy_generic", "new_gtld", "private")
_LEN_EDGES = (4, 6, 8, 10, 13, 16, 21)
DENSE_NAMES: tuple[str, ...] = (
    *(f"suffix_{c}" for c in SUFFIX_CLASSES),
    "len_1_3", "len_4_5", "len_6_7", "len_8_9", "len_10_12", "len_13_15", "len_16_20", "len_21_up",
    "len_log", "digits_0", "digits_1", "digits_2_up", "digit_share", "hyphens_0", "hyphens_1",
    "hyphens_2", "hyphens_3_up", "word_cover", "word_cover_full", "word_cover_none",
    "longest_word_share", "spam_words", "spam_1", "spam_2_up", "brand_like", "punycode", "tokens_log",
)
"""Names of the dense feature columns, in order."""


PAD = 1 << HASH_BITS
"""Index of the padding slot: a weight vector has ``PAD + 1`` entries and the last one is 0."""


@dataclass(frozen=True, slots=True)
class FeatureBlock:
    """Hashed indices of the rows of one length group.

    Attributes:
        rows: positions of these domains in the batch.
        indices: ``(len(rows), k)`` indices into the hashed space; padding slots hold :data:`PAD`.
    """

    rows: NDArray[np.intp]
    indices: NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class DomainFeatures:
    """Features of a batch of registrable domains.

    Attributes:
        blocks: hashed sparse features, one block per length group (rows partition the batch).
        dense: ``(n, len(DENSE_NAMES))`` float32 dense features, in batch order.
    """

    blocks: tuple[FeatureBlock, ...]
    dense: NDArray[np.float32]

    def __len__(self) -> int:
        return int(self.dense.shape[0])

    def hashed_sum(self, weights: NDArray[np.float32]) -> NDArray[np.float32]:
        """Per-domain sum of ``weights`` over its hashed indices.

        ``weights`` has ``PAD + 1`` rows (the last one zero: padding) and optionally columns:
        several weight vectors stacked as columns are summed in one gather, ``(n, columns)`` out.
        """
        out = np.zeros((len(self), *weights.shape[1:]), dtype=np.float32)
        for block in self.blocks:
            out[block.rows] = weights[block.indices].sum(axis=1)
        return out


def split_domain(domain: str) -> tuple[str, str]:
    """Split a registrable domain into (name, public suffix) at its first dot.

    Example:
        >>> split_domain("bbc.co.uk")
        ('bbc', 'co.uk')
    """
    name, _, suffix = domain.partition(".")
    return name, suffix


def suffix_class(suffix: str) -> str:
    """The class of a public suffix (one of :data:`SUFFIX_CLASSES`).

    Example:
        >>> suffix_class("gov.uk"), suffix_class("ac.jp"), suffix_class("shop")
        ('cc_gov', 'cc_academic', 'new_gtld')
    """
    labels = suffix.split(".")
    last = labels[-1]
    if len(labels) == 1:
        if last in ("gov", "mil", "edu", "int"):
            return last
        if last in _LEGACY:
            return "legacy_generic"
        return "cctld" if len(last) == 2 else "new_gtld"
    first = labels[0]
    if len(labels) == 2 and len(last) == 2:
        if first in _GOV_SLD:
            return "cc_gov"
        if first in _ACADEMIC_SLD:
            return "cc_academic"
        if first in _CC_SLD:
            return "cc_second_level"
    return "private"


@cache
def _suffix_info(suffix: str) -> tuple[int, int, int]:
    """(suffix index, last-label index, class number) for one suffix (few distinct: cached)."""
    h = string_hashes([suffix, suffix.rsplit(".", 1)[-1]])
    sfx = int(hash_index(h[:1], _SALT_SUFFIX, HASH_BITS)[0])
    tld = int(hash_index(h[1:], _SALT_TLD, HASH_BITS)[0])
    return sfx, tld, SUFFIX_CLASSES.index(suffix_class(suffix))


def _validate(codes: NDArray[np.uint8], lengths: NDArray[np.int64], domains: Sequence[str],
              rows: NDArray[np.intp]) -> None:
    allowed = np.zeros(256, dtype=np.bool_)
    allowed[list(b"abcdefghijklmnopqrstuvwxyz0123456789-_")] = True
    allowed[0] = True
    bad_rows = ~allowed[codes].all(axis=1) | (lengths == 0)
    if bad_rows.any():
        bad = domains[int(rows[np.flatnonzero(bad_rows)[0]])]
        raise ConfigError(
            f"cannot featurize domain {bad!r}: expected a lower-case registrable domain like "
            f"'example.co.uk' (the name before the first dot must be letters, digits, '-' or '_'); "
            "normalize URLs with authorag.domains.parse_host(url).domain first")


def _ngram_indices(codes: NDArray[np.uint8], lengths: NDArray[np.int64]) -> list[NDArray[np.int32]]:
    """Hashed n-grams of ``^name$`` (markers added in the matrix), one array per n-gram size."""
    n, width = codes.shape
    marked = np.zeros((n, width + 2), dtype=np.uint32)
    marked[:, 0] = ord("^")
    marked[:, 1:width + 1] = codes
    marked[np.arange(n), np.minimum(lengths, width) + 1] = ord("$")
    total = np.minimum(lengths, width) + 2
    pos = np.arange(width + 2)
    out: list[NDArray[np.int32]] = []
    h = marked
    for size in range(2, max(NGRAM_SIZES) + 1):
        span = width + 3 - size
        h = h[:, :span] * P + marked[:, size - 1:size - 1 + span]
        if size in NGRAM_SIZES:
            idx = hash_index(h, size, HASH_BITS).astype(np.int32)
            idx[pos[None, :span] + size > total[:, None]] = PAD
            out.append(idx)
    return out


def _token_indices(codes: NDArray[np.uint8]) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """Hashes of maximal alphabetic runs (tokens split at hyphens, digits, underscores), count."""
    alpha = (codes >= ord("a")) & (codes <= ord("z"))
    h = np.zeros(codes.shape, dtype=np.uint32)
    run = np.zeros(codes.shape[0], dtype=np.uint32)
    c32 = codes.astype(np.uint32)
    for j in range(codes.shape[1]):
        run = np.where(alpha[:, j], run * P + c32[:, j], np.uint32(0))
        h[:, j] = run
    end = alpha.copy()
    end[:, :-1] &= ~alpha[:, 1:]
    idx = hash_index(h, _SALT_TOKEN, HASH_BITS).astype(np.int32)
    idx[~end] = PAD
    return idx, end.sum(axis=1).astype(np.int64)


def _dense(codes: NDArray[np.uint8], lengths: NDArray[np.int64], classes: NDArray[np.intp],
           tokens: NDArray[np.int64]) -> NDArray[np.float32]:
    n = codes.shape[0]
    out = np.zeros((n, len(DENSE_NAMES)), dtype=np.float32)
    rows = np.arange(n)
    col = {name: i for i, name in enumerate(DENSE_NAMES)}
    digits = ((codes >= ord("0")) & (codes <= ord("9"))).sum(axis=1)
    hyphens = (codes == ord("-")).sum(axis=1)
    cover, longest, spam = word_stats(codes, lengths)
    out[rows, classes] = 1.0
    out[rows, col["len_1_3"] + np.searchsorted(_LEN_EDGES, lengths, side="right")] = 1.0
    out[rows, col["digits_0"] + np.minimum(digits, 2)] = 1.0
    out[rows, col["hyphens_0"] + np.minimum(hyphens, 3)] = 1.0
    out[rows, col["spam_words"]] = spam
    out[rows, col["spam_1"]] = spam == 1
    out[rows, col["spam_2_up"]] = spam >= 2
    out[:, col["len_log"]] = np.log1p(lengths)
    out[:, col["digit_share"]] = digits / np.maximum(lengths, 1)
    out[:, col["word_cover"]] = cover
    out[:, col["word_cover_full"]] = cover >= 0.999
    out[:, col["word_cover_none"]] = cover == 0.0
    out[:, col["longest_word_share"]] = longest
    out[:, col["brand_like"]] = (digits == 0) & (hyphens == 0) & (lengths <= 8) & (cover < 0.5)
    out[:, col["punycode"]] = (codes[:, 0] == ord("x")) & (codes[:, 1] == ord("n")) & (codes[:, 2] == ord("-"))
    out[:, col["tokens_log"]] = np.log1p(tokens)
    return out


def featurize(domains: Sequence[str]) -> DomainFeatures:
    """Features of registrable domains (``Candidate.domain``: lower case, punycode).

    Args:
        domains: registrable domains such as ``"example.co.uk"``; a host with sub-domains is
            read wrongly (its first label is taken as the name), so normalize URLs first with
            :func:`authorag.domains.parse_host`.

    Returns:
        :class:`DomainFeatures` for the batch (same order).

    Raises:
        ConfigError: a domain that is not a string, has no dot, or has characters a
            registrable domain cannot have.

    Example:
        >>> len(featurize(["nytimes.com", "bbc.co.uk"]))
        2
    """
    batch = read_batch(domains)
    info = np.array([_suffix_info(sfx) for sfx in batch.suffixes], dtype=np.intp).reshape(-1, 3)[batch.suffix_ids]
    lengths = batch.name_lengths
    groups = np.searchsorted(np.asarray(_BUCKETS[:-1]), lengths, side="left")
    dense = np.zeros((len(lengths), len(DENSE_NAMES)), dtype=np.float32)
    blocks: list[FeatureBlock] = []
    for g, width in enumerate(_BUCKETS):
        rows = np.flatnonzero(groups == g)
        if len(rows) == 0:
            continue
        codes = batch.names(rows, width)
        _validate(codes, lengths[rows], domains, rows)
        ngrams = _ngram_indices(codes, lengths[rows])
        tok_idx, tokens = _token_indices(codes)
        suffix_idx = info[rows, :2].astype(np.int32)
        blocks.append(FeatureBlock(rows, np.concatenate([*ngrams, tok_idx, suffix_idx], axis=1)))
        dense[rows] = _dense(codes, np.minimum(lengths[rows], 255), info[rows, 2], tokens)
    return DomainFeatures(blocks=tuple(blocks), dense=dense)


def to_sparse(features: DomainFeatures) -> object:
    """A ``scipy.sparse.csr_matrix`` of shape ``(n, PAD + len(DENSE_NAMES))`` for training.

    Hashed columns hold counts; the dense features follow. Inference works on
    :class:`DomainFeatures` directly (:meth:`DomainFeatures.hashed_sum`).
    """
    from scipy import sparse

    rows_all: list[NDArray[np.intp]] = []
    cols_all: list[NDArray[np.int32]] = []
    for block in features.blocks:
        keep = block.indices != PAD
        rows_all.append(np.broadcast_to(block.rows[:, None], block.indices.shape)[keep])
        cols_all.append(block.indices[keep])
    rows = np.concatenate(rows_all) if rows_all else np.zeros(0, dtype=np.intp)
    cols = np.concatenate(cols_all) if cols_all else np.zeros(0, dtype=np.int32)
    hashed = sparse.csr_matrix((np.ones(len(cols)), (rows, cols)), shape=(len(features), PAD))
    hashed.sum_duplicates()
    return sparse.hstack([hashed, sparse.csr_matrix(features.dense.astype(np.float64))], format="csr")
