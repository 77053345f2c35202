"""PageRank engines (hand-worked values, scipy vs networkx) and the PageRank prior file."""
from __future__ import annotations

import doctest
import gzip
import importlib
import time
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.graph import graph_from_pairs
from authorag.priors.pagerank import (
    NETWORKX_MAX_EDGES,
    PageRankConvergenceError,
    PageRankPrior,
    choose_engine,
    load_pagerank_prior,
    pagerank,
    pagerank_networkx,
    pagerank_scipy,
    rank_normalize,
)
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import Candidate, SourceValue

ENGINES = ["networkx", "scipy"]
TIGHT = {"tol": 1e-14, "max_iter": 2000}


def _ranks(pairs: list[tuple[str, str]], **kw: object) -> dict[str, float]:
    g = graph_from_pairs(pairs)
    scores, _ = pagerank(g, **kw)  # type: ignore[arg-type]
    return dict(zip(g.domains, scores.tolist()))


@pytest.mark.parametrize("engine", ENGINES)
def test_three_node_graph_hand_worked(engine: str) -> None:
    # a→c, b→c, c→a, damping 0.85, N=3: b = 0.05; c = 0.05 + 0.85(a + b); a = 0.05 + 0.85c
    # ⇒ a = 0.128625 / 0.2775, c = 0.0925 + 0.85a.
    r = _ranks([("a.org", "c.org"), ("b.org", "c.org"), ("c.org", "a.org")], engine=engine, **TIGHT)
    a = 0.128625 / 0.2775
    assert r == pytest.approx({"a.org": a, "b.org": 0.05, "c.org": 0.0925 + 0.85 * a}, abs=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_dangling_node_spreads_its_rank_uniformly(engine: str) -> None:
    # a→b, a→c, b→c, d→c; c has no outlinks. With D = 0.0375 + 0.85·c/4 (teleport + c's share):
    # a = d = D, b = D + 0.425·D, c = D + 0.85(a/2 + b + d) = 3.48625·D; the sum 6.91125·D = 1.
    r = _ranks([("a.org", "b.org"), ("a.org", "c.org"), ("b.org", "c.org"), ("d.org", "c.org")],
               engine=engine, **TIGHT)
    d = 1 / 6.91125
    assert r == pytest.approx({"a.org": d, "b.org": 1.425 * d, "c.org": 3.48625 * d, "d.org": d}, abs=1e-12)
    assert sum(r.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_self_loops_are_ignored(engine: str) -> None:
    pairs = [("a.org", "c.org"), ("b.org", "c.org"), ("c.org", "a.org")]
    loops = [("https://a.org/x", "https://www.a.org/y"), ("c.org", "sub.c.org")] * 5
    assert _ranks(pairs + loops, engine=engine, **TIGHT) == pytest.approx(_ranks(pairs, engine=engine, **TIGHT),
                                                                          abs=1e-15)


@pytest.mark.parametrize("engine", ENGINES)
def test_link_counts_weight_edges_unless_unweighted(engine: str) -> None:
    pairs = [("a.org", "b.org")] * 3 + [("a.org", "c.org")]
    weighted = _ranks(pairs, engine=engine, **TIGHT)
    flat = _ranks(pairs, engine=engine, weighted=False, **TIGHT)
    assert weighted["b.org"] > weighted["c.org"]
    assert flat["b.org"] == pytest.approx(flat["c.org"], abs=1e-15)


def _power_law_graph(n: int, m: int, seed: int) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """Seeded web-like graph: targets Zipf(1.0), sources Zipf(0.8) over 70 % of the nodes
    (the rest are dangling), duplicates and self-loops removed."""
    rng = np.random.default_rng(seed)

    def draw(a: float, k: int) -> NDArray[np.int64]:
        cdf = np.cumsum(np.arange(1, k + 1, dtype=np.float64) ** -a)
        picks = np.searchsorted(cdf / cdf[-1], rng.random(m), side="right").clip(0, k - 1)
        return rng.permutation(n)[:k][picks]

    src, dst = draw(0.8, int(0.7 * n)), draw(1.0, n)
    key = np.unique(src[src != dst] * n + dst[src != dst])
    return (key // n).astype(np.int32), (key % n).astype(np.int32)


def _agreement(n: int, m: int) -> None:
    src, dst = _power_law_graph(n, m, seed=7)
    w = np.random.default_rng(1).integers(1, 4, src.shape[0]).astype(np.float64)
    for tol, max_iter in ((1e-6, 100), (1e-10, 1000)):  # networkx's default, the builder's default
        x_sp, iters = pagerank_scipy(n, src, dst, w, tol=tol, max_iter=max_iter)
        x_nx, _ = pagerank_networkx(n, src, dst, w, tol=tol, max_iter=max_iter)
        assert iters > 1
        assert np.abs(x_sp - x_nx).max() < 1e-12
        assert np.abs(x_sp - x_nx).sum() < 1e-8
        assert x_sp.sum() == pytest.approx(1.0, abs=1e-9)


def test_scipy_matches_networkx_on_a_5k_node_39k_edge_graph() -> None:
    _agreement(5_000, 50_000)


@pytest.mark.slow
def test_scipy_matches_networkx_on_a_50k_node_400k_edge_graph() -> None:
    start = time.perf_counter()
    _agreement(50_000, 500_000)
    assert time.perf_counter() - start < 120


@pytest.mark.parametrize("engine", ENGINES)
def test_no_convergence_raises(engine: str) -> None:
    g = graph_from_pairs([("a.org", "c.org"), ("b.org", "c.org"), ("c.org", "a.org")])
    with pytest.raises(PageRankConvergenceError, match=r"did not converge to tol=1e-14 within max_iter=3"):
        pagerank(g, engine=engine, tol=1e-14, max_iter=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kw", "message"), [
    ({"damping": 1.5}, r"damping must be in \(0, 1\), got 1.5"),
    ({"damping": 0.0}, r"damping must be in \(0, 1\), got 0.0"),
    ({"tol": 0.0}, r"tol must be > 0, got 0.0"),
    ({"max_iter": 0}, r"max_iter must be a positive integer, got 0"),
    ({"engine": "fast"}, "engine must be one of 'auto', 'networkx', 'scipy', got 'fast'"),
])
def test_invalid_parameters(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        pagerank(graph_from_pairs([("a.org", "b.org")]), **kw)  # type: ignore[arg-type]


def test_auto_engine_by_size() -> None:
    assert choose_engine("auto", NETWORKX_MAX_EDGES) == "networkx"
    assert choose_engine("auto", NETWORKX_MAX_EDGES + 1) == "scipy"
    assert choose_engine("networkx", 10**9) == "networkx"


def test_empty_graph_gives_empty_prior() -> None:
    prior = PageRankPrior.from_graph(graph_from_pairs([]), engine="scipy")
    assert len(prior) == 0 and prior.lookup("nih.gov").tier == "unknown"


@pytest.mark.parametrize(("values", "expected"), [
    ([], []),
    ([0.3], [0.0]),
    ([0.2, 0.05, 0.05, 0.7], [2 / 3, 0.0, 0.0, 1.0]),
    ([0.1, 0.1 * (1 + 1e-12), 0.5], [0.0, 0.0, 1.0]),  # equal within rtol: one tie group
    ([0.4, 0.4, 0.1], [0.5, 0.5, 0.0]),
])
def test_rank_normalize(values: list[float], expected: list[float]) -> None:
    assert rank_normalize(np.array(values, dtype=np.float64)).tolist() == pytest.approx(expected)


PAIRS = [("https://en.wikipedia.org/wiki/Flu", "https://www.nih.gov/flu"), ("cdc.gov", "nih.gov"),
         ("nih.gov", "cdc.gov"), ("blog.example.com", "nih.gov"), ("blog.example.com", "cdc.gov")]


def test_prior_lookup_details() -> None:
    prior = PageRankPrior.from_graph(graph_from_pairs(PAIRS))
    nih = prior.lookup("https://www.nih.gov/about")
    assert (nih.authority, nih.tier, nih.matched) == (1.0, "table", "nih.gov")
    assert nih.confidence == pytest.approx(0.5 + 0.25 * np.log10(4))
    assert nih.sources == (SourceValue("pagerank", 1.0, float(prior.pagerank[prior.domains.index("nih.gov")])),)
    assert prior.lookup("https://en.wikipedia.org/").authority == 0.0
    assert prior.lookup("https://en.wikipedia.org/").confidence == 0.5
    assert prior.lookup("unknown.org").authority is None
    assert prior.lookup("not a url").note is not None and "invalid URL" in prior.lookup("not a url").note  # type: ignore[operator]
    assert [prior.domains[i] for i in prior.ranking()] == ["nih.gov", "cdc.gov", "example.com", "wikipedia.org"]


def test_prior_file_round_trip(tmp_path: Path) -> None:
    prior = PageRankPrior.from_graph(graph_from_pairs(PAIRS), name="corpus_pr")
    path = prior.save(tmp_path / "prior.csv.gz")
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    assert lines[0] == "domain,pagerank,score,in_degree"
    assert [ln.split(",")[0] for ln in lines[1:]] == ["nih.gov", "cdc.gov", "example.com", "wikipedia.org"]
    back = PageRankPrior.load(path)
    order = [prior.domains.index(d) for d in back.domains]
    assert back.pagerank.tolist() == prior.pagerank[order].tolist()
    assert back.scores.tolist() == prior.scores[order].tolist()
    assert back.in_degree.tolist() == [3, 2, 0, 0]
    source = load_pagerank_prior(path, name="corpus_pr")
    assert source["nih.gov"] == SourceValue("corpus_pr", 1.0, prior.lookup("nih.gov").sources[0].raw)
    assert set(source) == {"nih.gov", "cdc.gov", "example.com", "wikipedia.org"}


@pytest.mark.parametrize(("content", "message"), [
    (b"not gzip", "cannot read PageRank prior file"),
    (gzip.compress(b"domain,pagerank\nnih.gov,0.5\n"), r"has columns \['domain', 'pagerank'\]"),
    (gzip.compress(b"domain,pagerank,score,in_degree\nnih.gov,0.5,1.0\n"), "has a row with 3 fields"),
    (gzip.compress(b"domain,pagerank,score,in_degree\nnih.gov,high,1.0,3\n"), "non-numeric value"),
])
def test_bad_prior_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.csv.gz"
    path.write_bytes(content)
    with pytest.raises(PriorUnavailable, match=message):
        PageRankPrior.load(path)


def test_missing_prior_file(tmp_path: Path) -> None:
    with pytest.raises(PriorUnavailable, match="cannot read PageRank prior file"):
        load_pagerank_prior(tmp_path / "nope.csv.gz")


def test_prior_drives_the_authority_reranker() -> None:
    prior = PageRankPrior.from_graph(graph_from_pairs(PAIRS))
    cands = [Candidate.create("https://blog.example.com/flu", id="blog", scores={"relevance": 0.9}),
             Candidate.create("https://www.nih.gov/flu", id="nih", scores={"relevance": 0.5}),
             Candidate.create("https://unknown.org/flu", id="unk", scores={"relevance": 0.7})]
    ranking = AuthorityReranker(prior, weight=0.7).rerank("flu symptoms", cands)
    # example.com's little PageRank is no evidence against it: it keeps the unknown level with
    # unknown.org, and its higher relevance orders the two
    assert ranking.ids == ["nih", "blog", "unk"]
    assert ranking.candidates[0].authority is not None
    assert ranking.candidates[0].authority.sources[0].name == "pagerank"


@pytest.mark.parametrize("name", ["authorag.priors.graph", "authorag.priors.outlinks", "authorag.priors.pagerank"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


_HEAD = b"domain,pagerank,score,in_degree\n"


@pytest.mark.parametrize(("row", "message"), [
    (b"nih.gov,0.5,nan,3\n", r"column 'score' of row 2 \('nih.gov'\) is nan, expected a number in \[0, 1\]"),
    (b"nih.gov,0.5,1e30,3\n", r"column 'score' of row 2 .* is 1e\+30"),
    (b"nih.gov,0.5,-0.1,3\n", r"column 'score' of row 2 .* is -0.1"),
    (b"nih.gov,0.5,inf,3\n", r"column 'score' of row 2 .* is inf"),
    (b"nih.gov,nan,0.5,3\n", r"column 'pagerank' of row 2 .* is nan, expected a finite number >= 0"),
    (b"nih.gov,0.5,0.5,-4\n", r"column 'in_degree' of row 2 .* is -4"),
    (b"nih.gov,0.5,0.5,99999999999999999999999\n", "non-numeric value"),
])
def test_values_out_of_range_are_refused_naming_file_and_column(tmp_path: Path, row: bytes, message: str) -> None:
    """Was: NaN, infinite and 1e30 scores were accepted (authority 2.3e29, NaN in ``score --json``)."""
    path = tmp_path / "bad.csv.gz"
    path.write_bytes(gzip.compress(_HEAD + row))
    with pytest.raises(PriorUnavailable, match=message) as info:
        load_pagerank_prior(path)
    assert str(path) in str(info.value)


def test_a_gzip_bomb_is_read_with_a_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: the whole decompressed file was read into memory, however big."""
    from authorag.priors import pagerank as pagerank_module

    monkeypatch.setattr(pagerank_module, "MAX_PRIOR_CSV_BYTES", 1 << 20)
    path = tmp_path / "bomb.csv.gz"
    path.write_bytes(gzip.compress(_HEAD + b"a" * (8 << 20)))
    with pytest.raises(PriorUnavailable, match=r"decompresses to more than 1 MiB; write big priors as a store"):
        load_pagerank_prior(path)


def test_a_huge_field_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """csv's field limit is process-wide (the benchmark tasks raise it): either error names the file."""
    path = tmp_path / "wide.csv.gz"
    path.write_bytes(gzip.compress(_HEAD + b"nih.gov," + b"x" * 200_000 + b",0.5,1\n"))
    with pytest.raises(PriorUnavailable, match=r"line 2: field larger than field limit|non-numeric value") as info:
        load_pagerank_prior(path)
    assert str(path) in str(info.value)
