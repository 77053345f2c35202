"""LangChain adapters: a document compressor and a retriever that rank by source authority.

Install with ``pip install 'authorag[langchain]'``.

* :class:`AuthorityCompressor` (a ``BaseDocumentCompressor``) reranks or filters ``Document``\\s
  by authority fused with relevance. Use it in a ``ContextualCompressionRetriever`` or call it
  directly. The fused score goes to ``metadata["relevance_score"]`` (the convention of LangChain
  rerankers); the explanation goes to ``metadata["authority"]``; all other metadata is kept.
* :class:`AuthorityRetriever` (a ``BaseRetriever``) wraps any retriever and applies the
  authority stage to what it returns; ``k`` caps the number of results.

Relevance: by default (``relevance="cascade-or-bm25"``, as the CLI and the server) the compressor
scores each document's text against the query itself: cascade where the ``embeddings`` extra is
installed, BM25 where it is not. A retriever's order cannot tell an on-topic page from an
off-topic trusted one, and the trust rule needs that. ``relevance="auto"`` uses
``metadata["relevance_score"]`` when every document has one (e.g. after a cross-encoder), else
the incoming order (first = 1.0, last = 1/n). Either way an incoming ``relevance_score`` is kept
in the explanation as ``upstream_score``. See :data:`authorag.types.Relevance` for all modes.
"""
from __future__ import annotations

from collections.abc import Sequence

from authorag._optional import require

require("langchain_core", extra="langchain", feature="authorag.integrations.langchain")

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
    Callbacks,
)
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, PrivateAttr, model_validator

from authorag import adapters
from authorag.integrations._pydantic import set_dict, set_extra, set_fields_set, set_private
from authorag.policy import (
    DEFAULT_CREDIBILITY_WEIGHT,
    DEFAULT_ON_TOPIC,
    DEFAULT_SUITABILITY_WEIGHT,
    DEFAULT_WEIGHT,
    POLICY_FIELDS,
    Normalize,
    RerankPolicy,
    Signal,
    make_policy,
    policy_fields,
)
from authorag.priors.base import AuthorityScorer
from authorag.relevance.base import RelevanceScorer
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import FUSED_SCORE
from authorag.suitability.base import SuitabilityScorer
from authorag.types import UNKNOWN_LEVEL, Candidate, FusionMode, Ranking, Relevance, RerankMode

_POLICY = tuple(n for n in POLICY_FIELDS if n != "top_k")  # top_n is the per-call cap

SCORE_KEY = "relevance_score"
"""Metadata key that receives the fused score (LangChain's reranker convention)."""

_new = object.__new__
_METADATA = frozenset({"metadata"})


