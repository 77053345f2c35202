"""LlamaIndex node postprocessor: rank retrieved nodes by source authority fused with relevance.

Install with ``pip install 'authorag[llamaindex]'`` (``llama-index-core``).

:class:`AuthorityPostprocessor` is a ``BaseNodePostprocessor``: put it in a query engine's
``node_postprocessors`` or call ``postprocess_nodes`` / ``apostprocess_nodes`` yourself. It
returns new ``NodeWithScore`` objects in fused order: the fused score in ``NodeWithScore.score``,
the explanation in ``node.metadata["authority"]`` (left out of the text the LLM and the embedder
see), every other metadata key kept; the caller's nodes are never changed. The source URL is read
from node metadata (``url``, ``source``, ``link``, ``href``, ``source_url``). Relevance is the
node text scored against the query (``relevance="cascade-or-bm25"``, the default everywhere: cascade
where the ``embeddings`` extra is installed, else BM25); ``relevance="auto"`` reads the incoming
``NodeWithScore.score`` (the retriever's similarity) instead; either way the explanation keeps
it as ``upstream_score``.

The settings are plain fields, so ``to_dict`` / ``from_dict`` / ``to_json`` / ``from_json`` round
trip them (an authority ``scorer`` object passed in is not serialized: it is rebuilt from
``exclude_sources`` / ``optin_sources`` and the ``AUTHORAG_*`` settings).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from authorag._optional import require

require("llama_index.core", extra="llamaindex", feature="authorag.integrations.llamaindex")

from llama_index.core.bridge.pydantic import Field, PrivateAttr, model_validator
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import BaseNode, NodeWithScore, QueryBundle, TextNode

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
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import FUSED_SCORE
from authorag.types import UNKNOWN_LEVEL, Candidate, FusionMode, Ranking, Relevance, RerankMode

META_KEY = "authority"
"""``node.metadata`` key that receives the per-node explanation."""

_POLICY = tuple(n for n in POLICY_FIELDS if n != "top_k")  # top_n is the per-call cap
_QUERY_FREE = frozenset(adapters.ORDER_MODES)  # relevance modes that read no query text
_PLAIN_TEXT: dict[type[BaseNode], bool] = {}  # node class -> its get_content() is TextNode's (the text alone)
_CHANGED = frozenset({"metadata", "excluded_llm_metadata_keys", "excluded_embed_metadata_keys"})  # set on every result

_F = TypeVar("_F", bound=Callable[..., Any])
_AUTO_HINT = ", or set relevance='auto' to fuse the incoming scores"


def _signature_once(method: _F) -> _F:
    """``method`` with its signature computed once, here.

    LlamaIndex's instrumentation wraps ``_postprocess_nodes`` in a span
    that binds the call's arguments with ``inspect.signature`` on every call, and that rebuilds
    the signature from the code each time unless the function carries ``__signature__`` (which
    ``inspect.signature`` returns as is). The bound arguments are the same, built with less work
    on every call (scripts/bench_adapters.py times the span: its ``LlamaIndex span`` rows).
    """
    setattr(method, "__signature__", inspect.signature(method))  # noqa: B010  # a dunder pyright does not know
    return method


class AuthorityPostprocessor(BaseNodePostprocessor):
    """Rerank or filter LlamaIndex nodes by source authority fused with relevance.

    Args (pydantic fields):
        scorer: an authority scorer to use instead of the default composition (not serialized).
        relevance: a :data:`~authorag.types.Relevance` mode: a scorer over the node text
            (``"cascade-or-bm25"``, the default; ``"bm25"``, ``"cascade"``, ``"dense"``), ``"auto"`` (the incoming
            ``NodeWithScore.score`` when every node has one, else the incoming order), ``"rank"``,
            ``"upstream"``, ``"similarity"`` (the incoming scores, declared to judge meaning: a vector
            retriever's similarity) or ``"none"``.
        url_keys: metadata keys searched in order for the source URL.
        top_n: keep at most this many nodes (None keeps all).
        weight, fusion, mode, signal, on_topic, meaning_on_topic, credibility_weight, unknown_level,
            min_authority, rrf_k, normalize, allow, deny, suitability_weight: the
            :class:`~authorag.policy.RerankPolicy` fields.
        suitability: off (False, default); True for the shipped suitability matrix, or a matrix
            YAML path.
        exclude_sources, optin_sources: prior sources to leave out / add (``load_prior``).

    Example:
        >>> from llama_index.core.schema import NodeWithScore, TextNode
        >>> nodes = [NodeWithScore(node=TextNode(text="a", metadata={"url": "https://someblog.blogspot.com/x"})),
        ...          NodeWithScore(node=TextNode(text="b", metadata={"url": "https://www.nih.gov/y"}))]
        >>> out = AuthorityPostprocessor(weight=0.8).postprocess_nodes(nodes, query_str="q")
        >>> [n.node.metadata["url"] for n in out]
        ['https://www.nih.gov/y', 'https://someblog.blogspot.com/x']
    """

    scorer: AuthorityScorer | None = Field(default=None, exclude=True)
    relevance: Relevance = "cascade-or-bm25"
    url_keys: tuple[str, ...] = adapters.DEFAULT_URL_KEYS
    top_n: int | None = None
    weight: float = DEFAULT_WEIGHT
    fusion: FusionMode = "window"
    signal: Signal = "trust"
    on_topic: float = DEFAULT_ON_TOPIC
    meaning_on_topic: float | None = None
    mode: RerankMode = "rerank"
    credibility_weight: float = DEFAULT_CREDIBILITY_WEIGHT
    unknown_level: float = UNKNOWN_LEVEL
    min_authority: float | None = None
    rrf_k: float = 60.0
    normalize: Normalize = "minmax"
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    suitability_weight: float = DEFAULT_SUITABILITY_WEIGHT
    suitability: bool | str = False
    exclude_sources: tuple[str, ...] = ()
    optin_sources: tuple[str, ...] = ()

    _built: tuple[AuthorityReranker, str] | None = PrivateAttr(default=None)  # the reranker, its relevance mode
    _policy: RerankPolicy = PrivateAttr(default_factory=RerankPolicy)  # the policy fields, validated once

    @model_validator(mode="after")
    def _validate(self) -> AuthorityPostprocessor:
        adapters.check_top("top_n", self.top_n)
        self._policy = make_policy(policy_fields(self, _POLICY))
        return self

    @property
    def policy(self) -> RerankPolicy:
        """The policy fields as the :class:`~authorag.policy.RerankPolicy` the reranker is built from
        (validated once, when the fields are)."""
        return self._policy

    @classmethod
    def class_name(cls) -> str:
        """The name LlamaIndex serialization records (``class_name`` in ``to_dict``)."""
        return "AuthorityPostprocessor"

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
            scorer = self.scorer
            if scorer is None:
                from authorag.compose import load_scorer

                scorer = load_scorer(None, exclude_sources=self.exclude_sources or None,
                                     optin_sources=self.optin_sources or None)
            built = self._built = adapters.build_reranker(
                scorer, self.relevance, self._policy, self.suitability)
        return built

    def _candidates(self, nodes: Sequence[NodeWithScore], query_bundle: QueryBundle | None,
                    reranker: AuthorityReranker, mode: str) -> tuple[str, list[Candidate], str]:
        if query_bundle is None and (mode not in _QUERY_FREE or reranker.suitability is not None):
            suited = reranker.suitability is not None
            raise ValueError(f"AuthorityPostprocessor with relevance={self.relevance!r}"
                             f"{' and suitability' if suited else ''} needs the query: "
                             "call postprocess_nodes(nodes, query_str=...) or pass a query_bundle"
                             f"{'' if suited else _AUTO_HINT}")
        keys, url_of, plain = self.url_keys, adapters.url_from_metadata, _PLAIN_TEXT
        urls: list[str] = []
        texts: list[str] = []
        add_url, add_text = urls.append, texts.append
        for n in nodes:
            node = n.node
            add_url(url_of(node.metadata, keys))
            kind = type(node)
            is_plain = plain.get(kind)
            if is_plain is None:  # once per node class: TextNode.get_content() is the text itself
                is_plain = plain[kind] = issubclass(kind, TextNode) and kind.get_content is TextNode.get_content
            add_text(node.text if is_plain else node.get_content())  # pyright: ignore[reportAttributeAccessIssue]
        upstream = adapters.upstream_scores(mode, [n.score for n in nodes])
        cands, source = adapters.candidates_of(urls, texts, upstream, mode)
        return "" if query_bundle is None else query_bundle.query_str, cands, source

    @staticmethod
    def _nodes(nodes: Sequence[NodeWithScore], ranking: Ranking, source: str) -> list[NodeWithScore]:
        # A result is a shallow copy of the caller's node with new metadata (what
        # ``node.model_copy(update=...)`` makes) in a new NodeWithScore, both written without
        # validation: the pydantic way costs more than the reranking (authorag.integrations._pydantic).
        out: list[NodeWithScore] = []
        append, key, new, changed, scored_cls = out.append, META_KEY, object.__new__, _CHANGED, NodeWithScore
        sdict, sfields, sextra, sprivate = set_dict, set_fields_set, set_extra, set_private  # locals: read per node
        for cand, explanation in zip(ranking.candidates, adapters.breakdowns(ranking, source)):
            node = nodes[int(cand.id)].node
            state = node.__dict__  # the fields, read as dict items (cheaper than attributes)
            metadata = state["metadata"].copy()  # one shallow copy; the caller's node is never written
            metadata[key] = explanation
            fields = state.copy()
            fields["metadata"] = metadata
            # The explanation is for people and code, not for the prompt or the embedding.
            llm, embed = state["excluded_llm_metadata_keys"], state["excluded_embed_metadata_keys"]
            if key not in llm:
                fields["excluded_llm_metadata_keys"] = [*llm, key]
            if key not in embed:
                fields["excluded_embed_metadata_keys"] = [*embed, key]
            copy = new(type(node))
            sdict(copy, fields)
            sfields(copy, node.__pydantic_fields_set__ | changed)
            extra, private = node.__pydantic_extra__, node.__pydantic_private__
            sextra(copy, None if extra is None else dict(extra))
            sprivate(copy, None if private is None else dict(private))
            scored = new(scored_cls)
            sdict(scored, {"node": copy, "score": cand.scores[FUSED_SCORE]})
            sfields(scored, {"node", "score"})
            sextra(scored, None)
            sprivate(scored, None)
            append(scored)
        return out

    @_signature_once
    def _postprocess_nodes(self, nodes: list[NodeWithScore],
                           query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        """New nodes in fused order (at most ``top_n``); the inputs are not changed.

        Raises:
            ValueError: no query for a relevance scorer or suitability.
        """
        if not nodes:
            return []
        reranker, mode = self._ready()
        query, cands, source = self._candidates(nodes, query_bundle, reranker, mode)
        ranking = reranker.rerank_owned(query, cands, top_k=self.top_n)
        return self._nodes(nodes, ranking, source)

    async def _apostprocess_nodes(self, nodes: list[NodeWithScore],
                                  query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        """Async twin of :meth:`_postprocess_nodes` (scoring runs off the event loop)."""
        if not nodes:
            return []
        reranker, mode = self._ready()
        query, cands, source = self._candidates(nodes, query_bundle, reranker, mode)
        ranking = await reranker.arerank_owned(query, cands, top_k=self.top_n)
        return self._nodes(nodes, ranking, source)


__all__ = ["META_KEY", "AuthorityPostprocessor"]
