"""The bundled demo: one TREC HM 2019 health question, 10 real pages of mixed credibility.

Shows three orders with the per-signal breakdown and the NIST credibility label of each page:
relevance only (authority weight 0), the configured fusion, and the paper's authority filter
(keep the top 5 by authority, then order them by the fused score). Then it says in plain words
which pages moved and why, and what the columns mean.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from authorag.policy import RerankPolicy
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import FUSED_SCORE, TRUST_SCORE
from authorag.trust import TrustRule, trust_rule_for
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate, Ranking

EXAMPLE = "trec_hm2019_topic6.jsonl"
FILTER_K = 5

SOURCE_WORDS = {
    "cred1": "the CRED-1 list",
    "ut1_fakenews": "UT1's fake-news list",
    "wikipedia_perennial": "Wikipedia's perennial sources list",
    "allow_list": "your allow list",
}
"""Plain words for the credibility sources a reason names."""

LEGEND = (
    "Columns: relevance = BM25 (or the configured relevance) relative to the best page that is not "
    "keyword-stuffed, 1.00 = best; "
    f"trust = how far the source can be trusted, 0-1 ({UNKNOWN_LEVEL:.2f} = nothing known, below = evidence "
    "against it, above = evidence for it; the evidence is named under What changed); tier = who set the trust "
    "(table: the shipped domain table, page: evidence from the page's URL and text, judge: the LLM judge, "
    "hosted: a user's page on a hosting platform, unknown: nobody); fused = the score of the order "
    "(on-topic pages from 0.50 up); NIST cred. and stance = the TREC assessors' labels, which the "
    "reranker never sees."
)


@dataclass(frozen=True, slots=True)
class DemoResult:
    """The three orders of the bundled example, computed (printing is :func:`print_demo`)."""

    header: dict[str, Any]
    before: Ranking
    after: Ranking
    filtered: Ranking


def load_example(name: str = EXAMPLE) -> tuple[dict[str, Any], list[Candidate]]:
    """The example's header (query, gold answer) and its candidates (labels in metadata)."""
    text = resources.files("authorag.data").joinpath("examples").joinpath(name).read_text(encoding="utf-8")
    lines = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    header = lines[0]["_example"]
    cands = [Candidate.create(r["url"], r["text"], id=r["id"],
                              metadata={"nist_credibility": r["nist_credibility"], "stance": r["stance"]})
             for r in lines[1:]]
    return header, cands


class ScoredOnce:
    """An :class:`~authorag.priors.base.AuthorityScorer` that answers with the details one scoring
    of the example gave (by candidate id): the three orders show the same tier and trust for a
    page, and a judge is asked once per page, whatever its budget or timing."""

    def __init__(self, name: str, details: dict[str, AuthorityDetail]) -> None:
        self.name = name
        self.details = details

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """The remembered detail of each candidate."""
        return [self.details[str(c.id)] for c in candidates]


def compute_demo(reranker: AuthorityReranker) -> DemoResult:
    """Rank the bundled example three ways from one scoring of its pages (the scoring, and any
    judge calls, happen here, once)."""
    header, cands = load_example()
    details = reranker.scorer.score(cands)
    once = AuthorityReranker(ScoredOnce(reranker.scorer.name, {str(c.id): d for c, d in zip(cands, details)}),
                             relevance=reranker.relevance, policy=reranker.policy, suitability=reranker.suitability)
    before = once.rerank(header["query"], cands, weight=0.0, mode="rerank", top_k=None)
    after = once.rerank(header["query"], cands)
    filtered = once.rerank(header["query"], cands, mode="filter", top_k=FILTER_K)
    return DemoResult(header, before, after, filtered)


def trust_tier(c: Candidate, rule: TrustRule) -> str:
    """The tier that set the candidate's trust: ``page`` when page evidence did (it outranks the
    authority a judge or the learned prior gave the domain), else the detail's tier."""
    auth = c.authority
    if auth is None:
        return "-"
    return "page" if rule.of(auth).reason == "page evidence" else auth.tier


def judge_note(result: DemoResult, rule: TrustRule) -> str | None:
    """What the LLM judge did in this run, in plain words; None when no page was judged."""
    judged = [c for c in result.after.candidates if c.authority is not None and c.authority.tier == "judge"]
    if not judged:
        return None
    decided = [c.domain or c.url for c in judged if trust_tier(c, rule) == "judge"]
    return (f"LLM judge: rated {len(judged)} of {len(result.after.candidates)} pages; it set the trust of "
            f"{len(decided)}{': ' + ', '.join(decided) if decided else ''}. Where page evidence reads a page, "
            "it sets the trust and the judge's rating of the domain is kept in the breakdown only.")


def why(c: Candidate, rule: TrustRule) -> str:
    """The trust reason of a ranked candidate in plain words (``credible: an institutional ...``)."""
    auth = c.authority
    if auth is None:
        return "unknown"
    reason = rule.of(auth).reason
    if reason == "page evidence":
        note = auth.note or ""
        at = note.find("strongest layer ")
        return f"page evidence, strongest: {note[at + 16:]}" if at >= 0 else reason
    names = [_source_words(s.name, c.domain or "") for s in auth.credibility_sources if not s.name.startswith("page")]
    if names and reason in ("credible", "mixed credibility", "low credibility"):
        return f"{reason}: {', '.join(dict.fromkeys(names))}"
    return reason


