"""CascadeRelevance with the real bundled MiniLM: which pages are encoded, what the others score,
what the reranker and the breakdown make of it."""
from __future__ import annotations

import sys

import pytest

from authorag.adapters import breakdowns, build_reranker, candidates
from authorag.errors import ConfigError, MissingDependencyError
from authorag.relevance.base import EncodesSome, RelevanceScorer, SemanticScorer
from authorag.relevance.cascade import BELOW_WINDOW, CascadeRelevance, words_share
from authorag.relevance.dense import DenseRelevance
from authorag.relevance.registry import load_relevance
from authorag.types import Candidate

QUERY = "does cranberry juice prevent urinary tract infections"
PAGES = {  # most of the query's words first
    "full": "Does cranberry juice prevent urinary tract infections? Trials of cranberry juice in women with "
            "recurrent urinary tract infections found fewer infections.",
    "most": "Cranberry juice and urinary tract infections: what the trials say.",
    "some": "Urinary tract infections are treated with antibiotics.",
    "none": "How to change a flat tyre: loosen the lug nuts, jack up the car and swap the wheel.",
}


def _cands() -> list[Candidate]:
    return [Candidate.create(f"https://{k}.example.org/", text, id=k) for k, text in PAGES.items()]


@pytest.fixture(scope="module")
def cascade() -> CascadeRelevance:
    return CascadeRelevance(encode_top=2)


def test_encodes_the_pages_with_most_query_words_and_none_without_any(cascade: CascadeRelevance) -> None:
    scores, encoded, note = cascade.score_encoded(QUERY, _cands())
    assert encoded == [True, True, False, False] and note is None
    reference = DenseRelevance(precision="int8", max_tokens=64).cosines(QUERY, [PAGES["full"], PAGES["most"]])
    assert scores[:2] == pytest.approx(reference, abs=1e-6)
    assert scores[3] == 0.0  # no query word: no similarity
    assert 0.0 < scores[2] < BELOW_WINDOW * max(scores[:2])  # not encoded: below half the best similarity


def test_a_page_without_query_words_is_not_encoded_whatever_the_budget() -> None:
    _, encoded, _ = CascadeRelevance(encode_top=10).score_encoded(QUERY, _cands())
    assert encoded == [True, True, True, False]


def test_when_every_page_has_every_query_word_the_budget_alone_decides() -> None:
    texts = [f"{QUERY}. " + "Some more text about it. " * k for k in range(4)]
    cands = [Candidate.create(f"https://p{i}.example.org/", t) for i, t in enumerate(texts)]
    _, encoded, _ = CascadeRelevance(encode_top=3).score_encoded(QUERY, cands)
    assert encoded == [True, True, True, False]  # BM25 prefers the shorter pages


def test_reranker_keeps_an_unencoded_page_out_of_the_window() -> None:
    """nih.gov has the fewest of the query's words: with a budget of two it is not encoded and
    trust cannot lift it; with three it is encoded, on topic, and trust puts it first. The blog
    repeats the query (keyword-stuffed): it ranks just below the least relevant on-topic page that
    is not stuffed, the juice page with two pages encoded (the blog's trust then puts it first) and
    nih.gov with three (the juice page's relevance then puts it above the blog)."""
    pages = [("https://cranberry-cures.blogspot.com/a", PAGES["full"]),
             ("https://juice-facts.example.biz/b", PAGES["most"]),
             ("https://www.nih.gov/uti", "Cranberry products and urinary tract infections: a review of trials.")]
    blog, juice, nih = (url for url, _ in pages)
    for top, want, decided in ((2, [blog, juice, nih], ["encoded", "encoded", "lexical"]),
                               (3, [nih, juice, blog], ["encoded"] * 3)):
        reranker, mode = build_reranker(relevance=CascadeRelevance(encode_top=top))
        cands, _ = candidates([(url, text, None) for url, text in pages], mode)
        ranking = reranker.rerank(QUERY, cands)
        assert [c.url for c in ranking] == want
        assert [b["relevance_decided_by"] for b in breakdowns(ranking, mode)] == decided


def test_breakdown_field_is_none_for_a_relevance_that_encodes_every_page() -> None:
    reranker, mode = build_reranker(relevance="bm25")
    cands, _ = candidates([("https://www.nih.gov/uti", PAGES["most"], None)], mode)
    assert [b["relevance_decided_by"] for b in breakdowns(reranker.rerank(QUERY, cands), mode)] == [None]


def test_unseen_counts_at_most_the_budget() -> None:
    texts = [f"a page never seen before, number {i}" for i in range(6)]
    assert CascadeRelevance(encode_top=2, multilingual=False).unseen(texts) == 2
    assert CascadeRelevance(encode_top=8, multilingual=False).unseen(texts) == 6


def test_words_share_is_relative_to_the_best_page_not_stuffed() -> None:
    share = words_share([1.0, 0.5, 1.0], [10.0, 2.0, 4.0], [True, False, False])
    # mixed: 0.7 + 0.3, 0.35 + 0.06, 0.7 + 0.12; the best not stuffed is 0.82, the stuffed page capped at 1
    assert share.tolist() == pytest.approx([1.0, 0.41 / 0.82, 1.0])


@pytest.mark.parametrize(("options", "message"), [
    ({"encode_top": 0}, r"encode_top must be a positive integer"),
    ({"lexical_floor": 1.5}, r"lexical_floor must be in \[0, 1\], got 1.5"),
    ({"precision": "fp16"}, r"precision must be one of"),
])
def test_bad_options_say_what_was_wrong(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        CascadeRelevance(**options)  # type: ignore[arg-type]


def test_is_registered_and_declares_what_it_does() -> None:
    scorer = load_relevance("cascade", encode_top=3)
    assert isinstance(scorer, CascadeRelevance) and scorer.encode_top == 3
    assert isinstance(scorer, RelevanceScorer) and isinstance(scorer, SemanticScorer)
    assert isinstance(scorer, EncodesSome) and scorer.name == "relevance.cascade"


def test_missing_extra_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[embeddings\]'"):
        load_relevance("cascade")


def test_a_page_whose_address_names_the_question_is_encoded() -> None:
    # The answer uses none of the question's words; its address does (as the window reads it). Before
    # the cascade read addresses, this page was left unencoded under the lexical floor, off topic.
    cascade = CascadeRelevance()
    query = "how do I exit vim"
    pages = [Candidate.create("https://forum.example.org/t/1", "How do I exit vim? I opened vim and cannot exit vim."),
             Candidate.create("https://qa.example.org/questions/11828270/how-do-i-exit-vim",
                              "Press Escape, then type :q and Enter to quit; :q! discards your changes."),
             Candidate.create("https://recipes.example.org/bread", "Knead the dough for ten minutes, then let it rise.")]
    _, encoded, _ = cascade.score_encoded(query, pages)
    assert encoded == [True, True, False]
