"""RAGAuth-open protocol: filters × top-k, scored generator-free and (optionally) by an LLM.

As in AuthorityBench's RAGAuth, the baseline and three filters are:

* ``none``: no filter, **all** documents of the instance (the same for every k; the paper's
  "w/o filter" column);
* ``relevance``: top-k by a relevance scorer on the question (the judges' LLM RelevanceJudge,
  one ListJudge-PointScore call over URL + text, as in the paper; or BM25 / dense without a model);
* ``utility``: top-k by the judges' LLM UtilityJudge (one ListJudge-PointScore call over URL + text
  with a neutral pseudo-answer; the paper's prompt set writes one per document in the same call),
  or by the NIST usefulness grade (``label``, a stand-in that needs no model);
* ``authority``: top-k by the benchmarked method's authority score (unknown sources get the
  reranker's default 0.3), i.e. ``AuthorityReranker(mode="filter", top_k=k)``'s order. The paper's
  authority filter is ``judge-list-score``: one ListJudge-PointScore call over the URL list only.

Ties keep the instance order (stable sort). Scores: (a) generator-free = majority stance of the
kept documents vs the gold answer, ties ½ (a proxy that needs no model); (b) an LLM generator
answers yes/no from the kept documents' URL + text (logprob of "yes" vs "no", same prompt for
every filter; the local model by default, any OpenAI-compatible model with ``--backend openai``).

Example:
    >>> keep_top([0.2, 0.9, 0.9, 0.1], 2)
    [1, 2]
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from authorag.benchmarks.metrics import (
    bootstrap_ci,
    cluster_bootstrap_ci,
    mean,
    stance_majority_score,
)
from authorag.benchmarks.rag.tasks import RagInstance
from authorag.benchmarks.tasks import BenchItem
from authorag.errors import ConfigError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.relevance.dense import LEAD_TOKENS, DenseRelevance
from authorag.types import UNKNOWN_LEVEL, Candidate

FILTERS = ("none", "relevance", "utility", "authority")
TOP_KS = (1, 3, 5)
GENERATOR_TEXT_BUDGET = 400
GENERATOR_PROMPT_VERSION = "rag_yesno_v1"
_SYSTEM = ("You answer health questions with a single word, yes or no, using only the documents "
           "you are given.")


def keep_top(scores: Sequence[float], k: int) -> list[int]:
    """Indices of the k highest scores, ties in input order."""
    return sorted(range(len(scores)), key=lambda i: -scores[i])[:k]


DocScorer = Callable[[RagInstance], list[float]]
"""Scores an instance's documents for the relevance / utility filters (higher kept first)."""


def _cands(instance: RagInstance) -> list[Candidate]:
    return [Candidate.create(d.url, text=d.text, id=d.key) for d in instance.documents]


def usefulness_label(instance: RagInstance) -> list[float]:
    """The NIST usefulness grade (1 or 2): the label stand-in for a utility judge."""
    return [float(d.meta["usefulness"]) for d in instance.documents]


class JudgeDocScorer:
    """An LLM relevance/utility judge as a :data:`DocScorer` (skipped documents score 0)."""

    def __init__(self, judge: Any) -> None:
        self.judge = judge
        self.stats: dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cache_hits": 0,
                                        "parse_failures": 0}

    def __call__(self, instance: RagInstance) -> list[float]:
        run = self.judge.judge_query(instance.question, _cands(instance))
        for key, value in run.cost.to_dict().items():
            if key in self.stats:
                self.stats[key] += value
        self.stats["parse_failures"] += run.parse_failures
        return [0.0 if sc.score is None else float(sc.score) for sc in run.scores]


def cached_dense(max_tokens: int | None = LEAD_TOKENS) -> DenseRelevance:
    """The benchmarks' dense scorer (the reranker's ``relevance.dense``, MiniLM cosine of each
    page's first ``max_tokens`` tokens; None: the model's own window), one per process and
    setting, never forgetting an embedding: the RAG filter, the rerank grid and the rerank tracks,
    every method and input order, reuse the same cosines."""
    return _dense(max_tokens)  # one cache key per setting, however the argument is passed


@cache
def _dense(max_tokens: int | None) -> DenseRelevance:
    return DenseRelevance(cache_size=None, max_tokens=max_tokens)


def make_doc_scorer(name: str, backend: LLMBackend | None, prompt_set: str = "authorag",
                    dense_max_tokens: int | None = LEAD_TOKENS) -> DocScorer:
    """``bm25`` | ``dense`` (relevance; dense reads each page's first ``dense_max_tokens`` tokens,
    None: the model's own window), ``label`` (NIST usefulness), ``llm-relevance`` |
    ``llm-utility`` (the judges' RelevanceJudge / UtilityJudge on ``backend``, in ``prompt_set``)."""
    if name == "label":
        return usefulness_label
    if name in ("bm25", "dense"):
        from authorag.relevance.registry import load_relevance

        scorer = cached_dense(dense_max_tokens) if name == "dense" else load_relevance(name)
        assert scorer is not None
        return lambda inst: [float(v) for v in scorer.score(inst.question, _cands(inst))]
    if name in ("llm-relevance", "llm-utility"):
        if backend is None:
            raise ConfigError(f"{name} needs --backend (local, openai or fake)")
        from authorag.judges.registry import load_judge

        return JudgeDocScorer(load_judge(name.removeprefix("llm-"), backend, on_failure="skip", prompt_set=prompt_set))
    raise ConfigError(f"document scorer must be one of bm25, dense, label, llm-relevance, llm-utility; got {name!r}")