class AuthorityCompressor(BaseDocumentCompressor):
    """Rerank or filter LangChain documents by source authority fused with relevance.

    Args (pydantic fields):
        scorer: authority scorer; default the shipped prior table (``authorag.priors.load_prior``).
        relevance: a :data:`~authorag.types.Relevance` mode (``"cascade-or-bm25"``, the default:
            the text scored against the query; ``"bm25"``, ``"cascade"``, ``"dense"``, ``"auto"``, ``"rank"``,
            ``"upstream"``, ``"similarity"`` (upstream scores declared to judge meaning: a vector
            store's similarity, a cross-encoder's score), ``"none"``) or a
            :class:`~authorag.relevance.base.RelevanceScorer`.
        url_keys: metadata keys searched in order for the source URL.
        relevance_key: metadata key read as upstream relevance.
        top_n: keep at most this many documents (None keeps all).
        weight, fusion, mode, signal, on_topic, meaning_on_topic, credibility_weight, unknown_level,
            min_authority, rrf_k, normalize, allow, deny, suitability_weight: the
            :class:`~authorag.policy.RerankPolicy` fields.
        suitability: off (False, default); True for the shipped suitability matrix, a matrix
            YAML path, or a :class:`~authorag.suitability.base.SuitabilityScorer`.

    Example:
        >>> from langchain_core.documents import Document
        >>> docs = [Document("a", metadata={"source": "https://someblog.blogspot.com/x"}),
        ...         Document("b", metadata={"source": "https://www.nih.gov/y"})]
        >>> out = AuthorityCompressor(weight=0.8).compress_documents(docs, "query")
        >>> [d.metadata["source"] for d in out]
        ['https://www.nih.gov/y', 'https://someblog.blogspot.com/x']
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    scorer: AuthorityScorer | None = None
    relevance: Relevance | RelevanceScorer = "cascade-or-bm25"
    url_keys: tuple[str, ...] = adapters.DEFAULT_URL_KEYS
    relevance_key: str = SCORE_KEY
    top_n: int | None = None
    weight: float = DEFAULT_WEIGHT
    fusion: FusionMode = "window"
    mode: RerankMode = "rerank"
    signal: Signal = "trust"
    on_topic: float = DEFAULT_ON_TOPIC
    meaning_on_topic: float | None = None
    credibility_weight: float = DEFAULT_CREDIBILITY_WEIGHT
    unknown_level: float = UNKNOWN_LEVEL
    min_authority: float | None = None
    rrf_k: float = 60.0
    normalize: Normalize = "minmax"
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    suitability_weight: float = DEFAULT_SUITABILITY_WEIGHT
    suitability: bool | str | SuitabilityScorer = False

    _built: tuple[AuthorityReranker, str] | None = PrivateAttr(default=None)  # the reranker, its relevance mode
    _policy: RerankPolicy = PrivateAttr(default_factory=RerankPolicy)  # the policy fields, validated once

    @model_validator(mode="after")
    def _validate(self) -> AuthorityCompressor:
        adapters.check_top("top_n", self.top_n)
        self._policy = make_policy(policy_fields(self, _POLICY))
        return self

    @property
    def policy(self) -> RerankPolicy:
        """The policy fields as the :class:`~authorag.policy.RerankPolicy` the reranker is built from
        (validated once, when the fields are)."""
        return self._policy

    def reranker(self) -> AuthorityReranker:
        """The underlying reranker (built on first use: loading the prior is not free)."""
        return self._ready()[0]

    def _ready(self) -> tuple[AuthorityReranker, str]:
        """The reranker and its relevance mode, built on first use.

        Read once per call: pydantic serves a private attribute through ``__getattr__`` after the
        ordinary lookup fails, a Python call and a caught error on every read.
        """
        built = self._built
        if built is None:
            built = self._built = adapters.build_reranker(
                self.scorer, self.relevance, self._policy, self.suitability)
        return built

    def _candidates(self, documents: Sequence[Document], mode: str) -> tuple[list[Candidate], str]:
        keys, rel_key, url_of = self.url_keys, self.relevance_key, adapters.url_from_metadata
        urls = [url_of(d.metadata, keys) for d in documents]
        upstream = adapters.upstream_scores(mode, [d.metadata.get(rel_key) for d in documents])
        return adapters.candidates_of(urls, [d.page_content for d in documents], upstream, mode)

    @staticmethod
    def _documents(documents: Sequence[Document], ranking: Ranking, source: str) -> list[Document]:
        # Each result is a shallow copy of the caller's document with new metadata, as
        # ``doc.model_copy(update={"metadata": ...})`` makes it, written here directly: building
        # (validating) a Document costs more than the reranking itself, and pydantic's __copy__
        # copies three containers through copy.copy. Writing the instance dict and pydantic's
        # three instance slots takes under half that time (scripts/bench_adapters.py). ``metadata`` counts
        # as a set field, so ``model_dump(exclude_unset=True)`` keeps the breakdown
        # (authorag.integrations._pydantic).
        out: list[Document] = []
        append = out.append
        for cand, explanation in zip(ranking.candidates, adapters.breakdowns(ranking, source)):
            doc = documents[int(cand.id)]
            metadata = doc.metadata.copy()  # one shallow copy; the caller's dict is never written
            metadata[SCORE_KEY] = cand.scores[FUSED_SCORE]
            metadata["authority"] = explanation
            fields = doc.__dict__.copy()
            fields["metadata"] = metadata
            new = _new(type(doc))
            set_dict(new, fields)
            fields_set = doc.__pydantic_fields_set__
            set_fields_set(new, fields_set.copy() if "metadata" in fields_set else fields_set | _METADATA)
            extra, private = doc.__pydantic_extra__, doc.__pydantic_private__
            set_extra(new, None if extra is None else dict(extra))
            set_private(new, None if private is None else dict(private))
            append(new)
        return out

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """Return new documents in fused order (at most ``top_n``); inputs are not changed."""
        if not documents:
            return []
        reranker, mode = self._ready()
        cands, source = self._candidates(documents, mode)
        ranking = reranker.rerank_owned(query, cands, top_k=self.top_n)
        return self._documents(documents, ranking, source)

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """Async twin of :meth:`compress_documents` (scoring runs off the event loop)."""
        if not documents:
            return []
        reranker, mode = self._ready()
        cands, source = self._candidates(documents, mode)
        ranking = await reranker.arerank_owned(query, cands, top_k=self.top_n)
        return self._documents(documents, ranking, source)


class AuthorityRetriever(BaseRetriever):
    """A retriever that applies the authority stage to another retriever's results.

    Args (pydantic fields):
        base_retriever: the first-stage retriever (vector store, BM25, ...).
        compressor: the authority stage; default ``AuthorityCompressor()``.
        k: return at most this many documents (None returns all the base retriever gave);
            can be overridden per call: ``retriever.invoke(query, k=3)``.

    Example:
        >>> from langchain_core.vectorstores import InMemoryVectorStore
        >>> store = InMemoryVectorStore(embeddings)  # doctest: +SKIP
        >>> retriever = AuthorityRetriever(base_retriever=store.as_retriever(search_kwargs={"k": 20}), k=4)  # doctest: +SKIP
        >>> docs = retriever.invoke("does vitamin C prevent colds?")  # doctest: +SKIP
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base_retriever: BaseRetriever
    compressor: AuthorityCompressor = Field(default_factory=AuthorityCompressor)
    k: int | None = None

    @model_validator(mode="after")
    def _validate(self) -> AuthorityRetriever:
        adapters.check_top("k", self.k)
        return self

    def _limit(self, k: int | None) -> int | None:
        return adapters.check_top("k", self.k if k is None else k)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, k: int | None = None,
    ) -> list[Document]:
        limit = self._limit(k)
        docs = self.base_retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        ranked = self.compressor.compress_documents(docs, query)
        return list(ranked[:limit])

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, k: int | None = None,
    ) -> list[Document]:
        limit = self._limit(k)
        docs = await self.base_retriever.ainvoke(query, config={"callbacks": run_manager.get_child()})
        ranked = await self.compressor.acompress_documents(docs, query)
        return list(ranked[:limit])


__all__ = ["SCORE_KEY", "AuthorityCompressor", "AuthorityRetriever"]
