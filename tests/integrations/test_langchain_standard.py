"""The official langchain-tests retriever suite, run against AuthorityRetriever over FAISS + MiniLM."""
from __future__ import annotations

from typing import Any

import pytest

QUERY = "does cranberry juice prevent urinary tract infections"  # as in conftest.CORPUS

pytest.importorskip("langchain_tests")

from langchain_core.retrievers import BaseRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

from authorag.integrations.langchain import AuthorityRetriever


class TestAuthorityRetrieverStandard(RetrieversIntegrationTests):
    @pytest.fixture(autouse=True)
    def _store(self, faiss_store: Any) -> None:
        self._faiss = faiss_store

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return AuthorityRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"base_retriever": self._faiss.as_retriever(search_kwargs={"k": 6})}

    @property
    def retriever_query_example(self) -> str:
        return QUERY
