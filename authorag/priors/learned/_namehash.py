"""Hashing primitives of the learned prior's features: byte matrices, rolling hashes, words.

Private to :mod:`authorag.priors.learned.features`. A batch of domains becomes one ASCII byte buffer;
names are gathered from it into zero-padded matrices, and a 32-bit polynomial rolling hash with
fixed constants (never Python's salted ``hash``) indexes hash buckets and the word bitmap.

Example:
    >>> batch = read_batch(["bbc.co.uk", "nasa.gov"])
    >>> batch.suffixes, batch.suffix_ids.tolist(), batch.name_lengths.tolist()
    (('co.uk', 'gov'), [0, 1], [3, 4])
"""
from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError

P = np.uint32(16_777_619)
MIX = np.uint32(0x9E3779B1)
WORD_BITS = 22
"""The word bitmap has 2**22 slots (4 MiB); ~21k words make false hits rare (~0.5 %)."""
SALT_WORD = 0x27D4EB2F

# Words of commercial keyword stuffing (hand-written list, not learned): a name built from
# several of these reads like an ad, not like a publisher's brand.
SPAM_WORDS: tuple[str, ...] = (
    "best", "cheap", "cheapest", "buy", "free", "online", "discount", "deal", "deals", "pills",
    "pill", "casino", "loan", "loans", "payday", "pharmacy", "viagra", "cialis", "sale", "bonus",
    "bet", "bets", "betting", "win", "cash", "money", "meds", "replica", "outlet", "coupon",
    "coupons", "promo", "review", "reviews", "top", "download", "crack", "porn", "sex", "xxx",
    "dating", "diet", "weight", "forex", "crypto", "insurance", "credit", "hot", "now", "fast",
    "easy", "shop", "store", "lowest", "price", "prices", "rich", "slots", "poker",
)



def hash_index(h: NDArray[np.uint32], salt: int, bits: int) -> NDArray[np.intp]:
    """Bucket of each hash in a table of ``2**bits`` (multiplicative hashing)."""
    mixed = (h ^ np.uint32(salt)) * MIX
    return (mixed >> np.uint32(32 - bits)).astype(np.intp)


def gather_matrix(flat: NDArray[np.uint8], starts: NDArray[np.int64], lengths: NDArray[np.int64],
                  width: int) -> NDArray[np.uint8]:
    """``(len(starts), width)`` bytes of ``flat[start:start+length]``, zero-padded or truncated."""
    cols = np.arange(width)
    inside = cols[None, :] < lengths[:, None]
    if not len(flat):
        return np.zeros((len(starts), width), dtype=np.uint8)
    pos = np.where(inside, starts[:, None] + cols[None, :], 0)
    return np.where(inside, flat[pos], np.uint8(0)).astype(np.uint8)


def _ascii(text: str, items: Sequence[str]) -> NDArray[np.uint8]:
    try:
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError as exc:
        bad = next(n for n in items if not n.isascii())
        raise ConfigError(
            f"domain name {bad!r} is not ASCII; pass registrable domains in punycode "
            "(Candidate.domain, or authorag.domains.parse_host(url).domain)") from exc


def byte_matrix(strings: Sequence[str], width: int) -> NDArray[np.uint8]:
    """``(len(strings), width)`` bytes of ASCII strings, zero-padded (longer ones truncated)."""
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    return gather_matrix(_ascii("".join(strings), strings), np.cumsum(lengths) - lengths, lengths, width)


def string_hashes(strings: Sequence[str]) -> NDArray[np.uint32]:
    """The polynomial hash of each whole string (used for words and suffixes)."""
    width = max((len(s) for s in strings), default=1) or 1
    mat = byte_matrix(strings, width).astype(np.uint32)
    h = np.zeros(len(strings), dtype=np.uint32)
    for j in range(width):
        col = mat[:, j]
        h = np.where(col > 0, h * P + col, h)
    return h


@cache
def word_table() -> NDArray[np.uint8]:
    """Flags per hash slot (``2**WORD_BITS``): 1 = dictionary word, 2 = spam word; built once."""
    raw = resources.files("authorag.data").joinpath("learned_prior_words.txt.gz").read_bytes()
    words = gzip.decompress(raw).decode("ascii").split()
    table = np.zeros(1 << WORD_BITS, dtype=np.uint8)
    table[hash_index(string_hashes(words), SALT_WORD, WORD_BITS)] |= 1
    table[hash_index(string_hashes(list(SPAM_WORDS)), SALT_WORD, WORD_BITS)] |= 3
    return table


