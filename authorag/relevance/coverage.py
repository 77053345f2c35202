"""Query-term coverage (the share of a query's content words a text contains) and keyword stuffing.

BM25 rewards repetition: a page that repeats the query's words ten times outscores a careful
page that uses each once, and keyword-stuffed misinformation does exactly that. Coverage does
not: each distinct content word of the query counts once, present or absent. The reranker uses
it to tell on-topic candidates from off-topic ones (:mod:`authorag.rerankers.calibration`), and
leaves the order among on-topic candidates to trust.

Coverage and keyword stuffing read a long text's window (:func:`authorag.text_window.read_window`: its first 4,000
characters and four evenly spaced samples of 1,000 from the rest, the window page evidence reads),
so their work per candidate is bounded however long the page.

Words are read in the query's language as BM25 reads them
(:func:`~authorag.relevance.language.terms`: English, German, Spanish, French, Italian, Portuguese and Dutch lose their stop
words and are stemmed, so ``cranberries`` matches ``cranberry`` and ``Impfungen`` matches
``Impfung``; any other language matches on exact tokens). The language is detected once per call
(:func:`~authorag.relevance.language.detect_language`) unless the caller gives it. In German a
page's compound covers the query word it ends with as its head (*Einkommensteuererklärung* covers
*Steuererklärung*: :func:`~authorag.relevance.compounds.compound_heads`), and a page that does not
name a query compound the pages evidence a split of covers half a word for each of its two parts
its words hold ("Genossenschaftsanteile" and "Wohnungsgröße" cover *Genossenschaftswohnung*:
:func:`~authorag.relevance.compounds.split_query`), for coverage only: the keyword-stuffing test
counts the query's own words.

:func:`keyword_stuffed` flags a text made of the query's words: at least
:data:`STUFFED_SHARE` of its words (of at least :data:`STUFFED_MIN_WORDS`) are query content
words. Natural pages stay far below (the first 1,000 characters of the TREC 2019 health pages,
credible or not, have a 95th percentile of 0.16: ``benchmarks/results/trust/``); keyword stuffing,
a classic web-spam technique, sits far above. The relevance window never measures the other
candidates against a stuffed one.

A page that *quotes* the question is not stuffed for it: a Q&A page quotes the error message it
answers, a legal commentary the article it discusses. A quote is a run of at least
:data:`QUOTE_MIN_WORDS` words that follow each other as they do in the query (stop words
included); each quote counts as one word, what surrounds it is read as usual, as long as the
quotes make up at most :data:`QUOTED_SHARE` of the text. Stuffing is repetition without prose: a
text that mostly repeats the question is read word by word, and is still stuffed; so is a text
that quotes the question :data:`ECHO_QUOTES` times or more (quotes making at least
:data:`ECHO_QUOTED_SHARE` of it), prose around them or not: the page written around the question's
phrase ("How to descale an espresso machine? … In this guide: how to descale an espresso
machine …") that content farms publish for every question. Not for a query that is code or an
error message (:func:`code_like`): pages quote it as they explain it. For such a query only a text
that quotes it can be stuffed: documentation that explains an error in its own words uses the
message's words ("relative import", "package") as densely as a farm does, but never repeats the
message.

Chinese, Japanese, Korean and Thai are read by pairs of characters
(:func:`~authorag.relevance.tokens.tokenize`). A Japanese run of Hiragana alone (a particle or a
word ending: ``の``, ``は``, ``ですか``) is no content word of the query, or every Japanese page would
be dense with the question's words. Thai pairs are not counted by the keyword-stuffing test
(:func:`~authorag.relevance.tokens.thai_pair`): common pairs of letters occur in most Thai words, and
the official page that names the question's long words was read as stuffed; coverage reads them.

Example:
    >>> [round(c, 3) for c in coverage("does cranberry juice prevent urinary tract infections",
    ...     ["Cranberries may prevent some infections of the urinary tract.", "Flu shots."])]
    [0.833, 0.0]
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import partial
from urllib.parse import unquote, urlsplit

from authorag.relevance.compounds import COMPOUND_LANGUAGES, QuerySplit, compound_heads, part_holders, split_query
from authorag.relevance.language import detect_language, stem_words
from authorag.relevance.stopwords import stopwords_for
from authorag.relevance.tokens import hiragana, thai_pair, tokenize
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
STUFFED_REPEAT = 2.0
"""From :data:`STUFFED_MIN_WORDS` words on, a stuffed text must use the query's words it names
this many times each on average (inside quotes too: a page that echoes the question again and
again repeats its words): a short page that answers a long question names most of its
words once or twice ("huevo", "yema", "hervir" for "how long to boil an egg for a runny yolk"),
which stemming in the query's language counts, and is not stuffed."""
ECHO_MIN_WORDS = 6
"""Shorter texts (a title, a site name) are never called stuffed."""
QUOTE_MIN_WORDS = 4
"""Words in a row, in the query's order, that make a quote of the query (see the module doc)."""
SYLLABLE_LANGUAGES = ("vi",)
"""Languages written with a space between syllables, not words (Vietnamese: ``hộ chiếu``, "passport",
is two tokens), where a restatement of the question takes twice :data:`QUOTE_MIN_WORDS` tokens."""


