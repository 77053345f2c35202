"""The language lexical relevance reads a query in, and its words: :func:`detect_language`, :func:`terms`.

BM25 relevance and query-term coverage (:mod:`authorag.relevance.coverage`) read a query and its
candidates in one language, so that the query's words and the pages' words are reduced the same
way. Languages read (:data:`LEXICAL_LANGUAGES`): English, German, Spanish, French, Italian,
Portuguese, Dutch, Russian, Arabic, Hindi, Turkish, Polish, Indonesian, Persian, Swedish, Czech, Greek,
Romanian, Hungarian, Finnish, Danish and Norwegian (Bokmål). For each,
:func:`terms`:

1. tokenizes as :func:`authorag.relevance.tokens.tokenize` does (case-folded Unicode
   letter/digit runs);
2. drops the language's stop words (short function-word lists written for authorag:
   :data:`~authorag.relevance.stopwords.STOPWORDS`), unless ``drop_stopwords=False`` (BM25 keeps them: its IDF weighs them);
3. stems each word with the language's Snowball stemmer (``snowballstemmer``; the faster
   ``PyStemmer`` is used when installed, with the same stems), each distinct word once: the
   reduced stems of the last :data:`STEMS_REMEMBERED` words per language are remembered (pages
   share most of their words, and the pure-Python stemmer is slow:
   ``benchmarks/results/relevance_cost/stems/``);
4. folds accents and other diacritics off the stems (``médic`` -> ``medic``), so a query typed
   without accents ("medicament", "vacunacion") matches the page's "médicament", "vacunación".
   The German stemmer already maps umlauts (``kündigung`` -> ``kundig``);
5. in German, a separable verb's zu-infinitive loses its "zu" (``abzugeben`` -> ``abgeb``, as
   ``abgeben``: :func:`~authorag.relevance.compounds.join_zu`), and a participle its final "t"
   (``verschlüsselt`` -> ``verschlussel``, as ``Verschlüsselung``: :func:`~authorag.relevance.compounds.verb_stem`).

Any other language takes the plain lexical path (:data:`PLAIN`): the same word tokens, no stop
words, no stemming, no folding; the reranker's note says so. Chinese, Japanese, Korean and Thai
(:data:`PAIRED_LANGUAGES`) are written without spaces between words: the tokenizer reads their Han,
Hangul and Thai runs as pairs of characters (:func:`authorag.relevance.tokens.tokenize`), and the note
says that instead.

:func:`detect_language` reads the query with ``py3langid`` (its shipped model). A short query
is often too short to tell ("mortgage" alone reads as Dutch), so when the query alone is not
clear (:data:`QUERY_CONFIDENCE`; a query of one word never is), the candidates' opening text is
read with it (:data:`SAMPLE_CHARS` of each, at most :data:`POOL_CHARS` in all); when that is not
clear either (:data:`POOL_CONFIDENCE`, which is also what a query needs when no candidate has
text), the language is :data:`DEFAULT_LANGUAGE`, English.

German compounds stay one word here ("Kündigungsfrist" -> ``kundigungsfrist``); coverage and BM25
read a query word as the head of a page's compound, and a query compound as its two parts where
the pages evidence them (:mod:`authorag.relevance.compounds`).

Example:
    >>> detect_language("Welche Unterlagen brauche ich für eine Hypothek?").language
    'de'
    >>> terms("Les médicaments pendant la grossesse", "fr")
    ['medic', 'grossess']
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal

from authorag.relevance.compounds import COMPOUND_LANGUAGES, join_zu, verb_stem
from authorag.relevance.stopwords import STOPWORDS
from authorag.relevance.tokens import fold, tokenize

PLAIN = "plain"
"""The lexical path for a language outside :data:`LEXICAL_LANGUAGES`: word tokens only."""
PAIRED_LANGUAGES = ("zh", "ja", "ko", "th")
"""Languages the plain path reads as pairs of characters (:data:`~authorag.relevance.tokens.UNSPACED_SCRIPTS`)."""
DEFAULT_LANGUAGE = "en"
"""The language read when neither the query nor the candidates' text says which clearly."""
QUERY_CONFIDENCE = 0.9
"""Probability from which the query alone decides its language."""
POOL_CONFIDENCE = 0.5
"""Probability from which the query read with the candidates' text decides the language."""
SAMPLE_CHARS = 300
"""Characters of each candidate's text read to detect the language."""
POOL_CHARS = 3000
"""Characters of the candidates' text read in all to detect the language."""
DETECTIONS_REMEMBERED = 16
"""Detections :func:`detect_language` remembers, each by the query and the candidates' opening text it read
(at most :data:`POOL_CHARS` characters of it)."""

