"""Crafted prior-store files (tests/hostile/stores.py): every one gives a clear PriorUnavailable
naming the file, or (damage only a listing sees) correct lookups and a clear error when listed."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile.stores import KEYS, VALUES, store_variants

from authorag.compose import ScorerSettings, load_scorer
from authorag.errors import PriorUnavailable
from authorag.priors.store.mapped import PriorStore, is_store
from authorag.types import candidates_from

VARIANTS = store_variants()


def test_there_are_enough_variants() -> None:
    assert len(VARIANTS) >= 85 and len({v.name for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_crafted_store_is_refused_naming_the_file(tmp_path: Path, variant) -> None:
    path = tmp_path / f"{variant.name}.store"
    path.write_bytes(variant.data)
    assert is_store(path)
    if variant.when == "list":
        store = PriorStore(path)
        assert [store[k].value for k in KEYS] == pytest.approx(VALUES, abs=1e-6)  # lookups never read key text
        with pytest.raises(PriorUnavailable, match=variant.expect) as info:
            list(store)
    else:
        with pytest.raises(PriorUnavailable, match=variant.expect) as info:
            PriorStore(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.when == "open"][::7], ids=lambda v: v.name)
def test_crafted_store_as_a_prior_file_stops_the_scorer(tmp_path: Path, variant) -> None:
    """Through the composition (``--prior-file NAME=PATH``): the store's error, never the CSV reader's."""
    path = tmp_path / f"{variant.name}.store"
    path.write_bytes(variant.data)
    with pytest.raises(PriorUnavailable, match=re.escape(str(path))) as info:
        load_scorer(ScorerSettings(prior_files=(f"mine={path}",))).score(candidates_from(["nih.gov"]))
    assert "PageRank prior file" not in str(info.value)


def test_a_bad_magic_file_with_another_name_is_not_called_a_pagerank_file(tmp_path: Path) -> None:
    """Was: a store with a damaged magic number was reported as a bad "PageRank prior file"."""
    good = next(v for v in VARIANTS if v.name == "magic-first-byte").data
    path = tmp_path / "tranco.bin"
    path.write_bytes(good)
    with pytest.raises(PriorUnavailable, match=r"is not an authorag prior store \(bad magic bytes\) nor a gzip CSV"):
        load_scorer(ScorerSettings(prior_files=(f"mine={path}",)))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_as_a_prior_file_is_refused_at_once(device: str) -> None:
    """Was: ``--prior-file x=/dev/zero`` read without limit (6.4 GB in 4 s)."""
    with pytest.raises(PriorUnavailable, match=f"prior store '{device}' is not a regular file"):
        load_scorer(ScorerSettings(prior_files=(f"mine={device}",)))