def quote_min_words(language: str) -> int:
    """Tokens in a row, in the query's order, that restate it in ``language`` (an ISO 639-1 code):
    :data:`QUOTE_MIN_WORDS`, twice that in :data:`SYLLABLE_LANGUAGES`.

    Example:
        >>> quote_min_words("en"), quote_min_words("vi")
        (4, 8)
    """
    return 2 * QUOTE_MIN_WORDS if language in SYLLABLE_LANGUAGES else QUOTE_MIN_WORDS
QUOTED_SHARE = 1 / 3
"""Quotes count as one word each only while they make up at most this share of a text's words:
beyond it the text is the question said again and again, not prose that quotes it."""
ECHO_QUOTES = 3
"""Quotes of the query (runs of :data:`QUOTE_MIN_WORDS` words in its order) from which a text that
quotes it in prose is keyword-stuffed all the same (when they make at least
:data:`ECHO_QUOTED_SHARE` of its words): saying the question's phrase again and again is
optimising the page for that phrase, not answering it. A title and one restatement are two."""
ECHO_QUOTED_SHARE = 0.1
"""Share of a text's words its quotes must make for :data:`ECHO_QUOTES` to count: a long page
that names a many-word subject a few times among its prose is not stuffed."""
MAX_FIELD_CHARS = 300
"""Characters of a candidate's short field (its address's words) coverage reads at most."""
_MAX_QUERY_WORDS = 4 * MAX_QUERY_TERMS
"""Query words (stop words included) quotes are looked for in."""


def query_stems(query: str, language: str = "en") -> tuple[str, ...]:
    """The distinct content words of ``query`` in ``language`` (stop words dropped, stemmed), in
    order (at most :data:`MAX_QUERY_TERMS`). Runs of Hiragana alone, Japanese particles and word
    endings, are function words in any language (:func:`~authorag.relevance.tokens.hiragana`).

    Example:
        >>> query_stems("Does the MMR vaccine cause autism? autism!")
        ('mmr', 'vaccin', 'caus', 'autism')
    """
    stop = stopwords_for(language)
    seen: dict[str, None] = {}
    for t in stem_words([w for w in tokenize(query) if w not in stop and not hiragana(w)], language):
        seen.setdefault(t, None)
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


def coverage(query: str, texts: Sequence[str], language: str | None = None) -> list[float]:
    """For each text, the share of the query's distinct content words it contains (0–1).

    A query with no content word (empty, or stopwords only) covers nothing: every text gets 0.
    ``language``: an ISO 639-1 code; None detects it from the query and the texts.
    """
    return coverage_and_stuffing(query, texts, language)[0]


