"""Shape of the hand-written Italian, Portuguese and Dutch pairs (``trust-pairs-v6``,
``no-harm-pairs-v6``): sizes, halves, topics × languages × kinds, independence from v1–v5, and
the tracks read and scored by the v2 code path."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from authorag.benchmarks.compare import TRACKS
from authorag.benchmarks.generalisation.run import ALL_TRACKS, HAND_TRACKS
from authorag.benchmarks.registry import RERANK_TASKS
from authorag.benchmarks.tracks.trust_data import (
    FILES,
    MULTI_SETS,
    V2_KINDS,
    V2_TOPICS,
    V6_LANGS,
    V6_SETS,
    V7_SETS,
    form_of,
    load_cases,
)
from authorag.cli import main
from authorag.domains import parse_host
from authorag.relevance.language import detect_language
from tests.benchmarks._hand_sets import assert_independent, assert_sizes_ids_and_halves

SIZES = {"trust-pairs-v6": 48, "no-harm-pairs-v6": 48}
PREFIX = {"trust-pairs-v6": "tp6", "no-harm-pairs-v6": "nhp6"}
EARLIER = [s for s in FILES if s not in (*V6_SETS, *V7_SETS)]


@pytest.mark.parametrize("case_set", V6_SETS)
def test_sizes_ids_and_halves(case_set: str) -> None:
    assert_sizes_ids_and_halves(case_set, SIZES[case_set], PREFIX[case_set])


@pytest.mark.parametrize("case_set", V6_SETS)
def test_no_query_url_text_or_id_in_common_with_v1_to_v5(case_set: str) -> None:
    assert_independent(case_set, EARLIER, texts=True)


@pytest.mark.parametrize("case_set", V6_SETS)
def test_each_half_holds_every_topic_in_every_language_once(case_set: str) -> None:
    for split in ("dev", "test"):
        half = load_cases(case_set, split)
        assert Counter((c.domain, c.lang) for c in half) == {(t, g): 1 for t in V2_TOPICS for g in V6_LANGS}


def test_kinds_are_balanced_in_each_half() -> None:
    for split in ("dev", "test"):
        assert Counter(c.kind for c in load_cases("trust-pairs-v6", split)) == {k: 4 for k in V2_KINDS}
        assert Counter(c.kind for c in load_cases("no-harm-pairs-v6", split)) == {"unknown-legit": 12,
                                                                                 "user-content": 12}


@pytest.mark.parametrize("case_set", V6_SETS)
def test_queries_read_as_their_language_and_pages_parse(case_set: str) -> None:
    for case in load_cases(case_set):
        texts = [p.text for p in case.pages]
        assert detect_language(case.query, texts).language == case.lang, case.id
        assert all(30 <= len(p.text.split()) <= 100 for p in case.pages), case.id
        assert all(parse_host(p.url, strict=False).domain for p in case.pages), case.id


def test_registered_and_scored_as_their_v2_twins() -> None:
    assert [form_of(s) for s in V6_SETS] == ["trust-pairs-v2", "no-harm-pairs-v2"]
    assert set(V6_SETS) <= set(MULTI_SETS) & set(RERANK_TASKS) & set(HAND_TRACKS) & set(ALL_TRACKS)
    assert {t.task for t in TRACKS if t.kind == "rerank"} >= set(V6_SETS)


def test_the_tracks_break_down_by_the_new_languages() -> None:
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task="trust-pairs-v6", method="relevance-only", track_relevance=("rank",),
                                     split="dev"))
    metrics = result["metrics"]
    # weight 0 with rank relevance keeps the input order: trusted first as written, last reversed
    assert metrics["rows"]["trusted first (rank)"]["value"] == pytest.approx(0.5)
    assert metrics["n_cases"] == 24
    assert {f"trusted first (rank), lang {g}" for g in V6_LANGS} <= set(metrics["detail_rows"])


def test_bench_list_names_the_v6_tracks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "list", "--json"]) == 0
    tasks = {t["name"]: t["items"] for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert {s: tasks[s] for s in V6_SETS} == SIZES
