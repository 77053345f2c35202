"""Domain priors: the shipped multi-source table, suffix rules, PageRank and learned priors."""
from __future__ import annotations

from authorag.priors.base import AuthorityScorer
from authorag.priors.learned.model import LearnedPrior, load_learned_prior
from authorag.priors.pagerank import PageRankPrior, load_pagerank_prior
from authorag.priors.rules import DEFAULT_RULES, SuffixRule
from authorag.priors.sources import SOURCES, load_source
from authorag.priors.table import ExtraSource, PriorTable, load_prior

__all__ = [
    "DEFAULT_RULES",
    "SOURCES",
    "AuthorityScorer",
    "ExtraSource",
    "LearnedPrior",
    "PageRankPrior",
    "PriorTable",
    "SuffixRule",
    "load_learned_prior",
    "load_pagerank_prior",
    "load_prior",
    "load_source",
]