def filter_orders(instance: RagInstance, authority: Sequence[float | None],
                  relevance: Sequence[float], utility: Sequence[float]) -> dict[str, list[float]]:
    """Per filter, the score each document is ranked by (higher kept first); ``none`` keeps all."""
    return {
        "none": [1.0] * len(instance.documents),
        "relevance": list(relevance),
        "utility": list(utility),
        "authority": [UNKNOWN_LEVEL if a is None else a for a in authority],
    }


def _doc_block(docs: Sequence[BenchItem]) -> str:
    from authorag.judges.items import shorten

    return "\n\n".join(f"[{n}] Source: {d.url}\n{shorten(d.text, GENERATOR_TEXT_BUDGET)}"
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
                                        "completion_tokens": 0, "parse_failures": 0, "latency_s": 0.0,
                                        "backend_cache_hits": 0}

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
        self.stats["backend_cache_hits"] += int(completion.cached)
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


def topic_clustered_ci(values: Sequence[float], topics: Sequence[int], seed: int = 0) -> tuple[float, float]:
    """Bootstrap 95 % CI of the mean over instances, resampling whole topics (seeded).

    Example:
        >>> topic_clustered_ci([1.0, 1.0, 0.0], [7, 7, 9])
        (0.0, 1.0)
    """
    by_topic: dict[int, list[float]] = {}
    for v, t in zip(values, topics, strict=True):
        by_topic.setdefault(t, []).append(v)
    clusters = list(by_topic.values())
    return cluster_bootstrap_ci(clusters, lambda cs: mean([v for c in cs for v in c]), seed=seed)


def _cis(values: Mapping[str, Mapping[int, list[float]]], seed: int,
         topics: Sequence[int] | None = None) -> dict[str, dict[str, list[float]]]:
    """Bootstrap 95 % CI for every filter × k: over instances, or over topics when given."""
    def ci(v: list[float]) -> list[float]:
        return list(bootstrap_ci(v, seed=seed) if topics is None else topic_clustered_ci(v, topics, seed))

    return {f: {str(k): ci(v) for k, v in ks.items() if v} for f, ks in values.items()}


def run_rag(instances: Sequence[RagInstance], authority: Callable[[Sequence[BenchItem]], list[float | None]],
            *, relevance: DocScorer, utility: DocScorer = usefulness_label,
            generator: YesNoGenerator | None = None, seed: int = 0, ci_by_topic: bool = False,
            keep_units: bool = False, progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Evaluate every filter × k on ``instances``; returns generator-free (and generator) accuracy.

    ``ci_by_topic`` resamples whole topics for the CIs (instances of one topic share documents);
    ``keep_units`` records the authority filter's score per instance and k under ``units``.
    """
    topics = [inst.topic_id for inst in instances] if ci_by_topic else None
    free: dict[str, dict[int, list[float]]] = {f: {k: [] for k in TOP_KS} for f in FILTERS}
    gen: dict[str, dict[int, list[float]]] = {f: {k: [] for k in TOP_KS} for f in FILTERS}
    p_yes: dict[str, dict[int, list[float]]] = {f: {k: [] for k in TOP_KS} for f in FILTERS}
    known = total = 0
    for inst in instances:
        auth = authority(inst.documents)
        known += sum(a is not None for a in auth)
        total += len(auth)
        orders = filter_orders(inst, auth, relevance(inst), utility(inst))
        for name, scores in orders.items():
            for k in TOP_KS:
                kept = list(inst.documents) if name == "none" else [inst.documents[i] for i in keep_top(scores, k)]
                free[name][k].append(stance_majority_score([int(d.meta["stance"]) for d in kept], inst.gold))
                if generator is not None:
                    p = generator.p_yes(inst.question, kept)
                    gen[name][k].append(answer_score(p, inst.gold))
                    p_yes[name][k].append(0.5 if p is None else p)
        progress()
    out: dict[str, Any] = {
        "n_instances": len(instances),
        "authority_coverage": known / total if total else 0.0,
        "generator_free": {f: {str(k): mean(v) for k, v in ks.items()} for f, ks in free.items()},
        "generator_free_ci": _cis(free, seed, topics),
        "ci_unit": "topic" if ci_by_topic else "instance",
        "n_topics": len({inst.topic_id for inst in instances}),
        "all_documents": mean([stance_majority_score([int(d.meta["stance"]) for d in i.documents], i.gold)
                               for i in instances]),
    }
    if keep_units:
        out["units"] = {"topics": [inst.topic_id for inst in instances],
                        **{f"k{k}": list(free["authority"][k]) for k in TOP_KS}}
    if generator is not None:
        out["generator"] = {f: {str(k): mean(v) for k, v in ks.items()} for f, ks in gen.items()}
        out["generator_ci"] = _cis(gen, seed, topics)
        # a generator that always says yes (or no) shows here: its mean P(yes) barely moves
        out["generator_mean_p_yes"] = {f: {str(k): mean(v) for k, v in ks.items()} for f, ks in p_yes.items()}
        out["generator_stats"] = dict(generator.stats)
        out["generator_prompt_version"] = GENERATOR_PROMPT_VERSION
    return out
