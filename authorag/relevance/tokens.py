"""Words of a text for BM25 and query-term coverage: :func:`tokenize` and :data:`ENGLISH_STOPWORDS`.

Tokenization is deliberately simple and documented so that scores can be
reproduced anywhere:

1. the text is case-folded (``str.casefold``: Unicode lowercase, ``"Straße"`` -> ``"strasse"``) and
   put in Unicode's composed form (NFC);
2. it is split into maximal runs of Unicode letters and digits (regex ``[^\\W_]+``) and of the
   combining marks written inside words (vowel signs, viramas, accents: Unicode categories Mn and
   Mc), so punctuation, whitespace, emoji and underscores separate tokens, accents are kept
   (``"Café-au-lait"`` -> ``["café", "au", "lait"]``) and a Hindi, Bengali or Tamil word is one
   token (``"स्वास्थ्य"``); Hebrew and Arabic vowel points and the Arabic stretching stroke, which
   most text omits, are dropped (``"كَيْفَ"`` -> ``"كيف"``), and so is the dot a case-folded ``İ``
   leaves (``"İzmir"`` -> ``"izmir"``);
3. Chinese, Japanese and Korean (of :data:`UNSPACED_SCRIPTS`), written without spaces between words,
   are cut where the script changes, and each run of Han characters (and of Hangul syllables)
   becomes its overlapping pairs of characters (``"健康状態"`` -> ``["健康", "康状", "状態"]``; a
   lone character stays one token), the indexing unit search engines use for these languages when
   they have no dictionary: a question and a page that share a word share its pairs. A run of
   Hiragana (Japanese particles and word endings: ``"のが"``) or of Katakana (loanwords:
   ``"サプリ"``) stays one token, and so do letters and digits of other scripts
   (``"1日に"`` -> ``["1", "日", "に"]``). Thai, also written without spaces, is read the same way
   once its vowel signs and tone marks are dropped (``"หนังสือ"`` -> ``["หน", "นง", "งส", "สอ"]``):
   a question typed with or without a tone mark finds the page's word;
4. optionally, tokens found in a stopword set (e.g. :data:`ENGLISH_STOPWORDS`) are dropped.

There is no stemming here (:mod:`authorag.relevance.language` stems some languages). Lao, Khmer
and Burmese, also written without spaces, are not read in pairs: a run of them up to a space or
punctuation is one token; bring your own tokenizer for them.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from authorag.errors import ConfigError

_THAI = "\u0e01-\u0e3a\u0e40-\u0e4e"
_HAN = "\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff"
_HIRAGANA = "\u3040-\u3098\u309b-\u309f"
_KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
UNSPACED_SCRIPTS = ("Han", "Hiragana", "Katakana", "Hangul", "Thai")
"""Scripts whose runs :func:`tokenize` reads as pairs of characters (Chinese, Japanese, Korean,
Thai) or cuts where the script changes (Japanese kana)."""
_UNSPACED_RANGES = _THAI + _HAN + _HANGUL + _HIRAGANA + _KATAKANA
"""Code points of :data:`UNSPACED_SCRIPTS`: the Thai letters and marks (Thai digits are read as other
digits); CJK ideographs (extension A, the unified block, compatibility ideographs, the supplementary
planes' extensions B-H) with the iteration and closing marks (々 〆 〇); Hangul Jamo, compatibility
Jamo, Jamo extensions and syllables; Hiragana (less the combining voiced sound marks, which NFC has
put on their letter), Katakana, Katakana extensions, half-width Katakana."""
_UNSPACED = re.compile(f"[{_UNSPACED_RANGES}]")
_SCRIPT_RUNS = re.compile(f"([{_HAN}]+|[{_HANGUL}]+)|([{_THAI}]+)|([{_HIRAGANA}]+|[{_KATAKANA}]+|[^\\s{_UNSPACED_RANGES}]+)")
"""One script's run in a text of tokens: Han (with 々 〆 〇) or Hangul (first group: read as pairs),
Thai (second group: read as pairs once its marks are dropped), or Hiragana, Katakana or anything
else up to a space (third group: whole)."""
_THAI_MARKS = dict.fromkeys([0x0E31, *range(0x0E34, 0x0E3B), *range(0x0E47, 0x0E4F)])
"""``str.translate`` table that drops the Thai vowel signs and tone marks written above or below a letter."""
_POINTS = dict.fromkeys([*range(0x0591, 0x05BE), 0x05BF, 0x05C1, 0x05C2, 0x05C4, 0x05C5, 0x05C7, 0xFB1E,
                         *range(0x0610, 0x061B), 0x0640, *range(0x064B, 0x0660), 0x0670, *range(0x06D6, 0x06DD),
                         *range(0x06DF, 0x06E5), 0x06E7, 0x06E8, *range(0x06EA, 0x06EE)])
"""``str.translate`` table that drops the optional vowel points and cantillation of Hebrew and the
harakat, Quranic marks and tatweel (the stretching stroke ``ـ``) of Arabic: most text is written
without them, so a pointed word and its plain spelling are one word."""
_POINT = re.compile("[" + "".join(map(chr, _POINTS)) + "]")
_NOT_WORD_MARKS = re.compile("[\ufe00-\ufe0f\u20d0-\u20ff\U000e0100-\U000e01ef]")
"""Marks that are not part of a word: variation selectors (the emoji selector after ``❤``) and the
combining marks for symbols (the keycap around ``1``)."""
_MAX_ODD = 32
"""Distinct non-ASCII separators (quotes, dashes, spaces) up to which they are substituted first."""
_ASCII_SEPARATORS = bytes(c if chr(c).isascii() and chr(c).isalnum() else 0x20 for c in range(256))
_UTF8_SEPARATORS = bytes(c if c >= 0x80 or chr(c).isalnum() else 0x20 for c in range(256))
"""ASCII separators to spaces; the bytes of UTF-8 multi-byte sequences (all >= 0x80) kept."""

_ENGLISH_STOPWORDS_TEXT = """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves"""

ENGLISH_STOPWORDS: frozenset[str] = frozenset(_ENGLISH_STOPWORDS_TEXT.split())
"""A small English function-word list (no content words such as "cure" or "vaccine")."""


def tokenize(text: str, stopwords: frozenset[str] = frozenset()) -> list[str]:
    """Case-fold ``text``, split it into Unicode letter/digit runs and drop ``stopwords``.

    Example:
        >>> tokenize("Do cranberries prevent UTIs?", ENGLISH_STOPWORDS)
        ['cranberries', 'prevent', 'utis']
    """
    folded = text.casefold()
    if folded.isascii():
        # Same tokens as the regex (for ASCII, [^\W_] is exactly [a-z0-9] after casefold), several times faster.
        tokens = folded.encode("ascii").translate(_ASCII_SEPARATORS).decode("ascii").split()
    else:
        tokens = _non_ascii_tokens(folded)
    if not stopwords:
        return tokens
    return [t for t in tokens if t not in stopwords]


def _word_mark(c: str) -> bool:
    """Whether ``c`` is a combining mark written inside a word (a vowel sign, virama, accent or
    point: Unicode categories Mn and Mc), not a variation selector or a mark for a symbol."""
    return unicodedata.category(c) in ("Mn", "Mc") and _NOT_WORD_MARKS.match(c) is None


def _non_ascii_tokens(folded: str) -> list[str]:
    """The tokens of a text with non-ASCII characters: letters, digits and the combining marks
    inside words (:func:`_word_mark`), with Chinese, Japanese, Korean and Thai runs cut by script and
    paired (:func:`_paired`).

    The text is first spelled as :func:`spelled` spells it (composed, no dot on a folded ``İ``, no
    Hebrew or Arabic points). A non-ASCII character is then a token character exactly when
    ``str.isalnum()`` or :func:`_word_mark` says so (checked over every code point by the tests). The
    others (curly quotes, no-break spaces, dashes, emoji, lone surrogates) become spaces; then the
    UTF-8 bytes take a table of the ASCII separators (multi-byte sequences have no ASCII bytes, so
    letters such as ``é`` pass untouched) and ``split`` cuts at the spaces. A run of marks with no
    letter or digit is no token.
    """
    folded = spelled(folded)
    chars = {c for c in set(folded) if c > "\x7f"}  # the distinct non-ASCII characters
    marks = {c for c in chars if not c.isalnum() and _word_mark(c)}
    odd = {c for c in chars if not c.isalnum()} - marks
    if len(odd) > _MAX_ODD:  # a text of many scripts' punctuation: one table beats a long character class
        folded = folded.translate(dict.fromkeys(map(ord, odd), " "))
    elif odd:
        folded = re.sub("[" + "".join(re.escape(c) for c in sorted(odd)) + "]", " ", folded)
    tokens = folded.encode("utf-8").translate(_UTF8_SEPARATORS).decode("utf-8").split()
    if any(_UNSPACED.match(c) for c in chars - odd):  # Chinese, Japanese, Korean or Thai: pairs (module doc)
        tokens = _paired(tokens)
    if marks:  # a token of marks alone starts with one (a token that does not holds a letter or digit)
        tokens = [t for t in tokens if t[0] not in marks or any(c.isalnum() for c in t)]
    return tokens


def _paired(tokens: list[str]) -> list[str]:
    """``tokens`` cut where their script changes, each run of Han or Hangul read as its overlapping
    pairs of characters (one character alone stays itself), a Thai run likewise once its vowel signs
    and tone marks are dropped, any other run whole.

    Example:
        >>> _paired(["1日に何歩歩くのが", "ok"])
        ['1', '日', 'に', '何歩', '歩歩', 'くのが', 'ok']
    """
    out: list[str] = []
    for paired, thai, whole in _SCRIPT_RUNS.findall(" ".join(tokens)):
        run = whole or paired or thai.translate(_THAI_MARKS)
        if whole or len(run) == 1:
            out.append(run)
        elif run:  # a run of Thai marks alone is no word
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


@cache
def word_pattern() -> re.Pattern[str]:
    """A regex whose matches are the words :func:`tokenize` reads, with their spans in the text:
    runs of letters, digits and the combining marks written inside words (:func:`_word_mark`), for
    callers that cut a text where its words are. Built once per process (a scan of the code points
    that hold marks, under a tenth of a second).

    Example:
        >>> [m.group(0) for m in word_pattern().finditer("स्वास्थ्य, ok")]
        ['स्वास्थ्य', 'ok']
    """
    ranges: list[str] = []
    start = None
    for cp in range(0x0300, 0x20001):
        mark = cp < 0x20000 and _word_mark(chr(cp))
        if mark and start is None:
            start = cp
        elif not mark and start is not None:
            ranges.append(f"\\U{start:08x}-\\U{cp - 1:08x}")
            start = None
    return re.compile(f"(?:[^\\W_]|[{''.join(ranges)}])+")


def spelled(folded: str) -> str:
    """A case-folded ``folded`` spelled as :func:`tokenize` reads it: in Unicode's composed form
    (NFC: ``e`` + ``\u0301`` is ``é``), without the dot a capital ``İ`` leaves on ``i`` when case-folded
    (``"İstanbul"`` is ``istanbul``) and without Hebrew and Arabic points (:data:`_POINTS`).

    Example:
        >>> spelled("كَيْفَ"), spelled("İzmir".casefold())
        ('كيف', 'izmir')
    """
    if not unicodedata.is_normalized("NFC", folded):
        folded = unicodedata.normalize("NFC", folded)
    if "\u0307" in folded:
        folded = folded.replace("i\u0307", "i")
    if _POINT.search(folded):
        folded = folded.translate(_POINTS)
    return folded


def thai_pair(token: str) -> bool:
    """Whether ``token`` is a pair of Thai letters :func:`tokenize` read from a Thai run. Thai words
    are several letters long and many pairs (``าง``, ``อง``) occur in most words, so a pair says
    less of a word than a Chinese or Korean one: the keyword-stuffing test does not count them.

    Example:
        >>> thai_pair("หน"), thai_pair("健康")
        (True, False)
    """
    return len(token) == 2 and "\u0e01" <= token[0] <= "\u0e4e" and "\u0e01" <= token[1] <= "\u0e4e"


def hiragana(token: str) -> bool:
    """Whether ``token`` is a run of Hiragana alone: in a Japanese text, particles and word endings
    (``"の"``, ``"は"``, ``"ですか"``), the function words of the language.

    Example:
        >>> hiragana("のが"), hiragana("健康"), hiragana("ok")
        (True, False, False)
    """
    return bool(token) and all("\u3040" <= c <= "\u309f" for c in token)


def stopword_set(stopwords: Iterable[str] | None) -> frozenset[str]:
    """Validate and case-fold a stopword collection (None means no stopwords)."""
    if stopwords is None:
        return frozenset()
    if isinstance(stopwords, str):
        raise ConfigError(
            f"stopwords must be a collection of words (e.g. ENGLISH_STOPWORDS), got the string "
            f"{stopwords[:40]!r}; wrap a single word in a set: {{{stopwords[:20]!r}}}"
        )
    return frozenset(w.casefold() for w in stopwords)


def fold(word: str) -> str:
    """``word`` without diacritics (canonical decomposition, combining marks dropped).

    Example:
        >>> fold("médic"), fold("straße")
        ('medic', 'straße')
    """
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


__all__ = ["ENGLISH_STOPWORDS", "UNSPACED_SCRIPTS", "fold", "hiragana", "spelled", "stopword_set", "thai_pair", "tokenize",
           "word_pattern"]
