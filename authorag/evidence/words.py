"""Key-word counts of many pages in a few numpy passes (the page-evidence text layer's reader).

:class:`WordCounter` takes groups of key words (lower-case letters and digits, at most 14 once accents are folded
off) and returns, per page, how many words each group holds and how many words the page has. A
page is read as UTF-8 bytes: Latin letters lose their accents (:func:`fold_latin`: ``é`` -> ``e``,
``ß`` -> ``ss``, ``œ`` -> ``oe``), ASCII letters are lower-cased and every other byte
(punctuation, white space, the bytes of other non-ASCII characters) separates words, so
``"Studies,"`` counts as ``studies``, ``"gelöscht"`` as ``geloscht`` and a key word is folded
the same way (``"increíble"`` finds ``"increíble"`` and ``"increible"``).

All pages of a batch are joined into one byte string; word starts and ends are where runs of
separators begin and end; only words of a key word's shape (first letter, last letter, length)
are compared with the keys, exactly, as two 8-byte integers read in one gather, looked up in a
collision-free hash table of the keys. Cost grows with the bytes read, not with the number of
keys.

It can also hand back, per page, the bytes of a few *mark* bytes (symbols such as ``!`` or the
bytes of ``€``) in page order, found in the same pass (:meth:`WordCounter.count_marked`).

Example:
    >>> counter = WordCounter({"study": ("study", "studies"), "you": ("you", "your")}, marks=b"!$")
    >>> counts, words = counter.count([b"Two studies: your study.", b"nothing here"])
    >>> counts.tolist(), words.tolist()
    ([[2, 1], [0, 0]], [4, 2])
    >>> counter.count_marked([b"Buy! Only $5!", b"none"])[2]
    [b'!$!', b'']
    >>> fold_latin("Teilen, bevor es gelöscht wird: Straße, cœur, ÚLTIMA".encode())
    b'Teilen, bevor es geloscht wird: Strasse, coeur, ULTIMA'
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError

MAX_KEY_LEN = 14
"""Longest key word: the shape filter's length field saturates at 15, so 15 means "longer than any key"."""
_SEP = 32
_FOLD = bytes(b + 32 if 65 <= b <= 90 else b if (97 <= b <= 122 or 48 <= b <= 57) else _SEP for b in range(256))
"""Byte map: A-Z to a-z, a-z and 0-9 kept, everything else a separator (space)."""
_PAD = b" " * 16
"""Trailing separators: the last word's 16-byte window stays inside the joined pages."""
_SPAN = np.arange(16)
_KEEP = (_SPAN[None, :] < _SPAN[:, None]).astype(np.uint8) * np.uint8(255)
"""Row n: 0xFF on the first n bytes of a 16-byte window, zero after."""
_LENGTH_BYTE = np.zeros((16, 16), dtype=np.uint8)
_LENGTH_BYTE[:, 15] = np.arange(16, dtype=np.uint8)
_MASK = _KEEP.view(np.uint64)
"""Row n: the two 8-byte words that keep the first n bytes of a 16-byte window."""
_LENGTH = _LENGTH_BYTE.view(np.uint64)[:, 1]
"""Row n: the high 8-byte word with n in the window's last byte."""
_MIX = np.uint64(0x9E3779B97F4A7C15)
_EMPTY_SLOT = np.uint64(2**64 - 1)
"""No folded window holds a 0xFF byte, so no word's code equals an empty slot's."""
_TRIES = 256
_SPECIAL = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
            "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ħ": "h", "Ħ": "H", "ı": "i", "ĸ": "k",
            "ŋ": "n", "Ŋ": "N", "ſ": "s"}
"""Latin letters that canonical decomposition leaves whole, and their ASCII spelling."""


