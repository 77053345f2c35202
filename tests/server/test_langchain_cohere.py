"""End to end: LangChain's ``CohereRerank`` (``langchain-cohere``) with ``base_url=`` against the
real uvicorn server on loopback (the ``server_url`` fixture of this folder's conftest).

What ``CohereRerank`` sends (langchain-cohere 0.6, through ``cohere.ClientV2`` 5.x, as
``POST /v2/rerank``): strings only. A ``Document`` contributes its ``page_content`` alone, its
metadata is never sent, so a URL kept only in metadata gives the server no authority evidence; a
dict given to ``.rerank()`` is sent as ``yaml.dump(dict, sort_keys=False)``, after dropping the
keys not in ``rank_fields`` on the client side. Expected orders and scores come from the same
server called directly with httpx on exactly those strings."""
from __future__ import annotations

import json
from typing import Any

import cohere
import httpx
import yaml
from langchain_cohere import CohereRerank
from langchain_core.documents import Document
from pydantic import SecretStr

API_KEY = "test-key"  # as in conftest
HEADERS = {"Authorization": f"Bearer {API_KEY}"}
KEY = SecretStr(API_KEY)  # the field's declared type (a plain str works at run time too)
MODEL = "authorag-authority"
QUERY = "does cranberry juice prevent urinary tract infections"
BLOG = "https://cranberrycure.blogspot.com/post"
NIH = "https://www.nih.gov/news/cranberry-uti"
MAYO = "https://www.mayoclinic.org/cranberry"
CURE = "Cranberry juice prevents urinary tract infections, every time."
REVIEW = "Trials of cranberry products show a modest reduction of urinary tract infections in women who get them often."
BREAD = "Sourdough bread needs a lively starter and a long slow rise."
MIXED = "Cranberry juice and urinary tract infections: the evidence is mixed."


def direct(server_url: str, documents: list[str], top_n: int | None = None,
           urls: list[str | None] | None = None) -> list[dict[str, Any]]:
    """The server's own v2 results for these strings, without LangChain or the cohere SDK."""
    body: dict[str, Any] = {"model": MODEL, "query": QUERY, "documents": documents}
    if top_n is not None:
        body["top_n"] = top_n
    if urls is not None:
        body["urls"] = urls  # authorag extension: a source URL per document
    r = httpx.post(f"{server_url}/v2/rerank", json=body, headers=HEADERS)
    assert r.status_code == 200, r.text
    return r.json()["results"]


