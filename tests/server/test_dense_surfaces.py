"""Dense relevance on every surface with its defaults: the HTTP server (`cascade-or-bm25`, which is
cascade relevance where the embeddings extra is installed, as here; Cohere v2 SDK on a real uvicorn), the CLI
(`authorag rerank`, whose default relevance is also `cascade-or-bm25`; a subprocess), and the
LangChain compressor, the Haystack ranker and the LlamaIndex postprocessor built with no settings.

The cases are the hand-written no-harm pairs that BM25 relevance gets wrong under the default
policy (an off-topic trusted page that shares the question's words: benchmarks/results/trust/),
and two trust pairs. With the cascade (dense relevance for the pages with most of the question's words) every surface gives the core's order, and that order
puts the on-topic page first (no-harm) and the trusted page first (trust), in both input orders.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from authorag.adapters import build_reranker, candidates_of
from authorag.benchmarks.tracks.trust_data import RerankCase, load_cases
from authorag.compose import ScorerSettings, load_scorer

pytest.importorskip("sentence_transformers")

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "dense-key"
NO_HARM = ("nhp-finance-02", "nhp-technology-02", "nhp-health-02")
"""Dev, dev and test: BM25's no-harm failures under the default policy."""
TRUST = ("tp-health-01", "tp-law-07")


def _cases() -> list[RerankCase]:
    wanted = {*NO_HARM, *TRUST}
    cases = [c for s in ("no-harm-pairs", "trust-pairs") for c in load_cases(s) if c.id in wanted]
    assert {c.id for c in cases} == wanted
    return cases


def _core(case: RerankCase, relevance: str, reverse: bool) -> list[str]:
    pages = case.pages[::-1] if reverse else case.pages
    reranker, mode = build_reranker(load_scorer(ScorerSettings()), relevance)
    cands, _ = candidates_of([p.url for p in pages], [p.text for p in pages], None, mode)
    return [pages[int(c.id)].role for c in reranker.rerank(case.query, cands).candidates]


def _v2(base: str, case: RerankCase, reverse: bool) -> list[str]:
    import cohere

    pages = case.pages[::-1] if reverse else case.pages
    res = cohere.ClientV2(api_key=API_KEY, base_url=base).rerank(
        model="authorag-authority", query=case.query, documents=[p.text for p in pages],
        request_options={"additional_body_parameters": {"urls": [p.url for p in pages]}})
    return [pages[r.index].role for r in res.results]


def _cli(case: RerankCase, reverse: bool, tmp: Path) -> list[str]:
    pages = case.pages[::-1] if reverse else case.pages
    path = tmp / "in.jsonl"
    path.write_text("".join(json.dumps({"id": str(i), "url": p.url, "text": p.text}) + "\n" for i, p in enumerate(pages)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTHORAG_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "authorag", "rerank", "-q", case.query, "-i", str(path)],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # no note, no progress bar
    assert {json.loads(line)["authority"]["relevance_source"] for line in done.stdout.splitlines()} == {
        "relevance.cascade"}
    return [pages[int(json.loads(line)["id"])].role for line in done.stdout.splitlines()]


class _Adapters:
    """The three framework components with their defaults, each built once (one model load)."""

    def __init__(self) -> None:
        from authorag.integrations.haystack import AuthorityRanker
        from authorag.integrations.langchain import AuthorityCompressor
        from authorag.integrations.llamaindex import AuthorityPostprocessor

        self.compressor, self.ranker, self.postprocessor = (
            AuthorityCompressor(), AuthorityRanker(), AuthorityPostprocessor())

    def orders(self, case: RerankCase, reverse: bool) -> dict[str, list[str]]:
        from haystack import Document as HaystackDocument
        from langchain_core.documents import Document
        from llama_index.core.schema import NodeWithScore, TextNode

        pages = case.pages[::-1] if reverse else case.pages
        role = {p.url: p.role for p in pages}
        lc = self.compressor.compress_documents([Document(p.text, metadata={"source": p.url}) for p in pages],
                                                case.query)
        hs = self.ranker.run(query=case.query, documents=[HaystackDocument(content=p.text, meta={"url": p.url})
                                                          for p in pages])["documents"]
        li = self.postprocessor.postprocess_nodes(
            [NodeWithScore(node=TextNode(text=p.text, metadata={"url": p.url})) for p in pages], query_str=case.query)
        explained = [d.metadata["authority"] for d in lc] + [d.meta["authority"] for d in hs] + [
            n.node.metadata["authority"] for n in li]
        assert {e["relevance_source"] for e in explained} == {"relevance.cascade"}
        return {"langchain": [role[d.metadata["source"]] for d in lc], "haystack": [role[d.meta["url"]] for d in hs],
                "llamaindex": [role[n.node.metadata["url"]] for n in li]}


def test_default_relevance_keeps_on_topic_first_on_every_surface_with_its_defaults(
        serve: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cohere")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    for var in [v for v in os.environ if v.startswith("AUTHORAG_")]:
        monkeypatch.delenv(var)
    cases = _cases()
    got: dict[tuple[str, bool], dict[str, list[str]]] = {}
    config = ServerConfig.from_env({}, api_key=API_KEY)
    assert (config.relevance, config.relevance_in_use()) == ("cascade-or-bm25", "cascade")
    with serve(create_app(config)) as base:
        import httpx

        ready = httpx.get(f"{base}/readyz", timeout=60).json()
        assert (ready["config"]["relevance"], ready["config"]["relevance_in_use"]) == ("cascade-or-bm25", "cascade")
        for case in cases:
            for reverse in (False, True):
                got[(case.id, reverse)] = {"core": _core(case, "cascade", reverse), "v2": _v2(base, case, reverse)}
    pytest.importorskip("langchain_core")
    pytest.importorskip("haystack")
    pytest.importorskip("llama_index.core")
    adapters = _Adapters()
    for case in cases:
        for reverse in (False, True):
            got[(case.id, reverse)].update(adapters.orders(case, reverse))
    # A CLI process loads the model (seconds): one per no-harm failure of the dev half, one order each.
    for case_id, reverse in (("nhp-finance-02", False), ("nhp-technology-02", True)):
        got[(case_id, reverse)]["cli"] = _cli(next(c for c in cases if c.id == case_id), reverse, tmp_path)
    firsts = {key: {surface: order[0] for surface, order in by.items()} for key, by in got.items()}
    want = {(c.id, r): ("ontopic" if c.id in NO_HARM else "trusted") for c in cases for r in (False, True)}
    assert {key: set(f.values()) for key, f in firsts.items()} == {key: {w} for key, w in want.items()}
    assert all(order == by["core"] for by in got.values() for order in by.values())
