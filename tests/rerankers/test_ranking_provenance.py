"""Reranking provenance: the scorer's name and the imported prior stores, once per response."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from authorag import adapters
from authorag.cli import main
from authorag.compose import ScorerSettings, load_scorer
from authorag.priors.store.importers import web_log_rank

URLS = ["https://tiny-unknown-site.org/a", "https://www.nih.gov/b"]


@pytest.fixture
def store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """A two-row Tranco store written by ``authorag priors import``, and its input's SHA-256."""
    src = tmp_path / "tranco_2024-03-01.csv"
    src.write_bytes(b"1,google.com\n2,tiny-unknown-site.org\n")
    out = tmp_path / "tr.store"
    assert main(["priors", "import", "--format", "tranco", str(src), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    return out, hashlib.sha256(src.read_bytes()).hexdigest()


def _check(stores: dict[str, Any], sha256: str) -> None:
    record = stores["tr"]
    assert (record["format"], record["rows"], record["bad_rows"], record["entries"]) == ("tranco", 2, 0, 2)
    [file] = record["files"]
    assert (file["file"], file["date"], file["sha256"], file["bytes"]) == (
        "tranco_2024-03-01.csv", "2024-03-01", sha256, 37)


def test_ranking_provenance_names_the_scorer_and_the_store(store: tuple[Path, str]) -> None:
    path, sha256 = store
    scorer = load_scorer(ScorerSettings(prior_files=(f"tr={path}",), learned=False))
    reranker, mode = adapters.build_reranker(scorer, "rank")
    cands, _ = adapters.candidates([(u, "t", None) for u in URLS], mode)
    ranking = reranker.rerank("q", cands)
    assert ranking.provenance["scorer"] == "reserved>hosted>table+tr" == scorer.name
    assert list(ranking.provenance["prior_stores"]) == ["tr"]
    _check(ranking.provenance["prior_stores"], sha256)
    # Each ranking gets its own copy: changing one leaves the next untouched.
    ranking.provenance["prior_stores"]["tr"]["files"].clear()
    _check(reranker.rerank("q", cands).provenance["prior_stores"], sha256)
    # Not copied into every per-document breakdown.
    assert all("prior_stores" not in b and "scorer" not in b for b in adapters.breakdowns(ranking, "rank"))


def test_no_store_gives_an_empty_map() -> None:
    reranker, mode = adapters.build_reranker(load_scorer(ScorerSettings(learned=False)), "rank")
    cands, _ = adapters.candidates([(u, "t", None) for u in URLS], mode)
    assert reranker.rerank("q", cands).provenance["prior_stores"] == {}
    assert reranker.rerank("q", []).provenance["prior_stores"] == {}


def test_cli_rerank_json_carries_provenance_once(store: tuple[Path, str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, sha256 = store
    cands = tmp_path / "c.jsonl"
    cands.write_text("".join(json.dumps({"url": u, "text": "t"}) + "\n" for u in URLS), encoding="utf-8")
    args = ["rerank", "-q", "q", "-i", str(cands), "--relevance", "rank", "--no-learned", "--prior-file", f"tr={path}"]
    assert main([*args, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["version"], body["query"], body["provenance"]["scorer"]) == (1, "q", "reserved>hosted>table+tr")
    _check(body["provenance"]["prior_stores"], sha256)
    assert body["provenance"]["policy"]["weight"] == 0.5
    # the texts say nothing of the query: both on topic, nih.gov's trust decides
    assert [r["url"] for r in body["results"]] == URLS[::-1] and [r["rank"] for r in body["results"]] == [1, 2]
    rank2 = float(web_log_rank(np.array([2.0]))[0])  # the store's value for the row ranked 2
    assert body["results"][1]["authority"]["sources"] == {"tr": pytest.approx(rank2, abs=1e-6)}
    # JSONL (the default) is unchanged: one row per candidate, no provenance in the rows.
    assert main(args) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["url"] for r in rows] == URLS[::-1] and all("provenance" not in r for r in rows)
    assert [r["authority"] for r in rows] == [r["authority"] for r in body["results"]]


def test_server_meta_carries_provenance(store: tuple[Path, str]) -> None:
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    path, sha256 = store
    config = ServerConfig(relevance="rank", scorer=ScorerSettings(prior_files=(f"tr={path}",), learned=False))
    service = RerankService(config)
    body = service.rerank(RerankRequest(query="q", documents=[{"text": "t", "url": u} for u in URLS]), "v2")
    meta = body["meta"]["authorag"]
    assert meta["scorer"] == "reserved>hosted>table+tr"
    _check(meta["prior_stores"], sha256)
    assert all("prior_stores" not in r["authority"] for r in body["results"])
    empty = service.rerank(RerankRequest(query="q", documents=[]), "v2")
    assert empty["results"] == [] and empty["meta"]["authorag"]["prior_stores"]["tr"]["rows"] == 2