def coverage_and_stuffing(query: str, texts: Sequence[str], language: str | None = None,
                          fields: Sequence[str] | None = None) -> tuple[list[float], list[bool]]:
    """:func:`coverage` and :func:`keyword_stuffed` of every text, from one pass over its words.

    ``fields``: for each text, a short field of the same candidate (the words of its address's
    path) whose words count for coverage, not for stuffing (at most :data:`MAX_FIELD_CHARS`
    characters of each are read)."""
    lang = detect_language(query, texts).lexical if language is None else language
    stems = query_stems(query, lang)
    if not stems:
        return [0.0] * len(texts), [False] * len(texts)
    wanted = set(stems)
    unread = {w for w in wanted if thai_pair(w)}
    pairs = query_pairs(query, lang)
    echo = not code_like(query)
    tokens = [tokenize(read_window(text)) for text in texts]
    extras = [tokenize(f[:MAX_FIELD_CHARS]) for f in fields] if fields is not None else [[] for _ in texts]
    distinct = list(dict.fromkeys(t for words in (*tokens, *extras) for t in words))
    stemmed = dict(zip(distinct, stem_words(distinct, lang)))  # each distinct token of the pool is stemmed once
    compounds = _CompoundReading(query, lang, stems, stemmed)
    cov: list[float] = []
    stuffed: list[bool] = []
    for words_read, extra in zip(tokens, extras):
        words = [stemmed[t] for t in words_read]
        found = wanted.intersection(words)
        named = found.union(wanted.intersection(stemmed[t] for t in extra))
        cov.append(compounds.covered(named, words_read, extra) / len(stems))
        found = found - unread  # Thai pairs are not read by the stuffing test (module doc)
        stuffed.append(bool(found) and _stuffed(words, wanted - unread, pairs, len(found), echo))
    return cov, stuffed


class _CompoundReading:
    """German: the query words a page's compounds name as their head, and the query compounds a page
    names by their parts (:mod:`authorag.relevance.compounds`), for coverage only: the
    keyword-stuffing test counts the query's own words ("Einkommensteuer" again and again is a page
    about income tax, not "Steuer" stuffed). Any other language: nothing."""

    def __init__(self, query: str, language: str, stems: Sequence[str], stemmed: dict[str, str]) -> None:
        self.heads: dict[str, str] = {}  # token -> the query stem it ends with as a compound's head
        self.holders: dict[str, tuple[str, ...]] = {}  # token -> the parts of query compounds it holds
        self.splits: tuple[QuerySplit, ...] = ()
        if language not in COMPOUND_LANGUAGES:
            return
        stem = partial(stem_words, language=language)
        wanted = set(stems)
        self.heads = compound_heads([t for t, s in stemmed.items() if s not in wanted], stems, stem)
        splits = split_query(tokenize(query, stopwords_for(language)), stemmed, stem)
        self.splits = tuple(s for s in splits if s.word in wanted)  # a word past MAX_QUERY_TERMS is not read
        self.holders = part_holders(self.splits, stemmed, stem)

    def covered(self, named: set[str], tokens: list[str], extra: list[str]) -> float:
        """How many of the query's words a page covers: those it ``named`` (stems), those its words
        (``tokens`` and ``extra``) end with as compounds' heads, and each split compound it names
        neither way by half a word per part its words hold."""
        if not self.heads and not self.splits:
            return float(len(named))
        words = {*tokens, *extra}
        named = named.union(self.heads[t] for t in words if t in self.heads)
        held = {p for t in words if t in self.holders for p in self.holders[t]}
        parts = sum((s.modifier.stem in held) + (s.head.stem in held) for s in self.splits if s.word not in named)
        return len(named) + parts / 2


_CODE = re.compile(r"[a-z](?:Error|Exception|Warning)\b|\w[._]\w|\w::|\b0x[0-9a-fA-F]|\w\(\)")
"""A word of code or of an error message: an error's class (``ImportError``, ``KeyException``), a
dot or an underscore inside a word (``os.path``, ``__init__``), a scope (``std::``), a call
(``main()``) or a hex code; not a brand written in camel case (``WhatsApp``, ``LibreOffice``)."""


def code_like(query: str) -> bool:
    """Whether ``query`` names code or an error message, which pages quote as they explain it (a
    Q&A page quotes the message in its title, the question and the answer): their quotes of it
    are not the echo of a question (:data:`ECHO_QUOTES`).

    Example:
        >>> code_like("ImportError: attempted relative import with no known parent package"), code_like("how do I exit vim")
        (True, False)
        >>> code_like("Ist WhatsApp Ende-zu-Ende verschlüsselt"), code_like("what does os.path.join do")
        (False, True)
    """
    return _CODE.search(query) is not None


def query_pairs(query: str, language: str) -> frozenset[tuple[str, str]]:
    """Pairs of words that follow each other in ``query`` (stemmed, stop words kept).

    Example:
        >>> sorted(query_pairs("do cranberries help", "en"))
        [('cranberri', 'help'), ('do', 'cranberri')]
    """
    words = stem_words(tokenize(query)[:_MAX_QUERY_WORDS], language)
    return frozenset(zip(words, words[1:]))


