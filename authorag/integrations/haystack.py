"""Haystack component: rank documents by source authority fused with relevance.

Install with ``pip install 'authorag[haystack]'``. Works with Haystack 2.x and 3.x.

:class:`AuthorityRanker` takes ``query`` and ``documents`` (from any retriever or ranker) and
returns new documents in fused order: the fused score in ``Document.score``, the explanation in
``Document.meta["authority"]``, all other meta kept. The source URL is read from ``meta``
(``url``, ``source``, ...). Relevance is ``Document.content`` scored against the query
(``relevance="cascade-or-bm25"``, the default on every surface); with ``relevance="auto"`` the
incoming ``Document.score`` is fused instead. Either way the incoming score is kept in the
explanation as ``upstream_score``.

Loading a saved pipeline that contains it needs authorag on Haystack 3's deserialization
allowlist: ``Pipeline.loads(text, allowed_modules=["authorag.*"])`` or the environment variable
``HAYSTACK_DESERIALIZATION_ALLOWLIST="authorag.*"``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from authorag._optional import require

require("haystack", extra="haystack", feature="authorag.integrations.haystack.AuthorityRanker")

from haystack import Document, component, default_from_dict, default_to_dict
from haystack.utils import Secret, deserialize_secrets_inplace

from authorag import adapters
from authorag.policy import (
    DEFAULT_CREDIBILITY_WEIGHT,
    DEFAULT_ON_TOPIC,
    DEFAULT_SUITABILITY_WEIGHT,
    DEFAULT_WEIGHT,
    POLICY_FIELDS,
    RerankPolicy,
    make_policy,
    policy_fields,
)
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import FUSED_SCORE
from authorag.types import UNKNOWN_LEVEL, Candidate, Ranking

META_KEY = "authority"
"""``Document.meta`` key that receives the per-document explanation."""

_POLICY = tuple(n for n in POLICY_FIELDS if n != "top_k")  # top_k is the per-call cap
_INIT = ("top_k", "relevance", "url_meta_keys", *_POLICY, "exclude_sources", "optin_sources", "suitability")


@component
class AuthorityRanker:
    """Rerank or filter Haystack documents by source authority fused with relevance.

    Args:
        weight: share of the source signal in the fused score, in [0, 1].
        top_k: default number of documents to return (None returns all).
        fusion: ``"window"`` (default), ``"linear"`` or ``"rrf"``.
        mode: ``"rerank"`` (fuse and sort) or ``"filter"`` (keep the top by the signal).
        signal: ``"trust"`` (default) or ``"blend"``.
        on_topic: for ``fusion="window"``, the share of the best relevance that is on topic.
        meaning_on_topic: with a relevance that judges meaning, the share of the best meaning
            score a candidate also needs (None: the square root of ``on_topic``).
        relevance: a :data:`~authorag.types.Relevance` mode: a scorer over
            ``Document.content`` (``"cascade-or-bm25"``, the default: cascade where the ``embeddings``
            extra is installed, else BM25; ``"bm25"``, ``"cascade"``, ``"dense"``), ``"auto"`` (incoming
            ``Document.score`` when every document has one, else the incoming order), ``"rank"``,
            ``"upstream"``, ``"similarity"`` (the incoming scores, declared to judge meaning: an
            embedding retriever's) or ``"none"``.
        url_meta_keys: meta keys searched in order for the source URL.
        credibility_weight, unknown_level, min_authority, rrf_k, normalize, allow, deny: see
            :class:`~authorag.policy.RerankPolicy`.
        exclude_sources, optin_sources: prior sources to leave out / add (``load_prior``).
        judge_api_key: API key for an LLM judge backend, as a ``Secret`` (serialized by
            reference, never by value); kept for authority scorers that call a judge.
        suitability: False (default) off; True for the shipped suitability matrix, or a matrix
            YAML path (the source type x query topic signal, docs/suitability.md).
        suitability_weight: share of suitability in the source signal (default 0.5).

    The policy arguments are validated once, at construction, into ``policy`` (a
    :class:`~authorag.policy.RerankPolicy`), which the reranker is built from.

    Example:
        >>> from haystack import Document
        >>> ranker = AuthorityRanker(weight=0.8)
        >>> docs = [Document(content="a", meta={"url": "https://someblog.blogspot.com/x"}),
        ...         Document(content="b", meta={"url": "https://www.nih.gov/y"})]
        >>> [d.meta["url"] for d in ranker.run(query="q", documents=docs)["documents"]]
        ['https://www.nih.gov/y', 'https://someblog.blogspot.com/x']
    """

    def __init__(
        self,
        *,
        weight: float = DEFAULT_WEIGHT,
        top_k: int | None = None,
        fusion: str = "window",
        mode: str = "rerank",
        signal: str = "trust",
        on_topic: float = DEFAULT_ON_TOPIC,
        meaning_on_topic: float | None = None,
        relevance: str = "cascade-or-bm25",
        url_meta_keys: list[str] | None = None,
        credibility_weight: float = DEFAULT_CREDIBILITY_WEIGHT,
        unknown_level: float = UNKNOWN_LEVEL,
        min_authority: float | None = None,
        rrf_k: float = 60.0,
        normalize: str = "minmax",
        allow: list[str] | None = None,
        deny: list[str] | None = None,
        exclude_sources: list[str] | None = None,
        optin_sources: list[str] | None = None,
        judge_api_key: Secret | None = None,
        suitability: bool | str = False,
        suitability_weight: float = DEFAULT_SUITABILITY_WEIGHT,
    ) -> None:
        self.weight = weight
        self.top_k = adapters.check_top("top_k", top_k)
        self.fusion = fusion
        self.mode = mode
        self.signal = signal
        self.on_topic = on_topic
        self.meaning_on_topic = meaning_on_topic
        self.relevance = relevance
        self.url_meta_keys = list(adapters.DEFAULT_URL_KEYS) if url_meta_keys is None else list(url_meta_keys)
        self.credibility_weight = credibility_weight
        self.unknown_level = unknown_level
        self.min_authority = min_authority
        self.rrf_k = rrf_k
        self.normalize = normalize
        self.allow = list(allow or [])
        self.deny = list(deny or [])
        self.exclude_sources = list(exclude_sources or [])
        self.optin_sources = list(optin_sources or [])
        self.judge_api_key = judge_api_key
        self.suitability = suitability
        self.suitability_weight = suitability_weight
        # the policy, validated and built once here (cheap; heavy state waits for warm_up())
        self.policy: RerankPolicy = make_policy(policy_fields(self, _POLICY))
        self._reranker: AuthorityReranker | None = None
        self._relevance_mode = "auto"

    def warm_up(self) -> None:
        """Load the default composition and the relevance scorer (once; later calls do nothing)."""
        if self._reranker is not None:
            return
        from authorag.compose import load_scorer

        scorer = load_scorer(None, exclude_sources=tuple(self.exclude_sources) or None,
                             optin_sources=tuple(self.optin_sources) or None)
        reranker, self._relevance_mode = adapters.build_reranker(scorer, self.relevance, self.policy, self.suitability)
        reranker.warm_up()  # the relevance model (dense) loads here, not in the first run()
        self._reranker = reranker

    def _prepare(self, documents: Sequence[Document], top_k: int | None) -> tuple[list[Candidate], str, int | None]:
        if self._reranker is None:
            self.warm_up()
        limit = self.top_k if top_k is None else adapters.check_top("top_k", top_k)
        keys, url_of, mode = self.url_meta_keys, adapters.url_from_metadata, self._relevance_mode
        cands, source = adapters.candidates_of(
            [url_of(d.meta, keys) for d in documents], [d.content or "" for d in documents],
            adapters.upstream_scores(mode, [d.score for d in documents]), mode)
        return cands, source, limit

    @staticmethod
    def _documents(documents: Sequence[Document], ranking: Ranking, source: str) -> list[Document]:
        out: list[Document] = []
        append, new_doc, set_attr = out.append, object.__new__, object.__setattr__
        for c, explanation in zip(ranking.candidates, adapters.breakdowns(ranking, source)):
            doc = documents[int(c.id)]
            # dataclasses.replace re-runs Document.__init__ (the largest cost of this component,
            # scripts/bench_adapters.py); a copy of the instance dict keeps the id and every field.
            # The copy is ours, so writing it skips Haystack's warning about shared documents.
            meta = doc.meta.copy()  # one shallow copy; the caller's dict is never written
            meta[META_KEY] = explanation
            fields = doc.__dict__.copy()
            fields["score"] = c.scores[FUSED_SCORE]
            fields["meta"] = meta
            new = new_doc(type(doc))
            set_attr(new, "__dict__", fields)
            append(new)
        return out

    @component.output_types(documents=list[Document])
    def run(
        self, query: str, documents: list[Document], top_k: int | None = None, weight: float | None = None,
    ) -> dict[str, list[Document]]:
        """Rank ``documents`` for ``query``; returns ``{"documents": [...]}`` (new objects).

        ``top_k`` and ``weight`` override the instance values for this call.

        Raises:
            ValueError: ``top_k`` is zero or negative, or ``weight`` is outside [0, 1].
        """
        cands, source, limit = self._prepare(documents, top_k)
        if not cands:
            return {"documents": []}
        assert self._reranker is not None  # set by warm_up() in _prepare()
        ranking = self._reranker.rerank_owned(query, cands, top_k=limit, weight=weight)
        return {"documents": self._documents(documents, ranking, source)}

    @component.output_types(documents=list[Document])
    async def run_async(
        self, query: str, documents: list[Document], top_k: int | None = None, weight: float | None = None,
    ) -> dict[str, list[Document]]:
        """Async twin of :meth:`run` (scoring runs off the event loop)."""
        cands, source, limit = self._prepare(documents, top_k)
        if not cands:
            return {"documents": []}
        assert self._reranker is not None
        ranking = await self._reranker.arerank_owned(query, cands, top_k=limit, weight=weight)
        return {"documents": self._documents(documents, ranking, source)}

    def to_dict(self) -> dict[str, Any]:
        """Serialize to a dict (the secret is written by reference, e.g. its env var name)."""
        return default_to_dict(
            self, **policy_fields(self, _INIT),
            judge_api_key=None if self.judge_api_key is None else self.judge_api_key.to_dict(),
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuthorityRanker:
        """Rebuild from :meth:`to_dict` output."""
        deserialize_secrets_inplace(data.setdefault("init_parameters", {}), keys=["judge_api_key"])
        return default_from_dict(cls, data)


__all__ = ["META_KEY", "AuthorityRanker"]