def _source_words(name: str, domain: str) -> str:
    if name == "suffix_rule":
        labels = domain.split(".")
        return f"the institutional suffix .{'.'.join(labels[1:] if len(labels) > 2 else labels[-1:])}"
    return SOURCE_WORDS.get(name, name)


def _trust(c: Candidate) -> float:
    return float(c.scores.get(TRUST_SCORE, UNKNOWN_LEVEL))


def _table(title: str, ranking: Ranking, rule: TrustRule, before: Ranking | None = None) -> Table:
    t = Table(title=title, title_justify="left")
    cols = ["#", "domain", "NIST cred.", "stance", "relevance", "trust", "tier", "fused"]
    if before is not None:
        cols.append("moved")
    for col in cols:
        t.add_column(col)
    was = {} if before is None else {c.id: i for i, c in enumerate(before.candidates, start=1)}
    for i, c in enumerate(ranking.candidates, start=1):
        row = [str(i), c.domain or c.url, "credible" if c.metadata["nist_credibility"] else "not credible",
               str(c.metadata["stance"]), f"{c.scores['relevance.norm']:.2f}", f"{_trust(c):.2f}",
               trust_tier(c, rule), f"{c.scores['fused']:.3f}"]
        if before is not None:
            delta = was[c.id] - i
            row.append("=" if delta == 0 else f"up {delta}" if delta > 0 else f"down {-delta}")
        t.add_row(*row)
    return t


def _summary(ranking: Ranking, gold: str, k: int = 3) -> str:
    top = ranking.candidates[:k]
    credible = sum(int(c.metadata["nist_credibility"]) for c in top)
    agree = sum(c.metadata["stance"] == gold for c in top)
    return f"top {k}: {credible}/{k} credible, {agree}/{k} agree with the correct answer ({gold})"


def describe_policy(policy: RerankPolicy) -> str:
    """The policy in one line of plain words."""
    if policy.fusion == "window":
        text = (f"window fusion: pages from {policy.on_topic:g} of the best relevance are on topic and come "
                f"first, ordered by {1 - policy.weight:g} x relevance + {policy.weight:g} x "
                f"{'trust' if policy.signal == 'trust' else 'the blended source signal'}; "
                "the rest follow in relevance order")
    else:
        text = f"{policy.fusion} fusion, source weight {policy.weight:g}, signal {policy.signal}"
    extras = [f"{k}={v}" for k, v in (("allow", policy.allow), ("deny", policy.deny)) if v]
    return text + (f" ({', '.join(extras)})" if extras else "")


def moves(result: DemoResult, policy: RerankPolicy, k: int = 3) -> list[str]:
    """Plain-words lines for the pages that entered or left the top ``k``, or moved 3 places or more."""
    rule = trust_rule_for(policy.unknown_level)
    was = {c.id: i for i, c in enumerate(result.before.candidates, start=1)}
    lines: list[str] = []
    for i, c in enumerate(result.after.candidates, start=1):
        old = was[c.id]
        if not ((i <= k) != (old <= k) or abs(old - i) >= 3):
            continue
        on = c.scores[FUSED_SCORE] >= 0.5
        verb = "rose" if i < old else "fell"
        topic = f"{'on' if on else 'off'} topic (relevance {c.scores['relevance.norm']:.2f} of the best)"
        lines.append(f"{c.domain} {verb} from {old} to {i}: {topic}, trust {_trust(c):.2f} ({why(c, rule)})")
    return lines


def print_demo(reranker: AuthorityReranker, result: DemoResult, out: IO[str]) -> None:
    """Print the three orders, what moved and why, the summary and the column legend."""
    header, p = result.header, reranker.policy
    console = Console(file=out, width=120)
    relevance = "upstream scores" if reranker.relevance is None else reranker.relevance.name
    console.print(f"[bold]query:[/bold] {header['query']}  (correct answer: {header['gold_answer']})")
    console.print(f"scorer: {reranker.scorer.name}; relevance: {relevance}")
    console.print(f"policy: {describe_policy(p)}")
    console.print()
    rule = trust_rule_for(p.unknown_level)
    console.print(_table("before: relevance only (what the retriever gave)", result.before, rule))
    console.print(_table("after: relevance and trust (authorag's default)", result.after, rule, result.before))
    console.print(_table(f"after: authority filter (the {FILTER_K} most trusted, then the fused order)",
                         result.filtered, rule, result.before))
    console.print("[bold]What changed[/bold] (relevance only -> relevance and trust):")
    for line in moves(result, p) or ["no page entered or left the top 3"]:
        console.print(f"- {line}", soft_wrap=True)
    console.print()
    console.print("relevance only     " + _summary(result.before, header["gold_answer"]))
    console.print("fusion             " + _summary(result.after, header["gold_answer"]))
    console.print("authority filter   " + _summary(result.filtered, header["gold_answer"]))
    note = judge_note(result, rule)
    if note is not None:
        console.print(note, soft_wrap=True)
    console.print()
    console.print(LEGEND, soft_wrap=True)


def run_demo(reranker: AuthorityReranker, out: IO[str]) -> int:
    """Compute and print the demo (see :func:`print_demo`); returns 0."""
    print_demo(reranker, compute_demo(reranker), out)
    return 0
