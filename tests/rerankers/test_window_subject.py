"""A page whose address and lead name another subject only mentions the question's words: it stays
out of the window (authorag.rerankers.fusion.subject_off_topic), so trust cannot lift it."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.adapters import breakdowns, build_reranker, candidates
from authorag.rerankers.fusion import WindowText, subject_note, subject_off_topic

KETTLE_Q = "how do I descale a kettle"
KETTLE = ("https://www.homehacks.example/kettle-care",
          "Kettle care. Fill it halfway with equal parts water and white vinegar, bring it to the boil, "
          "leave it for an hour, then rinse it twice with clean water.")
HARD_WATER = ("https://www.epa.gov/watersense/hard-water",
              "Hard water at home. Minerals in hard water build up as scale in pipes and heaters; plumbers "
              "descale them with mild acids.")


@pytest.mark.parametrize("reverse", [False, True])
def test_a_trusted_page_that_mentions_a_query_word_in_passing_stays_below(reverse: bool) -> None:
    # each page has one of the two content words; BM25 prefers the shorter EPA page, so before it
    # was the reference, the kettle page on topic beside it, and trust put EPA first
    pages = [HARD_WATER, KETTLE] if reverse else [KETTLE, HARD_WATER]
    reranker, mode = build_reranker(relevance="bm25")
    ranking = reranker.rerank(KETTLE_Q, candidates([(u, t, None) for u, t in pages], mode)[0])
    assert [c.url for c in ranking] == [KETTLE[0], HARD_WATER[0]]
    rows = {b["url"]: b for b in breakdowns(ranking, mode)}
    assert rows[KETTLE[0]]["relevance_norm"] == pytest.approx(1.0)
    assert rows[HARD_WATER[0]]["relevance_norm"] == pytest.approx(0.55, abs=1e-5)
    assert ranking.provenance.get("relevance_note") == (
        f"address and lead name none of the query's words, off topic: {HARD_WATER[0]}")


MILK_Q = "can I freeze breast milk"
CDC = ("https://www.cdc.gov/infant-feeding/storage",
       "Proper storage and preparation. You can freeze breast milk in clean, capped containers; use frozen "
       "milk within six months for best quality and never refreeze it once thawed.")
BLOG = ("https://mommy-tips.example/freeze-breast-milk",
        "Freeze breast milk the easy way. Pour the milk into freezer bags, squeeze out the air, lay them flat, "
        "and label each bag with the date. Frozen milk keeps for a year.")


@pytest.mark.parametrize("reverse", [False, True])
def test_a_trusted_page_with_most_of_the_query_words_stays_on_topic(reverse: bool) -> None:
    # the CDC page's lead and address name none of the query's words, but its text holds all of
    # them: not a passing mention (SUBJECT_PASSING), so it stays on topic and trust puts it first
    pages = [BLOG, CDC] if reverse else [CDC, BLOG]
    reranker, mode = build_reranker(relevance="bm25")
    ranking = reranker.rerank(MILK_Q, candidates([(u, t, None) for u, t in pages], mode)[0])
    assert [c.url for c in ranking] == [CDC[0], BLOG[0]]
    assert ranking.provenance.get("relevance_note") is None


def _text(coverage: list[float], subject: list[float], stuffed: list[bool] | None = None) -> WindowText:
    mask = np.asarray(stuffed if stuffed is not None else [False] * len(coverage), dtype=np.bool_)
    return WindowText(coverage, mask, names=[f"https://p{i}.example/" for i in range(len(coverage))],
                      subject=subject)


def test_the_best_page_kept_out_is_not_the_reference() -> None:
    cal, out = subject_off_topic(np.array([1.0, 0.6, 0.2]), _text([0.5, 0.5, 0.5], [0.0, 0.5, 0.5]), 0.55)
    assert cal.tolist() == pytest.approx([0.55 - 1e-6, 1.0, 0.2 / 0.6])
    assert out.tolist() == [True, False, False]


def test_a_stuffed_page_is_not_the_reference_either() -> None:
    cal, out = subject_off_topic(np.array([1.0, 0.9, 0.6]), _text([0.5, 1.0, 1.0], [0.0, 1.0, 1.0], [False, True, False]),
                                 0.55)
    assert cal.tolist() == pytest.approx([0.55 - 1e-6, 1.0, 1.0])
    assert out.tolist() == [True, False, False]


@pytest.mark.parametrize(("coverage", "subject"), [
    ([0.5, 0.5], [0.0, 0.0]),  # no page names a query word: nothing to tell them apart by
    ([0.75, 0.5], [0.0, 0.5]),  # the page without a subject holds most of the query's words
    ([0.5], [0.0, 0.5]),  # the text was read for other candidates
])
def test_nothing_changes_without_a_page_to_keep_out(coverage: list[float], subject: list[float]) -> None:
    rel = np.array([1.0, 0.8])[:len(coverage)]
    text = WindowText(coverage, np.zeros(len(coverage), dtype=np.bool_), subject=subject)
    cal, out = subject_off_topic(rel, text, 0.55)
    assert cal.tolist() == rel.tolist()
    assert not out.any()


def test_a_page_already_off_topic_keeps_its_relevance() -> None:
    cal, out = subject_off_topic(np.array([1.0, 0.3]), _text([1.0, 0.5], [1.0, 0.0]), 0.55)
    assert cal.tolist() == [1.0, 0.3]
    assert not out.any()


def test_the_note_names_at_most_five_pages() -> None:
    names = [f"https://p{i}.example/" for i in range(7)]
    note = subject_note(np.array([True] * 7), names)
    assert note == ("address and lead name none of the query's words, off topic: "
                    + ", ".join(names[:5]) + " and 2 more")
    assert subject_note(np.array([True, False])) == (
        "1 candidate(s) whose address and lead name none of the query's words, off topic")
    assert subject_note(np.array([False, False]), names[:2]) is None


RAIL_Q = "is a rail pass worth it in Europe"
REPLY = ("https://www.reddit.com/r/travel/comments/1k2j3h4/comment/m5n6b7v/",
         "Only if you take long trains on most days. For two or three cities, single tickets booked early are "
         "cheaper, and the fast trains in France, Italy and Spain charge a seat reservation on top of the pass.")
DELAY = ("https://www.gov.uk/delay-repay-rail-compensation",
         "Delay Repay. If your rail journey is delayed you can claim compensation from the train company within "
         "28 days; keep your ticket and apply online.")


@pytest.mark.parametrize("reverse", [False, True])
def test_a_users_reply_is_never_kept_out_for_its_subject(reverse: bool) -> None:
    # the reply's lead and address name none of the query's words (a comment's address has no
    # slug: its subject is the thread's question) and it holds one of five; the retriever's
    # similarity says it answers the question and the rail-delay page does not. Before, the reply
    # was kept out as a passing mention, and the official page on another question came first
    sims = {REPLY[0]: 0.82, DELAY[0]: 0.41}
    pages = [DELAY, REPLY] if reverse else [REPLY, DELAY]
    reranker, mode = build_reranker(relevance="similarity")
    ranking = reranker.rerank(RAIL_Q, candidates([(u, t, sims[u]) for u, t in pages], mode)[0])
    assert [c.url for c in ranking] == [REPLY[0], DELAY[0]]
    assert "off topic" not in (ranking.provenance.get("relevance_note") or "")


def test_subject_off_topic_keeps_no_user_post_out() -> None:
    text = WindowText([0.25, 0.25], np.zeros(2, dtype=np.bool_), names=["https://p0.example/", "https://p1.example/"],
                      subject=[0.0, 0.5], posts=np.array([True, False]))
    cal, out = subject_off_topic(np.array([1.0, 0.8]), text, 0.55)
    assert out.tolist() == [False, False]
    assert cal.tolist() == [1.0, 0.8]


HYBRID_Q = "is a plug-in hybrid worth buying"
ANSWER = ("https://www.reddit.com/r/cars/comments/1x2y3z4/comment/n8m7k6j/",
          "Only if you can charge it at home or at work nearly every day. I drive 35 km a day almost always on "
          "electric and spend very little. If you never plug it in you carry a heavy battery around and burn more "
          "fuel than a normal petrol car.")
LABELS = ("https://www.gov.uk/vehicle-tax-rate-tables",
          "Vehicle tax rates. Rates for cars registered after April 2017 depend on the list price and the CO2 "
          "emissions; hybrid and plug-in cars pay a lower first-year rate. Check the rate before buying.")


@pytest.mark.parametrize("reverse", [False, True])
def test_a_reply_answering_in_its_own_words_is_read_by_its_meaning(reverse: bool) -> None:
    # the reply holds one of the question's four content words ("plug"), yet its meaning says it answers; the
    # tax page holds "hybrid", "plug" and "buying". Before, the words vetoed the reply (off topic) and
    # the trusted tax page came first
    sims = {ANSWER[0]: 0.84, LABELS[0]: 0.52}
    pages = [LABELS, ANSWER] if reverse else [ANSWER, LABELS]
    reranker, mode = build_reranker(relevance="similarity")
    cands, source = candidates([(u, t, sims[u]) for u, t in pages], mode)
    ranking = reranker.rerank(HYBRID_Q, cands)
    assert [c.url for c in ranking] == [ANSWER[0], LABELS[0]]
    rows = {b["url"]: b for b in breakdowns(ranking, source)}
    assert rows[ANSWER[0]]["relevance_norm"] == pytest.approx(1.0)
    assert rows[LABELS[0]]["fused"] < 0.5  # off topic
