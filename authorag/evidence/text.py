"""Text evidence: what a page's own words show about its credibility (no fetching).

The text layer reads at most :data:`READ_CHARS` characters of the text a candidate already
carries: the opening :data:`HEAD_CHARS` (title, byline, review notes, prices) and
:data:`SAMPLES` evenly spaced samples of :data:`SAMPLE_CHARS` from the rest (citations and
reference lists sit further down). It counts words of a few cue families
(:data:`FAMILIES`) and three symbols, as rates per 1,000 words shrunk towards the typical page
for short texts (``(count + prior) / (words + PRIOR_WORDS)``), on a log scale.

The word families are English. The symbols (``!``, currency signs, ``|`` navigation bars), the
page length and the words ``doi`` / ``pubmed`` / ``pmid`` are not tied to a language. A text
whose words are mostly not English (fewer than :data:`MIN_STOPWORD_SHARE` common English
words) keeps only those language-free features and says so; empty, binary or too-short text
gives no text evidence at all, with the reason.

Example:
    >>> page = "In a randomized trial, the researchers found that the study drug did not help. " * 4
    >>> feats = text_features([page, "", "Ein kurzer Text ohne englische Wörter, aber mit vielen Wörtern. " * 6])
    >>> [f.status for f in feats], feats[0].counts["study"]
    (['read', 'empty', 'not_english'], 16)
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from authorag.evidence.words import WordCounter

HEAD_CHARS = 4000
SAMPLES = 4
SAMPLE_CHARS = 1000
READ_CHARS = HEAD_CHARS + SAMPLES * SAMPLE_CHARS
"""At most this many characters of a page are read, however long it is (8,000)."""
MIN_WORDS = 30
"""Fewer words than this: no text evidence (a title or a snippet says too little)."""
PRIOR_WORDS = 100.0
"""Rates are shrunk towards the typical page as if this many typical words were added."""
MIN_STOPWORD_SHARE = 0.08
"""Below this share of common English words the English cue families are not used."""

FAMILIES: dict[str, tuple[str, str]] = {
    "study": ("citations of studies", "study studies studied research researchers trial trials randomized "
              "randomised randomly placebo cohort clinical participants efficacy meta systematic controlled"),
    "cite": ("journals, DOIs, PubMed ids", "doi pubmed pmid pmc journal journals lancet jama bmj cochrane vol pp "
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
_STOPWORDS = "the and of to in is that for it with as on are this be by or from at an not have was"
SYMBOLS: dict[str, tuple[str, tuple[bytes, ...]]] = {
    "excl": ("exclamation marks", (b"!",)),
    "money": ("currency signs", (b"$", "€".encode(), "£".encode())),
    "pipe": ("navigation bars", (b"|",)),
}
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
_COUNTER = WordCounter({**{f: words.split() for f, (_, words) in FAMILIES.items()},
                        "ids": LANGUAGE_FREE_WORDS, "stop": _STOPWORDS.split()})
_IDS, _STOP = len(FAMILIES), len(FAMILIES) + 1
_TYPICAL_RATE = 5.0
"""Per-1,000-word rate short texts are shrunk towards (the order of a typical cue family's rate)."""


@dataclass(frozen=True, slots=True)
class TextFeatures:
    """The text layer's reading of one page.

    Attributes:
        values: one value per :data:`TEXT_FEATURES` name (None: not read, no evidence).
        status: ``read``, ``not_english``, ``empty``, ``binary`` or ``too_short``.
        words: words read.
        counts: cue family -> words counted (for the reasons).
    """

    values: tuple[float | None, ...]
    status: TextStatus
    words: int
    counts: dict[str, int]

    @property
    def reason(self) -> str:
        """Why the text gave the evidence it did."""
        return STATUS_REASONS[self.status]


def read_window(text: str) -> str:
    """The characters of ``text`` the layer reads: the head and evenly spaced samples of the rest.

    Example:
        >>> len(read_window("x" * 100_000)) <= READ_CHARS + SAMPLES
        True
    """
    if len(text) <= READ_CHARS:
        return text
    rest = len(text) - HEAD_CHARS
    step = rest // SAMPLES
    parts = [text[:HEAD_CHARS]]
    parts += [text[HEAD_CHARS + i * step: HEAD_CHARS + i * step + SAMPLE_CHARS] for i in range(SAMPLES)]
    return " ".join(parts)


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]")
"""Control characters and the replacement character: what binary data read as text is full of."""


def _is_binary(window: str) -> bool:
    sample = window[:2000]
    return "\x00" in sample or len(_CONTROL.findall(sample)) > 0.05 * len(sample)


_EMPTY: tuple[float | None, ...] = (None,) * len(TEXT_FEATURES)


def _rate(count: float, words: int) -> float:
    return math.log1p(1000.0 * (count + PRIOR_WORDS * _TYPICAL_RATE / 1000.0) / (words + PRIOR_WORDS))


def text_features(texts: Sequence[str]) -> list[TextFeatures]:
    """The text layer's features of each page, in order (one batched pass over all of them)."""
    windows = [read_window(t) if t else "" for t in texts]
    out: list[TextFeatures | None] = [None] * len(texts)
    todo: list[int] = []
    for i, w in enumerate(windows):
        if not w.strip():
            out[i] = TextFeatures(_EMPTY, "empty", 0, {})
        elif _is_binary(w):
            out[i] = TextFeatures(_EMPTY, "binary", 0, {})
        else:
            todo.append(i)
    raws = [windows[i].encode("utf-8", "ignore") for i in todo]
    counts, words = _COUNTER.count(raws)
    for row, i in enumerate(todo):
        out[i] = _page(texts[i], raws[row], counts[row], int(words[row]))
    return [f for f in out if f is not None]


def _page(text: str, raw: bytes, counts: NDArray[np.int64], words: int) -> TextFeatures:
    if words < MIN_WORDS:
        return TextFeatures(_EMPTY, "too_short", words, {})
    english = counts[_STOP] >= MIN_STOPWORD_SHARE * words
    named = {f: int(counts[j]) for j, f in enumerate(FAMILIES)} if english else {}
    values: list[float | None] = [_rate(float(c), words) if english else None for c in counts[:len(FAMILIES)]]
    values.append(_rate(float(counts[_IDS]), words))
    for _, symbols in SYMBOLS.values():
        values.append(_rate(float(sum(raw.count(s) for s in symbols)), words))
    values.append(math.log10(max(len(text), 10)))
    return TextFeatures(tuple(values), "read" if english else "not_english", words, named)


__all__ = ["FAMILIES", "LANGUAGE_FREE", "READ_CHARS", "SYMBOLS", "STATUS_REASONS", "TEXT_FEATURES", "TextFeatures",
           "TextStatus", "read_window", "text_features"]
