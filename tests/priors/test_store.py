"""The memory-mapped prior store: round trips, duplicates, errors, and use inside PriorTable."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors import ExtraSource, load_prior
from authorag.priors.store.mapped import PriorStore, is_store, write_store
from authorag.types import SourceValue


def _store(tmp_path: Path, keys: list[str], values: list[float], **kw: object) -> PriorStore:
    return PriorStore(write_store(tmp_path / "s.store", keys, values, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [0, 1, 2, 1000])
def test_round_trip_every_key_and_no_false_hits(tmp_path: Path, n: int) -> None:
    keys = [f"site{i}.example" for i in range(n)]
    values = [i / max(n, 1) for i in range(n)]
    store = _store(tmp_path, keys, values, raw=list(range(1, n + 1)), name="t")
    assert len(store) == n
    assert sorted(store) == sorted(keys)
    for i, k in enumerate(keys):
        assert store[k] == SourceValue("t", pytest.approx(values[i], abs=1e-7), i + 1)  # type: ignore[arg-type]
    assert all(store.get(f"other{i}.example") is None for i in range(200))
    assert "nope.org" not in store


def test_duplicate_keys_keep_the_highest_value(tmp_path: Path) -> None:
    store = _store(tmp_path, ["a.org", "b.org", "a.org"], [0.2, 0.5, 0.9], raw=[30, 20, 10])
    assert len(store) == 2
    assert store["a.org"].value == pytest.approx(0.9) and store["a.org"].raw == 10


def test_get_many_matches_get_and_marks_absent_keys_nan(tmp_path: Path) -> None:
    store = _store(tmp_path, ["a.org", "b.org"], [0.25, 0.75], raw=np.array([0.5, 1.5]), raw_dtype="f8")
    values, raw = store.get_many(["b.org", "x.org", "a.org"])
    assert values[[0, 2]].tolist() == [0.75, 0.25] and np.isnan(values[1])
    assert raw[[0, 2]].tolist() == [1.5, 0.5] and np.isnan(raw[1])


def test_store_is_a_prior_table_source_with_leave_source_out(tmp_path: Path) -> None:
    path = write_store(tmp_path / "t.store", ["nih.gov", "tiny-unknown-site.org"], [0.8, 0.3], raw=[5, 900_000],
                       name="tranco", confidence=0.7)
    table = load_prior(extra=[ExtraSource.from_store(path)])
    detail = table.lookup("https://www.tiny-unknown-site.org/x")
    assert (detail.tier, detail.authority, detail.confidence) == ("table", pytest.approx(0.3), pytest.approx(0.7))
    assert detail.sources == (SourceValue("tranco", pytest.approx(0.3), 900_000),)  # type: ignore[arg-type]
    both = table.lookup("nih.gov")
    assert "tranco" in {s.name for s in both.sources} and len(both.sources) > 1
    assert table.without("tranco").lookup("tiny-unknown-site.org").tier == "unknown"


@pytest.mark.parametrize(("keys", "values", "match"), [
    (["a.org"], [1.5], r"values must be in \[0, 1\]"),
    (["a.org"], [float("nan")], "NaN is not allowed"),
    (["a\norg"], [0.5], "no newline"),
    (["a.org", "b.org"], [0.5], "one number per key"),
])
def test_write_rejects_bad_input(tmp_path: Path, keys: list[str], values: list[float], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        write_store(tmp_path / "x.store", keys, values)


def test_open_rejects_other_files_and_truncation(tmp_path: Path) -> None:
    other = tmp_path / "prior.csv.gz"
    other.write_bytes(b"domain,pagerank\n")
    assert not is_store(other)
    with pytest.raises(PriorUnavailable, match="not an authorag prior store"):
        PriorStore(other)
    good = write_store(tmp_path / "g.store", [f"d{i}.org" for i in range(100)], [0.5] * 100)
    cut = tmp_path / "cut.store"
    cut.write_bytes(good.read_bytes()[:-300])
    with pytest.raises(PriorUnavailable, match="truncated"):
        PriorStore(cut)
    with pytest.raises(PriorUnavailable, match="cannot open"):
        PriorStore(tmp_path / "missing.store")


def test_two_stores_combine_by_confidence_and_leave_one_out(tmp_path: Path) -> None:
    a = write_store(tmp_path / "a.store", ["tiny-unknown-site.org"], [0.2], name="a", confidence=0.6)
    b = write_store(tmp_path / "b.store", ["tiny-unknown-site.org", "sub.tiny-unknown-site.org"], [0.8, 0.5],
                    name="b", confidence=0.3)
    table = load_prior(extra=[ExtraSource.from_store(a), ExtraSource.from_store(b)])
    both = table.lookup("https://tiny-unknown-site.org/")
    assert both.authority == pytest.approx((0.2 * 0.6 + 0.8 * 0.3) / 0.9, abs=1e-6)
    assert both.confidence == pytest.approx(1 - 0.4 * 0.7)
    sub = table.lookup("https://sub.tiny-unknown-site.org/")  # each source's most specific key
    assert {s.name: s.value for s in sub.sources} == {"a": pytest.approx(0.2), "b": pytest.approx(0.5)}
    assert sub.matched == "sub.tiny-unknown-site.org"
    only_b = table.without("a").lookup("https://tiny-unknown-site.org/")
    assert (only_b.authority, only_b.confidence) == (pytest.approx(0.8), pytest.approx(0.3))
