"""The window says "trust orders" only when its relevance tells no candidate apart: relevance
scores that are equal for every page leave coverage to tell them apart."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.rerankers.calibration import calibrate
from authorag.rerankers.fusion import WindowText, window_relevance

EQUAL = "relevance equal for every candidate: trust orders"
NONE_STUFFED = np.zeros(2, dtype=np.bool_)


@pytest.mark.parametrize(("relevance", "coverage", "lexical", "window", "note"), [
    # BM25 or upstream scores tied, coverage 1 and 0.5: mixed 0.7 / 0.3, the pages differ
    ((0.4, 0.4), (1.0, 0.5), None, (1.0, 0.7 * 0.5 + 0.3), None),
    # the cascade's case: BM25 of the texts tied, the meaning tied too; the words' window differs
    # (0.65 of the best, on the window's scale: 0.55 + (0.65 - 0.55 ** 1.5) * 0.45 / (1 - 0.55 ** 1.5))
    ((0.7, 0.7), (1.0, 0.5), (2.0, 2.0), (1.0, 0.55 + (0.65 - 0.55 ** 1.5) * 0.45 / (1 - 0.55 ** 1.5)), None),
    ((float("nan"), 0.7), (1.0, 0.5), (2.0, 2.0), (0.0, 0.55 + (0.65 - 0.55 ** 1.5) * 0.45 / (1 - 0.55 ** 1.5)),
     "1 relevance score(s) not a finite number, read as 0"),
    # relevance and coverage both tied: the window is equal and trust orders
    ((0.4, 0.4), (1.0, 1.0), None, (1.0, 1.0), EQUAL),
    ((0.7, 0.7), (1.0, 1.0), (2.0, 2.0), (1.0, 1.0), EQUAL),
])
def test_trust_orders_only_when_the_window_is_equal(relevance: tuple[float, float], coverage: tuple[float, float],
                                                    lexical: tuple[float, float] | None, window: tuple[float, float],
                                                    note: str | None) -> None:
    text = WindowText(coverage, NONE_STUFFED, lexical=lexical)
    got, why = window_relevance(np.asarray(relevance, dtype=np.float64), text, on_topic=0.55)
    assert got.tolist() == pytest.approx(list(window))
    assert why == note


def test_a_part_of_the_window_does_not_say_trust_orders() -> None:
    assert calibrate(np.array([0.4, 0.4]), part=True)[1] is None
    assert calibrate(np.array([0.0, 0.0]), part=True)[1] is None
    assert calibrate(np.array([float("inf"), 0.0]), part=True)[1] == "1 relevance score(s) not a finite number, read as 0"
    only_stuffed = calibrate(np.array([1.0, 0.0]), np.array([True, False]), ["https://a.example/x", "https://b.example/y"],
                             part=True)
    assert only_stuffed[0].tolist() == [1.0, 1.0]
    assert only_stuffed[1] == "keyword-stuffed, not used as the relevance reference: https://a.example/x"


@pytest.mark.parametrize("reverse", [False, True])
def test_tied_upstream_scores_leave_coverage_to_tell_the_pages_apart(reverse: bool) -> None:
    from authorag.adapters import build_reranker, candidates

    pages = [("https://www.example-clinic.org/knee", "Knee pain after running: rest, ice and a slower return to running."),
             ("https://www.example-blog.org/run", "Running shoes: how to choose them for your first race.")]
    reranker, mode = build_reranker(relevance="upstream")
    rows = [(u, t, 0.5) for u, t in (pages[::-1] if reverse else pages)]
    ranking = reranker.rerank("knee pain after running", candidates(rows, mode)[0])
    assert [c.url for c in ranking] == [pages[0][0], pages[1][0]]
    assert "relevance_note" not in ranking.provenance
    norm = {c.url: c.scores["relevance.norm"] for c in ranking}
    assert norm[pages[0][0]] == pytest.approx(1.0) and norm[pages[1][0]] < 0.55
