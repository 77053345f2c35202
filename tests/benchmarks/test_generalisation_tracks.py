"""The generalisation tracks: statistics and verdict on hand-worked examples, and ``bench tracks`` end to end."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from _shared_fixture import make_shared

from authorag.benchmarks.generalisation.run import TracksConfig
from authorag.benchmarks.generalisation.stats import (
    Row,
    Unit,
    auc,
    binary_auc_stat,
    group_spearman_stat,
    mean_stat,
    row_cells,
    verdict,
)
from authorag.cli import main
from authorag.errors import ConfigError


def test_auc_counts_ties_as_half() -> None:
    assert auc([1, 1, 0, 0], [0.9, 0.4, 0.5, 0.1]) == pytest.approx(0.75)
    assert auc([1, 0], [0.3, 0.3]) == pytest.approx(0.5)
    assert auc([1, 1], [0.2, 0.3]) is None


def test_binary_auc_leaves_out_the_middle_ratings() -> None:
    units: list[list[Unit]] = [[(4.5, {"a": 0.2})], [(3.5, {"a": 0.9})], [(2.0, {"a": 0.1})]]
    assert binary_auc_stat(4.0, 3.0)(units, "a") == pytest.approx(1.0)


def test_group_spearman_averages_groups_and_skips_small_or_constant_ones() -> None:
    rising = [(float(n), {"a": float(n)}) for n in range(5)]
    falling = [(float(n), {"a": float(-n)}) for n in range(5)]
    small = [(1.0, {"a": 0.0}), (2.0, {"a": 1.0})]
    constant = [(3.0, {"a": float(n)}) for n in range(5)]
    assert group_spearman_stat()([rising, falling, small, constant], "a") == pytest.approx(0.0)
    assert group_spearman_stat()([rising, small], "a") == pytest.approx(1.0)
    assert group_spearman_stat()([small], "a") is None


def test_verdict_reads_the_side_of_zero() -> None:
    assert [verdict(ci) for ci in ((0.01, 0.3), (0.0, 0.3), (-0.2, 0.2), (-0.3, -0.01))] == \
        ["beats", "ties", "ties", "loses"]


def _row(pairs: list[tuple[float, float]]) -> Row:
    return Row("share", [[(0.0, {"default": d, "base": b})] for d, b in pairs], mean_stat, "case")


def test_row_cells_pairs_the_default_with_the_baseline() -> None:
    better = row_cells(_row([(1.0, 0.0)] * 6), ["default", "base"], "base", seed=0)
    assert better["cells"]["default"] == {"value": 1.0, "ci": [1.0, 1.0]}
    assert better["deltas"]["default"] == {"value": 1.0, "ci": [1.0, 1.0], "verdict": "beats"}
    worse = row_cells(_row([(0.0, 1.0)] * 6), ["default", "base"], "base", seed=0)
    assert worse["deltas"]["default"]["verdict"] == "loses"
    same = row_cells(_row([(1.0, 1.0), (0.0, 0.0)] * 3), ["default", "base"], "base", seed=0)
    assert same["deltas"]["default"] == {"value": 0.0, "ci": [0.0, 0.0], "verdict": "ties"}
    mixed = row_cells(_row([(1.0, 0.0), (0.0, 1.0)] * 3), ["default", "base"], "base", seed=0)
    assert mixed["deltas"]["default"]["value"] == pytest.approx(0.0)
    assert mixed["deltas"]["default"]["verdict"] == "ties"
    assert (mixed["n_units"], mixed["n_clusters"]) == (6, 6)


def test_config_rejects_unknown_tracks_and_tiny_limits() -> None:
    with pytest.raises(ConfigError, match="unknown track.*no-such.*known: trust-pairs-v2"):
        TracksConfig(tracks=("no-such",))
    with pytest.raises(ConfigError, match="limit must be at least 10"):
        TracksConfig(limit=3)
    with pytest.raises(ConfigError, match="split must be one of dev, test, all"):
        TracksConfig(split="train")


def test_bench_tracks_help_names_every_track_and_bench_list_the_hand_written_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    from authorag.benchmarks.generalisation.run import HAND_TRACKS, SHARED_TRACKS

    with pytest.raises(SystemExit):
        main(["bench", "tracks", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # argparse wraps at hyphens
    assert all(t in text for t in SHARED_TRACKS) and "'authorag bench list' names" in text
    assert main(["bench", "list", "--json"]) == 0
    listed = {t["name"] for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert set(HAND_TRACKS) <= listed


def test_bench_tracks_end_to_end_on_a_subset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = make_shared(tmp_path / "data")
    out = tmp_path / "out"
    code = main(["bench", "tracks", "--tracks", "rerank-lists-v2,decodex-fr,wikipedia-sources,c3-credibility",
                 "--split", "test", "--data-dir", str(data), "--out", str(out)])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["skipped"] == []
    record = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert [t["track"] for t in record["tracks"]] == ["rerank-lists-v2", "decodex-fr", "wikipedia-sources",
                                                       "c3-credibility"]
    lists, decodex, wiki, c3 = record["tracks"]
    assert [r["name"] for r in lists["rows"]] == ["trusted first (bm25)", "on-topic above off-topic (bm25)",
                                                  "pairs in order (bm25)", "order respected (bm25)"]
    assert set(lists["rows"][0]["cells"]) == {"default", "page-evidence-off", "relevance-only"}
    assert any(r["name"] == "trusted first (bm25), lang de" for r in lists["breakdown"])
    for row in lists["rows"]:
        delta, cells = row["deltas"]["default"], row["cells"]
        assert delta["value"] == pytest.approx(cells["default"]["value"] - cells["page-evidence-off"]["value"])
        assert delta["verdict"] == verdict(tuple(delta["ci"]))
    assert (decodex["n_items"], decodex["excluded_sources"], decodex["excluded_present"]) == (3, ["decodex"], ["decodex"])
    assert wiki["excluded_present"] == ["wikipedia_perennial", "wikiproject"]
    assert set(decodex["rows"][0]["cells"]) == {"default", "page-evidence-off"}
    assert c3["rows"][1]["cells"]["default"]["value"] is None  # one query of two pages: no Spearman
    table = (out / "compare.md").read_text(encoding="utf-8")
    assert "| rerank-lists-v2 | trusted first (bm25) |" in table
    assert "- `decodex-fr`: leave-source-out, the prior is rebuilt without `decodex`\n" in table
    verdicts = [r["deltas"]["default"]["verdict"] for t in record["tracks"] for r in t["rows"]]
    met = "met" if all(v == "beats" for v in verdicts) else "not met"
    assert (f"every row that ran): {verdicts.count('beats')} beat, {verdicts.count('ties')} tie, "
            f"{verdicts.count('loses')} lose: **{met}**.") in table


def test_bench_tracks_halves_fakebr_and_coaid_by_domain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = make_shared(tmp_path / "data")
    records = {}
    for split in ("dev", "test", "all"):
        assert main(["bench", "tracks", "--tracks", "fakebr-pt,coaid-covid", "--split", split, "--data-dir", str(data),
                     "--out", str(tmp_path / split)]) == 0
        capsys.readouterr()
        records[split] = json.loads((tmp_path / split / "compare.json").read_text(encoding="utf-8"))["tracks"]
    # One domain per label: both go to the dev side, and the test half is empty, which the note says.
    assert [(t["n_items"], t["note"]) for t in records["dev"]] == [(8, None), (2, None)]
    assert [t["n_items"] for t in records["all"]] == [8, 2]
    assert [r["cells"]["default"]["value"] for r in records["dev"][0]["rows"]] == [0.5, 1.0]
    assert [(t["n_items"], t["rows"]) for t in records["test"]] == [(0, []), (0, [])]
    assert records["test"][0]["note"] == ("skipped: the test half by registrable domain holds 0 items and not both "
                                          "labels (a label's items come from one domain); run --split all")


def test_bench_tracks_skips_shared_sets_without_a_data_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTHORAG_SHARED_DATA", raising=False)
    assert main(["bench", "tracks", "--tracks", "decodex-fr", "--out", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["skipped"] == ["decodex-fr"]
    table = (tmp_path / "compare.md").read_text(encoding="utf-8")
    assert "- `decodex-fr`: skipped: no data folder (pass --data-dir or set AUTHORAG_SHARED_DATA)" in table
