"""Shape of the hand-written 7-page lists (``rerank-lists-v5``): size, halves, languages, topics,
the role order every list is written in, the trusted page that answers in its own words,
independence from v1–v4, and the track read and scored by the v2 list code."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from authorag.benchmarks.compare import TRACKS
from authorag.benchmarks.generalisation.run import ALL_TRACKS, HAND_TRACKS, TracksConfig
from authorag.benchmarks.registry import RERANK_TASKS
from authorag.benchmarks.tracks.trust_data import (
    MULTI_SETS,
    V2_LANGS,
    V2_TOPICS,
    V4_TOPICS,
    V5_SETS,
    form_of,
    group_pairs,
    load_cases,
)
from authorag.cli import main
from authorag.domains import parse_host
from tests.benchmarks._hand_sets import assert_sizes_ids_and_halves, page_texts, written_before

SET = "rerank-lists-v5"
EARLIER = written_before(V5_SETS[0])
ROLES = ["trusted", "trusted", "unknown", "untrusted", "untrusted", "offtopic", "offtopic"]
KINDS = ("keyword-stuffed", "sober-misinfo", "spoofed-authority", "fabricated-news")


def test_size_ids_and_halves() -> None:
    assert_sizes_ids_and_halves(SET, 24, "rl5")


def test_no_query_text_or_id_in_common_with_v1_to_v4() -> None:
    cases, earlier = load_cases(SET), [c for s in EARLIER for c in load_cases(s)]
    assert {c.query.casefold() for c in cases}.isdisjoint({c.query.casefold() for c in earlier})
    assert {c.id for c in cases}.isdisjoint({c.id for c in earlier})
    assert page_texts(cases).isdisjoint(page_texts(earlier))
    # three real addresses are shared with v4, each with another text (data/provenance/rerank_lists_v5.md)
    shared = {p.url for c in cases for p in c.pages} & {p.url for c in earlier for p in c.pages}
    assert shared == {"https://www.service-public.fr/particuliers/vosdroits/F2258",
                      "https://www.gov.uk/standard-visitor", "https://www.gov.uk/tenancy-deposit-protection"}


def test_each_half_has_three_lists_per_language_on_known_topics() -> None:
    for split in ("dev", "test"):
        half = load_cases(SET, split)
        assert Counter(c.lang for c in half) == {g: 3 for g in V2_LANGS}
        assert {c.domain for c in half} <= set(V2_TOPICS) | set(V4_TOPICS)
        assert {c.kind for c in half} == set(KINDS)
    assert Counter(c.domain for c in load_cases(SET)) == {t: 3 for t in ("finance", "law", "software", "science",
                                                                         "consumer", "travel", "work", "housing")}


def test_every_list_is_seven_pages_in_role_order_with_the_v2_groups() -> None:
    for case in load_cases(SET):
        assert [p.role for p in case.pages] == ROLES, case.id
        assert [p.group for p in case.pages] == [0, 0, 1, 1, 1, 2, 2], case.id
        # 2 trusted above 3 middle and 2 off-topic, the 3 middle above 2 off-topic
        assert len(group_pairs(case)) == 2 * 5 + 3 * 2
        assert all(40 <= len(p.text.split()) <= 90 for p in case.pages), case.id
        assert all(parse_host(p.url, strict=False).domain for p in case.pages), case.id


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"\w+", text.casefold()) if len(w) >= 5}


def test_the_first_trusted_page_shares_fewer_query_words_than_the_second() -> None:
    own, plain = 0, 0
    for case in load_cases(SET):
        words = _stems(case.query)
        own += len(words & _stems(case.pages[0].text))
        plain += len(words & _stems(case.pages[1].text))
    assert own * 2 < plain


def test_registered_and_scored_as_rerank_lists_v2() -> None:
    assert form_of(SET) == "rerank-lists-v2"
    assert SET in set(MULTI_SETS) & set(RERANK_TASKS) & set(HAND_TRACKS) & set(ALL_TRACKS)
    assert SET in {t.task for t in TRACKS if t.kind == "rerank"}
    assert TracksConfig(tracks=(SET,), split="dev").tracks == (SET,)


def test_the_track_runs_through_the_v2_list_rows() -> None:
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task=SET, method="relevance-only", track_relevance=("rank",), split="dev"))
    metrics = result["metrics"]
    assert metrics["n_cases"] == 12
    # rank relevance with weight 0 keeps the retriever's order: every on-topic page above both off-topic ones
    assert metrics["rows"]["on-topic above off-topic (rank)"]["value"] == pytest.approx(1.0)
    assert {f"trusted first (rank), lang {g}" for g in V2_LANGS} <= set(metrics["detail_rows"])


def test_bench_list_names_the_v5_track(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "list", "--json"]) == 0
    tasks = {t["name"]: t["items"] for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert tasks[SET] == 24
