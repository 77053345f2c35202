"""Query-term coverage (the share of a query's content words a text contains) and keyword stuffing.

BM25 rewards repetition: a page that repeats the query's words ten times outscores a careful
page that uses each once, and keyword-stuffed misinformation does exactly that. Coverage does
not: each distinct content word of the query counts once, present or absent. The reranker uses
it to tell on-topic candidates from off-topic ones (:mod:`authorag.rerankers.calibration`), and
leaves the order among on-topic candidates to trust.

Coverage and keyword stuffing read a long text's window (:func:`authorag.text_window.read_window`: its first 4,000
characters and four evenly spaced samples of 1,000 from the rest, the window page evidence reads),
so their work per candidate is bounded however long the page.

Words are the BM25 tokens (:func:`~authorag.relevance.tokens.tokenize`), without
:data:`~authorag.relevance.tokens.ENGLISH_STOPWORDS`, reduced by :func:`light_stem` so that
``cranberries`` matches ``cranberry`` and ``infections`` matches ``infection``. The stemmer is
English-only; other languages match on exact tokens.

:func:`keyword_stuffed` flags a text made of the query's words: at least
:data:`STUFFED_SHARE` of its words (of at least :data:`STUFFED_MIN_WORDS`) are query content
words. Natural pages stay far below (the first 1,000 characters of the TREC 2019 health pages,
credible or not, have a 95th percentile of 0.16: ``benchmarks/results/trust/``); keyword stuffing,
a classic web-spam technique, sits far above. The relevance window never measures the other
candidates against a stuffed one.

Example:
    >>> [round(c, 3) for c in coverage("does cranberry juice prevent urinary tract infections",
    ...     ["Cranberries may prevent some infections of the urinary tract.", "Flu shots."])]
    [0.833, 0.0]
"""
from __future__ import annotations

from collections.abc import Sequence

from authorag.relevance.tokens import ENGLISH_STOPWORDS, tokenize
from authorag.text_window import read_window

MAX_QUERY_TERMS = 64
"""Distinct query words coverage looks at (the first ones); longer queries are cut there."""
STUFFED_SHARE = 0.2
"""Share of a text's words that are query content words from which it counts as keyword-stuffed."""
STUFFED_MIN_WORDS = 25
"""From this length on, :data:`STUFFED_SHARE` applies; shorter texts are naturally denser."""
ECHO_SHARE = 0.5
"""A text of :data:`ECHO_MIN_WORDS` words made at least this much of query words echoes the query
back ("Cranberry juice prevents urinary tract infections, every time."); between that length
and :data:`STUFFED_MIN_WORDS` the share needed falls linearly (:func:`stuffed_share`)."""
ECHO_REPEAT = 1.5
"""Below :data:`STUFFED_MIN_WORDS` words a text must also use the query's words this many times
each on average: a title-like snippet that names them once ("Cranberry juice and urinary tract
infections: the evidence is mixed") is not stuffed."""
ECHO_MIN_WORDS = 6
"""Shorter texts (a title, a site name) are never called stuffed."""


def light_stem(word: str) -> str:
    """A light English stem: plural, ``-ing`` and ``-ed`` endings removed.

    Example:
        >>> [light_stem(w) for w in ("cranberries", "infections", "boxes", "prevented", "cures", "bus")]
        ['cranberry', 'infection', 'box', 'prevent', 'cure', 'bus']
    """
    n = len(word)
    if n > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if n > 4 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if n > 4 and (word.endswith("ches") or word.endswith("shes")):
        return word[:-2]
    if n > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if n > 5 and word.endswith("ing"):
        return word[:-3]
    if n > 4 and word.endswith("ed"):
        return word[:-2]
    return word


def query_stems(query: str) -> tuple[str, ...]:
    """The distinct stemmed content words of ``query``, in order (at most :data:`MAX_QUERY_TERMS`)."""
    seen: dict[str, None] = {}
    for t in tokenize(query, ENGLISH_STOPWORDS):
        seen.setdefault(light_stem(t), None)
        if len(seen) >= MAX_QUERY_TERMS:
            break
    return tuple(seen)


def stuffed_share(words: int) -> float:
    """The share of query words from which a text of ``words`` words counts as stuffed:
    :data:`ECHO_SHARE` at :data:`ECHO_MIN_WORDS` words, falling linearly to :data:`STUFFED_SHARE`
    at :data:`STUFFED_MIN_WORDS` words and beyond (short texts are naturally denser).

    Example:
        >>> [round(stuffed_share(n), 3) for n in (6, 15, 25, 400)]
        [0.5, 0.358, 0.2, 0.2]
    """
    if words >= STUFFED_MIN_WORDS:
        return STUFFED_SHARE
    span = (words - ECHO_MIN_WORDS) / (STUFFED_MIN_WORDS - ECHO_MIN_WORDS)
    return ECHO_SHARE - (ECHO_SHARE - STUFFED_SHARE) * max(0.0, span)


def coverage(query: str, texts: Sequence[str]) -> list[float]:
    """For each text, the share of the query's distinct content words it contains (0–1).

    A query with no content word (empty, or stopwords only) covers nothing: every text gets 0.
    """
    return coverage_and_stuffing(query, texts)[0]


def coverage_and_stuffing(query: str, texts: Sequence[str]) -> tuple[list[float], list[bool]]:
    """:func:`coverage` and :func:`keyword_stuffed` of every text, from one pass over its words."""
    stems = query_stems(query)
    if not stems:
        return [0.0] * len(texts), [False] * len(texts)
    wanted = set(stems)
    heads = {s[:3] for s in stems}  # only tokens that can stem to a query word are stemmed
    cov: list[float] = []
    stuffed: list[bool] = []
    # Each distinct token of the pool is looked at once (tokens repeat across a pool): it stems to
    # a query word (``match``) or not (``miss``); the rest is set algebra in C.
    match: dict[str, str] = {}
    miss: set[str] = set()
    for text in texts:
        tokens = tokenize(read_window(text))
        distinct = set(tokens)
        new = distinct - miss
        new.difference_update(match)
        for t in new:
            if t[:3] in heads and (stem := light_stem(t)) in wanted:
                match[t] = stem
            else:
                miss.add(t)
        hits = distinct.intersection(match)
        found = {match[t] for t in hits}
        k = sum(tokens.count(t) for t in hits)
        cov.append(len(found) / len(stems))
        n = len(tokens)
        dense = n >= ECHO_MIN_WORDS and k >= stuffed_share(n) * n
        # a short text must also repeat the query's words: an honest snippet names them once
        stuffed.append(dense and (n >= STUFFED_MIN_WORDS or k >= ECHO_REPEAT * len(found)))
    return cov, stuffed


def keyword_stuffed(query: str, texts: Sequence[str]) -> list[bool]:
    """For each text, whether it is keyword-stuffed for ``query`` (see the module doc).

    Example:
        >>> keyword_stuffed("does cranberry juice cure infections",
        ...                 ["Cranberry juice cures infections! " * 8, "Cranberry products may reduce infections.",
        ...                  "Cranberry juice and infections: does cranberry juice cure infections? Juice cures!"])
        [True, False, True]
    """
    return coverage_and_stuffing(query, texts)[1]


__all__ = ["ECHO_MIN_WORDS", "ECHO_REPEAT", "ECHO_SHARE", "MAX_QUERY_TERMS", "STUFFED_MIN_WORDS", "STUFFED_SHARE", "coverage", "coverage_and_stuffing", "keyword_stuffed", "light_stem", "stuffed_share",
           "query_stems"]
