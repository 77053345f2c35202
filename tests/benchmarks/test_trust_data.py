"""Invariants of the hand-written trust and no-harm sets (counts, splits, URLs, kinds vs the shipped tables)."""
from __future__ import annotations

import csv
import gzip
from collections import Counter
from importlib import resources

import pytest

from authorag.benchmarks.tracks.trust_data import (
    DOMAINS,
    ONTOPIC_KINDS,
    TRUST_KINDS,
    RerankCase,
    group_pairs,
    load_cases,
)
from authorag.compose import ScorerSettings, load_scorer
from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.priors import load_prior
from authorag.priors.sources import SOURCES
from authorag.types import Candidate

SETS = ("trust-pairs", "no-harm-pairs", "no-harm-hard", "no-harm-lists")


def _table(name: str) -> dict[str, dict[str, str]]:
    with resources.files("authorag.data").joinpath(name).open("rb") as raw:
        rows = csv.DictReader(gzip.decompress(raw.read()).decode("utf-8").splitlines())
        return {r["domain"]: r for r in rows}


def _domain(url: str) -> str:
    parsed = parse_host(url, strict=False)
    assert parsed.domain is not None, url
    return parsed.domain


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, dict[str, str]]]:
    return {"cred1": _table("tail_cred1.csv.gz"), "perennial": _table("wikipedia_perennial.csv.gz"),
            "ut1": _table("tail_ut1.csv.gz")}


def _known_bad(domain: str, tables: dict[str, dict[str, dict[str, str]]]) -> bool:
    return domain in tables["cred1"] or tables["perennial"].get(domain, {}).get("status") in ("-1", "-2")


def _listed(domain: str, tables: dict[str, dict[str, dict[str, str]]]) -> bool:
    return any(domain in t for t in tables.values())


def test_trust_pairs_cover_every_domain_and_kind_with_a_stratified_split() -> None:
    cases = load_cases("trust-pairs")
    assert len(cases) == 96
    cells = Counter((c.domain, c.kind, c.split) for c in cases)
    assert cells == {(d, k, s): 2 for d in DOMAINS for k in TRUST_KINDS for s in ("dev", "test")}
    assert [len(load_cases("trust-pairs", s)) for s in ("dev", "test")] == [48, 48]
    assert all([p.role for p in c.pages] == ["trusted", "untrusted"] for c in cases)


def test_no_harm_pairs_and_lists_counts_and_splits() -> None:
    pairs = load_cases("no-harm-pairs")
    assert len(pairs) == 48
    assert Counter((c.domain, c.split) for c in pairs) == {(d, s): 4 for d in DOMAINS for s in ("dev", "test")}
    kinds = Counter((c.kind, c.split) for c in pairs)
    assert {k for k, _ in kinds} == set(ONTOPIC_KINDS) and all(kinds[(k, "dev")] == kinds[(k, "test")]
                                                               for k in ONTOPIC_KINDS)
    hard = load_cases("no-harm-hard")
    assert len(hard) == 48 and all(c.id.startswith("nhh-") for c in hard)
    assert Counter((c.domain, c.split) for c in hard) == {(d, s): 4 for d in DOMAINS for s in ("dev", "test")}
    assert {c.kind for c in hard} == {"unknown", "hosted"}
    assert all([p.role for p in c.pages] == ["ontopic", "offtopic"] for c in hard)
    lists = load_cases("no-harm-lists")
    assert len(lists) == 18 and Counter(c.split for c in lists) == {"dev": 9, "test": 9}
    assert Counter(c.domain for c in lists) == {d: 3 for d in DOMAINS}
    assert {(c.domain, c.split) for c in lists} == {(d, s) for d in DOMAINS for s in ("dev", "test")}
    for case in lists:
        roles = Counter(p.role for p in case.pages)
        assert 5 <= len(case.pages) <= 8, case.id
        assert roles["trusted"] == 1 and roles["untrusted"] >= 1 and roles["unknown"] >= 1, case.id
        assert roles["offtopic"] >= 2, case.id


