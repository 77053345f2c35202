"""HybridRetriever: BM25 + dense + authority in one call, with a small real authority scorer."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from authorag.errors import ConfigError
from authorag.relevance.dense import DenseEncoder
from authorag.retrieval import BM25Retriever, DenseRetriever, HybridRetriever
from authorag.types import UNKNOWN_DETAIL, AuthorityDetail, Candidate

UTI = "cranberries urinary tract infection"


class TableAuthority:
    """A tiny domain table: known domains get their value, others are unknown."""

    name = "test-table"

    def __init__(self, table: dict[str, float]) -> None:
        self.table = table

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        out: list[AuthorityDetail] = []
        for c in candidates:
            value = self.table.get(c.domain or "")
            out.append(UNKNOWN_DETAIL if value is None else
                       AuthorityDetail(authority=value, confidence=1.0, tier="table", matched=c.domain))
        return out


AUTHORITY = TableAuthority({"nih.gov": 0.95, "cdc.gov": 0.95, "mayoclinic.org": 0.9, "kidney.org": 0.7,
                            "cranberrycure.blogspot.com": 0.05})


@pytest.fixture(scope="module")
def parts(corpus: list[Candidate], encoder: DenseEncoder) -> tuple[BM25Retriever, DenseRetriever]:
    return BM25Retriever(corpus), DenseRetriever(corpus, encoder)


def _hybrid(parts: tuple[BM25Retriever, DenseRetriever], **kw: object) -> HybridRetriever:
    return HybridRetriever(parts[0], parts[1], AUTHORITY, **kw)  # type: ignore[arg-type]


def test_fused_candidates_carry_both_signals(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    cands = _hybrid(parts, depth=3, fusion="rrf").candidates(UTI)
    # BM25 finds blog, nih; dense finds blog, nih, kidney: the union is scored by both.
    assert [c.id for c in cands] == ["blog", "nih", "kidney"]
    assert cands[2].scores["relevance.bm25"] == 0.0
    assert cands[0].scores["relevance.dense"] > cands[2].scores["relevance.dense"]
    # RRF with k = 60 and equal weights: blog ranks 1st in both lists.
    assert cands[0].scores["relevance"] == pytest.approx(0.5 / 61 + 0.5 / 61)
    assert cands[1].scores["relevance"] == pytest.approx(0.5 / 62 + 0.5 / 62)


def test_authority_decides_between_relevant_pages(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    relevance_only = _hybrid(parts, weight=0.0).rank(UTI, top_k=4)
    assert relevance_only.ids == ["blog", "nih", "kidney", "zinc"]
    with_authority = _hybrid(parts).rank(UTI, top_k=4)  # the default policy
    # the kidney-stone page shares no word with the query: query-term coverage (0.7 of the
    # window's relevance) puts it off topic, below the on-topic two, where trust orders; the
    # off-topic pages follow in relevance order (the CDC flu page does not climb by its trust)
    assert with_authority.ids == ["nih", "blog", "kidney", "zinc"]
    top = with_authority.candidates[0]
    assert top.scores["authority"] == pytest.approx(0.95)
    assert {"relevance.bm25", "relevance.dense", "relevance", "relevance.norm", "fused"} <= set(top.scores)
    assert top.authority is not None and top.authority.tier == "table"


def test_linear_relevance_is_normalized(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    cands = _hybrid(parts).candidates(UTI)
    assert len(cands) == 12  # dense search returns every document of the small corpus
    assert cands[0].id == "blog" and cands[0].scores["relevance"] == pytest.approx(1.0)  # best in both
    assert min(c.scores["relevance"] for c in cands) == pytest.approx(0.0)


def test_rrf_fusion_and_per_call_override(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    hybrid = _hybrid(parts, weight=0.0, fusion="rrf", depth=3)
    assert hybrid.rank(UTI, top_k=2).ids == ["blog", "nih"]
    # RRF nearly ties the three on relevance; coverage keeps the kidney page off topic
    assert hybrid.rank(UTI, top_k=2, weight=0.5).ids == ["nih", "blog"]


def test_rrf_over_a_deep_union_does_not_lift_off_topic_pages(
        parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    # Rank-based relevance flattens the gap to off-topic pages (RRF scores differ by a few per
    # cent); the window's query-term coverage keeps them off topic all the same.
    assert _hybrid(parts, weight=0.5, fusion="rrf").rank(UTI, top_k=2).ids == ["nih", "blog"]
    assert _hybrid(parts, weight=0.5, fusion="linear").rank(UTI, top_k=2).ids == ["nih", "blog"]


def test_dense_weight_moves_the_fused_order(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    query = "which supplement helps me fall asleep"
    lexical = _hybrid(parts, dense_weight=0.0, weight=0.0).rank(query, top_k=2).ids
    semantic = _hybrid(parts, dense_weight=1.0, weight=0.0).rank(query, top_k=2).ids
    assert lexical == ["sleep", "kidney"]
    assert semantic == ["sleep", "vitc"]


def test_provenance(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    ranking = _hybrid(parts, depth=5).rank(UTI, top_k=2)
    info = ranking.provenance["retrieval"]
    assert info["signals"] == ["relevance.bm25", "relevance.dense"]
    assert (info["depth"], info["fusion"], info["fused_candidates"]) == (5, "linear", 5)
    assert ranking.provenance["scorer"] == "test-table"


def test_from_corpus_and_retrieve(corpus: list[Candidate], encoder: DenseEncoder) -> None:
    hybrid = HybridRetriever.from_corpus(corpus, AUTHORITY, encoder=encoder)
    assert [c.id for c in hybrid.retrieve(UTI, top_k=2)] == ["nih", "blog"]


def test_empty_and_single_candidate_corpus(encoder: DenseEncoder) -> None:
    empty = HybridRetriever.from_corpus([], AUTHORITY, encoder=encoder)
    assert empty.rank(UTI).ids == []
    one = HybridRetriever.from_corpus([Candidate.create("https://www.nih.gov/x", "cranberry", id="x")],
                                      AUTHORITY, encoder=encoder)
    ranking = one.rank(UTI)
    assert ranking.ids == ["x"]
    assert ranking.candidates[0].scores["relevance.norm"] == pytest.approx(1.0)
    assert ranking.provenance["relevance_note"] == "one candidate: trust orders"


async def test_arank(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    ranking = await _hybrid(parts).arank(UTI, top_k=2)
    assert ranking.ids == ["nih", "blog"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"depth": 0}, r"depth must be a positive integer, got 0"),
    ({"fusion": "max"}, "fusion must be one of 'rrf', 'linear', got 'max'"),
    ({"dense_weight": 1.5}, r"dense_weight must be in \[0, 1\], got 1.5"),
    ({"rrf_k": 0}, r"rrf_k must be > 0, got 0"),
    ({"weight": 2.0}, r"weight must be in \[0, 1\], got 2.0"),
])
def test_invalid_parameters(parts: tuple[BM25Retriever, DenseRetriever], kwargs: dict[str, object],
                            message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _hybrid(parts, **kwargs)


def test_same_signal_twice_is_rejected(parts: tuple[BM25Retriever, DenseRetriever]) -> None:
    with pytest.raises(ConfigError, match=r"same score name 'relevance.bm25'"):
        HybridRetriever(parts[0], parts[0], AUTHORITY)
    with pytest.raises(ConfigError, match=r"top_k must be a positive integer or None, got 0"):
        _hybrid(parts).rank(UTI, top_k=0)