@dataclass(frozen=True, slots=True)
class Batch:
    """A batch of registrable domains as one byte buffer.

    Attributes:
        flat: the domains joined by newlines, ASCII bytes.
        starts: offset of each domain in ``flat``.
        name_lengths: length of each name (the part before the first dot).
        suffixes: the distinct public suffixes, sorted.
        suffix_ids: index into ``suffixes`` for each domain.
    """

    flat: NDArray[np.uint8]
    starts: NDArray[np.int64]
    name_lengths: NDArray[np.int64]
    suffixes: tuple[str, ...]
    suffix_ids: NDArray[np.intp]

    def names(self, rows: NDArray[np.intp], width: int) -> NDArray[np.uint8]:
        """Byte matrix of the names of ``rows``."""
        return gather_matrix(self.flat, self.starts[rows], self.name_lengths[rows], width)


def _no_suffix(domain: str) -> ConfigError:
    return ConfigError(f"cannot featurize {domain!r}: expected a registrable domain with a public "
                       "suffix like 'example.org' (normalize URLs with authorag.domains.parse_host)")


def read_batch(domains: Sequence[str]) -> Batch:
    """Split every domain at its first dot, without a Python-level loop over the string parts.

    Raises:
        ConfigError: a non-string, a non-ASCII string, a string without a dot or with an empty
            suffix, or one containing a line break.
    """
    try:
        joined = "\n".join(domains)
    except TypeError:
        bad = next(d for d in domains if not isinstance(d, str))  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ConfigError(f"cannot featurize {bad!r}: expected a domain string like 'example.org', "
                          f"got {type(bad).__name__}") from None
    flat = _ascii(joined, domains)
    lengths = np.fromiter(map(len, domains), dtype=np.int64, count=len(domains))
    starts = np.cumsum(lengths + 1) - (lengths + 1)
    ends = starts + lengths
    if int((flat == 10).sum()) != max(len(domains) - 1, 0):
        raise ConfigError(f"cannot featurize {next(d for d in domains if chr(10) in d)!r}: contains a line break")
    dots = np.flatnonzero(flat == ord("."))
    k = np.searchsorted(dots, starts)
    first = dots[np.minimum(k, len(dots) - 1)] if len(dots) else ends
    missing = (k >= len(dots)) | (first >= ends - 1)
    if missing.any():
        raise _no_suffix(domains[int(np.flatnonzero(missing)[0])])
    sfx_len = ends - first - 1
    sfx = gather_matrix(flat, first + 1, sfx_len, int(sfx_len.max(initial=1)))
    uniq, ids = np.unique(np.ascontiguousarray(sfx).view(f"S{sfx.shape[1]}").ravel(), return_inverse=True)
    suffixes = tuple(u.decode("ascii") for u in uniq.tolist())
    return Batch(flat, starts, first - starts, suffixes, ids.astype(np.intp).ravel())

def word_stats(codes: NDArray[np.uint8], lengths: NDArray[np.int64]) -> tuple[
        NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(share of characters covered by dictionary words, longest word share, spam word count)."""
    table = word_table()
    n, width = codes.shape
    c32 = codes.astype(np.uint32)
    reach = np.zeros((n, width), dtype=np.int8)
    longest = np.zeros(n, dtype=np.int64)
    spam_count = np.zeros(n, dtype=np.int64)
    pos = np.arange(width, dtype=np.int8)
    h = c32
    for size in range(2, 11):
        span = width + 1 - size
        if span <= 0:
            break
        h = h[:, :span] * P + c32[:, size - 1:size - 1 + span]
        if size < 3:
            continue
        flags = table[hash_index(h, SALT_WORD, WORD_BITS)]
        flags[pos[None, :span] + size > lengths[:, None]] = 0
        hit = (flags & 1).astype(np.bool_)
        np.maximum(reach[:, :span], np.where(hit, pos[:span] + np.int8(size), np.int8(0)),
                   out=reach[:, :span])
        longest[hit.any(axis=1)] = size
        spam_count += (flags >> 1).sum(axis=1, dtype=np.int64)
    covered = (np.maximum.accumulate(reach, axis=1) > pos[None, :]).sum(axis=1)
    denom = np.maximum(np.minimum(lengths, width), 1)
    return covered / denom, longest / denom, spam_count.astype(np.float64)