@pytest.mark.parametrize("case_set", SETS)
def test_ids_urls_and_texts(case_set: str) -> None:
    for case in load_cases(case_set):
        assert case.query.strip() and case.domain in DOMAINS and case.split in ("dev", "test"), case.id
        urls = [p.url for p in case.pages]
        assert len(set(urls)) == len(urls), case.id
        for page in case.pages:
            assert page.text.strip(), (case.id, page.role)
            assert page.url.startswith("https://"), page.url
            parsed = parse_host(page.url, strict=True)
            assert parsed.host is not None and parsed.domain is not None, page.url


def test_ids_are_unique_across_all_sets() -> None:
    ids = [c.id for s in SETS for c in load_cases(s)]
    assert len(ids) == len(set(ids)) == 96 + 48 + 48 + 18


def test_untrusted_kinds_match_the_shipped_tables(tables: dict[str, dict[str, dict[str, str]]]) -> None:
    scorer = load_scorer(ScorerSettings())
    every_source = load_prior(optin=[n for n, s in SOURCES.items() if s.optin])
    for case in load_cases("trust-pairs"):
        trusted, untrusted = case.pages
        bad = _domain(untrusted.url)
        if case.kind in ("known-misinfo", "unknown-legit-vs-misinfo"):
            assert _known_bad(bad, tables), (case.id, bad)
        if case.kind == "content-farm":
            assert not _listed(bad, tables), (case.id, bad)
            assert every_source.score([Candidate.create(untrusted.url)])[0].authority is None, (case.id, bad)
        if case.kind == "hosted-user":
            assert scorer.score([Candidate.create(untrusted.url)])[0].tier == "hosted", (case.id, untrusted.url)
        good = _domain(trusted.url)
        if case.kind == "unknown-legit-vs-misinfo":
            assert not _listed(good, tables), (case.id, good)
            assert every_source.score([Candidate.create(trusted.url)])[0].authority is None, (case.id, good)
        else:
            assert scorer.score([Candidate.create(trusted.url)])[0].tier == "table", (case.id, good)
            assert not _known_bad(good, tables), (case.id, good)


def test_no_harm_sources_match_their_kinds(tables: dict[str, dict[str, dict[str, str]]]) -> None:
    scorer = load_scorer(ScorerSettings())
    every_source = load_prior(optin=[n for n, s in SOURCES.items() if s.optin])

    def tier(url: str) -> str:
        return scorer.score([Candidate.create(url)])[0].tier

    for case in (*load_cases("no-harm-pairs"), *load_cases("no-harm-hard")):
        ontopic, offtopic = case.pages
        if case.kind == "unknown":
            assert not _listed(_domain(ontopic.url), tables), case.id
            assert every_source.score([Candidate.create(ontopic.url)])[0].authority is None, case.id
        elif case.kind == "recognised":
            assert tier(ontopic.url) == "table" and not _known_bad(_domain(ontopic.url), tables), case.id
        else:  # the platform itself may be listed (wordpress.com is, in CRED-1): the hosted tier answers
            assert tier(ontopic.url) == "hosted", case.id
        assert tier(offtopic.url) == "table" and not _known_bad(_domain(offtopic.url), tables), case.id
    for case in load_cases("no-harm-lists"):
        for page in case.pages:
            if page.role in ("trusted", "offtopic"):
                assert tier(page.url) == "table" and not _known_bad(_domain(page.url), tables), (case.id, page.url)
            if page.role == "unknown":
                assert not _listed(_domain(page.url), tables), (case.id, page.url)


def test_group_pairs_and_bad_arguments() -> None:
    case = load_cases("no-harm-lists")[0]
    groups = [p.group for p in case.pages]
    pairs = group_pairs(case)
    assert pairs and all(groups[a] < groups[b] for a, b in pairs)
    assert len(pairs) == sum(1 for a in groups for b in groups if a < b)
    pair = load_cases("trust-pairs")[0]
    assert isinstance(pair, RerankCase) and group_pairs(pair) == [(0, 1)]
    with pytest.raises(ConfigError, match="split must be one of dev, test, all"):
        load_cases("trust-pairs", "train")
    with pytest.raises(ConfigError, match="unknown case set 'pairs'"):
        load_cases("pairs")


def test_docstring_example() -> None:
    import doctest

    from authorag.benchmarks.tracks import trust_data

    assert doctest.testmod(trust_data).failed == 0
