"""Shape of the hand-written pair sets in new languages, one parametrised module for all of them:
``trust-pairs-v6`` / ``no-harm-pairs-v6`` (Italian, Portuguese, Dutch), ``-v7`` (Chinese, Japanese,
Korean), ``-v8`` (Russian, Arabic, Hindi), ``-v9`` (Turkish, Polish, Indonesian), ``-v10`` (Vietnamese, Persian,
Bengali), ``-v11`` (Swedish, Czech, Greek), ``-v12`` (Ukrainian, Romanian, Hungarian) and ``-v13`` (Finnish,
Danish, Norwegian): the table
that registers them, sizes, halves, topics × languages × kinds,
independence from the sets written before, and the tracks read and scored by the v2 code path."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import get_args

import pytest

from authorag.benchmarks.compare import TRACKS
from authorag.benchmarks.generalisation.run import ALL_TRACKS, HAND_TRACKS
from authorag.benchmarks.registry import RERANK_TASKS
from authorag.benchmarks.tracks.trust_data import (
    FILES,
    LANGUAGE_VERSIONS,
    MULTI_LANGS,
    MULTI_SETS,
    V2_KINDS,
    V2_TOPICS,
    CaseSet,
    form_of,
    load_cases,
)
from authorag.cli import main
from authorag.domains import parse_host
from authorag.relevance.language import detect_language
from tests.benchmarks._hand_sets import assert_independent, assert_sizes_ids_and_halves, written_before


@dataclass(frozen=True)
class Version:
    number: int
    langs: tuple[str, ...]
    words: bool  # page length counted in words (else characters: Chinese and Japanese have few spaces)

    @property
    def sets(self) -> tuple[str, str]:
        return f"trust-pairs-v{self.number}", f"no-harm-pairs-v{self.number}"

    @property
    def earlier(self) -> list[str]:
        return written_before(self.sets[0])


VERSIONS = [Version(6, ("it", "pt", "nl"), True), Version(7, ("zh", "ja", "ko"), False),
            Version(8, ("ru", "ar", "hi"), True), Version(9, ("tr", "pl", "id"), True),
            Version(10, ("vi", "fa", "bn"), True), Version(11, ("sv", "cs", "el"), True),
            Version(12, ("uk", "ro", "hu"), True), Version(13, ("fi", "da", "no"), True)]
SETS = [(v, s) for v in VERSIONS for s in v.sets]
IDS = [s for _, s in SETS]


def test_one_table_registers_every_version() -> None:
    assert [(v.number, v.languages, v.sets) for v in LANGUAGE_VERSIONS] == [(v.number, v.langs, v.sets) for v in VERSIONS]
    assert list(FILES)[-len(IDS):] == IDS
    assert all(FILES[s] == s.replace("-", "_") + ".jsonl.gz" for s in IDS)
    assert get_args(CaseSet) == tuple(FILES)
    assert MULTI_SETS[-len(IDS):] == tuple(IDS)
    assert MULTI_LANGS == ("en", "de", "es", "fr", *(g for v in VERSIONS for g in v.langs))
    assert len(set(MULTI_LANGS)) == len(MULTI_LANGS)  # no language twice


@pytest.mark.parametrize(("version", "case_set"), SETS, ids=IDS)
def test_sizes_ids_and_halves(version: Version, case_set: str) -> None:
    prefix = f"{'tp' if case_set.startswith('trust') else 'nhp'}{version.number}"
    assert_sizes_ids_and_halves(case_set, 48, prefix)


@pytest.mark.parametrize(("version", "case_set"), SETS, ids=IDS)
def test_no_query_url_text_or_id_in_common_with_earlier_sets(version: Version, case_set: str) -> None:
    assert len(version.earlier) >= 14 + 2 * (version.number - 6)
    assert_independent(case_set, version.earlier, texts=True)


@pytest.mark.parametrize(("version", "case_set"), SETS, ids=IDS)
def test_each_half_holds_every_topic_in_every_language_once(version: Version, case_set: str) -> None:
    for split in ("dev", "test"):
        half = load_cases(case_set, split)
        assert Counter((c.domain, c.lang) for c in half) == {(t, g): 1 for t in V2_TOPICS for g in version.langs}


@pytest.mark.parametrize("version", VERSIONS, ids=[f"v{v.number}" for v in VERSIONS])
def test_kinds_are_balanced_in_each_half(version: Version) -> None:
    trust, no_harm = version.sets
    for split in ("dev", "test"):
        assert Counter(c.kind for c in load_cases(trust, split)) == {k: 4 for k in V2_KINDS}
        assert Counter(c.kind for c in load_cases(no_harm, split)) == {"unknown-legit": 12, "user-content": 12}


@pytest.mark.parametrize(("version", "case_set"), SETS, ids=IDS)
def test_queries_read_as_their_language_and_pages_parse(version: Version, case_set: str) -> None:
    for case in load_cases(case_set):
        texts = [p.text for p in case.pages]
        assert detect_language(case.query, texts).language == case.lang, case.id
        if version.words:
            assert all(30 <= len(p.text.split()) <= 100 for p in case.pages), case.id
        else:
            assert all(40 <= len(p.text) <= 400 for p in case.pages), case.id
        assert all(parse_host(p.url, strict=False).domain for p in case.pages), case.id


@pytest.mark.parametrize("version", VERSIONS, ids=[f"v{v.number}" for v in VERSIONS])
def test_registered_and_scored_as_their_v2_twins(version: Version) -> None:
    assert [form_of(s) for s in version.sets] == ["trust-pairs-v2", "no-harm-pairs-v2"]
    assert set(version.sets) <= set(MULTI_SETS) & set(RERANK_TASKS) & set(HAND_TRACKS) & set(ALL_TRACKS)
    assert {t.task for t in TRACKS if t.kind == "rerank"} >= set(version.sets)


@pytest.mark.parametrize("version", VERSIONS, ids=[f"v{v.number}" for v in VERSIONS])
def test_the_tracks_break_down_by_the_new_languages(version: Version) -> None:
    from authorag.benchmarks.runner import RunConfig, run_condition

    result = run_condition(RunConfig(task=version.sets[0], method="relevance-only", track_relevance=("rank",),
                                     split="dev"))
    metrics = result["metrics"]
    # weight 0 with rank relevance keeps the input order: trusted first as written, last reversed
    assert metrics["rows"]["trusted first (rank)"]["value"] == pytest.approx(0.5)
    assert metrics["n_cases"] == 24
    assert {f"trusted first (rank), lang {g}" for g in version.langs} <= set(metrics["detail_rows"])


def test_bench_list_names_every_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "list", "--json"]) == 0
    tasks = {t["name"]: t["items"] for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert {s: tasks[s] for s in IDS} == dict.fromkeys(IDS, 48)