def _fold_tables() -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.bool_]]:
    """For every two-byte UTF-8 sequence ``(lead - 0xC3) * 64 + (second - 0x80)`` with lead C3-CD: its
    first folded byte, its second, and whether the second is kept. Latin-1 and Latin Extended-A
    letters (U+00C0-U+017F) become their ASCII letter(s); combining marks (U+0300-U+036F) are
    dropped (first byte 0, not kept: both bytes go); anything else stays as it is."""
    first = np.zeros(11 * 64, dtype=np.uint8)
    second = np.zeros(11 * 64, dtype=np.uint8)
    keep = np.ones(11 * 64, dtype=np.bool_)
    for i in range(11 * 64):
        char = bytes([0xC3 + i // 64, 0x80 + i % 64]).decode("utf-8")
        if unicodedata.combining(char):
            keep[i] = False
            continue
        plain = _SPECIAL.get(char) or "".join(c for c in unicodedata.normalize("NFKD", char)
                                             if not unicodedata.combining(c))
        spelled = plain.encode("utf-8") if plain.isascii() and plain.isalpha() else char.encode("utf-8")
        first[i] = spelled[0]
        second[i], keep[i] = (spelled[1], True) if len(spelled) == 2 else (0, False)
    return first, second, keep


_FOLD_FIRST, _FOLD_SECOND, _FOLD_KEEP = _fold_tables()


def _fold_bytes(raw: bytes) -> tuple[bytes, NDArray[np.intp] | None]:
    """``raw`` with Latin letters' accents folded off (:func:`fold_latin`), and for each kept byte of
    ``raw`` its position in the result (None when nothing changed)."""
    if raw.isascii():
        return raw, None
    arr = np.frombuffer(raw, dtype=np.uint8)
    lead = np.flatnonzero((arr[:-1] >= 0xC3) & (arr[:-1] <= 0xCD))
    lead = lead[(arr[lead + 1] >= 0x80) & (arr[lead + 1] < 0xC0)]  # a lead byte is never a second byte
    if not len(lead):
        return raw, None
    index = (arr[lead].astype(np.intp) - 0xC3) * 64 + (arr[lead + 1] - 0x80)
    out = arr.copy()
    out[lead], out[lead + 1] = _FOLD_FIRST[index], _FOLD_SECOND[index]
    kept = np.ones(len(arr), dtype=np.bool_)
    kept[lead + 1] = _FOLD_KEEP[index]
    kept[lead[out[lead] == 0]] = False  # a combining mark: both bytes go
    return out[kept].tobytes(), np.cumsum(kept) - 1


def fold_latin(raw: bytes) -> bytes:
    """UTF-8 ``raw`` as the counter reads it: Latin letters (U+00C0-U+017F) without their accents,
    in ASCII (canonical compatibility decomposition without combining marks; ``ß``, ``æ``, ``œ``,
    ``ø``, ``ł`` and a few more spelled out), combining marks dropped, every other byte unchanged.
    Done on bytes in a few numpy passes (two-byte sequences only), so it costs little beside the count."""
    return _fold_bytes(raw)[0]


def _shape(first: NDArray[np.uint8], last: NDArray[np.uint8], length: NDArray[np.intp]) -> NDArray[np.intp]:
    """Index into the shape table: 5 low bits of the first and last byte, length saturated at 15
    (``length`` is saturated in place; the arrays are as long as the pages have words, so the index
    is built in one array, without temporaries)."""
    index = (first & 31).astype(np.intp)
    index <<= 5
    index |= last & 31
    index <<= 4
    np.minimum(length, 15, out=length)
    index |= length
    return index


class WordCounter:
    """Counts the words of each key-word group in a batch of pages.

    Args:
        groups: group name -> its key words; a word belongs to the first group that lists it.
        marks: bytes (not ASCII letters or digits, at most 31) whose occurrences
            :meth:`count_marked` hands back per page.

    Raises:
        ConfigError: no groups, a key word that is empty, longer than 14 characters, or not made
            of lower-case letters and digits once accents are folded off (:func:`fold_latin`), or
            marks that are not distinct separator bytes.
    """

    def __init__(self, groups: Mapping[str, Iterable[str]], marks: bytes = b"") -> None:
        self.groups = tuple(groups)
        if not self.groups:
            raise ConfigError("WordCounter needs at least one group of key words, got none")
        if len(set(marks)) != len(marks) or len(marks) >= _SEP or marks.translate(_FOLD) != b" " * len(marks):
            raise ConfigError(f"marks must be at most {_SEP - 1} distinct bytes that are not ASCII letters or "
                              f"digits, got {marks!r}")
        self.marks = marks
        fold = bytearray(_FOLD)
        for code, mark in enumerate(marks, 1):
            fold[mark] = code  # below the separator code: still a separator, and found by one comparison
        self._fold = bytes(fold)
        self._unmark = np.frombuffer(bytes([0, *marks]).ljust(_SEP, b"\0"), dtype=np.uint8)
        owner: dict[bytes, int] = {}
        for g, name in enumerate(self.groups):
            for word in groups[name]:
                key = fold_latin(word.encode("utf-8", "replace"))
                if not key or len(key) > MAX_KEY_LEN or key.translate(_FOLD) != key or key != key.lower():
                    raise ConfigError(f"key word {word!r} of group {name!r} must be 1-{MAX_KEY_LEN} lower-case "
                                      "letters or digits once accents are folded off (Latin letters only)")
                owner.setdefault(key, g)
        keys = sorted(owner)
        self._group_of = np.array([owner[k] for k in keys], dtype=np.intp)
        codes = np.frombuffer(b"".join(k.ljust(15, b"\0") + bytes([len(k)]) for k in keys),
                              dtype=np.uint64).reshape(-1, 2)
        hashes = codes[:, 0] ^ (codes[:, 1] * _MIX)
        self._mult, self._shift, slots = _perfect_hash(hashes)
        size = 1 << (64 - int(self._shift))
        self._lo = np.full(size, _EMPTY_SLOT, dtype=np.uint64)
        self._hi = np.full(size, _EMPTY_SLOT, dtype=np.uint64)
        self._group = np.zeros(size, dtype=np.intp)
        self._lo[slots], self._hi[slots] = codes[:, 0], codes[:, 1]
        self._group[slots] = [owner[k] for k in keys]
        self._shapes = np.zeros(1 << 14, dtype=np.bool_)
        for k in keys:
            self._shapes[((k[0] & 31) << 9) | ((k[-1] & 31) << 4) | len(k)] = True

    def count(self, raws: Sequence[bytes]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Per page: key words per group (shape ``(pages, groups)``) and all words (``(pages,)``)."""
        counts, words, _ = self._count(raws, False)
        return counts, words

    def count_marked(self, raws: Sequence[bytes]) -> tuple[NDArray[np.int64], NDArray[np.int64], list[bytes]]:
        """:meth:`count`, and per page the bytes of it that are marks, in order."""
        return self._count(raws, True)

    def _count(self, raws: Sequence[bytes], marked: bool) -> tuple[NDArray[np.int64], NDArray[np.int64], list[bytes]]:
        n, g = len(raws), len(self.groups)
        if n == 0:
            return np.zeros((0, g), dtype=np.int64), np.zeros(0, dtype=np.int64), []
        joined, where = _fold_bytes(b" ".join([b"", *raws, _PAD]))
        folded = joined.translate(self._fold)
        before = np.frombuffer(folded, dtype=np.uint8)  # before[i] is a[i - 1]
        a = before[1:]
        space = np.empty(len(a) + 1, dtype=np.bool_)
        space[0] = True
        np.less_equal(a, _SEP, out=space[1:])
        edges = np.flatnonzero(space[1:] != space[:-1])  # start, end, start, end ...
        starts, ends = edges[0::2], edges[1::2]
        bounds = np.cumsum([len(r) + 1 for r in raws])  # page p ends before bounds[p]
        if where is not None:  # accents folded off: the separator after each page, where it now is
            bounds = where[bounds]
        cut = np.searchsorted(starts, bounds)  # the words of page p are cut[p - 1]:cut[p]
        words = np.diff(cut, prepend=0).astype(np.int64)
        lengths = ends - starts
        maybe = np.flatnonzero(self._shapes[_shape(a[starts], before[ends], lengths)])
        counts = np.zeros(n * g, dtype=np.int64)
        if len(maybe):
            s, ln = starts[maybe], lengths[maybe]  # ln <= MAX_KEY_LEN: longer words have no key's shape
            # Every 16-byte window of the pages as one (unaligned) item: one gather reads a word's two codes.
            windows = np.ndarray((len(a) - 15,), dtype="V16", buffer=folded, offset=1, strides=(1,))
            codes = windows[s].view(np.uint64).reshape(-1, 2)
            codes &= _MASK[ln]
            codes[:, 1] |= _LENGTH[ln]
            lo, hi = codes[:, 0], codes[:, 1]
            slot = ((lo ^ (hi * _MIX)) * self._mult) >> self._shift
            exact = (self._lo[slot] == lo) & (self._hi[slot] == hi)
            page = np.repeat(np.arange(n), np.diff(np.searchsorted(maybe, cut), prepend=0))[exact]
            counts += np.bincount(page * g + self._group[slot[exact]], minlength=n * g)
        return counts.reshape(n, g), words, self._marks(a, bounds) if marked else []

    def _marks(self, a: NDArray[np.uint8], bounds: NDArray[np.intp]) -> list[bytes]:
        """Each page's mark bytes, in order (``a``: the folded pages, marks as codes below the separator)."""
        at = np.flatnonzero(a < _SEP)
        kept = self._unmark[a[at]].tobytes()
        cut: list[int] = np.searchsorted(at, bounds).tolist()
        return [kept[lo:hi] for lo, hi in zip([0, *cut[:-1]], cut)]


def _perfect_hash(hashes: NDArray[np.uint64]) -> tuple[np.uint64, np.uint64, NDArray[np.uint64]]:
    """A multiplier and shift that send every key's hash to its own slot of a table of about 32 slots
    per key (multiplicative hashing; the first multiplier of a fixed sequence that has no collision)."""
    bits = max(8, (32 * len(hashes)).bit_length())
    while True:
        shift = np.uint64(64 - bits)
        for i in range(_TRIES):
            mult = np.uint64((0x9E3779B97F4A7C15 * (2 * i + 1)) % 2**64)
            slots = (hashes * mult) >> shift
            if len(np.unique(slots)) == len(hashes):
                return mult, shift, slots
        bits += 1  # pragma: no cover - a few tries find one at this table size


__all__ = ["MAX_KEY_LEN", "WordCounter", "fold_latin"]
