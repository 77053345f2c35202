"""Key-word counts of many pages in a few numpy passes (the page-evidence text layer's reader).

:class:`WordCounter` takes groups of key words (lower-case ASCII letters and digits, at most 15
characters) and returns, per page, how many words each group holds and how many words the page
has. A page is read as bytes: ASCII letters are lower-cased and every other byte (punctuation,
white space, the bytes of non-ASCII characters) separates words, so ``"Studies,"`` counts as
``studies`` and ``"café"`` as ``caf``.

All pages of a batch are joined into one byte string; word starts and ends are where runs of
separators begin and end; only words of a key word's shape (first letter, last letter, length)
are compared with the keys, exactly, as two 8-byte integers. Cost grows with the bytes read, not
with the number of keys.

Example:
    >>> counter = WordCounter({"study": ("study", "studies"), "you": ("you", "your")})
    >>> counts, words = counter.count([b"Two studies: your study.", b"nothing here"])
    >>> counts.tolist(), words.tolist()
    ([[2, 1], [0, 0]], [4, 2])
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError

MAX_KEY_LEN = 14
"""Longest key word: the shape filter's length field saturates at 15, so 15 means "longer than any key"."""
_SEP = 32
_FOLD = bytes(b + 32 if 65 <= b <= 90 else b if (97 <= b <= 122 or 48 <= b <= 57) else _SEP for b in range(256))
"""Byte map: A-Z to a-z, a-z and 0-9 kept, everything else a separator (space)."""
_SPAN = np.arange(16)
_KEEP = (_SPAN[None, :] < _SPAN[:, None]).astype(np.uint8) * np.uint8(255)
"""Row n: 0xFF on the first n bytes of a 16-byte window, zero after."""
_LENGTH_BYTE = np.zeros((16, 16), dtype=np.uint8)
_LENGTH_BYTE[:, 15] = np.arange(16, dtype=np.uint8)
_MIX = np.uint64(0x9E3779B97F4A7C15)


def _shape(first: NDArray[np.uint8], last: NDArray[np.uint8], length: NDArray[np.intp]) -> NDArray[np.intp]:
    """Index into the shape table: 5 low bits of the first and last byte, length saturated at 15."""
    return ((first & 31).astype(np.intp) << 9) | ((last & 31).astype(np.intp) << 4) | np.minimum(length, 15)


class WordCounter:
    """Counts the words of each key-word group in a batch of pages.

    Args:
        groups: group name -> its key words; a word belongs to the first group that lists it.

    Raises:
        ConfigError: no groups, or a key word that is empty, longer than 14 characters, or not
            made of lower-case ASCII letters and digits.
    """

    def __init__(self, groups: Mapping[str, Iterable[str]]) -> None:
        self.groups = tuple(groups)
        if not self.groups:
            raise ConfigError("WordCounter needs at least one group of key words, got none")
        owner: dict[bytes, int] = {}
        for g, name in enumerate(self.groups):
            for word in groups[name]:
                key = word.encode("ascii", "replace")
                if not key or len(key) > MAX_KEY_LEN or key.translate(_FOLD) != key or key != key.lower():
                    raise ConfigError(f"key word {word!r} of group {name!r} must be 1-{MAX_KEY_LEN} lower-case "
                                      "ASCII letters or digits")
                owner.setdefault(key, g)
        keys = sorted(owner)
        self._group_of = np.array([owner[k] for k in keys], dtype=np.intp)
        codes = np.frombuffer(b"".join(k.ljust(15, b"\0") + bytes([len(k)]) for k in keys),
                              dtype=np.uint64).reshape(-1, 2)
        hashes = codes[:, 0] ^ (codes[:, 1] * _MIX)
        if len(set(hashes.tolist())) != len(keys):  # pragma: no cover - distinct keys, distinct codes
            raise ConfigError("two key words share a hash; rename one")
        order = np.argsort(hashes)
        self._codes, self._hashes, self._order = codes, hashes[order], order
        self._shapes = np.zeros(1 << 14, dtype=np.bool_)
        for k in keys:
            self._shapes[((k[0] & 31) << 9) | ((k[-1] & 31) << 4) | len(k)] = True

    def count(self, raws: Sequence[bytes]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Per page: key words per group (shape ``(pages, groups)``) and all words (``(pages,)``)."""
        n, g = len(raws), len(self.groups)
        if n == 0:
            return np.zeros((0, g), dtype=np.int64), np.zeros(0, dtype=np.int64)
        a = np.frombuffer(b" ".join([*raws, b" " * 16]).translate(_FOLD), dtype=np.uint8)
        space = np.empty(len(a) + 1, dtype=np.bool_)
        space[0] = True
        np.equal(a, _SEP, out=space[1:])
        edges = np.flatnonzero(space[1:] != space[:-1])  # start, end, start, end ...
        starts, ends = edges[0::2], edges[1::2]
        bounds = np.cumsum([len(r) + 1 for r in raws])  # page p ends before bounds[p]
        words = np.diff(np.searchsorted(starts, bounds), prepend=0).astype(np.int64)
        lengths = ends - starts
        maybe = np.flatnonzero(self._shapes[_shape(a[starts], a[ends - 1], lengths)])
        counts = np.zeros(n * g, dtype=np.int64)
        if len(maybe):
            s, ln = starts[maybe], lengths[maybe]
            page = np.searchsorted(bounds, s, side="right")
            window = a[s[:, None] + _SPAN]
            window &= _KEEP[ln]
            window |= _LENGTH_BYTE[ln]
            codes = window.view(np.uint64)
            where = np.searchsorted(self._hashes, codes[:, 0] ^ (codes[:, 1] * _MIX))
            key = self._order[np.minimum(where, len(self._order) - 1)]
            exact = (self._codes[key] == codes).all(axis=1)
            counts += np.bincount(page[exact] * g + self._group_of[key[exact]], minlength=n * g)
        return counts.reshape(n, g), words


__all__ = ["MAX_KEY_LEN", "WordCounter"]