_SNOWBALL = {"en": "english", "de": "german", "es": "spanish", "fr": "french", "it": "italian", "pt": "portuguese",
             "nl": "dutch", "ru": "russian", "ar": "arabic", "hi": "hindi", "tr": "turkish", "pl": "polish",
             "id": "indonesian", "fa": "persian", "sv": "swedish", "cs": "czech", "el": "greek", "ro": "romanian",
             "hu": "hungarian", "fi": "finnish", "da": "danish", "no": "norwegian"}


LEXICAL_LANGUAGES: tuple[str, ...] = tuple(_SNOWBALL)
"""ISO 639-1 codes of the languages lexical relevance stems and drops stop words for."""

LanguageSource = Literal["query", "candidates", "default", "given"]


@dataclass(frozen=True, slots=True)
class LanguageGuess:
    """The language lexical relevance reads a query in.

    Attributes:
        language: an ISO 639-1 code, one of :data:`LEXICAL_LANGUAGES` or another one (read by the
            plain path).
        source: what decided it: the query alone, the query with the candidates' text, the
            default, or the caller (``given``).
        probability: the detector's probability for ``language`` (1 when given, 0 by default).
    """

    language: str
    source: LanguageSource
    probability: float

    @property
    def lexical(self) -> str:
        """The language's code when it is read (stemmed), else :data:`PLAIN`."""
        return self.language if self.language in _SNOWBALL else PLAIN

    def note(self) -> str | None:
        """What the breakdown says about it: None when the language is read, else that the
        plain lexical path applied."""
        if self.language in _SNOWBALL:
            return None
        tokens = "Han, Hangul and Thai read as pairs of characters" if self.language in PAIRED_LANGUAGES else "plain word tokens"
        return (f"query language {self.language!r} is not one lexical relevance reads "
                f"({', '.join(LEXICAL_LANGUAGES)}): {tokens}, no stemming")


