"""WordsReading: the query's words read once per ranking and shared by the cascade and the window,
with the values each computed on its own; detect_language remembers what it read."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import authorag.relevance.words as words_module
from authorag.adapters import build_reranker, candidates
from authorag.errors import ConfigError
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.cascade import CascadeRelevance
from authorag.relevance.coverage import address_words, coverage_and_stuffing
from authorag.relevance.language import _detect, detect_language  # pyright: ignore[reportPrivateUsage]
from authorag.relevance.words import WordsReading
from authorag.rerankers.window_text import read_window_text
from authorag.types import Candidate

QUERY = "does cranberry juice prevent urinary tract infections"
PAGES = [("https://cranberry-cures.blogspot.com/cranberry-juice-uti",
          "Does cranberry juice prevent urinary tract infections? Cranberry juice cures infections! " * 3),
         ("https://www.nih.gov/uti", "Cranberry products and urinary tract infections: a review of trials."),
         ("https://www.cars.com/tyre", "How to change a flat tyre: loosen the nuts and swap the wheel.")]
QUERY_DE = "Welche Unterlagen brauche ich für eine Hypothek?"
PAGES_DE = [("https://baufinanz.example.de/hypothek-unterlagen",
             "Hypothek beantragen: die Bank verlangt Gehaltsnachweise, Kontoauszüge und den Kaufvertrag."),
            ("https://kuchen.example.de/", "Ein Rezept für Apfelkuchen mit Zimt und Streuseln.")]


def _cands(pages: list[tuple[str, str]]) -> list[Candidate]:
    return [Candidate.create(url, text) for url, text in pages]


def test_reading_holds_what_each_reader_computes_on_its_own() -> None:
    cands = _cands(PAGES)
    texts = [c.text for c in cands]
    reading = WordsReading(QUERY, cands)
    assert reading.language == detect_language(QUERY, texts)
    assert (reading.coverage, reading.stuffed) == coverage_and_stuffing(
        QUERY, texts, "en", [address_words(c.url) for c in cands])
    assert reading.coverage == pytest.approx([1.0, 4 / 6, 0.0])  # nih.gov: no "juice", no "prevent"
    assert reading.stuffed == [True, False, False]
    assert reading.bm25 == BM25Relevance(language="en").score(QUERY, cands)


def test_reading_in_german_reads_german_words() -> None:
    reading = WordsReading(QUERY_DE, _cands(PAGES_DE))
    assert reading.language.lexical == "de"
    # "Hypothek" in the text, "Unterlagen" in the address only, "brauche" nowhere
    assert reading.coverage == pytest.approx([2 / 3, 0.0])
    assert coverage_and_stuffing(QUERY_DE, reading.texts, "de")[0] == pytest.approx([1 / 3, 0.0])


def test_a_reading_for_another_query_or_other_candidates_is_refused() -> None:
    reading = WordsReading(QUERY, _cands(PAGES))
    assert reading.check_for(QUERY, _cands(PAGES)) is reading
    with pytest.raises(ConfigError, match="another query or other candidates"):
        reading.check_for("zinc lozenges", _cands(PAGES))
    with pytest.raises(ConfigError, match="another query or other candidates"):
        reading.check_for(QUERY, _cands(PAGES[:2]))
    with pytest.raises(ConfigError, match="another query or other candidates"):
        CascadeRelevance(multilingual=False).score_encoded(QUERY, _cands(PAGES[::-1]), reading)


def test_window_and_cascade_give_the_same_with_a_shared_reading() -> None:
    cands = _cands(PAGES)
    cascade = CascadeRelevance(multilingual=False)
    shared = WordsReading(QUERY, cands)
    assert cascade.score_encoded(QUERY, cands, shared) == cascade.score_encoded(QUERY, cands)
    own, own_note = read_window_text(QUERY, cands, False, True)
    got, got_note = read_window_text(QUERY, cands, False, True, shared)
    assert own is not None and got is not None and got_note == own_note
    assert (got.coverage, got.lexical, got.stuffed.tolist(), got.cues) == (
        own.coverage, own.lexical, own.stuffed.tolist(), own.cues)


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls = [0]
    real: Callable[..., Any] = getattr(words_module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(words_module, name, counted)
    return calls


def test_a_ranking_with_the_cascade_reads_the_words_once(monkeypatch: pytest.MonkeyPatch) -> None:
    coverage_calls = _counting(monkeypatch, "coverage_and_stuffing")
    bm25_calls = _counting(monkeypatch, "BM25Relevance")
    reranker, mode = build_reranker(relevance=CascadeRelevance(multilingual=False))
    cands, _ = candidates([(url, text, None) for url, text in PAGES], mode)
    ranking = reranker.rerank(QUERY, cands)
    assert (coverage_calls[0], bm25_calls[0]) == (1, 1)
    assert [c.url for c in ranking.candidates] == ["https://www.nih.gov/uti",
                                                   "https://cranberry-cures.blogspot.com/cranberry-juice-uti",
                                                   "https://www.cars.com/tyre"]


def test_detect_language_remembers_what_it_read() -> None:
    texts = [text for _, text in PAGES_DE]
    _detect.cache_clear()
    first = detect_language(QUERY_DE, texts)
    assert detect_language(QUERY_DE, texts) is first and _detect.cache_info().hits == 1
    assert first == _detect.__wrapped__(QUERY_DE, " ".join(texts))
    assert (first.language, first.source) == ("de", "query")
