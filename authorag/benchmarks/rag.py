"""RAGAuth-open protocol: filters × top-k, scored generator-free and (optionally) by an LLM.

Filters keep k documents of an instance:

* ``none``: the first k in the instance's fixed shuffled order (what an unfiltered pipeline sees);
* ``relevance``: top-k by a relevance scorer on the question (BM25 by default);
* ``utility``: top-k by the NIST usefulness grade (a label stand-in for an LLM utility judge);
* ``authority``: top-k by the benchmarked method's authority score (unknown sources get the
  reranker's default 0.3), i.e. ``AuthorityReranker(mode="filter", top_k=k)``'s order.

Ties keep the instance order (stable sort). Scores: (a) generator-free = majority stance of the
kept documents vs the gold answer, ties ½; (b) an LLM generator answers yes/no from the kept
documents (logprob of "yes" vs "no", same prompt for every filter).

Example:
    >>> keep_top([0.2, 0.9, 0.9, 0.1], 2)
    [1, 2]
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from authorag.benchmarks.metrics import mean, stance_majority_score
from authorag.benchmarks.protocols import UNKNOWN_FILL
from authorag.benchmarks.rag_tasks import RagInstance
from authorag.benchmarks.tasks import BenchItem
from authorag.errors import ConfigError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.types import Candidate

FILTERS = ("none", "relevance", "utility", "authority")
TOP_KS = (1, 3, 5)
GENERATOR_TEXT_BUDGET = 500
GENERATOR_PROMPT_VERSION = "rag_yesno_v1"
_SYSTEM = ("You answer health questions with a single word, yes or no, using only the documents "
           "you are given.")


def keep_top(scores: Sequence[float], k: int) -> list[int]:
    """Indices of the k highest scores, ties in input order."""
    return sorted(range(len(scores)), key=lambda i: -scores[i])[:k]


def relevance_scores(instance: RagInstance, scorer_name: str) -> list[float]:
    """Relevance of each document to the question (``bm25`` or ``dense``)."""
    cands = [Candidate.create(d.url, text=d.text, id=d.key) for d in instance.documents]
    if scorer_name == "bm25":
        from authorag.rerankers.bm25 import BM25Relevance

        return list(BM25Relevance().score(instance.question, cands))
    if scorer_name == "dense":
        from authorag.rerankers.dense import DenseRelevance

        return list(DenseRelevance().score(instance.question, cands))
    raise ConfigError(f"relevance scorer must be 'bm25' or 'dense', got {scorer_name!r}")


def filter_orders(instance: RagInstance, authority: Sequence[float | None],
                  relevance: Sequence[float]) -> dict[str, list[float]]:
    """Per filter, the score each document is ranked by (higher kept first)."""
    n = len(instance.documents)
    return {
        "none": [float(n - i) for i in range(n)],
        "relevance": list(relevance),
        "utility": [float(d.meta["usefulness"]) for d in instance.documents],
        "authority": [UNKNOWN_FILL if a is None else a for a in authority],
    }


def _doc_block(docs: Sequence[BenchItem]) -> str:
    from authorag.judges.items import truncate

    return "\n\n".join(f"[{n}] Source: {d.url}\n{truncate(d.text, GENERATOR_TEXT_BUDGET)}"
                       for n, d in enumerate(docs, 1))


def generator_request(question: str, docs: Sequence[BenchItem]) -> ChatRequest:
    """The one prompt used for every filter: documents first, the question last."""
    user = f"Documents:\n\n{_doc_block(docs)}\n\nQuestion: {question}\nAnswer yes or no."
    return ChatRequest(messages=[{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}],
                       max_tokens=1, logprobs=True, top_logprobs=20)


def yes_probability(top: Mapping[str, float], text: str) -> float | None:
    """P(yes) / (P(yes) + P(no)) from first-token logprobs; greedy text as fallback; else None.

    Example:
        >>> round(yes_probability({"Yes": math.log(0.6), "no": math.log(0.2)}, "Yes"), 2)
        0.75
    """
    yes = sum(math.exp(v) for k, v in top.items() if k.strip().lower() == "yes")
    no = sum(math.exp(v) for k, v in top.items() if k.strip().lower() == "no")
    if yes + no > 0.0:
        return yes / (yes + no)
    word = text.strip().lower()
    return 1.0 if word.startswith("yes") else 0.0 if word.startswith("no") else None


class YesNoGenerator:
    """Answers yes/no from kept documents with any LLM backend (cached per prompt)."""

    def __init__(self, backend: LLMBackend) -> None:
        self.backend = backend
        self._cache: dict[str, float | None] = {}
        self.stats: dict[str, float] = {"calls": 0, "cache_hits": 0, "prompt_tokens": 0,
                                        "completion_tokens": 0, "parse_failures": 0, "latency_s": 0.0}

    def p_yes(self, question: str, docs: Sequence[BenchItem]) -> float | None:
        """Probability the model answers yes (None when its answer is unreadable)."""
        request = generator_request(question, docs)
        key = request.messages[-1]["content"]
        if key in self._cache:
            self.stats["cache_hits"] += 1
            return self._cache[key]
        completion = self.backend.complete(request)
        self.stats["calls"] += 1
        self.stats["prompt_tokens"] += completion.prompt_tokens
        self.stats["completion_tokens"] += completion.completion_tokens
        self.stats["latency_s"] += completion.latency_s
        top = completion.logprobs[0].top if completion.logprobs else {}
        value = yes_probability(top, completion.text)
        if value is None:
            self.stats["parse_failures"] += 1
        self._cache[key] = value
        return value


def answer_score(p_yes: float | None, gold: int) -> float:
    """1 right, 0 wrong, ½ for an undecided (p = 0.5) or unreadable answer."""
    if p_yes is None or p_yes == 0.5:
        return 0.5
    return 1.0 if (p_yes > 0.5) == (gold == 1) else 0.0


def run_rag(instances: Sequence[RagInstance], authority: Callable[[Sequence[BenchItem]], list[float | None]],
            *, relevance: str = "bm25", generator: YesNoGenerator | None = None,
            progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Evaluate every filter × k on ``instances``; returns generator-free (and generator) accuracy."""
    free: dict[str, dict[int, list[float]]] = {f: {k: [] for k in TOP_KS} for f in FILTERS}
    gen: dict[str, dict[int, list[float]]] = {f: {k: [] for k in TOP_KS} for f in FILTERS}
    known = total = 0
    for inst in instances:
        auth = authority(inst.documents)
        known += sum(a is not None for a in auth)
        total += len(auth)
        orders = filter_orders(inst, auth, relevance_scores(inst, relevance))
        for name, scores in orders.items():
            for k in TOP_KS:
                kept = [inst.documents[i] for i in keep_top(scores, k)]
                free[name][k].append(stance_majority_score([int(d.meta["stance"]) for d in kept], inst.gold))
                if generator is not None:
                    gen[name][k].append(answer_score(generator.p_yes(inst.question, kept), inst.gold))
        progress()
    out: dict[str, Any] = {
        "n_instances": len(instances), "relevance_scorer": relevance, "utility_source": "nist_usefulness_label",
        "authority_coverage": known / total if total else 0.0,
        "generator_free": {f: {str(k): mean(v) for k, v in ks.items()} for f, ks in free.items()},
        "all_documents": mean([stance_majority_score([int(d.meta["stance"]) for d in i.documents], i.gold)
                               for i in instances]),
    }
    if generator is not None:
        out["generator"] = {f: {str(k): mean(v) for k, v in ks.items()} for f, ks in gen.items()}
        out["generator_stats"] = dict(generator.stats)
        out["generator_prompt_version"] = GENERATOR_PROMPT_VERSION
    return out
