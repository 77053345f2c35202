"""Text evidence: what a page's own words show about its credibility (no fetching).

The text layer reads the window of the text a candidate already carries that
:func:`authorag.text_window.read_window` gives (at most 8,000 characters: the opening, with the
title, byline, review notes and prices, and evenly spaced samples of the rest, where citations
and reference lists sit). It counts words of a few cue families
(:data:`FAMILIES`) and three symbols, as rates per 1,000 words shrunk towards the typical page
for short texts (``(count + prior) / (words + PRIOR_WORDS)``), on a log scale.

The word families are English. The symbols (``!``, currency signs, ``|`` navigation bars), the
page length and the words ``doi`` / ``pubmed`` / ``pmid`` are not tied to a language. A text
whose words are not English (fewer than :data:`MIN_STOPWORD_SHARE` of the words read are common
English words) keeps only those language-free features and says so; empty, binary or too-short text
gives no text evidence at all, with the reason.

Example:
    >>> page = "In a randomized trial, the researchers found that the study drug did not help. " * 4
    >>> batch = text_features([page, "", "Ein kurzer Text ohne englische Wörter, aber mit vielen Wörtern. " * 6])
    >>> batch.status, int(batch.counts[0, list(FAMILIES).index("study")])
    (('read', 'empty', 'not_english'), 16)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from authorag.evidence.words import WordCounter
from authorag.text_window import read_window

MIN_WORDS = 30
"""Fewer words than this: no text evidence (a title or a snippet says too little)."""
PRIOR_WORDS = 100.0
"""Rates are shrunk towards the typical page as if this many typical words were added."""
MIN_STOPWORD_SHARE = 0.005
"""Below this share of :data:`ENGLISH_WORDS` among the words read the English cue families are not used."""

FAMILIES: dict[str, tuple[str, str]] = {
    "study": ("citations of studies", "study studies studied research researchers trial trials randomized "
              "randomised randomly placebo cohort clinical participants efficacy meta systematic controlled"),
    "cite": ("journals and references", "pmc journal journals lancet jama bmj cochrane vol pp "
             "references bibliography abstract al citation cited"),
    "inst": ("named institutions", "university institute institutes nih cdc fda national department hospital "
             "college association society foundation organization ministry agency"),
    "review": ("review bylines and dates", "reviewed reviewer updated md phd rn mph editor editorial author authors"),
    "hedge": ("measured language", "may might could suggest suggests suggested evidence insufficient limited "
              "unclear inconclusive uncertain possible possibly likely unlikely"),
    "risk": ("risks and safety", "risk risks safety side adverse harmful complications dose "
             "dosage interactions warnings"),
    "consult": ("see-your-doctor boilerplate", "consult physician doctor advice disclaimer informational "
                "professional provider healthcare diagnose"),
    "portal": ("site boilerplate", "privacy terms copyright reserved accessibility sitemap"),
    "cure": ("cure and absolute claims", "cure cures cured curing miracle miraculous guaranteed guarantee proven "
             "breakthrough secret secrets amazing incredible remedy remedies toxins toxin detox powerful naturally"),
    "cta": ("calls to buy", "buy order cart shipping checkout discount coupon offer price prices sale subscribe "
            "shop purchase"),
    "first": ("first-person testimony", "i me my mine myself testimonial testimonials"),
    "you": ("second-person address", "you your yours yourself"),
    "fear": ("distrust of medicine", "pharma conspiracy suppressed mainstream poison poisons chemicals corrupt"),
    "social": ("comments and sharing", "comment comments reply replies posted share tweet facebook twitter blog forum"),
    "ads": ("ads and sign-ups", "advertisement sponsored ads advertise affiliate click newsletter signup"),
}
"""Cue family -> (what it stands for, its key words)."""
LANGUAGE_FREE_WORDS = ("doi", "pubmed", "pmid")
ENGLISH_WORDS = ("with", "this", "that", "from", "have", "which", "are", "was", "were", "been")
"""Common English words counted to tell English text (about 4 % of the words of English prose,
next to none of German, French or Spanish prose)."""
SYMBOLS: dict[str, tuple[str, tuple[bytes, ...]]] = {
    "excl": ("exclamation marks", (b"!",)),
    "money": ("currency signs", (b"$", "€".encode(), "£".encode())),
    "pipe": ("navigation bars", (b"|",)),
}
"""Symbol feature -> (what it stands for, its UTF-8 byte sequences)."""
TEXT_FEATURES: tuple[str, ...] = (*(f"t.{f}" for f in FAMILIES), "t.ids", *(f"t.{s}" for s in SYMBOLS), "t.len")
"""The text layer's feature names, in matrix column order."""
LANGUAGE_FREE: frozenset[str] = frozenset({"t.ids", *(f"t.{s}" for s in SYMBOLS), "t.len"})
"""Features kept when the words are not English."""
TextStatus = Literal["read", "not_english", "empty", "binary", "too_short"]
STATUS_REASONS: dict[TextStatus, str] = {
    "read": "page text read",
    "not_english": "page words mostly not English: only language-free text cues used",
    "empty": "no page text",
    "binary": "page text is binary or control characters",
    "too_short": f"page text under {MIN_WORDS} words",
}
_SYMBOL_SET = bytes(sorted({b for _, group in SYMBOLS.values() for seq in group for b in seq}))
_COUNTER = WordCounter({**{f: words.split() for f, (_, words) in FAMILIES.items()}, "ids": LANGUAGE_FREE_WORDS,
                        "english": ENGLISH_WORDS}, marks=_SYMBOL_SET)
