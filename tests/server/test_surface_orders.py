"""Every surface gives the core reranker's order for the same input (trust pairs and no-harm cases).

The core order is ``adapters.build_reranker(load_scorer(ScorerSettings()), "bm25", policy)`` on
candidates from ``adapters.candidates_of``. The surfaces, each used as a user uses it: the CLI
``authorag rerank --relevance bm25`` (a subprocess), the HTTP server's ``/v1/rerank`` (Cohere v1
SDK, document objects), ``/v2/rerank`` (Cohere v2 SDK, texts with the ``urls`` extension, and
YAML strings), ``/rerank`` (Jina shape over httpx) on a real uvicorn, LangChain's
``AuthorityCompressor`` and ``AuthorityRetriever`` (over LangChain's in-memory vector store), Haystack's
``AuthorityRanker``, LlamaIndex's ``AuthorityPostprocessor``, the agents' LangChain ``AuthorityMiddleware``,
Haystack ``AuthorityToolHook`` and LlamaIndex ``trusted_search_tool`` (search results in, as an agent's tool gives them), and the bench method ``default`` of the rerank tracks. No expected winner is
written here: whatever the defaults decide, every surface must decide the same. Every surface is
given BM25 (the default of every surface, ``cascade-or-bm25``, computes cascade relevance where the
embeddings extra is installed: tests/server/test_dense_surfaces.py runs that default on the server,
the CLI and the three framework components).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from authorag.adapters import build_reranker, candidates_of
from authorag.benchmarks.tracks.trust_data import RerankCase, load_cases
from authorag.compose import ScorerSettings, load_scorer
from authorag.policy import make_policy

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "order-key"
VARIANT: Mapping[str, Any] = {"fusion": "rrf", "weight": 0.7}
POLICIES: Mapping[str, Mapping[str, Any]] = {"default": {}, "rrf-0.7": VARIANT}
TRUST = ("tp-health-05", "tp-science-09", "tp-news-01", "tp-finance-14", "tp-law-07", "tp-technology-12")
NO_HARM = ("nhp-health-03", "nhp-finance-06")
LISTS = ("nhl-health-02", "nhl-news-01", "nhl-technology-03")
Input = tuple[str, list[str], list[str]]  # query, urls, texts


def _cases() -> list[RerankCase]:
    wanted = {*TRUST, *NO_HARM, *LISTS}
    cases = [c for s in ("trust-pairs", "no-harm-pairs", "no-harm-lists") for c in load_cases(s) if c.id in wanted]
    assert {c.id for c in cases} == wanted
    return cases


def _inputs() -> list[Input]:
    out: list[Input] = []
    for case in _cases():
        for pages in (case.pages, case.pages[::-1]):
            out.append((case.query, [p.url for p in pages], [p.text for p in pages]))
    return out


INPUTS = _inputs()


def core_order(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    reranker, mode = build_reranker(load_scorer(ScorerSettings()), "bm25", dict(policy))
    cands, _ = candidates_of(list(urls), list(texts), None, mode)
    return [int(c.id) for c in reranker.rerank(query, cands).candidates]


@pytest.fixture(autouse=True)
def _no_user_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in [v for v in os.environ if v.startswith("AUTHORAG_")]:
        monkeypatch.delenv(var)


@pytest.fixture(scope="module")
def servers(serve: Any) -> Iterator[dict[str, str]]:
    """One real server per policy, BM25 relevance, its defaults otherwise (the default composition)."""
    from contextlib import ExitStack

    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    with ExitStack() as stack:
        urls = {name: stack.enter_context(serve(create_app(ServerConfig.from_env({}, api_key=API_KEY, relevance="bm25",
                                                                                  **policy))))
                for name, policy in POLICIES.items()}
        yield urls


# ----------------------------------------------------------------------------- the surfaces

def _cli(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any], tmp: Path) -> list[int]:
    path = tmp / "in.jsonl"
    path.write_text("".join(json.dumps({"id": str(i), "url": u, "text": t}) + "\n"
                            for i, (u, t) in enumerate(zip(urls, texts))))
    flags = [a for k, v in policy.items() for a in (f"--{k.replace('_', '-')}", str(v))]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTHORAG_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "authorag", "rerank", "-q", query, "-i", str(path),
                           "--relevance", "bm25", *flags], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    return [int(json.loads(line)["id"]) for line in done.stdout.splitlines()]


def _v1(base: str, query: str, urls: Sequence[str], texts: Sequence[str]) -> list[int]:
    import cohere

    res = cohere.Client(api_key=API_KEY, base_url=base).rerank(
        model="authorag-authority", query=query, documents=[{"text": t, "url": u} for u, t in zip(urls, texts)])
    return [r.index for r in res.results]


def _v2(base: str, query: str, urls: Sequence[str], texts: Sequence[str]) -> list[int]:
    import cohere

    res = cohere.ClientV2(api_key=API_KEY, base_url=base).rerank(
        model="authorag-authority", query=query, documents=list(texts),
        request_options={"additional_body_parameters": {"urls": list(urls)}})
    return [r.index for r in res.results]


def _v2_yaml(base: str, query: str, docs: Sequence[str]) -> list[int]:
    import cohere

    res = cohere.ClientV2(api_key=API_KEY, base_url=base).rerank(model="authorag-authority", query=query,
                                                                 documents=list(docs))
    return [r.index for r in res.results]


def _jina(base: str, query: str, urls: Sequence[str], texts: Sequence[str]) -> list[int]:
    res = httpx.post(f"{base}/rerank", headers={"Authorization": f"Bearer {API_KEY}"},
                     json={"query": query, "documents": list(texts), "urls": list(urls)}, timeout=30)
    assert res.status_code == 200, res.text
    return [r["index"] for r in res.json()["results"]]


def _langchain(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(page_content=t, metadata={"source": u, "i": i}) for i, (u, t) in enumerate(zip(urls, texts))]
    out = AuthorityCompressor(relevance="bm25", **policy).compress_documents(docs, query)
    return [d.metadata["i"] for d in out]


class _WordHashEmbeddings:
    """LangChain ``Embeddings``: hashed bag of words, unit length (the first stage's model does not
    matter here, only that the authority stage reorders what it returns as the core would)."""

    dim = 256

    def _vector(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        for word in re.findall(r"\w+", text.lower()):
            vec[zlib.crc32(word.encode()) % self.dim] += 1.0
        norm = sum(v * v for v in vec) ** 0.5 or 1.0
        return [v / norm for v in vec]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def _retriever(query: str, urls: Sequence[str], texts: Sequence[str],
               policy: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """(the base retriever's order, AuthorityRetriever's order), as input indices."""
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    from authorag.integrations.langchain import AuthorityCompressor, AuthorityRetriever

    Embeddings.register(_WordHashEmbeddings)
    store = InMemoryVectorStore(_WordHashEmbeddings())  # type: ignore[arg-type]
    store.add_texts(list(texts), metadatas=[{"source": u, "i": i} for i, u in enumerate(urls)])
    base = store.as_retriever(search_kwargs={"k": len(texts)})
    first = [d.metadata["i"] for d in base.invoke(query)]
    out = AuthorityRetriever(base_retriever=base, compressor=AuthorityCompressor(relevance="bm25", **policy)).invoke(query)
    return first, [d.metadata["i"] for d in out]


def _haystack(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from haystack import Document

    from authorag.integrations.haystack import AuthorityRanker

    ranker = AuthorityRanker(relevance="bm25", **policy)
    ranker.warm_up()
    docs = [Document(content=t, meta={"url": u, "i": i}) for i, (u, t) in enumerate(zip(urls, texts))]
    return [d.meta["i"] for d in ranker.run(query=query, documents=docs)["documents"]]


def _llamaindex(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from llama_index.core.schema import NodeWithScore, TextNode

    from authorag.integrations.llamaindex import AuthorityPostprocessor

    nodes = [NodeWithScore(node=TextNode(text=t, metadata={"url": u, "i": i})) for i, (u, t) in enumerate(zip(urls, texts))]
    out = AuthorityPostprocessor(relevance="bm25", **policy).postprocess_nodes(nodes, query_str=query)
    return [n.node.metadata["i"] for n in out]


def _agent_middleware(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from langchain.agents.middleware.types import ToolCallRequest
    from langchain_core.messages import ToolMessage

    from authorag.integrations.langchain_agents import AuthorityMiddleware

    results = [{"url": u, "content": t, "i": i} for i, (u, t) in enumerate(zip(urls, texts))]
    call = {"name": "web_search", "args": {"query": query}, "id": "c", "type": "tool_call"}
    request = ToolCallRequest(tool_call=call, tool=None, state={}, runtime=None)  # type: ignore[arg-type]
    message = ToolMessage(json.dumps(results), tool_call_id="c")
    out = AuthorityMiddleware(relevance="bm25", **policy).wrap_tool_call(request, lambda _r: message)
    return [r["i"] for r in json.loads(out.content)["results"]]  # type: ignore[union-attr]


def _llamaindex_tool(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from authorag.integrations.llamaindex_tools import trusted_search_tool

    results = [{"url": u, "content": t, "i": i} for i, (u, t) in enumerate(zip(urls, texts))]
    tool = trusted_search_tool(lambda query: results, name="web_search", relevance="bm25", **policy)
    return [r["i"] for r in json.loads(tool.call(query=query).content)["results"]]


def _haystack_hook(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from haystack.components.agents.state import State
    from haystack.dataclasses import ChatMessage, ToolCall

    from authorag.integrations.haystack_agents import AuthorityToolHook

    results = [{"url": u, "content": t, "i": i} for i, (u, t) in enumerate(zip(urls, texts))]
    origin = ToolCall(tool_name="web_search", arguments={"query": query})
    state = State(schema={"messages": {"type": list[ChatMessage]}}, data={"messages": [
        ChatMessage.from_assistant(tool_calls=[origin]), ChatMessage.from_tool(json.dumps(results), origin=origin)]})
    AuthorityToolHook(relevance="bm25", **policy).run(state)
    result = state.get("messages")[-1].tool_call_result
    return [r["i"] for r in json.loads(result.result)["results"]]


def _bench(query: str, urls: Sequence[str], texts: Sequence[str], policy: Mapping[str, Any]) -> list[int]:
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    name = "default" + ("" if not policy else ":" + ",".join(f"{k}={v}" for k, v in policy.items()))
    method = build_method(name, MethodContext(task_family="rerank", label_source=None, item_kind="document"))
    return Reranking(rerank_setup(method)).order("bm25", query, urls, texts)


# ----------------------------------------------------------------------------- the test

@pytest.mark.parametrize("policy_name", list(POLICIES))
def test_every_surface_gives_the_core_order(policy_name: str, servers: dict[str, str], tmp_path: Path) -> None:
    pytest.importorskip("cohere")
    pytest.importorskip("langchain_core")
    pytest.importorskip("haystack")
    pytest.importorskip("llama_index.core")
    policy, base = POLICIES[policy_name], servers[policy_name]
    assert make_policy(dict(policy)) is not None
    mismatches: list[tuple[str, str, list[int], list[int]]] = []
    for n, (query, urls, texts) in enumerate(INPUTS):
        want = core_order(query, urls, texts, policy)
        got = {"v1": _v1(base, query, urls, texts), "v2": _v2(base, query, urls, texts),
               "jina": _jina(base, query, urls, texts), "langchain": _langchain(query, urls, texts, policy),
               "haystack": _haystack(query, urls, texts, policy), "llamaindex": _llamaindex(query, urls, texts, policy),
               "bench default": _bench(query, urls, texts, policy),
               "langchain agent middleware": _agent_middleware(query, urls, texts, policy),
               "llamaindex search tool": _llamaindex_tool(query, urls, texts, policy),
               "haystack agent hook": _haystack_hook(query, urls, texts, policy)}
        if n % (2 if policy_name == "default" else 4) == 0:  # a CLI process per input costs about a second
            got["cli"] = _cli(query, urls, texts, policy, tmp_path)
        # v2 YAML strings: the server reads the URL from the header and scores the text after it,
        # so the same page gives the same order as with a separate URL field
        yaml = [f"url: {u}\ntext: {t}" for u, t in zip(urls, texts)]
        got["v2 yaml"] = _v2_yaml(base, query, yaml)
        for surface, order in got.items():
            if order != want:
                mismatches.append((surface, query, order, want))
        first, ranked = _retriever(query, urls, texts, policy)
        retriever_want = [first[i] for i in core_order(query, [urls[i] for i in first], [texts[i] for i in first], policy)]
        if ranked != retriever_want:
            mismatches.append(("langchain retriever", query, ranked, retriever_want))
    assert mismatches == []


# ----------------------------------------------------------------------------- the documented example

def _docs_cohere_example() -> str:
    text = (ROOT / "docs" / "server.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    (block,) = [b for b in blocks if "cohere.ClientV2" in b and "cranberry" in b]
    return block


def test_docs_cranberry_example_prints_nih_first(serve: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cohere")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    code = _docs_cohere_example()
    assert 'base_url="http://127.0.0.1:8000"' in code and 'api_key="s3cret"' in code
    with serve(create_app(ServerConfig.from_env({}, api_key="s3cret"))) as url:
        exec(compile(code.replace("http://127.0.0.1:8000", url), "docs/server.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].split()[-1] == "nih.gov", lines
