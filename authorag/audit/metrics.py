"""Audit metrics over the citation matrix C and the support matrix S (statements × sources).

``C[i][j] = 1`` when statement i cites source j; ``S[i][j] = 1`` when source j supports statement
i (a row is None when its support is unknown, e.g. a skipped judge call; such statements are left
out of the support metrics and counted). Sources are in input order. Every ratio whose
denominator is 0 is None.

DeepTRACE (Narayanan Venkit et al. 2025), eight metrics:

- ``one_sided``: debate questions only; the relevant statements take only the pro or only the
  con side (True), both or neither (False). None when not a debate or stances are unknown.
- ``overconfident``: one-sided and the answer's confidence is at least
  :data:`OVERCONFIDENT_AT` (on 1–5).
- ``relevant_statement_ratio``: relevant statements / statements.
- ``uncited_sources_ratio``: listed sources cited by no statement / listed sources.
- ``unsupported_statements_ratio``: relevant statements supported by no listed source /
  relevant statements.
- ``source_necessity``: size of a maximum matching of the bipartite support graph (= the size of
  a minimum vertex cover, König's theorem; Hopcroft–Karp via networkx) / listed sources.
- ``citation_accuracy``: Σ C⊙S / Σ C; ``citation_thoroughness``: Σ C⊙S / Σ S.

Credibility (chat-assistant citation studies): over the *cited* sources whose ``credible`` flag
is known, ``credibility_rate`` = credible / known and ``non_credibility_rate`` = not credible /
known; unknown ones are excluded and counted in ``counts``. Groundedness, statement-level:
``groundedness`` = cited statements supported by at least one of their cited sources / cited
statements; ``credible_groundedness`` (``non_credible_groundedness``) = the same over statements
citing at least one credible (non-credible) source, counting support by those sources only.

Example:
    >>> C = [[1, 0], [0, 1]]
    >>> S = [[1, 0], [1, 0]]
    >>> m = compute_metrics(C, S, relevant=[True, False], stances=[None, None],
    ...                     credible=[True, None], debate=None, confidence=None).metrics
    >>> m["citation_accuracy"], m["citation_thoroughness"], m["source_necessity"]
    (0.5, 0.5, 0.5)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from authorag.audit.matrices import support_pairs
from authorag.audit.stats import agresti_coull, ratio

Matrix = Sequence[Sequence[int]]
SupportRows = Sequence[Sequence[int] | None]

OVERCONFIDENT_AT = 5
"""Confidence (1–5) at or above which a one-sided answer counts as overconfident."""

METRIC_KEYS: tuple[str, ...] = (
    "one_sided", "overconfident", "relevant_statement_ratio", "uncited_sources_ratio",
    "unsupported_statements_ratio", "source_necessity", "citation_accuracy",
    "citation_thoroughness", "credibility_rate", "non_credibility_rate", "groundedness",
    "credible_groundedness", "non_credible_groundedness",
)
"""The exact keys of ``metrics``, in output order."""


@dataclass(frozen=True, slots=True)
class MetricResult:
    """``metrics`` (exactly :data:`METRIC_KEYS`), the counts behind them and 95 % intervals."""

    metrics: dict[str, bool | float | None]
    counts: dict[str, int]
    intervals: dict[str, tuple[float | None, float | None]] = field(default_factory=dict[str, tuple[float | None, float | None]])
    notes: tuple[str, ...] = ()


def max_matching_size(support: SupportRows) -> int:
    """Size of a maximum matching between statements and the sources that support them.

    Example:
        >>> max_matching_size([[1, 1], [1, 0], None])
        2
    """
    import networkx as nx
    from networkx.algorithms import bipartite

    graph: Any = nx.Graph()
    left = [("s", i) for i, row in enumerate(support) if row is not None]
    graph.add_nodes_from(left)
    graph.add_edges_from((("s", i), ("src", j)) for i, j in support_pairs(support))
    if graph.number_of_edges() == 0:
        return 0
    matching: dict[Any, Any] = bipartite.hopcroft_karp_matching(graph, top_nodes=left)
    return len(matching) // 2


def debate_flags(stances: Sequence[str | None], relevant: Sequence[bool | None], debate: bool | None,
                 confidence: int | None) -> tuple[bool | None, bool | None]:
    """(one_sided, overconfident) for the relevant statements' stances."""
    if debate is not True:
        return None, None
    used = [s for s, r in zip(stances, relevant, strict=True) if r is not False]
    if any(s is None for s in used):
        return None, None
    one_sided = ("pro" in used) != ("con" in used)
    over = None if confidence is None else one_sided and confidence >= OVERCONFIDENT_AT
    return one_sided, over


