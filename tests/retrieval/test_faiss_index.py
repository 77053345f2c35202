"""FaissIndex: exact flat search, IVF/HNSW options, persistence round trips, validation."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from authorag.errors import ConfigError, MissingDependencyError
from authorag.retrieval.faiss_index import FaissIndex, IndexOptions, auto_nlist


def _unit(n: int, dim: int, seed: int) -> NDArray[np.float32]:
    x = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def data() -> NDArray[np.float32]:
    return _unit(2000, 32, seed=1)


@pytest.fixture(scope="module")
def queries() -> NDArray[np.float32]:
    return _unit(50, 32, seed=2)


def _recall(approx: NDArray[np.int64], exact: NDArray[np.int64]) -> float:
    return float(np.mean([len(set(a) & set(e)) / len(e) for a, e in zip(approx.tolist(), exact.tolist())]))


def test_flat_is_exact(data: NDArray[np.float32], queries: NDArray[np.float32]) -> None:
    idx = FaissIndex.build(data)
    scores, pos = idx.search(queries, top_k=10)
    brute = queries @ data.T
    expected = np.argsort(-brute, axis=1)[:, :10]
    assert pos.tolist() == expected.tolist()
    assert scores == pytest.approx(np.take_along_axis(brute, expected, axis=1), abs=1e-5)
    self_scores, self_pos = idx.search(data[:5], top_k=1)
    assert self_pos[:, 0].tolist() == [0, 1, 2, 3, 4]
    assert self_scores[:, 0] == pytest.approx([1.0] * 5, abs=1e-5)


def test_ivf_probing_every_list_equals_flat_and_one_list_is_approximate(
        data: NDArray[np.float32], queries: NDArray[np.float32]) -> None:
    _, exact = FaissIndex.build(data).search(queries, 10)
    full = FaissIndex.build(data, kind="ivf", nlist=16, nprobe=16)
    assert full.search(queries, 10)[1].tolist() == exact.tolist()
    one = FaissIndex.build(data, kind="ivf", nlist=16, nprobe=1)
    assert 0.1 < _recall(one.search(queries, 10)[1], exact) < 1.0
    assert (one.options.nlist, one.options.nprobe) == (16, 1)


def test_hnsw_recall(data: NDArray[np.float32], queries: NDArray[np.float32]) -> None:
    _, exact = FaissIndex.build(data).search(queries, 10)
    hnsw = FaissIndex.build(data, kind="hnsw", m=16, ef_search=128)
    assert _recall(hnsw.search(queries, 10)[1], exact) >= 0.95


def test_ivf_defaults_pick_nlist_and_cap_nprobe(data: NDArray[np.float32]) -> None:
    idx = FaissIndex.build(data, kind="ivf")
    assert idx.options.nlist == auto_nlist(2000) == 51
    assert idx.options.nprobe == 16
    small = FaissIndex.build(data[:100], kind="ivf", nprobe=64)
    assert (small.options.nlist, small.options.nprobe) == (2, 2)


def test_ivf_trains_on_a_sample(data: NDArray[np.float32], queries: NDArray[np.float32]) -> None:
    idx = FaissIndex.build(data, kind="ivf", nlist=8, nprobe=8, train_size=500)
    _, exact = FaissIndex.build(data).search(queries, 5)
    assert len(idx) == 2000
    assert idx.search(queries, 5)[1].tolist() == exact.tolist()


@pytest.mark.parametrize("opts", [
    IndexOptions(kind="flat"),
    IndexOptions(kind="ivf", nlist=16, nprobe=4),
    IndexOptions(kind="hnsw", m=8, ef_search=40),
], ids=["flat", "ivf", "hnsw"])
def test_save_load_round_trip(tmp_path: Path, data: NDArray[np.float32], queries: NDArray[np.float32],
                              opts: IndexOptions) -> None:
    idx = FaissIndex.build(data, opts)
    before = idx.search(queries, 10)
    idx.save(tmp_path / "ix")
    loaded = FaissIndex.load(tmp_path / "ix")
    after = loaded.search(queries, 10)
    assert after[1].tolist() == before[1].tolist()
    assert after[0] == pytest.approx(before[0])
    assert (loaded.options, len(loaded), loaded.dim, loaded.kind) == (idx.options, 2000, 32, opts.kind)
    assert loaded.reconstruct([0, 1999]) == pytest.approx(data[[0, 1999]], abs=1e-6)
    meta = json.loads((tmp_path / "ix" / "index.json").read_text())
    assert (meta["format"], meta["count"], meta["dim"], meta["metric"]) == (1, 2000, 32, "inner_product")


def test_add_appends_positions(data: NDArray[np.float32]) -> None:
    idx = FaissIndex.build(data[:10], kind="ivf", nlist=2, nprobe=2)
    idx.reconstruct([0])  # builds the IVF direct map; later adds must keep it current
    idx.add(data[10:20])
    assert len(idx) == 20
    assert idx.search(data[15:16], 1)[1].tolist() == [[15]]
    assert idx.reconstruct([15]) == pytest.approx(data[15:16], abs=1e-6)


def test_small_index_and_single_vector(data: NDArray[np.float32]) -> None:
    idx = FaissIndex.build(data[:3])
    _scores, pos = idx.search(data[:1], top_k=10)
    assert pos.shape == (1, 3) and pos[0, 0] == 0
    one = FaissIndex.build(data[:1], kind="hnsw")
    assert one.search(data[:1], 5)[1].tolist() == [[0]]
    empty = FaissIndex.build(np.zeros((0, 32), np.float32))
    assert len(empty) == 0
    assert empty.search(data[:2], 3)[1].shape == (2, 0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"kind": "pq"}, "kind must be one of 'flat', 'ivf', 'hnsw', got 'pq'"),
    ({"nprobe": 0}, r"nprobe must be a positive integer, got 0"),
    ({"nlist": -3}, r"nlist must be a positive integer or None, got -3"),
    ({"ef_search": True}, r"ef_search must be a positive integer, got True"),
])
def test_invalid_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        IndexOptions(**kwargs)  # type: ignore[arg-type]


def test_invalid_builds_and_searches(data: NDArray[np.float32]) -> None:
    with pytest.raises(ConfigError, match=r"nlist must be <= the number of vectors \(10\), got 16"):
        FaissIndex.build(data[:10], kind="ivf", nlist=16)
    with pytest.raises(ConfigError, match=r"IVF index needs vectors"):
        FaissIndex.build(np.zeros((0, 32), np.float32), kind="ivf")
    bad = data[:4].copy()
    bad[1, 0] = np.nan
    with pytest.raises(ConfigError, match=r"NaN or infinite"):
        FaissIndex.build(bad)
    idx = FaissIndex.build(data[:10])
    with pytest.raises(ConfigError, match=r"vectors must have shape \(n, 32\), got \(1, 8\)"):
        idx.search(np.ones((1, 8), np.float32), 3)
    with pytest.raises(ConfigError, match=r"top_k must be a positive integer, got 0"):
        idx.search(data[:1], 0)
    with pytest.raises(ConfigError, match=r"positions must be in \[0, 10\)"):
        idx.reconstruct([10])
    with pytest.raises(ConfigError, match=r"either options= or option keywords"):
        FaissIndex.build(data[:10], IndexOptions(), kind="hnsw")


def test_load_errors(tmp_path: Path, data: NDArray[np.float32]) -> None:
    with pytest.raises(ConfigError, match=r"no saved index in .*expected index.faiss and index.json"):
        FaissIndex.load(tmp_path / "missing")
    FaissIndex.build(data[:10]).save(tmp_path / "ix")
    meta = tmp_path / "ix" / "index.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "format": 99}))
    with pytest.raises(ConfigError, match=r"has format 99; this authorag reads format 1"):
        FaissIndex.load(tmp_path / "ix")


def test_missing_faiss_gives_install_hint(monkeypatch: pytest.MonkeyPatch, data: NDArray[np.float32]) -> None:
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingDependencyError, match=r"FaissIndex needs .*'faiss'.*pip install 'authorag\[embeddings\]'"):
        FaissIndex.build(data[:3])


@pytest.mark.parametrize(("n", "train_size", "nlist"), [
    (1, None, 1), (38, None, 1), (78, None, 2), (10_000, None, 256), (1_000_000, None, 4000),
    (1_000_000, 100_000, 2564), (10_000, 100_000, 256),
])
def test_auto_nlist(n: int, train_size: int | None, nlist: int) -> None:
    assert auto_nlist(n, train_size) == nlist
