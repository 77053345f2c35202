"""TopicClassifier: the topic of a query (health, finance, legal, ...) and whether it is YMYL.

Layers: ``keywords`` (word lists; decide when one topic has the most hits), then ``prototypes``
(cosine similarity of the query to a few example questions per topic, with the MiniLM encoder of
:mod:`authorag.relevance.dense`; only when an encoder is given), then an optional LLM. With no
evidence the topic is ``other``. The word lists and example questions are English
(:data:`TOPIC_LANGUAGES`): a query in another language is left to the LLM layer, or is ``other``
with a reason that names its language.

Example:
    >>> clf = TopicClassifier()
    >>> r = clf.classify("Can vitamin C cure the common cold?")
    >>> r.topic, r.ymyl, r.layer
    ('health', True, 'keywords')
    >>> clf.classify("How do I reverse a list in Python?").topic
    'technology'
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

import numpy as np

from authorag.errors import ConfigError
from authorag.relevance.dense import DenseEncoder
from authorag.relevance.language import detect_language
from authorag.suitability.taxonomy import DEFAULT_YMYL, TOPICS, Topic, TopicResult
from authorag.validation import check_unit

TOPIC_LANGUAGES = ("en",)
"""Languages the keyword lists and example questions are written in; a query the language identifier
reads as another language (with the query alone) is left to the LLM layer, else topic ``other``."""
_W = r"(?:s|es|ing|ed)?\b"
KEYWORDS: Mapping[Topic, str] = {
    "health": r"\b(?:health|disease|cure|treat|treatment|symptom|cancer|diabet\w*|vaccin\w*|vitamin|"
              r"supplement|drug|medic\w*|doctor|pain|infection|virus|flu|cold|asthma|eczema|allerg\w*|"
              r"pregnan\w*|diet|therapy|surgery|blood|heart|cholesterol|depress\w*|anxiety|sleep|insomnia|"
              r"arthritis|dementia|covid|antibiotic|dose|patient|clinical|remedy|remedies|herbal|"
              r"acupuncture|yoga|migraine|skin|wart|tooth|dental|obesity|weight loss|probiotic)" + _W,
    "finance": r"\b(?:invest\w*|stock|bond|etf|fund|retire\w*|401k|ira|tax|taxes|mortgage|loan|credit|debt|"
               r"bank|interest rate|inflation|crypto\w*|bitcoin|budget|saving|insurance|pension|dividend|"
               r"portfolio|income|salary|financ\w*|money)" + _W,
    "legal": r"\b(?:law|legal|illegal|lawsuit|sue|court|contract|lawyer|attorney|copyright|patent|"
             r"trademark|tenant|landlord|visa|immigration|divorce|custody|will|estate|liabilit\w*|"
             r"gdpr|regulation|rights|arrest|fine)" + _W,
    "safety": r"\b(?:safe|safety|dangerous|hazard|poison\w*|emergency|fire|earthquake|flood|storm|"
              r"carbon monoxide|recall|seatbelt|helmet|child seat|overdose|toxic|electrical|gas leak|"
              r"evacuat\w*|first aid)" + _W,
    "news_politics": r"\b(?:election|vote|voting|president|senate|congress|parliament|government|minister|"
                     r"policy|politic\w*|war|protest|campaign|democrat\w*|republican\w*|referendum|"
                     r"sanction|treaty|news)" + _W,
    "science": r"\b(?:science|scientific|physics|chemistry|biology|evolution|planet|star|galaxy|universe|"
               r"climate|atom|quantum|gene|genetic|dna|species|fossil|experiment|theory|research|"
               r"molecule|gravity|astronom\w*)" + _W,
    "technology": r"\b(?:python|javascript|java|rust|golang|c\+\+|typescript|sql|linux|windows|macos|git|"
                  r"docker|kubernetes|api|code|coding|program\w*|software|library|framework|compile\w*|"
                  r"error|exception|bug|function|server|database|laptop|cpu|gpu|router|wifi|browser|app|"
                  r"install\w*|npm|pip|regex|algorithm|usb|bluetooth|android|iphone)" + _W,
    "shopping": r"\b(?:buy|best|cheapest|price|deal|discount|coupon|review|vs|worth it|brand|product|"
                r"shop\w*|purchase|warranty|refund|which .* should i (?:buy|get))" + _W,
    "entertainment": r"\b(?:movie|film|tv|series|show|episode|actor|actress|song|album|band|singer|game|"
                     r"gaming|anime|book|novel|celebrity|concert|netflix|marvel|oscar|grammy)" + _W,
}
"""Topic word lists (English). A query may hit several; the topic with most distinct hits wins."""

PROTOTYPES: Mapping[Topic, tuple[str, ...]] = {
    "health": ("Does this remedy cure the disease?", "Is this treatment effective for the condition?",
               "What are the side effects of this medication?", "Can this food prevent illness?",
               "Does taking this pill help with the symptoms?", "How is this medical condition treated?",
               "Can a medicine lower the risk of getting sick?", "Is this drug safe during pregnancy?"),
    "finance": ("Should I invest in index funds?", "How are capital gains taxed?",
                "Is it better to pay off debt or save for retirement?"),
    "legal": ("Is it legal to record a phone call?", "Can my landlord keep my deposit?",
              "Do I need a lawyer to write a will?"),
    "safety": ("Is it safe to use a space heater overnight?", "What should I do in an earthquake?",
               "How dangerous is carbon monoxide at home?"),
    "news_politics": ("Who won the election?", "What did the government announce about the new policy?",
                      "Why are people protesting?"),
    "science": ("Why is the sky blue?", "How do black holes form?", "What causes the seasons on Earth?"),
    "technology": ("How do I fix this error in my code?", "What does this function in the library do?",
                   "How do I configure the server?", "Which laptop has the better processor?"),
    "shopping": ("Which vacuum cleaner should I buy?", "Is this product worth the price?",
                 "What are the best running shoes?"),
    "entertainment": ("Who plays the lead in the movie?", "When does the next season of the show come out?",
                      "What is the best album of the band?"),
}
"""Example questions per topic, written for this module (our own words)."""


class TopicLLM(Protocol):
    """An LLM topic layer: a topic (or None) for a query."""

    def topic(self, query: str) -> Topic | None:
        """The model's topic for ``query``; None when it gives no usable answer."""
        ...