def follow_runs(words: Sequence[str], pairs: frozenset[tuple[str, str]]) -> Iterator[tuple[int, int]]:
    """The runs of ``words`` in which each word follows the one before as it does in the query
    (``pairs``: :func:`query_pairs`), as ``(first, last)`` indexes, in order; every word is in one
    run (a word that follows nothing is a run of one). A run of at least :data:`QUOTE_MIN_WORDS`
    words quotes the query.

    Example:
        >>> list(follow_runs(["a", "b", "c", "x", "a"], frozenset({("a", "b"), ("b", "c")})))
        [(0, 2), (3, 3), (4, 4)]
    """
    i, total = 0, len(words)
    while i < total:
        j = i
        while j + 1 < total and (words[j], words[j + 1]) in pairs:
            j += 1
        yield i, j
        i = j + 1


def _stuffed(words: list[str], wanted: set[str], pairs: frozenset[tuple[str, str]], found: int,
             echo: bool) -> bool:
    """Whether a text's stemmed ``words`` stuff the query's ``wanted`` words, each quote of the
    query (a run of :data:`QUOTE_MIN_WORDS` words whose neighbours follow each other in the query)
    read as one word that names the query; ``echo``: :data:`ECHO_QUOTES` quotes are stuffing too
    (not for a query that is code or an error message: :func:`code_like`)."""
    quotes: list[int] = []  # lengths of the quotes
    hits = uses = 0  # query words outside quotes; query words in all
    total = len(words)
    for i, j in follow_runs(words, pairs):
        named = sum(1 for w in words[i:j + 1] if w in wanted)
        uses += named
        if j - i + 1 >= QUOTE_MIN_WORDS:
            quotes.append(j - i + 1)
        else:
            hits += named
    if echo and len(quotes) >= ECHO_QUOTES and sum(quotes) >= ECHO_QUOTED_SHARE * total:
        return True  # the question's phrase said again and again, prose around it or not
    if not echo and not quotes:
        return False  # an error message or code is stuffed by repeating it, not by explaining its words
    if sum(quotes) <= QUOTED_SHARE * total:  # quotes inside prose: each one word
        n, k = total - sum(quotes) + len(quotes), hits + len(quotes)
    else:  # mostly the question again and again: no prose to quote it in
        n, k = total, uses
    dense = n >= ECHO_MIN_WORDS and k >= stuffed_share(n) * n
    # it must also repeat the query's words (quotes included): an honest snippet names them once,
    # a page once or twice
    return dense and uses >= (STUFFED_REPEAT if n >= STUFFED_MIN_WORDS else ECHO_REPEAT) * found


def keyword_stuffed(query: str, texts: Sequence[str], language: str | None = None) -> list[bool]:
    """For each text, whether it is keyword-stuffed for ``query`` (see the module doc).

    Example:
        >>> keyword_stuffed("does cranberry juice cure infections",
        ...                 ["Cranberry juice cures infections! " * 8, "Cranberry products may reduce infections.",
        ...                  "Cranberry juice and infections: does cranberry juice cure infections? Juice cures!"])
        [True, False, True]
    """
    return coverage_and_stuffing(query, texts, language)[1]


def address_words(url: str) -> str:
    """The part of ``url`` that names a page's subject: its path and query string, decoded (not
    its scheme, host or fragment); empty for an address that does not parse.

    Example:
        >>> address_words("https://www.impots.gouv.fr/particulier/questions/que-dois-je-declarer?lang=fr#top")
        '/particulier/questions/que-dois-je-declarer lang=fr'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return unquote(f"{parts.path} {parts.query}" if parts.query else parts.path)


__all__ = ["address_words", "code_like", "follow_runs", "query_pairs", "quote_min_words", "ECHO_MIN_WORDS", "ECHO_QUOTED_SHARE", "ECHO_QUOTES", "ECHO_REPEAT", "ECHO_SHARE", "MAX_FIELD_CHARS", "MAX_QUERY_TERMS", "QUOTED_SHARE", "QUOTE_MIN_WORDS", "SYLLABLE_LANGUAGES", "STUFFED_MIN_WORDS",
           "STUFFED_REPEAT", "STUFFED_SHARE", "coverage", "coverage_and_stuffing", "keyword_stuffed", "query_stems", "stuffed_share"]
