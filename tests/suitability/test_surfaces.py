"""Suitability on every surface: CLI rerank/score, server service, LangChain, Haystack (issue 12)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.cli import main

QUERY = "Can vitamin C cure the common cold?"
DOCS = [("https://www.reddit.com/r/health/comments/x/vitc", "vitamin c cures colds"),
        ("https://www.nih.gov/health/vitamin-c", "vitamin c and colds")]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _jsonl(tmp_path: Path) -> Path:
    f = tmp_path / "c.jsonl"
    f.write_text("".join(json.dumps({"url": u, "text": t, "score": s}) + "\n"
                         for (u, t), s in zip(DOCS, (0.9, 0.8))))
    return f


def test_cli_rerank_with_suitability(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "rerank", "-q", QUERY, "-i", str(_jsonl(tmp_path)), "--no-learned",
                        "--weight", "0.8", "--suitability")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["url"] for r in rows] == [DOCS[1][0], DOCS[0][0]]
    assert [r["authority"]["source_type"] for r in rows] == ["government", "forum"]
    assert rows[1]["authority"]["suitability"] == pytest.approx(0.0025)


def test_cli_rerank_json_says_the_question_s_topic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # every candidate's suitability is read against the question's topic: --json must say which it was
    code, out, _ = _run(capsys, "rerank", "-q", QUERY, "-i", str(_jsonl(tmp_path)), "--no-learned",
                        "--suitability", "--json")
    suit = json.loads(out)["provenance"]["suitability"]
    assert code == 0
    assert (suit["query"]["topic"], suit["query"]["ymyl"]) == ("health", True)
    assert "candidates" not in suit  # per candidate: in the results


def test_cli_rerank_without_suitability_has_no_source_type(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = _run(capsys, "rerank", "-q", QUERY, "-i", str(_jsonl(tmp_path)), "--no-learned")
    row = json.loads(out.splitlines()[0])
    assert "source_type" not in row["authority"] and "suitability" not in row["authority"]


def test_cli_bad_matrix_names_file_and_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nextends: default\nmatrix:\n  health: {forum: high}\n")
    code, _, err = _run(capsys, "rerank", "-q", QUERY, "-i", str(_jsonl(tmp_path)), "--no-learned",
                        "--suitability-matrix", str(bad))
    assert code == 1
    assert f"{bad}:4: health.forum must be an integer 1..5, got 'high'" in err


def test_cli_score_rows_carry_source_type(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "score", "nih.gov", "https://someone.blogspot.com/x", "--json", "--no-learned")
    rows = json.loads(out)
    assert [(r["source_type"], r["source_type_confidence"]) for r in rows] == [("government", 0.9), ("blog", 0.85)]


def test_server_service_suitability_and_authority_endpoint() -> None:
    pytest.importorskip("fastapi")
    from authorag.policy import RerankPolicy
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import AuthorityRequest, RerankRequest
    from authorag.server.service import RerankService

    svc = RerankService(ServerConfig(relevance="rank", suitability=True, policy=RerankPolicy(weight=0.8)))
    body = svc.rerank(RerankRequest(query=QUERY, documents=[f"url: {u}\ntext: {t}" for u, t in DOCS]), "v2")
    assert [r["index"] for r in body["results"]] == [1, 0]
    assert [r["authority"]["source_type"] for r in body["results"]] == ["government", "forum"]
    assert body["meta"]["authorag"]["policy"]["suitability_weight"] == 0.5
    out = svc.authority(AuthorityRequest(urls=["nih.gov", "https://www.reddit.com/r/x/comments/y/z"]))
    assert [(r["source_type"], r["source_type_confidence"]) for r in out["results"]] == [("government", 0.9),
                                                                                           ("forum", 0.99)]


def test_server_config_from_env() -> None:
    from authorag.server.config import ServerConfig

    cfg = ServerConfig.from_env({"AUTHORAG_SUITABILITY": "true", "AUTHORAG_SUITABILITY_MATRIX": "/x.yaml"})
    assert (cfg.suitability, cfg.suitability_matrix) == (True, "/x.yaml")
    assert cfg.to_env()["AUTHORAG_SUITABILITY"] == "true"


def test_langchain_compressor_suitability() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(t, metadata={"source": u}) for u, t in DOCS]
    out = AuthorityCompressor(weight=0.8, suitability=True).compress_documents(docs, QUERY)
    assert [d.metadata["authority"]["source_type"] for d in out] == ["government", "forum"]


def test_haystack_ranker_suitability_round_trip() -> None:
    pytest.importorskip("haystack")
    from haystack import Document

    from authorag.integrations.haystack import AuthorityRanker

    ranker = AuthorityRanker(weight=0.8, suitability=True, suitability_weight=0.7)
    docs = [Document(content=t, meta={"url": u}) for u, t in DOCS]
    out = ranker.run(query=QUERY, documents=docs)["documents"]
    assert [d.meta["authority"]["source_type"] for d in out] == ["government", "forum"]
    again = AuthorityRanker.from_dict(ranker.to_dict())
    assert (again.suitability, again.suitability_weight) == (True, 0.7)
