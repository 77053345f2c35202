"""Shape of the hand-written v4 sets on new topics: sizes, halves, topics × languages × kinds,
independence from v1–v3, and the v4 tracks registered and read by the v2 code path."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from authorag.benchmarks.compare import TRACKS
from authorag.benchmarks.generalisation.run import ALL_TRACKS, HAND_TRACKS, TracksConfig
from authorag.benchmarks.registry import RERANK_TASKS
from authorag.benchmarks.tracks.trust_data import (
    MULTI_SETS,
    V2_KINDS,
    V2_LANGS,
    V2_TOPICS,
    V4_SETS,
    V4_TOPICS,
    form_of,
    load_cases,
)
from authorag.cli import main
from authorag.domains import parse_host
from tests.benchmarks._hand_sets import assert_independent, assert_sizes_ids_and_halves, page_texts, written_before

SIZES = {"trust-pairs-v4": 64, "no-harm-pairs-v4": 64, "rerank-lists-v4": 16}
PREFIX = {"trust-pairs-v4": "tp4", "no-harm-pairs-v4": "nhp4", "rerank-lists-v4": "rl4"}
EARLIER = written_before(V4_SETS[0])
SPLITS = ("dev", "test")


def test_v4_topics_are_new() -> None:
    earlier_topics = {c.domain for s in EARLIER for c in load_cases(s)}
    assert set(V4_TOPICS).isdisjoint(earlier_topics)
    assert set(V4_TOPICS).isdisjoint(V2_TOPICS)


@pytest.mark.parametrize("case_set", V4_SETS)
def test_sizes_ids_and_halves_are_disjoint(case_set: str) -> None:
    assert_sizes_ids_and_halves(case_set, SIZES[case_set], PREFIX[case_set])
    cases = load_cases(case_set)
    assert len(page_texts(cases)) == sum(len(c.pages) for c in cases)


@pytest.mark.parametrize("case_set", V4_SETS)
def test_no_query_url_text_or_id_in_common_with_v1_to_v3(case_set: str) -> None:
    assert_independent(case_set, EARLIER, texts=True)


@pytest.mark.parametrize("case_set", ["trust-pairs-v4", "no-harm-pairs-v4"])
def test_pairs_hold_one_case_per_topic_and_language_in_each_half(case_set: str) -> None:
    for split in SPLITS:
        half = load_cases(case_set, split)
        assert Counter((c.domain, c.lang) for c in half) == {(t, g): 1 for t in V4_TOPICS for g in V2_LANGS}


def test_lists_hold_one_per_topic_and_two_per_language_in_each_half() -> None:
    for split in SPLITS:
        lists = load_cases("rerank-lists-v4", split)
        assert sorted(c.domain for c in lists) == sorted(V4_TOPICS)
        assert Counter(c.lang for c in lists) == {g: 2 for g in V2_LANGS}


@pytest.mark.parametrize("case_set", V4_SETS)
def test_three_quarters_not_english(case_set: str) -> None:
    for split in SPLITS:
        half = load_cases(case_set, split)
        assert sum(c.lang != "en" for c in half) * 4 == len(half) * 3


def test_trust_pairs_spread_the_six_kinds_evenly_with_four_kinds_per_topic() -> None:
    for split in SPLITS:
        half = load_cases("trust-pairs-v4", split)
        kinds = Counter(c.kind for c in half)
        assert set(kinds) == set(V2_KINDS)
        assert sorted(kinds.values()) == [5, 5, 5, 5, 6, 6]
        assert all(len({c.kind for c in half if c.domain == t}) == 4 for t in V4_TOPICS)
        for lang in V2_LANGS:
            per_lang = Counter(c.kind for c in half if c.lang == lang)
            assert len(per_lang) >= 5 and max(per_lang.values()) <= 2, (split, lang, per_lang)


def test_lists_cover_every_kind_and_one_page_per_role() -> None:
    for split in SPLITS:
        lists = load_cases("rerank-lists-v4", split)
        kinds = Counter(c.kind for c in lists)
        assert set(kinds) == set(V2_KINDS) and max(kinds.values()) == 2
        for case in lists:
            roles = [p.role for p in case.pages]
            assert roles in (["trusted", "untrusted", "offtopic"], ["trusted", "untrusted", "unknown", "offtopic"]), case.id
            assert [p.group for p in case.pages] == [{"trusted": 0, "untrusted": 1, "unknown": 1, "offtopic": 2}[r]
                                                    for r in roles]
        assert sum(len(c.pages) == 4 for c in lists) == 3


def test_no_harm_pairs_are_ordinary_on_topic_pages_first() -> None:
    for split in SPLITS:
        pairs = load_cases("no-harm-pairs-v4", split)
        assert Counter(c.kind for c in pairs) == {"unknown-legit": 16, "user-content": 16}
        for case in pairs:
            assert [(p.role, p.group) for p in case.pages] == [("ontopic", 0), ("offtopic", 1)]


@pytest.mark.parametrize("case_set", V4_SETS)
def test_pages_read_as_pages_on_parsable_hosts(case_set: str) -> None:
    for case in load_cases(case_set):
        assert all(40 <= len(p.text.split()) <= 90 for p in case.pages), case.id
        domains = {p.role: parse_host(p.url, strict=False).domain for p in case.pages}
        assert all(domains.values()), case.id
        if "untrusted" in domains and case.kind != "user-content":
            assert domains["trusted"] != domains["untrusted"], case.id


def test_v4_tracks_are_registered_as_v2_twins() -> None:
    assert [form_of(s) for s in V4_SETS] == ["trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2"]
    assert set(V4_SETS) <= set(MULTI_SETS) & set(RERANK_TASKS) & set(HAND_TRACKS) & set(ALL_TRACKS)
    assert {t.task for t in TRACKS if t.kind == "rerank"} >= set(V4_SETS)
    assert TracksConfig(tracks=V4_SETS, split="test").tracks == V4_SETS


def test_v4_tracks_run_through_the_v2_code_path() -> None:
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task="trust-pairs-v4", method="relevance-only", track_relevance=("rank",),
                                     split="dev"))
    metrics = result["metrics"]
    # weight 0 with rank relevance keeps the input order: trusted first as written, last reversed
    assert metrics["rows"]["trusted first (rank)"]["value"] == pytest.approx(0.5)
    assert metrics["n_cases"] == 32
    assert {f"trusted first (rank), lang {g}" for g in V2_LANGS} <= set(metrics["detail_rows"])
    assert {f"trusted first (rank), domain {t}" for t in V4_TOPICS} <= set(metrics["detail_rows"])


def test_bench_list_names_the_v4_tracks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "list", "--json"]) == 0
    tasks = {t["name"]: t["items"] for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert {s: tasks[s] for s in V4_SETS} == SIZES


def test_reproduce_script_and_dev_rows_script_know_every_version() -> None:
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    script = (root / "benchmarks/results/generalisation/reproduce.sh").read_text(encoding="utf-8")
    # the cascade run names every hand-written track through the one table, none by hand
    assert "import MULTI_SETS" in script and "trust-pairs-v4" not in script
    spec = importlib.util.spec_from_file_location("noharm_dev_rows", root / "scripts/noharm_dev_rows.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.VERSIONS == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13")