def pairs(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``CohereRerank.rerank`` returns for these server results."""
    return [{"index": r["index"], "relevance_score": r["relevance_score"]} for r in results]


def documents() -> list[Document]:
    return [
        Document(f"title: Cranberry cure\nurl: {BLOG}\ntext: {CURE}", metadata={"id": "blog"}),
        Document(f"title: Cranberry review\nurl: {NIH}\ntext: {REVIEW}", metadata={"id": "nih"}),
        Document(BREAD, metadata={"id": "bread"}),
        Document(f"{MAYO}\n{MIXED}", metadata={"id": "mayo"}),
        # The URL only in metadata: CohereRerank does not send it.
        Document(CURE, metadata={"id": "meta-only", "url": NIH}),
    ]


def test_compress_documents_matches_the_server(server_url: str) -> None:
    docs = documents()
    reranker = CohereRerank(base_url=server_url, cohere_api_key=KEY, model=MODEL, top_n=3)
    out = reranker.compress_documents(docs, QUERY)

    want = direct(server_url, [d.page_content for d in docs], top_n=3)
    assert len(out) == len(want) == 3
    assert [d.metadata["id"] for d in out] == [docs[r["index"]].metadata["id"] for r in want]
    assert [d.metadata["relevance_score"] for d in out] == [r["relevance_score"] for r in want]
    for d in out:  # copies: content and the caller's metadata kept, the score added
        src = next(s for s in docs if s.metadata["id"] == d.metadata["id"])
        assert d.page_content == src.page_content
        assert {k: v for k, v in d.metadata.items() if k != "relevance_score"} == src.metadata
        assert "relevance_score" not in src.metadata
    # Authority-aware: Mayo and the NIH review come first; the blog, with more query words, follows.
    # (Mayo above NIH since mayoclinic.org is rated by the reference list, 2026-12-07: trust 0.65 -> 0.78.)
    assert [d.metadata["id"] for d in out] == ["mayo", "nih", "blog"]


def test_compress_documents_sends_page_content_only(server_url: str) -> None:
    docs = documents()
    out = CohereRerank(base_url=server_url, cohere_api_key=KEY, model=MODEL,
                       top_n=len(docs)).compress_documents(docs, QUERY)
    full = direct(server_url, [d.page_content for d in docs])
    assert [d.metadata["id"] for d in out] == [docs[r["index"]].metadata["id"] for r in full]
    assert [d.metadata["relevance_score"] for d in out] == [r["relevance_score"] for r in full]
    has_url = {docs[r["index"]].metadata["id"]: r["authority"]["has_url"] for r in full}
    # YAML `url:` line and bare first-line URL are read; metadata["url"] never reached the server.
    assert has_url == {"blog": True, "nih": True, "bread": False, "mayo": True, "meta-only": False}
    # Had the metadata URL reached the server (here via the `urls` extension), the score would
    # differ: same strings, only the fifth document gets its source.
    meta_only = next(d.metadata["relevance_score"] for d in out if d.metadata["id"] == "meta-only")
    sourced = direct(server_url, [d.page_content for d in docs], urls=[None, None, None, None, NIH])
    with_url = next(r for r in sourced if r["index"] == 4)
    assert with_url["authority"]["has_url"] is True
    assert with_url["relevance_score"] > meta_only + 0.1


def test_rerank_dicts_are_sent_as_yaml(server_url: str) -> None:
    dicts: list[dict[str, Any]] = [
        {"title": "Cranberry cure", "url": BLOG, "text": CURE},
        {"title": "Cranberry review", "url": NIH, "text": REVIEW},
        {"title": "Bread", "text": BREAD},
        {"title": "Mayo", "url": MAYO, "text": MIXED},
    ]
    reranker = CohereRerank(base_url=server_url, cohere_api_key=KEY, model=MODEL, top_n=2)

    got = reranker.rerank(dicts, QUERY)  # top_n defaults to the reranker's (2)
    want = direct(server_url, [yaml.dump(d, sort_keys=False) for d in dicts], top_n=2)
    assert got == pairs(want)
    assert [r["authority"]["has_url"] for r in want] == [True, True]  # the `url:` line was read

    every = reranker.rerank(dicts, QUERY, top_n=None)  # None: all results
    full = direct(server_url, [yaml.dump(d, sort_keys=False) for d in dicts])
    assert every == pairs(full)

    # rank_fields filters on the client: the url key is dropped before sending, so no authority
    # evidence reaches the server and relevance alone orders the documents.
    text_only = reranker.rerank(dicts, QUERY, rank_fields=["text"], top_n=None)
    plain = direct(server_url, [yaml.dump({"text": d["text"]}, sort_keys=False) for d in dicts])
    assert text_only == pairs(plain)
    assert not any(r["authority"]["has_url"] for r in plain)
    # Hand check: without the URLs the blog, which restates the question, gets no lead on relevance
    # over Mayo and the review, which answer in their own words; with the URLs the review's score
    # rises by trust (Mayo, rated by the reference list since 2026-12-07, trust 0.78, keeps first
    # place; before, the review overtook it).
    assert [r["index"] for r in text_only] == [3, 1, 0, 2]
    assert [r["index"] for r in every] == [3, 1, 0, 2]
    nih = {r["index"]: r["relevance_score"] for r in every}[1]
    assert nih > {r["index"]: r["relevance_score"] for r in text_only}[1] + 0.1


def test_wire_request_is_v2_strings(server_url: str) -> None:
    """Pin what goes over the wire, so a langchain-cohere change that starts sending metadata or
    objects shows up here."""
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(request: httpx.Request) -> None:
        sent.append((request.url.path, json.loads(request.content)))

    with httpx.Client(event_hooks={"request": [record]}) as http:
        client = cohere.ClientV2(API_KEY, base_url=server_url, httpx_client=http)
        docs = documents()
        out = CohereRerank(client=client, model=MODEL, top_n=3).compress_documents(docs, QUERY)
    assert len(out) == 3
    body = {"model": MODEL, "query": QUERY, "documents": [d.page_content for d in docs], "top_n": 3,
            "max_tokens_per_doc": None}
    assert sent == [("/v2/rerank", body)]
