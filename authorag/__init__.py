"""authorag: authority-aware reranking for RAG.

Score how far the source of each retrieved candidate can be trusted (shipped domain priors with
credibility evidence, page evidence, a learned prior, LLM judges) and let trust decide among the
candidates that are on topic.

Example:
    >>> from authorag import AuthorityReranker, Candidate, load_scorer
    >>> reranker = AuthorityReranker(load_scorer())  # the one composition every surface uses
    >>> ranking = reranker.rerank("q", [Candidate.create("https://flu-cure.example.biz", scores={"relevance": 0.5}),
    ...                                 Candidate.create("https://www.cdc.gov/flu", scores={"relevance": 0.4})])
    >>> ranking.candidates[0].domain
    'cdc.gov'
"""
from __future__ import annotations

from authorag.compose import ScorerSettings, load_scorer
from authorag.domains import ParsedHost, parse_host, registrable_domain
from authorag.errors import (
    AuthoragError,
    ConfigError,
    InvalidURLError,
    JudgeError,
    JudgeResponseError,
    MissingDependencyError,
    PriorUnavailable,
)
from authorag.judges import ListJudge, PairJudge, PointJudge, load_judge
from authorag.judges.backends import load_backend
from authorag.policy import RerankPolicy
from authorag.priors import (
    AuthorityScorer,
    LearnedPrior,
    PriorTable,
    load_learned_prior,
    load_prior,
)
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.registry import load_relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.base import Reranker
from authorag.tiers.hybrid import HybridAuthority, build_hybrid
from authorag.tiers.tiered import TieredAuthority
from authorag.types import AuthorityDetail, Candidate, Ranking, SourceValue, candidates_from

__version__ = "0.1.0"

__all__ = [
    "AuthoragError",
    "AuthorityDetail",
    "AuthorityReranker",
    "AuthorityScorer",
    "Candidate",
    "ConfigError",
    "HybridAuthority",
    "InvalidURLError",
    "JudgeError",
    "JudgeResponseError",
    "LearnedPrior",
    "ListJudge",
    "MissingDependencyError",
    "PairJudge",
    "ParsedHost",
    "PointJudge",
    "PriorTable",
    "PriorUnavailable",
    "Ranking",
    "RelevanceScorer",
    "RerankPolicy",
    "Reranker",
    "ScorerSettings",
    "SourceValue",
    "TieredAuthority",
    "__version__",
    "build_hybrid",
    "candidates_from",
    "load_backend",
    "load_judge",
    "load_learned_prior",
    "load_prior",
    "load_relevance",
    "load_scorer",
    "parse_host",
    "registrable_domain",
]