class TopicClassifier:
    """Keywords, then MiniLM prototypes (with ``encoder``), then an optional LLM.

    Args:
        encoder: a :class:`~authorag.relevance.dense.DenseEncoder` for the prototype layer
            (None: keywords only, no ``embeddings`` extra needed).
        ymyl: topics flagged YMYL (the matrix file's ``ymyl`` list is passed here by the scorer).
        min_similarity: prototype cosine below which the prototype layer abstains, in [0, 1].
        llm: optional LLM layer, asked when keywords and prototypes give nothing.

    Raises:
        ConfigError: ``min_similarity`` outside [0, 1] or an unknown YMYL topic.
    """

    def __init__(self, *, encoder: DenseEncoder | None = None, ymyl: frozenset[Topic] = DEFAULT_YMYL,
                 min_similarity: float = 0.3, llm: TopicLLM | None = None) -> None:
        check_unit("min_similarity", min_similarity)
        bad = sorted(set(ymyl) - set(TOPICS))
        if bad:
            raise ConfigError(f"unknown YMYL topic(s) {bad}; allowed: {', '.join(TOPICS)}")
        self.encoder = encoder
        self.ymyl = frozenset(ymyl)
        self.min_similarity = min_similarity
        self.llm = llm
        self._keywords: dict[Topic, re.Pattern[str]] = {t: re.compile(rx, re.IGNORECASE)
                                                        for t, rx in KEYWORDS.items()}
        self._protos: tuple[list[Topic], np.ndarray] | None = None
        self._memo: dict[str, TopicResult] = {}

    def classify(self, query: str) -> TopicResult:
        """The topic of ``query`` (memoized per query string)."""
        hit = self._memo.get(query)
        if hit is None:
            hit = self._classify(query)
            if len(self._memo) < 10_000:
                self._memo[query] = hit
        return hit

    def _classify(self, query: str) -> TopicResult:
        if not query.strip():
            return self._result("other", 0.0, "none", "empty query")
        guess = detect_language(query)
        if guess.source == "query" and guess.language not in TOPIC_LANGUAGES:
            return self._unread(query, guess.language)
        hits: dict[Topic, set[str]] = {t: {m.group(0).lower() for m in rx.finditer(query)}
                                       for t, rx in self._keywords.items()}
        ranked: list[tuple[int, Topic]] = sorted(((len(h), t) for t, h in hits.items() if h), reverse=True)
        if ranked and (len(ranked) == 1 or ranked[0][0] > ranked[1][0]):
            n, topic = ranked[0]
            return self._result(topic, min(0.9, 0.5 + 0.15 * n), "keywords",
                                f"words: {', '.join(sorted(hits[topic])[:4])}")
        tied: list[Topic] = [t for n, t in ranked if n == ranked[0][0]] if ranked else list(PROTOTYPES)
        if self.encoder is not None:
            topic, sim = self._nearest(query, tied)
            if sim >= self.min_similarity:
                return self._result(topic, round(sim, 4), "prototypes", f"nearest example question (cos {sim:.2f})")
        if self.llm is not None:
            answer = self.llm.topic(query)
            if answer is not None:
                return self._result(answer, 0.6, "llm", "LLM topic")
        if ranked:
            topic = tied[0]
            return self._result(topic, 0.4, "keywords", f"tie between {', '.join(sorted(tied))}; first by order")
        return self._result("other", 0.0, "none", "no topic words or near example question")

    def _nearest(self, query: str, allowed: list[Topic]) -> tuple[Topic, float]:
        assert self.encoder is not None
        if self._protos is None:
            names: list[Topic] = [t for t, qs in PROTOTYPES.items() for _ in qs]
            self._protos = (names, self.encoder.encode([q for qs in PROTOTYPES.values() for q in qs]))
        labels, vecs = self._protos
        sims = vecs @ self.encoder.encode_query(query)
        best: tuple[Topic, float] = ("other", -1.0)
        for label, s in zip(labels, sims.tolist()):
            if label in allowed and s > best[1]:
                best = (label, float(s))
        return best

    def _unread(self, query: str, language: str) -> TopicResult:
        """The topic of a query in a language the word lists and example questions are not written
        in: the LLM layer's, when there is one, else ``other``, saying why."""
        unread = (f"query language {language!r} not read (topic words and example questions: "
                  f"{', '.join(TOPIC_LANGUAGES)})")
        answer = None if self.llm is None else self.llm.topic(query)
        if answer is not None:
            return self._result(answer, 0.6, "llm", f"LLM topic; {unread}")
        return self._result("other", 0.0, "none", unread)

    def _result(self, topic: Topic, confidence: float, layer: str, reason: str) -> TopicResult:
        return TopicResult(topic, confidence, topic in self.ymyl, layer, reason)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"TopicClassifier(prototypes={self.encoder is not None}, llm={self.llm is not None})"


__all__ = ["KEYWORDS", "PROTOTYPES", "TOPIC_LANGUAGES", "TopicClassifier", "TopicLLM"]
