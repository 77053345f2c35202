"""Words of a text for BM25 and query-term coverage: :func:`tokenize` and :data:`ENGLISH_STOPWORDS`.

Tokenization is deliberately simple and documented so that scores can be
reproduced anywhere:

1. the text is case-folded (``str.casefold``: Unicode lowercase, ``"Straße"`` -> ``"strasse"``);
2. it is split into maximal runs of Unicode letters and digits (regex ``[^\\W_]+``), so
   punctuation, whitespace and underscores separate tokens and accents are kept
   (``"Café-au-lait"`` -> ``["café", "au", "lait"]``);
3. optionally, tokens found in a stopword set (e.g. :data:`ENGLISH_STOPWORDS`) are dropped.

There is no stemming. Scripts written without spaces (Chinese, Japanese) become one token per
run; bring your own tokenizer for them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from authorag.errors import ConfigError

_TOKEN = re.compile(r"[^\W_]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
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


def _non_ascii_tokens(folded: str) -> list[str]:
    """The regex's tokens of a text with non-ASCII characters, without running the regex over it.

    A non-ASCII character is a token character exactly when ``str.isalnum()`` says so (what ``\\w``
    means in Unicode mode, less the underscore; checked over every code point by the tests). The
    others (curly quotes, no-break spaces, dashes, lone surrogates) become spaces; then the UTF-8
    bytes take a table of the ASCII separators (multi-byte sequences have no ASCII bytes, so letters
    such as ``é`` pass untouched) and ``split`` cuts at the spaces.
    """
    odd = {c for c in _NON_ASCII.findall(folded) if not c.isalnum()}
    if len(odd) > _MAX_ODD:  # a text of many scripts' punctuation: the regex is cheaper than the substitution
        return _TOKEN.findall(folded)
    if odd:
        folded = re.sub("[" + "".join(re.escape(c) for c in sorted(odd)) + "]", " ", folded)
    return folded.encode("utf-8").translate(_UTF8_SEPARATORS).decode("utf-8").split()


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


__all__ = ["ENGLISH_STOPWORDS", "stopword_set", "tokenize"]
