"""End to end: unmodified real clients (cohere v1/v2 SDK, Haystack's CohereRanker, httpx) against
a real uvicorn server on loopback. Expected orders and scores come from the library itself, run
in-process on the same (url, text) pairs written out by hand below."""
from __future__ import annotations

from typing import Any

import httpx
import pytest

from authorag.compose import ScorerSettings, load_scorer
from authorag.relevance.registry import load_relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import Candidate

API_KEY = "test-key"  # as in conftest
QUERY = "does cranberry juice prevent urinary tract infections"
BLOG = "https://cranberrycure.blogspot.com/post"
NIH = "https://www.nih.gov/news/cranberry-uti"
MAYO = "https://www.mayoclinic.org/cranberry"
# v2 style: YAML strings carry the source URL; the third has none; the fourth has a bare URL line.
YAML_DOCS = [
    f"title: Cranberry cure\nurl: {BLOG}\ntext: Cranberry juice prevents urinary tract infections, every time.",
    f"title: Cranberry review\nurl: {NIH}\ntext: Trials of cranberry products show a modest reduction of urinary tract infections in women who get them often.",
    "Sourdough bread needs a lively starter and a long slow rise.",
    f"{MAYO}\nCranberry juice and urinary tract infections: the evidence is mixed.",
]
SOURCES = [BLOG, NIH, "", MAYO]
YAML_TEXTS = [
    "title: Cranberry cure\nCranberry juice prevents urinary tract infections, every time.",
    "title: Cranberry review\nTrials of cranberry products show a modest reduction of urinary tract infections in women who get them often.",
    "Sourdough bread needs a lively starter and a long slow rise.",
    "Cranberry juice and urinary tract infections: the evidence is mixed.",
]
"""What the server scores of YAML_DOCS: the lines that name the URL and the ``text:`` key are not text (the title is)."""


def expected(texts: list[str], urls: list[str], top_n: int | None = None,
             weight: float = 0.5) -> list[tuple[int, float]]:
    """(index, fused score) best first, from the library in-process with the test server's settings."""
    cands = [Candidate.create(u, t, id=str(i)) for i, (u, t) in enumerate(zip(urls, texts))]
    ranking = AuthorityReranker(load_scorer(ScorerSettings()), relevance=load_relevance("bm25"), weight=weight).rerank(
        QUERY, cands, top_k=top_n)
    return [(int(c.id), c.scores["fused"]) for c in ranking.candidates]


def test_expected_order_is_authority_aware() -> None:
    # Hand check of the oracle: by the window's relevance alone the blog, which restates the question,
    # gets no lead over Mayo and the NIH review, which answer in their own words (it ranks just below
    # the least relevant of them); with the default policy all three cranberry pages are on topic and
    # trust puts Mayo and the review above the blog; the sourdough page stays last. (Mayo first since
    # mayoclinic.org is rated by the reference list, 2026-12-07; before, the review led.)
    relevance_only = [i for i, _ in expected(YAML_TEXTS, SOURCES, weight=0.0)]
    fused = [i for i, _ in expected(YAML_TEXTS, SOURCES)]
    assert relevance_only == [3, 1, 0, 2]
    assert fused == [3, 1, 0, 2]


def test_cohere_client_v2(server_url: str) -> None:
    import cohere

    co = cohere.ClientV2(api_key=API_KEY, base_url=server_url)
    res = co.rerank(model="authorag-authority", query=QUERY, documents=YAML_DOCS, top_n=3)
    want = expected(YAML_TEXTS, SOURCES, top_n=3)
    assert [r.index for r in res.results] == [i for i, _ in want]
    assert [r.relevance_score for r in res.results] == pytest.approx([s for _, s in want])
    assert res.meta is not None and res.meta.api_version is not None
    assert res.meta.api_version.version == "2"
    extra: Any = res.results[0].model_extra
    assert extra["authority"]["has_url"] is True


def test_cohere_client_v1_objects_and_return_documents(server_url: str) -> None:
    import cohere

    texts = ["Cranberry juice prevents urinary tract infections, every time.",
             "Trials of cranberry products show a modest reduction of infections.",
             "Cranberry juice and urinary tract infections: the evidence is mixed."]
    urls = [BLOG, NIH, MAYO]
    docs = [{"text": t, "url": u, "title": f"doc {i}"} for i, (t, u) in enumerate(zip(texts, urls))]
    co = cohere.Client(api_key=API_KEY, base_url=server_url)
    res = co.rerank(model="authorag-authority", query=QUERY, documents=docs, return_documents=True)
    want = expected(texts, urls)
    assert [r.index for r in res.results] == [i for i, _ in want]
    assert [r.relevance_score for r in res.results] == pytest.approx([s for _, s in want])
    first = res.results[0]
    assert first.document is not None and first.document.text == texts[first.index]
    doc_extra: Any = first.document.model_extra
    assert doc_extra["url"] == urls[first.index] and doc_extra["title"] == f"doc {first.index}"


def test_cohere_sdk_surfaces_limit_errors(server_url: str) -> None:
    import cohere
    from cohere.errors import UnprocessableEntityError

    co = cohere.ClientV2(api_key=API_KEY, base_url=server_url)
    with pytest.raises(UnprocessableEntityError) as info:
        co.rerank(model="m", query="q", documents=["x"] * 21)
    assert info.value.body["error"]["code"] == "too_many_documents"


def test_cohere_sdk_bad_key(server_url: str) -> None:
    import cohere
    from cohere.errors import UnauthorizedError

    with pytest.raises(UnauthorizedError):
        cohere.ClientV2(api_key="wrong", base_url=server_url).rerank(model="m", query="q", documents=["x"])


def test_haystack_cohere_ranker(server_url: str) -> None:
    pytest.importorskip("haystack_integrations.components.rankers.cohere")
    from haystack import Document
    from haystack.utils import Secret
    from haystack_integrations.components.rankers.cohere import CohereRanker

    texts = ["Cranberry juice prevents urinary tract infections, every time.",
             "Trials of cranberry products show a modest reduction of infections.",
             "Cranberry juice and urinary tract infections: the evidence is mixed."]
    urls = [BLOG, NIH, MAYO]
    ranker = CohereRanker(model="authorag-authority", api_key=Secret.from_token(API_KEY), api_base_url=server_url,
                          top_k=3, meta_fields_to_embed=["url"])
    ranker.warm_up()
    docs = [Document(content=t, meta={"url": u}) for t, u in zip(texts, urls)]
    out = ranker.run(query=QUERY, documents=docs)["documents"]
    # CohereRanker sends "<url>\n<text>": the server reads the bare URL on the first line, and scores the rest.
    want = expected(texts, urls)
    assert [d.meta["url"] for d in out] == [urls[i] for i, _ in want]
    assert [d.score for d in out] == pytest.approx([s for _, s in want])


def test_httpx_jina_shape_with_urls_array(server_url: str) -> None:
    texts = ["Cranberry juice prevents urinary tract infections, every time.",
             "Trials of cranberry products show a modest reduction of infections."]
    body = {"model": "jina-reranker-v2", "query": QUERY, "documents": texts, "urls": [BLOG, NIH]}
    r = httpx.post(f"{server_url}/rerank", json=body, headers={"Authorization": f"Bearer {API_KEY}"})
    assert r.status_code == 200
    data = r.json()
    want = expected(texts, [BLOG, NIH])
    assert [x["index"] for x in data["results"]] == [i for i, _ in want]
    assert data["results"][0]["document"] == {"text": texts[want[0][0]]}  # Jina returns documents by default
    assert data["model"] == "jina-reranker-v2"
    assert data["usage"]["total_tokens"] > 0