_IDS, _ENGLISH = len(FAMILIES), len(FAMILIES) + 1
_TYPICAL_RATE = 5.0
"""Per-1,000-word rate short texts are shrunk towards (the order of a typical cue family's rate)."""


@dataclass(frozen=True, slots=True)
class TextBatch:
    """The text layer's reading of a batch of pages.

    Attributes:
        values: ``(pages, len(TEXT_FEATURES))``; NaN where the layer has no evidence.
        status: per page ``read``, ``not_english``, ``empty``, ``binary`` or ``too_short``.
        words: words read per page.
        counts: ``(pages, len(FAMILIES))`` cue words counted per family (0 where not read).
    """

    values: NDArray[np.float64]
    status: tuple[TextStatus, ...]
    words: NDArray[np.int64]
    counts: NDArray[np.int64]

    def reason(self, i: int) -> str:
        """Why page ``i``'s text gave the evidence it did."""
        return STATUS_REASONS[self.status[i]]


_NOT_CONTROL = bytes(b for b in range(256) if not (b < 9 or b in (11, 12) or 14 <= b < 32))
_REPLACEMENT = "\ufffd".encode()


def _is_binary(raw: bytes) -> bool:
    """Binary data read as text: NUL bytes, or over 5 % control characters or replacement characters."""
    sample = raw[:2000]
    bad = len(sample.translate(None, _NOT_CONTROL)) + (3 * sample.count(_REPLACEMENT) if b"\xef" in sample else 0)
    return b"\x00" in sample or bad > 0.05 * len(sample)


_PRIOR_COUNT = PRIOR_WORDS * _TYPICAL_RATE / 1000.0
_FAMILY = len(FAMILIES)
_SYMBOL_BYTES = tuple(symbols for _, symbols in SYMBOLS.values())


_NO_SYMBOLS = [0] * len(_SYMBOL_BYTES)


def _symbol_counts(kept: Sequence[bytes]) -> list[list[int]]:
    """Occurrences of each :data:`SYMBOLS` group in each page, counted in the page's symbol bytes
    alone (``kept``, the counter's marks: a sequence counts as if the bytes between its bytes were
    not there)."""
    return [[sum(map(k.count, group)) for group in _SYMBOL_BYTES] if k else _NO_SYMBOLS for k in kept]


def text_features(texts: Sequence[str]) -> TextBatch:
    """The text layer's features of each page, in order (one batched pass over all of them)."""
    n = len(texts)
    status: list[TextStatus] = ["read"] * n
    windows = [read_window(t) for t in texts]
    todo: list[int] = []
    raws: list[bytes] = []
    for i, w in enumerate(windows):
        raw = w.encode("utf-8", "ignore") if w else b""
        if not raw or raw.isspace():
            status[i] = "empty"
        elif _is_binary(raw):
            status[i] = "binary"
        else:
            todo.append(i)
            raws.append(raw)
    counts, words, kept = _COUNTER.count_marked(raws)
    values = np.full((n, len(TEXT_FEATURES)), np.nan)
    all_words = np.zeros(n, dtype=np.int64)
    all_counts = np.zeros((n, _FAMILY), dtype=np.int64)
    if todo:
        rows = np.array(todo)
        symbols = np.array(_symbol_counts(kept))
        hits = np.hstack([counts[:, :_ENGLISH], symbols]).astype(np.float64)
        rates = np.log1p(1000.0 * (hits + _PRIOR_COUNT) / (words[:, None] + PRIOR_WORDS))
        english = counts[:, _ENGLISH] >= MIN_STOPWORD_SHARE * np.maximum(words, 1)
        rates[~english, :_FAMILY] = np.nan
        lengths = np.log10(np.maximum([len(texts[i]) for i in todo], 10))
        short = words < MIN_WORDS
        block = np.hstack([rates, lengths[:, None]])
        block[short] = np.nan
        values[rows] = block
        all_words[rows] = words
        all_counts[rows] = np.where(english[:, None] & ~short[:, None], counts[:, :_FAMILY], 0)
        for j, i in enumerate(todo):
            status[i] = "too_short" if short[j] else "read" if english[j] else "not_english"
    return TextBatch(values, tuple(status), all_words, all_counts)


__all__ = ["FAMILIES", "LANGUAGE_FREE", "SYMBOLS", "STATUS_REASONS", "TEXT_FEATURES", "TextBatch", "TextStatus",
           "text_features"]
