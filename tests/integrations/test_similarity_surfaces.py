"""Relevance ``similarity`` on every surface that reads incoming scores: the same order as the core.

A lender's mortgage checklist and HUD's rental-aid page (which shares "documents" and "apply"
with the question) carry MiniLM cosines 0.723 and 0.363 as upstream scores. Read as
``upstream`` (scores of unknown kind), the words decide the window: HUD's lead ("Rental
assistance.") and address name none of the question's words and its text holds half of them, so
the window keeps it out as a passing mention (before, trust put it first); declared
``similarity``, the scores cap the window. The checklist stays first either way. Each surface is
used as a user uses it: the CLI (a subprocess, the ``score`` field), LangChain's compressor (the
``relevance_score`` metadata key), Haystack's ranker (``Document.score``) and LlamaIndex's
postprocessor (``NodeWithScore.score``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from authorag.adapters import build_reranker, candidates

ROOT = Path(__file__).resolve().parents[2]
QUERY = "what documents do I need to apply for a mortgage"
CHECKLIST = ("https://greenleafhomelending.com/resources/mortgage-application-checklist",
             ("Mortgage application checklist. To get pre-approved, gather your last two pay stubs, W-2 forms and tax "
              "returns for the past two years, two months of bank and investment statements, a photo ID, and details "
              "of any debts such as car loans and student loans."), 0.723)
RENTAL = ("https://www.hud.gov/topics/rental_assistance",
          ("Rental assistance. HUD helps low-income families, elderly people and people with disabilities afford "
           "decent housing through public housing, Housing Choice Vouchers and other programmes. To apply, contact "
           "your local public housing agency, which will ask for documents about income and family size."), 0.363)
EXPECTED = {"upstream": ["greenleafhomelending.com", "hud.gov"],
            "similarity": ["greenleafhomelending.com", "hud.gov"]}
Rows = Sequence[tuple[str, str, float]]


@pytest.fixture(autouse=True)
def _no_user_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("AUTHORAG_")]:
        monkeypatch.delenv(key)


def _domains(rows: Rows, order: Sequence[int]) -> list[str]:
    return ["hud.gov" if "hud.gov" in rows[i][0] else "greenleafhomelending.com" for i in order]


def _core(rows: Rows, relevance: str) -> list[int]:
    reranker, mode = build_reranker(None, relevance)
    return [int(c.id) for c in reranker.rerank(QUERY, candidates(list(rows), mode)[0])]


def _cli(rows: Rows, relevance: str, tmp: Path) -> list[int]:
    path = tmp / "in.jsonl"
    path.write_text("".join(json.dumps({"id": str(i), "url": u, "text": t, "score": s}) + "\n"
                            for i, (u, t, s) in enumerate(rows)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTHORAG_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "authorag", "rerank", "-q", QUERY, "-i", str(path),
                           "--relevance", relevance], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    return [int(json.loads(line)["id"]) for line in done.stdout.splitlines()]


def _langchain(rows: Rows, relevance: str) -> list[int]:
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(page_content=t, metadata={"source": u, "relevance_score": s, "i": i})
            for i, (u, t, s) in enumerate(rows)]
    out = AuthorityCompressor(relevance=relevance).compress_documents(docs, QUERY)  # pyright: ignore[reportArgumentType]
    assert {d.metadata["authority"]["relevance_source"] for d in out} == {relevance}
    return [d.metadata["i"] for d in out]


def _haystack(rows: Rows, relevance: str) -> list[int]:
    from haystack import Document

    from authorag.integrations.haystack import AuthorityRanker

    ranker = AuthorityRanker(relevance=relevance)
    ranker.warm_up()
    docs = [Document(content=t, meta={"url": u, "i": i}, score=s) for i, (u, t, s) in enumerate(rows)]
    return [d.meta["i"] for d in ranker.run(query=QUERY, documents=docs)["documents"]]


def _llamaindex(rows: Rows, relevance: str) -> list[int]:
    from llama_index.core.schema import NodeWithScore, TextNode

    from authorag.integrations.llamaindex import AuthorityPostprocessor

    nodes = [NodeWithScore(node=TextNode(text=t, metadata={"url": u, "i": i}), score=s) for i, (u, t, s) in enumerate(rows)]
    out = AuthorityPostprocessor(relevance=relevance).postprocess_nodes(nodes, query_str=QUERY)  # pyright: ignore[reportArgumentType]
    return [n.node.metadata["i"] for n in out]


@pytest.mark.parametrize("relevance", list(EXPECTED))
@pytest.mark.parametrize("flip", [False, True])
def test_every_scored_surface_gives_the_core_order(relevance: str, flip: bool, tmp_path: Path) -> None:
    rows = [RENTAL, CHECKLIST] if flip else [CHECKLIST, RENTAL]
    core = _core(rows, relevance)
    assert _domains(rows, core) == EXPECTED[relevance]
    surfaces = {"cli": _cli(rows, relevance, tmp_path), "langchain": _langchain(rows, relevance),
                "haystack": _haystack(rows, relevance), "llamaindex": _llamaindex(rows, relevance)}
    assert surfaces == dict.fromkeys(surfaces, core)


def test_similarity_without_scores_is_a_clear_error() -> None:
    from llama_index.core.schema import NodeWithScore, TextNode

    from authorag.errors import ConfigError
    from authorag.integrations.llamaindex import AuthorityPostprocessor

    nodes = [NodeWithScore(node=TextNode(text=CHECKLIST[1], metadata={"url": CHECKLIST[0]}), score=0.7),
             NodeWithScore(node=TextNode(text=RENTAL[1], metadata={"url": RENTAL[0]}))]
    with pytest.raises(ConfigError, match=r"relevance 'similarity' needs a score on every document; document\(s\) 2 "):
        AuthorityPostprocessor(relevance="similarity").postprocess_nodes(nodes, query_str=QUERY)
