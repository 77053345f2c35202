"""Shape of the hand-written v2 sets: sizes, halves, and every topic, kind and language in the test half."""
from __future__ import annotations

from collections import Counter

import pytest

from authorag.benchmarks.tracks.trust_data import V2_KINDS, V2_LANGS, V2_SETS, V2_TOPICS, load_cases
from authorag.domains import parse_host

SIZES = {"trust-pairs-v2": 96, "no-harm-pairs-v2": 48, "rerank-lists-v2": 24}


@pytest.mark.parametrize("case_set", V2_SETS)
def test_sizes_and_halves_are_disjoint(case_set: str) -> None:
    cases = load_cases(case_set)
    assert len(cases) == SIZES[case_set]
    dev, test = load_cases(case_set, "dev"), load_cases(case_set, "test")
    assert len(dev) == len(test) == SIZES[case_set] // 2
    assert {c.id for c in dev}.isdisjoint({c.id for c in test})
    assert {c.query.lower() for c in dev}.isdisjoint({c.query.lower() for c in test})
    assert len({c.id for c in cases}) == len(cases)


@pytest.mark.parametrize("case_set", V2_SETS)
def test_test_half_covers_every_topic_and_language(case_set: str) -> None:
    test = load_cases(case_set, "test")
    assert {c.domain for c in test} == set(V2_TOPICS)
    assert {c.lang for c in test} == set(V2_LANGS)
    assert sum(c.lang != "en" for c in load_cases(case_set)) * 3 >= len(load_cases(case_set))


def test_trust_pairs_cross_topic_and_kind_in_each_half() -> None:
    for split in ("dev", "test"):
        cells = Counter((c.domain, c.kind) for c in load_cases("trust-pairs-v2", split))
        assert cells == {(t, k): 1 for t in V2_TOPICS for k in V2_KINDS}
        kinds_by_lang = {(c.lang, c.kind) for c in load_cases("trust-pairs-v2", split)}
        assert {k for _, k in kinds_by_lang} == set(V2_KINDS)


def test_lists_cover_every_kind_in_the_test_half() -> None:
    test = load_cases("rerank-lists-v2", "test")
    assert {c.kind for c in test} == set(V2_KINDS)
    for case in test:
        roles = [p.role for p in case.pages]
        assert roles.count("trusted") == 1 and roles.count("untrusted") == 1 and roles.count("offtopic") == 1
        assert [p.group for p in case.pages if p.role == "offtopic"] == [2]


def test_no_harm_pairs_put_the_ordinary_page_first() -> None:
    for case in load_cases("no-harm-pairs-v2"):
        assert case.kind in ("unknown-legit", "user-content")
        assert [(p.role, p.group) for p in case.pages] == [("ontopic", 0), ("offtopic", 1)]


@pytest.mark.parametrize("case_set", V2_SETS)
def test_every_page_has_a_parsable_host_and_trusted_and_untrusted_differ(case_set: str) -> None:
    for case in load_cases(case_set):
        domains = [parse_host(p.url, strict=False).domain for p in case.pages]
        assert all(domains), case.id
        assert all(len(p.text.split()) >= 20 for p in case.pages), case.id
        by_role = {p.role: d for p, d in zip(case.pages, domains)}
        if "trusted" in by_role and "untrusted" in by_role and case.kind != "user-content":
            assert by_role["trusted"] != by_role["untrusted"], case.id


def test_v2_sets_run_as_compare_tracks_with_language_breakdown() -> None:
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task="trust-pairs-v2", method="relevance-only", track_relevance=("rank",),
                                     split="test"))
    metrics = result["metrics"]
    # weight 0 with rank relevance keeps the input order: trusted first as written, last reversed
    assert metrics["rows"]["trusted first (rank)"]["value"] == pytest.approx(0.5)
    assert {f"trusted first (rank), lang {g}" for g in V2_LANGS} <= set(metrics["detail_rows"])
    assert {f"trusted first (rank), kind {k}" for k in V2_KINDS} <= set(metrics["detail_rows"])
