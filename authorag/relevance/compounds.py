"""German compounds and zu-infinitives for lexical relevance: :func:`compound_heads`, :func:`join_zu`.

German writes a compound as one word whose last part, its head, says what it is: an
*Einkommensteuererklärung* is a *Steuererklärung*, a *Kündigungsfrist* a *Frist*. A separable verb
takes its infinitive's "zu" inside: *abzugeben* is *abgeben* with "zu". A query's words then miss a
page that uses them inside compounds or as zu-infinitives ("Muss ich eine Steuererklärung abgeben?"
against "… Einkommensteuererklärung abzugeben"). Two rules read them, in German only
(:data:`COMPOUND_LANGUAGES`):

1. **Compound heads** (:func:`compound_heads`): a page word holds a query word as its head when the
   query word's stem has at least :data:`MIN_HEAD` letters, it occurs in the page word after at
   least :data:`MIN_MODIFIER` letters, and that end of the page word stems to the query word's
   stem (``einkommensteuererklärungen`` ends with ``steuererklärungen``, stem ``steuererklar``).
   A compound whose head is another word does not match: *Steuererklärung* is not a *Steuer*.
   Words are compared after case folding and with the umlauts read as the stemmer reads them.
2. **zu-infinitives** (:func:`join_zu`): a stem made of a separable prefix
   (:data:`SEPARABLE_PREFIXES`, the grammar's short list), "zu" and at least :data:`MIN_VERB`
   more letters loses the "zu" (``abzugeb`` -> ``abgeb``, ``auszubild`` -> ``ausbild``); the
   language's stems (:func:`~authorag.relevance.language.stem_words`) apply it to query and
   page alike.

A separated verb ("gibt … ab") is not joined: that needs the sentence's syntax.

Example:
    >>> from authorag.relevance.language import stem_words
    >>> compound_heads(["einkommensteuererklärungen", "steuererklärung", "frist"], ["steuererklar", "frist"],
    ...                lambda words: stem_words(words, "de"))
    {'einkommensteuererklärungen': 'steuererklar'}
    >>> join_zu("abzugeb"), join_zu("anzug")
    ('abgeb', 'anzug')
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate

COMPOUND_LANGUAGES: tuple[str, ...] = ("de",)
"""Languages whose compound heads and zu-infinitives lexical relevance reads."""
MIN_HEAD = 4
"""Letters a query word's stem needs to be read as the head of a longer page word."""
MIN_MODIFIER = 3
"""Letters a page word needs before a query word for that word to be its head."""
MIN_VERB = 3
"""Letters a stem needs after a separable prefix and "zu" to lose the "zu"."""
SEPARABLE_PREFIXES: tuple[str, ...] = (
    "ab", "an", "auf", "aus", "bei", "dar", "ein", "fern", "fest", "fort", "frei", "her", "heraus",
    "herein", "herunter", "hin", "hinaus", "hinein", "hinzu", "los", "mit", "nach", "nieder", "vor",
    "voran", "voraus", "vorbei", "weg", "weiter", "wieder", "zu", "zuruck", "zusammen")
"""German separable verb prefixes (grammar), as the stemmer writes them (umlauts read as vowels)."""

_ZU = re.compile("^(" + "|".join(sorted(SEPARABLE_PREFIXES, key=len, reverse=True)) + f")zu(?=.{{{MIN_VERB}}})")
_UMLAUTS = str.maketrans("äöü", "aou")


def join_zu(stem: str) -> str:
    """``stem`` without the "zu" of a separable verb's zu-infinitive (see the module doc).

    Example:
        >>> join_zu("zuruckzugeb"), join_zu("aufzug")
        ('zuruckgeb', 'aufzug')
    """
    if "zu" not in stem:
        return stem
    return _ZU.sub(r"\1", stem, count=1)


def compound_heads(words: Iterable[str], heads: Sequence[str],
                   stem: Callable[[list[str]], list[str]]) -> dict[str, str]:
    """For each of the distinct case-folded ``words`` of some pages that ends with one of the
    query's stems ``heads`` as a compound's head (see the module doc), that stem; the longest
    when several fit. ``stem`` stems a list of word ends as the query's words were stemmed.

    The work is one substring search through the words per query stem (in C), then a few steps
    and one stem per word that holds a query stem after :data:`MIN_MODIFIER` letters.

    Example:
        >>> from authorag.relevance.language import stem_words
        >>> compound_heads(["mehrwertsteuer", "steuer", "steuerberater"], ["steu"], lambda w: stem_words(w, "de"))
        {'mehrwertsteuer': 'steu'}
    """
    usable = sorted({h for h in heads if len(h) >= MIN_HEAD}, key=len, reverse=True)
    if not usable:
        return {}
    originals = list(dict.fromkeys(words))
    joined = " ".join(originals).translate(_UMLAUTS)  # same length: offsets map back to the words
    offsets = list(accumulate((len(w) + 1 for w in originals[:-1]), initial=0))
    found: dict[str, tuple[str, str]] = {}  # word -> (its end from the query stem on, the query stem)
    for head in usable:
        pos = joined.find(head)
        while pos != -1:
            i = bisect_right(offsets, pos) - 1
            start, word = offsets[i], originals[i]
            stop = start + len(word)
            last = joined.rfind(head, start, stop)
            if last - start >= MIN_MODIFIER and word not in found:
                found[word] = (joined[last:stop], head)
            pos = joined.find(head, stop)
    if not found:
        return {}
    ends = stem([end for end, _ in found.values()])
    return {word: head for (word, (_, head)), end in zip(found.items(), ends) if end == head}


__all__ = ["COMPOUND_LANGUAGES", "MIN_HEAD", "MIN_MODIFIER", "MIN_VERB", "SEPARABLE_PREFIXES", "compound_heads",
           "join_zu"]