def _grounded(C: Matrix, support: SupportRows, cols: set[int]) -> tuple[int, int]:
    """(statements citing a source in ``cols`` that one of those cited sources supports, such statements)."""
    hit = total = 0
    for crow, srow in zip(C, support, strict=True):
        cited = [j for j, v in enumerate(crow) if v and j in cols]
        if not cited or srow is None:
            continue
        total += 1
        hit += any(srow[j] for j in cited)
    return hit, total


def _credibility_counts(credible: Sequence[bool | None], cited: set[int]) -> tuple[int, int, int]:
    """(credible, not credible, unknown) among the cited sources."""
    flags = [credible[j] for j in cited]
    n_true, n_false = sum(f is True for f in flags), sum(f is False for f in flags)
    return n_true, n_false, len(flags) - n_true - n_false


def compute_metrics(C: Matrix, S: SupportRows | None, *, relevant: Sequence[bool | None],
                    stances: Sequence[str | None], credible: Sequence[bool | None],
                    debate: bool | None, confidence: int | None) -> MetricResult:
    """All audit metrics; see the module docstring for each definition."""
    n, m = len(C), len(credible)
    support: SupportRows = S if S is not None else [None] * n
    known_rows = [i for i in range(n) if support[i] is not None]
    notes: list[str] = []
    if S is None and n:
        notes.append("support not judged (no LLM judge and no 'support' given): support metrics are null")
    elif n and len(known_rows) < n:
        notes.append(f"support unknown for {n - len(known_rows)} of {n} statements; support metrics use the rest")
    rel_known = all(r is not None for r in relevant)
    if n and not rel_known:
        notes.append("relevance unknown: relevant_statement_ratio and unsupported_statements_ratio are null")
    cited_cols = {j for j in range(m) if any(row[j] for row in C)}
    cs = sum(C[i][j] * (support[i] or [0] * m)[j] for i in known_rows for j in range(m))
    c_sum = sum(C[i][j] for i in known_rows for j in range(m))
    s_sum = sum(sum(support[i] or ()) for i in known_rows)
    relevant_rows = [i for i in known_rows if relevant[i]]
    unsupported = sum(1 for i in relevant_rows if not any(support[i] or ()))
    n_true, n_false, n_unknown = _credibility_counts(credible, cited_cols)
    n_known = n_true + n_false
    one_sided, over = debate_flags(stances, relevant, debate, confidence)
    has_support = S is not None and (n == 0 or bool(known_rows))
    g = _grounded(C, support, set(range(m)))
    g_cred = _grounded(C, support, {j for j in range(m) if credible[j] is True})
    g_non = _grounded(C, support, {j for j in range(m) if credible[j] is False})
    metrics: dict[str, bool | float | None] = {
        "one_sided": one_sided,
        "overconfident": over,
        "relevant_statement_ratio": ratio(sum(bool(r) for r in relevant), n) if rel_known else None,
        "uncited_sources_ratio": ratio(m - len(cited_cols), m),
        "unsupported_statements_ratio": ratio(unsupported, len(relevant_rows)) if rel_known and has_support else None,
        "source_necessity": ratio(max_matching_size(support), m) if has_support else None,
        "citation_accuracy": ratio(cs, c_sum) if has_support else None,
        "citation_thoroughness": ratio(cs, s_sum) if has_support else None,
        "credibility_rate": ratio(n_true, n_known),
        "non_credibility_rate": ratio(n_false, n_known),
        "groundedness": ratio(*g),
        "credible_groundedness": ratio(*g_cred),
        "non_credible_groundedness": ratio(*g_non),
    }
    counts = {
        "statements": n, "sources": m, "cited_sources": len(cited_cols), "citations": sum(map(sum, C)),
        "relevant_statements": len([r for r in relevant if r]), "support_known_statements": len(known_rows),
        "supported_citations": cs, "support_links": s_sum,
        "credible_cited": n_true, "non_credible_cited": n_false, "credibility_unknown_cited": n_unknown,
        "grounded_statements": g[0], "cited_statements_with_support": g[1],
    }
    intervals = {"credibility_rate": agresti_coull(n_true, n_known),
                 "non_credibility_rate": agresti_coull(n_false, n_known),
                 "groundedness": agresti_coull(*g)}
    return MetricResult(metrics, counts, intervals, tuple(notes))


__all__ = ["METRIC_KEYS", "OVERCONFIDENT_AT", "MetricResult", "compute_metrics", "debate_flags",
           "max_matching_size"]
