"""Shape of the hand-written v3 sets: sizes, halves, topics, kinds and languages, independence from
v1 and v2, and the v3 tracks read and scored by the v2 code path."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from authorag.benchmarks.tracks.trust_data import (
    FILES,
    V2_KINDS,
    V2_LANGS,
    V2_TOPICS,
    V3_SETS,
    form_of,
    load_cases,
)
from authorag.cli import main
from authorag.domains import parse_host
from tests.benchmarks._hand_sets import assert_independent, assert_sizes_ids_and_halves

SIZES = {"trust-pairs-v3": 128, "no-harm-pairs-v3": 64, "rerank-lists-v3": 24}
PREFIX = {"trust-pairs-v3": "tp3", "no-harm-pairs-v3": "nhp3", "rerank-lists-v3": "rl3"}
EARLIER = [s for s in FILES if s not in V3_SETS]


@pytest.mark.parametrize("case_set", V3_SETS)
def test_sizes_ids_and_halves_are_disjoint(case_set: str) -> None:
    assert_sizes_ids_and_halves(case_set, SIZES[case_set], PREFIX[case_set])


@pytest.mark.parametrize("case_set", V3_SETS)
def test_no_query_url_or_id_in_common_with_v1_or_v2(case_set: str) -> None:
    assert_independent(case_set, EARLIER)


@pytest.mark.parametrize("case_set", V3_SETS)
def test_each_half_covers_every_topic_and_language_mostly_not_english(case_set: str) -> None:
    per_cell = SIZES[case_set] // 2 // (len(V2_TOPICS) * len(V2_LANGS))
    for split in ("dev", "test"):
        half = load_cases(case_set, split)
        assert {c.domain for c in half} == set(V2_TOPICS)
        assert Counter(c.lang for c in half) == {g: len(half) // len(V2_LANGS) for g in V2_LANGS}
        if per_cell:
            assert Counter((c.domain, c.lang) for c in half) == {(t, g): per_cell for t in V2_TOPICS for g in V2_LANGS}


def test_trust_pairs_spread_the_six_kinds_evenly_in_each_half() -> None:
    for split in ("dev", "test"):
        kinds = Counter(c.kind for c in load_cases("trust-pairs-v3", split))
        assert set(kinds) == set(V2_KINDS)
        assert max(kinds.values()) - min(kinds.values()) <= 1
        by_topic = {t: {c.kind for c in load_cases("trust-pairs-v3", split) if c.domain == t} for t in V2_TOPICS}
        assert all(k == set(V2_KINDS) for k in by_topic.values()), by_topic


def test_lists_have_every_kind_twice_per_half_and_one_page_per_role() -> None:
    for split in ("dev", "test"):
        lists = load_cases("rerank-lists-v3", split)
        assert Counter(c.kind for c in lists) == {k: 2 for k in V2_KINDS}
        for case in lists:
            roles = Counter(p.role for p in case.pages)
            assert roles["trusted"] == roles["untrusted"] == roles["offtopic"] == 1, case.id
            assert 3 <= len(case.pages) <= 5 and roles["unknown"] <= 1, case.id
            assert [p.group for p in case.pages if p.role == "offtopic"] == [2]


def test_no_harm_pairs_are_ordinary_on_topic_pages_first() -> None:
    for split in ("dev", "test"):
        pairs = load_cases("no-harm-pairs-v3", split)
        assert Counter(c.kind for c in pairs) == {"unknown-legit": 16, "user-content": 16}
        for case in pairs:
            assert [(p.role, p.group) for p in case.pages] == [("ontopic", 0), ("offtopic", 1)]


@pytest.mark.parametrize("case_set", V3_SETS)
def test_pages_read_as_pages_on_parsable_hosts(case_set: str) -> None:
    for case in load_cases(case_set):
        assert all(40 <= len(p.text.split()) <= 120 for p in case.pages), case.id
        domains = {p.role: parse_host(p.url, strict=False).domain for p in case.pages}
        assert all(domains.values()), case.id
        if "untrusted" in domains and case.kind != "user-content":
            assert domains["trusted"] != domains["untrusted"], case.id


def test_v3_sets_are_read_and_scored_as_their_v2_twins() -> None:
    assert [form_of(s) for s in V3_SETS] == ["trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2"]
    assert form_of("trust-pairs") == "trust-pairs"
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task="trust-pairs-v3", method="relevance-only", track_relevance=("rank",),
                                     split="test"))
    metrics = result["metrics"]
    # weight 0 with rank relevance keeps the input order: trusted first as written, last reversed
    assert metrics["rows"]["trusted first (rank)"]["value"] == pytest.approx(0.5)
    assert metrics["n_cases"] == 64
    assert {f"trusted first (rank), lang {g}" for g in V2_LANGS} <= set(metrics["detail_rows"])
    assert {f"trusted first (rank), kind {k}" for k in V2_KINDS} <= set(metrics["detail_rows"])


def test_bench_tracks_runs_trust_pairs_v3_dev(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "tracks", "--tracks", "trust-pairs-v3", "--split", "dev", "--out", str(tmp_path)])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["skipped"] == []
    (track,) = json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))["tracks"]
    assert (track["track"], track["split"]) == ("trust-pairs-v3", "dev")
    (row,) = track["rows"]
    assert row["name"] == "trusted first (bm25)"
    assert (row["n_units"], row["n_clusters"]) == (128, 64)  # 64 pairs, each as written and reversed
    assert set(row["cells"]) == {"default", "page-evidence-off", "relevance-only"}
    assert {f"trusted first (bm25), lang {g}" for g in V2_LANGS} <= {r["name"] for r in track["breakdown"]}
    assert "| trust-pairs-v3 | trusted first (bm25) |" in (tmp_path / "compare.md").read_text(encoding="utf-8")
