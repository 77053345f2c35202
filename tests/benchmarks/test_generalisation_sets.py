"""Loaders of the shared generalisation sets on tiny fixture folders (the real sets are not vendored)."""
from __future__ import annotations

from pathlib import Path

import pytest
from _shared_fixture import make_shared, write_csv

from authorag.benchmarks.generalisation import shared_sets as ss
from authorag.errors import ConfigError


def test_c3_joins_the_query_and_skips_rows_without_a_host(tmp_path: Path) -> None:
    pages = ss.load_c3(make_shared(tmp_path))
    assert [(p.domain, p.label, p.group, p.topic) for p in pages] == [
        ("cdc.gov", 4.5, "flu shot", "medicine"), ("quackcures.biz", 1.5, "flu shot", "medicine")]


def test_fakebr_labels_and_caps_each_domain(tmp_path: Path) -> None:
    pages = ss.load_fakebr(make_shared(tmp_path), max_per_domain=2, seed=0)
    assert sorted((p.domain, p.label) for p in pages) == [
        ("diario-falso.org", 0.0), ("diario-falso.org", 0.0), ("globo.com", 1.0), ("globo.com", 1.0)]
    assert all(p.text.startswith("texto") for p in pages)
    again = ss.load_fakebr(tmp_path, max_per_domain=2, seed=0)
    assert [p.url for p in again] == [p.url for p in pages]


def test_coaid_keeps_items_with_a_host_and_enough_text(tmp_path: Path) -> None:
    pages = ss.load_coaid(make_shared(tmp_path))
    assert [(p.domain, p.label) for p in pages] == [("cdc.gov", 1.0), ("covid-truth.net", 0.0)]
    assert pages[0].text.startswith("Vaccines\nHealth officials")


def test_decodex_maps_levels_and_drops_accounts_and_dubious(tmp_path: Path) -> None:
    pages = ss.load_decodex(make_shared(tmp_path))
    assert [(p.url, p.label) for p in pages] == [
        ("https://lemonde.fr/", 1.0), ("https://faux-infos.fr/", 0.0), ("https://legorafi.fr/", 0.0)]


def test_wikipedia_sources_leave_out_perennial_domains_path_rules_and_no_consensus(tmp_path: Path) -> None:
    pages = ss.load_wikipedia_sources(make_shared(tmp_path))
    assert [(p.domain, p.label) for p in pages] == [("gamespot.com", 1.0), ("fan-wiki-games.net", 0.0)]


def test_missing_folder_and_file_notes(tmp_path: Path) -> None:
    assert ss.missing_note(None, "c3") == ("skipped: no data folder (pass --data-dir or set AUTHORAG_SHARED_DATA) "
                                           "for c3_content_credibility_corpus")
    note = ss.missing_note(tmp_path, "decodex")
    assert note == f"skipped: {tmp_path / 'decodex_fr_2017'} lacks decodex-latest.csv"
    assert ss.missing_note(make_shared(tmp_path), "decodex") is None


def test_wrong_columns_raise_a_clear_error(tmp_path: Path) -> None:
    write_csv(tmp_path / ss.FOLDERS["decodex"] / "decodex-latest.csv", ["domain", "level"], [["a.fr", "4"]])
    with pytest.raises(ConfigError, match="no column 'url'.*shared data folder"):
        ss.load_decodex(tmp_path)


def test_data_dir_reads_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(ss.DATA_ENV, raising=False)
    assert ss.data_dir(None) is None
    monkeypatch.setenv(ss.DATA_ENV, str(tmp_path))
    assert ss.data_dir(None) == tmp_path
    assert ss.data_dir("/x") == Path("/x")


def _pages(cells: list[tuple[str, float, int]]) -> list[ss.LabelledPage]:
    return [ss.LabelledPage(f"https://{d}/{n}", "text", label, d) for d, label, k in cells for n in range(k)]


def test_domain_half_keeps_each_domain_whole_and_both_labels_on_each_side() -> None:
    pages = _pages([("true-a.com", 1.0, 3), ("true-b.com", 1.0, 2), ("true-c.com", 1.0, 1), ("fake-a.org", 0.0, 4),
                    ("fake-b.org", 0.0, 1), ("mixed.net", 1.0, 1), ("mixed.net", 0.0, 2)])
    dev, test = ss.domain_half(pages, "dev"), ss.domain_half(pages, "test")
    dev_domains, test_domains = {p.domain for p in dev}, {p.domain for p in test}
    assert (sorted(dev_domains), sorted(test_domains)) == (
        ["fake-a.org", "mixed.net", "true-a.com", "true-c.com"], ["fake-b.org", "true-b.com"])
    assert len(dev) + len(test) == len(pages) and ss.domain_half(pages, "all") == pages
    assert {p.label for p in dev} == {p.label for p in test} == {0.0, 1.0}
    # The halves depend on the domains and their majority labels only, not on the items' order or count.
    assert {p.domain for p in ss.domain_half(pages[::-1], "dev")} == dev_domains
    assert {p.domain for p in ss.domain_half(pages[1:], "dev")} == dev_domains


def test_domain_half_rejects_an_unknown_split() -> None:
    with pytest.raises(ConfigError, match=r"split must be one of dev, test, all, got 'train'"):
        ss.domain_half([], "train")