@cache
def _identifier() -> Any:
    """py3langid's identifier over its shipped model, loaded once per process."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def warm_up() -> None:
    """Load the language model now (BM25 relevance's warm-up calls it)."""
    _identifier()


def detect_language(query: str, texts: Sequence[str] = ()) -> LanguageGuess:
    """The language of ``query``, helped by the candidates' ``texts`` when the query is unclear.

    Example:
        >>> detect_language("mortgage", ["A mortgage is a loan used to buy a home."]).language
        'en'
    """
    return _detect(query, _sample(texts))


@lru_cache(maxsize=DETECTIONS_REMEMBERED)
def _detect(query: str, sample: str) -> LanguageGuess:
    """:func:`detect_language` of ``query`` with the candidates' opening text ``sample``: a pure
    function of the two, remembered (a ranking asks once to choose its relevance and once to read
    the words; the server meets the same query again)."""
    identifier = _identifier()
    lang, prob = identifier.classify(query)
    # without text to help, the query alone decides at the pool's confidence
    if prob >= (QUERY_CONFIDENCE if sample else POOL_CONFIDENCE) and len(tokenize(query)) >= 2:
        return LanguageGuess(str(lang), "query", float(prob))
    if sample:
        lang, prob = identifier.classify(f"{query} {sample}")
        if prob >= POOL_CONFIDENCE:
            return LanguageGuess(str(lang), "candidates", float(prob))
    return LanguageGuess(DEFAULT_LANGUAGE, "default", 0.0)


def _sample(texts: Sequence[str]) -> str:
    parts: list[str] = []
    left = POOL_CHARS
    for text in texts:
        if left <= 0:
            break
        part = text[: min(SAMPLE_CHARS, left)]
        parts.append(part)
        left -= len(part)
    return " ".join(parts)


STEMS_REMEMBERED = 50_000
"""Distinct words per language whose reduced stem :func:`stem_words` remembers; when full, it
forgets them all and starts again (so memory stays bounded: a few MB per language)."""


class _Stems:
    """One language's words reduced as :func:`stem_words` reduces them (Snowball stem, folded, a
    German zu-infinitive joined), each distinct word stemmed once while remembered."""

    def __init__(self, language: str) -> None:
        import snowballstemmer  # pyright: ignore[reportMissingTypeStubs]

        self.language = language
        self._stem: Callable[[list[str]], list[str]] = snowballstemmer.stemmer(_SNOWBALL[language]).stemWords  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        self._known: dict[str, str] = {}
        self._lock = threading.Lock()  # a Snowball stemmer object keeps its word in itself: one call at a time

    def __call__(self, words: list[str]) -> list[str]:
        known = self._known
        got = {w: known.get(w) for w in dict.fromkeys(words)}  # read once: another thread may forget them
        new = [w for w, stem in got.items() if stem is None]
        if new:
            with self._lock:
                stems = _reduced(self._stem(new), self.language)
            got.update(zip(new, stems))
            if len(known) + len(new) > STEMS_REMEMBERED:
                known.clear()
            known.update(zip(new, stems))
        return [got[w] or "" for w in words]


@cache
def _stemmer(language: str) -> _Stems:
    return _Stems(language)


def terms(text: str, language: str, extra_stopwords: frozenset[str] = frozenset(), *,
          drop_stopwords: bool = True) -> list[str]:
    """The words of ``text`` lexical relevance matches in ``language``: tokens less stop words,
    stemmed and folded (see the module doc); for :data:`PLAIN` or a language not read, the tokens
    less ``extra_stopwords`` only.

    Example:
        >>> terms("Kündigungsfrist für Mietverträge", "de")
        ['kundigungsfrist', 'mietvertrag']
    """
    if language not in _SNOWBALL:
        return tokenize(text, extra_stopwords)
    stop = STOPWORDS[language] if drop_stopwords else frozenset()
    stop = stop | extra_stopwords if extra_stopwords else stop
    return _stemmer(language)(tokenize(text, stop))


def stem_words(words: list[str], language: str) -> list[str]:
    """``words`` (already tokenized) stemmed and folded in ``language``; unchanged outside
    :data:`LEXICAL_LANGUAGES`."""
    if language not in _SNOWBALL:
        return words
    return _stemmer(language)(words)


def _reduced(stems: list[str], language: str) -> list[str]:
    """Snowball ``stems`` folded, and in German without a zu-infinitive's "zu" (:func:`join_zu`) or a
    verb form's final "t" (:func:`verb_stem`)."""
    if language in COMPOUND_LANGUAGES:
        return [join_zu(verb_stem(fold(s))) for s in stems]
    return [fold(s) for s in stems]


__all__ = ["DEFAULT_LANGUAGE", "DETECTIONS_REMEMBERED", "LEXICAL_LANGUAGES", "PAIRED_LANGUAGES", "PLAIN", "POOL_CHARS", "POOL_CONFIDENCE", "QUERY_CONFIDENCE",
           "SAMPLE_CHARS", "LanguageGuess", "LanguageSource", "STEMS_REMEMBERED", "detect_language", "stem_words",
           "terms", "warm_up"]
