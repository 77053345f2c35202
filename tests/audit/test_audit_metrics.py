"""Hand-worked fixtures for every audit metric (the expected values are worked out in comments)."""
from __future__ import annotations

import pytest

from authorag.audit.metrics import METRIC_KEYS, compute_metrics, max_matching_size
from authorag.audit.stats import agresti_coull, bootstrap_mean, ratio

# Fixture A: 3 statements x 4 sources.
#   C = cites        S = supports
#   s0: [1 1 0 0]    [1 0 1 0]
#   s1: [0 1 0 0]    [0 1 0 0]
#   s2: [0 0 0 0]    [0 0 0 0]      (s2 is not relevant)
# credible = [T, F, unknown, T]; stances pro, pro, con; debate; confidence 5.
C_A = [[1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
S_A = [[1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]]


def _a(confidence: int | None = 5, debate: bool | None = True):
    return compute_metrics(C_A, S_A, relevant=[True, True, False], stances=["pro", "pro", "con"],
                           credible=[True, False, None, True], debate=debate, confidence=confidence)


def test_fixture_a_every_metric() -> None:
    m = _a().metrics
    assert list(m) == list(METRIC_KEYS)
    assert m == {
        "one_sided": True,                     # relevant s0, s1 are both "pro"
        "overconfident": True,                 # one-sided and confidence 5 >= 5
        "relevant_statement_ratio": pytest.approx(2 / 3),
        "uncited_sources_ratio": 0.5,          # sources 2, 3 cited by nobody: 2/4
        "unsupported_statements_ratio": 0.0,   # s0 (by 0, 2) and s1 (by 1) are supported: 0/2
        "source_necessity": 0.5,               # matching {s0-0, s1-1} (or s0-2): 2 / 4 sources
        "citation_accuracy": pytest.approx(2 / 3),      # C⊙S hits (0,0),(1,1) = 2; ΣC = 3
        "citation_thoroughness": pytest.approx(2 / 3),  # ΣS = 3
        "credibility_rate": 0.5,               # cited sources 0 (T), 1 (F)
        "non_credibility_rate": 0.5,
        "groundedness": 1.0,                   # s0 supported by cited 0; s1 by cited 1: 2/2
        "credible_groundedness": 1.0,          # statements citing a credible source: s0 (by 0): 1/1
        "non_credible_groundedness": 0.5,      # citing source 1: s0 (not by 1), s1 (by 1): 1/2
    }


def test_fixture_a_counts_and_intervals() -> None:
    r = _a()
    assert r.counts["cited_sources"] == 2 and r.counts["citations"] == 3
    assert r.counts["credibility_unknown_cited"] == 0
    lo, hi = r.intervals["credibility_rate"]
    assert (lo, hi) == pytest.approx(agresti_coull(1, 2))


@pytest.mark.parametrize(("confidence", "debate", "expected"), [
    (4, True, (True, False)),     # one-sided but confidence below 5
    (None, True, (True, None)),   # confidence unknown
    (5, False, (None, None)),     # not a debate question
    (5, None, (None, None)),
])
def test_debate_flags(confidence: int | None, debate: bool | None, expected: tuple[object, object]) -> None:
    m = _a(confidence, debate).metrics
    assert (m["one_sided"], m["overconfident"]) == expected


def test_both_sides_is_not_one_sided() -> None:
    m = compute_metrics([[0], [0]], [[0], [0]], relevant=[True, True], stances=["pro", "con"],
                        credible=[None], debate=True, confidence=5).metrics
    assert (m["one_sided"], m["overconfident"]) == (False, False)


def test_empty_answer_with_sources() -> None:
    # No statements, 3 sources, support known (empty): every source is uncited; nothing to
    # support, so the matching is 0 of 3 sources; statement-denominator ratios are null.
    r = compute_metrics([], [], relevant=[], stances=[], credible=[True, None, False], debate=None, confidence=None)
    assert r.metrics["uncited_sources_ratio"] == 1.0
    assert r.metrics["source_necessity"] == 0.0
    for key in ("relevant_statement_ratio", "unsupported_statements_ratio", "citation_accuracy",
                "citation_thoroughness", "credibility_rate", "non_credibility_rate", "groundedness",
                "credible_groundedness", "non_credible_groundedness", "one_sided", "overconfident"):
        assert r.metrics[key] is None, key


def test_nothing_at_all_is_all_null() -> None:
    m = compute_metrics([], None, relevant=[], stances=[], credible=[], debate=None, confidence=None).metrics
    assert set(m.values()) == {None}


def test_no_citations() -> None:
    # 2 relevant statements, 2 sources, nothing cited; source 0 supports s0.
    m = compute_metrics([[0, 0], [0, 0]], [[1, 0], [0, 0]], relevant=[True, True], stances=[None, None],
                        credible=[True, False], debate=None, confidence=None).metrics
    assert m["uncited_sources_ratio"] == 1.0
    assert m["unsupported_statements_ratio"] == 0.5
    assert m["source_necessity"] == 0.5
    assert m["citation_accuracy"] is None          # ΣC = 0
    assert m["citation_thoroughness"] == 0.0       # 0 / ΣS = 0 / 1
    assert m["credibility_rate"] is None           # no cited source
    assert m["groundedness"] is None               # no cited statement


def test_support_unknown_without_judge() -> None:
    m = compute_metrics([[1]], None, relevant=[None], stances=[None], credible=[True], debate=None,
                        confidence=None)
    assert m.metrics["citation_accuracy"] is None and m.metrics["source_necessity"] is None
    assert m.metrics["relevant_statement_ratio"] is None
    assert m.metrics["credibility_rate"] == 1.0
    assert any("relevance unknown" in n for n in m.notes)


def test_unknown_credibility_is_excluded_and_counted() -> None:
    r = compute_metrics([[1, 1, 1]], [[1, 1, 0]], relevant=[True], stances=[None],
                        credible=[None, None, False], debate=None, confidence=None)
    assert r.metrics["credibility_rate"] == 0.0 and r.metrics["non_credibility_rate"] == 1.0
    assert r.counts["credibility_unknown_cited"] == 2


def test_skipped_support_rows_are_left_out() -> None:
    # s1's support is unknown: accuracy over s0 only: C⊙S = 1, ΣC = 2.
    r = compute_metrics([[1, 1], [1, 0]], [[1, 0], None], relevant=[True, True], stances=[None, None],
                        credible=[None, None], debate=None, confidence=None)
    assert r.metrics["citation_accuracy"] == 0.5
    assert r.metrics["unsupported_statements_ratio"] == 0.0
    assert r.counts["support_known_statements"] == 1
    assert r.notes[0].startswith("support unknown for 1 of 2 statements")


@pytest.mark.parametrize(("support", "expected"), [
    ([], 0),
    ([[0, 0]], 0),
    ([[1, 1], [1, 0]], 2),            # s1 must take source 0, s0 takes source 1
    ([[1, 0, 0], [1, 0, 0], [1, 0, 0]], 1),  # one source supports all: one is necessary
    ([[1, 1, 1], [0, 1, 0], [0, 1, 0]], 2),  # König: cover {source 1, s0} has size 2
])
def test_max_matching(support: list[list[int]], expected: int) -> None:
    assert max_matching_size(support) == expected


def test_agresti_coull_by_hand() -> None:
    # z = 1.96: n~ = 10 + 3.8415 = 13.8415; p~ = (8 + 1.9207) / n~ = 0.71674;
    # half = 1.96 * sqrt(p~(1-p~)/n~) = 0.23738 -> (0.4794, 0.9541)
    assert agresti_coull(8, 10) == pytest.approx((0.47937, 0.95411), abs=1e-4)
    assert agresti_coull(0, 0) == (None, None)
    assert agresti_coull(0, 4)[0] == 0.0          # clipped at 0
    assert agresti_coull(4, 4)[1] == 1.0          # clipped at 1


def test_ratio_and_bootstrap() -> None:
    assert ratio(1, 0) is None and ratio(0, 4) == 0.0
    mean, lo, hi = bootstrap_mean([0.0, 1.0], samples=500)
    assert mean == 0.5 and lo is not None and hi is not None and 0.0 <= lo <= 0.5 <= hi <= 1.0


def test_citation_matrix_rejects_unknown_id() -> None:
    from authorag.audit.matrices import citation_matrix
    from authorag.audit.model import AuditStatement
    from authorag.errors import ConfigError

    assert citation_matrix([AuditStatement("a", ("2", "1"))], ["1", "2"]) == ((1, 1),)
    with pytest.raises(ConfigError, match=r"statement 0 cites source id 'x', which is not among \['1'\]"):
        citation_matrix([AuditStatement("a", ("x",))], ["1"])
