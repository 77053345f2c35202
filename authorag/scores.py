"""The score keys the library writes into :attr:`Candidate.scores <authorag.types.Candidate.scores>`.

One name per key: every stage that writes one and every surface that reads one (the adapters'
breakdown, the server, the CLI, LangChain/Haystack/LlamaIndex) uses these constants. The keys
themselves are public (they appear in JSON and in the frameworks' metadata); relevance scorers
add their own ``relevance.<name>`` keys (``relevance.bm25``, ``relevance.dense``).

Example:
    >>> from authorag.types import Candidate
    >>> Candidate.create("https://nih.gov", scores={RELEVANCE_SCORE: 0.8}).scores
    mappingproxy({'relevance': 0.8})
"""
from __future__ import annotations

RELEVANCE_SCORE = "relevance"
"""Score key read as upstream relevance when no relevance scorer is configured."""

UPSTREAM_SCORE = "upstream"
"""Score key of the score a document came with (a retriever's similarity, a ``relevance_score``
in its metadata, a CLI line's ``score``), written by the adapters whenever the document has one
and kept whatever relevance is fused: the surfaces replace the document's own score with the fused
one, and a relevance scorer does not read it. The breakdown shows it as ``upstream_score``."""

RANK_SCORE = "relevance.rank"
"""Score key of relevance taken from the incoming order (``(n - i) / n``), which the adapters write
for the ``rank`` relevance mode. It says nothing about topic, so the relevance window then reads
the candidates' text (query-term coverage) when they have any."""

ON_TOPIC_SCORE = "relevance.on_topic"
"""Score key of a relevance scorer's on-topic share (BM25: query-term coverage), when it has one."""

ENCODED_SCORE = "relevance.encoded"
"""Score key saying whether the encoder read the candidate (1) or its words decided its relevance
(0), written when the relevance scorer encodes only some candidates (cascade relevance). The
breakdown shows it as ``relevance_decided_by`` (``encoded`` or ``lexical``)."""

RELEVANCE_NORM_SCORE = "relevance.norm"
"""Score key of the relevance the reranker fused, normalized by the policy's ``normalize``."""

AUTHORITY_SCORE = "authority"
"""Score key of the source's recognition (:attr:`AuthorityDetail.authority`), when known."""

CREDIBILITY_SCORE = "credibility"
"""Score key of the source's reporting reliability (:attr:`AuthorityDetail.credibility`), when known."""

TRUST_SCORE = "trust"
"""Score key of the trust value (:mod:`authorag.trust`) on every candidate the reranker writes."""

AUTHORITY_SIGNAL_SCORE = "authority.signal"
"""Score key of the source value the reranker fused (trust or the blend, with suitability when
configured); ``min_authority`` filters on it."""

SUITABILITY_SCORE = "suitability"
"""Score key of the suitability of a candidate's source type for the query's topic."""

SOURCE_TYPE_CONFIDENCE_SCORE = "source_type.confidence"
"""Score key of the source-type classifier's confidence."""

FUSED_SCORE = "fused"
"""Score key of the fused value the reranker orders by (the adapters' and the server's score)."""

__all__ = ["AUTHORITY_SCORE", "AUTHORITY_SIGNAL_SCORE", "CREDIBILITY_SCORE", "ENCODED_SCORE", "FUSED_SCORE",
           "ON_TOPIC_SCORE", "RANK_SCORE", "RELEVANCE_NORM_SCORE", "RELEVANCE_SCORE", "SOURCE_TYPE_CONFIDENCE_SCORE",
           "SUITABILITY_SCORE", "TRUST_SCORE", "UPSTREAM_SCORE"]
