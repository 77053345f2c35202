"""Fixtures for the framework adapters: a small health corpus and offline MiniLM embeddings."""
from __future__ import annotations

from typing import Any

import pytest

# (source URL, text): one question's worth of retrieved pages, from sources of very different standing.
CORPUS: list[tuple[str, str]] = [
    ("https://cranberrycure.blogspot.com/post",
     ("Does cranberry juice prevent urinary tract infections? Yes! Cranberry juice prevents every "
     "urinary tract infection, doctors hate this trick.")),
    ("https://www.nih.gov/news/cranberry-uti",
     ("A review of clinical trials of cranberry products found a modest reduction of recurrent "
     "infections in some women.")),
    ("https://www.mayoclinic.org/cranberry",
     "Cranberry juice and urinary tract infections: the evidence that cranberry prevents infection is mixed."),
    ("https://healthy-tips-4u.example.biz/cranberry",
     "Cranberry juice prevents urinary tract infections: drink cranberry juice daily instead of antibiotics."),
    ("https://www.bbc.co.uk/food/sourdough",
     "Baking sourdough bread needs a lively starter, flour, water, salt and a long slow rise."),
    ("https://www.cars.com/tyre",
     "How to change a flat tyre: loosen the lug nuts, jack up the car and swap the wheel."),
]
QUERY = "does cranberry juice prevent urinary tract infections"  # repeated in the test modules


class MiniLMEmbeddings:
    """LangChain ``Embeddings`` over authorag's offline MiniLM encoder (no model hub)."""

    def __init__(self) -> None:
        from authorag.relevance.dense import DenseEncoder

        self._encoder = DenseEncoder()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._encoder.encode(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self._encoder.encode_query(text).tolist()

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)


@pytest.fixture(scope="session")
def minilm() -> Any:
    from langchain_core.embeddings import Embeddings

    Embeddings.register(MiniLMEmbeddings)  # a virtual subclass: LangChain's isinstance checks pass
    return MiniLMEmbeddings()


@pytest.fixture(scope="session")
def faiss_store(minilm: Any) -> Any:
    from langchain_community.vectorstores import FAISS
    from langchain_core.documents import Document

    docs = [Document(page_content=text, metadata={"source": url, "pos": i}) for i, (url, text) in enumerate(CORPUS)]
    return FAISS.from_documents(docs, minilm)


@pytest.fixture(scope="session")
def corpus() -> list[tuple[str, str]]:
    return CORPUS


@pytest.fixture(scope="session")
def llama_index() -> Any:
    """A LlamaIndex ``VectorStoreIndex`` over :data:`CORPUS` (metadata ``url``), MiniLM embeddings."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.schema import TextNode

    from authorag.relevance.dense import DenseEncoder

    class MiniLM(BaseEmbedding):  # LlamaIndex's embedding interface over the offline encoder
        def _get_query_embedding(self, query: str) -> list[float]:
            return DenseEncoder().encode_query(query).tolist()

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return DenseEncoder().encode([text])[0].tolist()

    nodes = [TextNode(text=text, metadata={"url": url, "pos": i}, id_=f"n{i}") for i, (url, text) in enumerate(CORPUS)]
    return VectorStoreIndex(nodes, embed_model=MiniLM())
