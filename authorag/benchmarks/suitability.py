"""Suitability benchmarks: source-type accuracy per layer, and RAG filters with authority vs suitability.

* ``source_types_v1.csv``: 303 URLs hand-labelled with a source type by the author of the suitability classifier from
  general knowledge (not drawn from UT1 or ``known_sources.csv``; the overlap is reported).
* RAG: RAGAuth-open (TREC HM 2019, health) and ``suitability_questions_v1.csv``, a small
  **hand-made** non-health set (12 yes/no questions x 6 pages; no open data set with URLs,
  stances and non-health questions was found in the shared data or in installable packages).
  Filters keep the top-k documents by: ``none`` (instance order), ``authority`` (the shipped
  prior, unknown = 0.3), ``suitability`` (matrix, keyword topics), ``suitability+proto`` (topics
  with MiniLM prototypes), ``both`` (½ authority + ½ suitability, the reranker's default blend).
  Score: majority stance of the kept documents vs gold, ties ½ (as RAGAuth-open).

Example:
    >>> confusion([("news", "news"), ("blog", "news")])["blog"]
    {'news': 1}
"""
from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from authorag.benchmarks.metrics import bootstrap_ci, mean, percentile_interval, stance_majority_score
from authorag.benchmarks.rag.protocol import keep_top
from authorag.benchmarks.rag.tasks import RagInstance, load_rag_task
from authorag.benchmarks.tasks import BenchItem
from authorag.suitability.classifier import RULE_LAYERS, RuleLayer, SourceTypeClassifier, split_url
from authorag.suitability.lists import load_known_sources
from authorag.suitability.scorer import MatrixSuitability
from authorag.types import UNKNOWN_LEVEL, Candidate

SOURCE_TYPE_FILE = "source_types_v1.csv"
QUESTIONS_FILE = "suitability_questions_v1.csv"
TOP_KS = (1, 3, 5)
BOTH_WEIGHT = 0.5


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("authorag.benchmarks.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def confusion(pairs: Sequence[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """``{gold: {predicted: count}}`` from (gold, predicted) pairs."""
    out: dict[str, dict[str, int]] = {}
    for gold, pred in pairs:
        row = out.setdefault(gold, {})
        row[pred] = row.get(pred, 0) + 1
    return out


def _score_layers(rows: list[dict[str, str]], layers: Sequence[RuleLayer]) -> dict[str, Any]:
    clf = SourceTypeClassifier(layers=layers)
    pairs = [(r["label"], clf.classify_url(r["url"]).source_type) for r in rows]
    covered = [(g, p) for g, p in pairs if p != "unknown"]
    return {"accuracy": mean([float(g == p) for g, p in pairs]), "coverage": len(covered) / len(pairs),
            "accuracy_when_answered": mean([float(g == p) for g, p in covered]) if covered else 0.0,
            "n": len(pairs), "confusion": confusion(pairs)}


def source_type_eval() -> dict[str, Any]:
    """Accuracy, coverage and confusion matrix for each rule layer alone and all together."""
    rows = _rows(SOURCE_TYPE_FILE)
    known = load_known_sources()
    cands = [Candidate.create(r["url"]) for r in rows]
    in_curated = [any(k in known.curated for k in _keys(c)) for c in cands]
    in_any = [known.covers(c.host or "", c.domain or "") for c in cands]
    out: dict[str, Any] = {"n": len(rows), "labels": sorted({r["label"] for r in rows}),
                           "overlap": {"curated_list": sum(in_curated) / len(rows), "any_list": sum(in_any) / len(rows)}}
    out["layers"] = {name: _score_layers(rows, (name,)) for name in RULE_LAYERS if name != "text"}
    out["layers"]["all_rules"] = _score_layers(rows, RULE_LAYERS)
    out["all_rules_not_in_curated"] = _score_layers([r for r, c in zip(rows, in_curated) if not c], RULE_LAYERS)
    out["all_rules_not_in_any_list"] = _score_layers([r for r, a in zip(rows, in_any) if not a], RULE_LAYERS)
    out["note"] = ("URL-only set: the text layer is not evaluated here (no page text); "
                   "the all_rules row includes it but it never fires.")
    return out


def _summary(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Accuracy (with a 95 % bootstrap CI), coverage and confusion of (gold, predicted) pairs."""
    hits = [float(g == p) for g, p in pairs]
    answered = [(g, p) for g, p in pairs if p != "unknown"]
    return {"n": len(pairs), "accuracy": mean(hits) if hits else 0.0,
            "accuracy_ci95": list(bootstrap_ci(hits)) if hits else [0.0, 0.0],
            "coverage": len(answered) / len(pairs) if pairs else 0.0, "confusion": confusion(pairs)}


def paired_accuracy_delta(gold: Sequence[str], base: Sequence[str], other: Sequence[str], *,
                          n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """``other`` minus ``base`` accuracy on the same items, with a paired percentile bootstrap 95 % CI.

    Example:
        >>> paired_accuracy_delta(["a", "b"], ["a", "x"], ["a", "b"], n_boot=10)["value"]
        0.5
    """
    diffs = [float(o == g) - float(b == g) for g, b, o in zip(gold, base, other)]
    rng = random.Random(seed)
    n = len(diffs)
    boots = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(n_boot))
    return {"value": mean(diffs), "ci95": list(percentile_interval(boots))}


def llm_layer_eval(backend: Any, llm_below: float = 0.5) -> dict[str, Any]:
    """The LLM source-type layer on every hand-labelled URL, against the rule layers on the same URLs.

    Configurations: ``rules`` (all rule layers), ``llm_only`` (the model's own answer per host +
    path pattern, unknown when it abstains), ``fallback`` (the rules' type; the model's only where
    the rules say unknown) and ``hybrid`` (the classifier's configuration: the model's vote joins
    the rules' votes when their confidence is below ``llm_below``). Each has accuracy with a
    bootstrap CI; the deltas to ``rules`` are paired bootstrap CIs. One model call per host + path
    pattern (the layer's memory).
    """
    from authorag.suitability.llm import LLMSourceTypeLayer

    rows = _rows(SOURCE_TYPE_FILE)
    gold = [r["label"] for r in rows]
    rules = [SourceTypeClassifier().classify_url(r["url"]) for r in rows]
    layer = LLMSourceTypeLayer(backend)
    hybrid = SourceTypeClassifier(llm=layer, llm_below=llm_below)
    llm: list[str] = []
    for r in rows:
        c = Candidate.create(r["url"])
        vote = layer.vote(c.host, split_url(r["url"])) if c.host else None
        llm.append("unknown" if vote is None else vote[0])
    preds = {"rules": [x.source_type for x in rules], "llm_only": llm,
             "fallback": [x.source_type if x.source_type != "unknown" else m for x, m in zip(rules, llm)],
             "hybrid": [hybrid.classify_url(r["url"]).source_type for r in rows]}
    unknown = [i for i, x in enumerate(rules) if x.source_type == "unknown"]
    unsure = [i for i, x in enumerate(rules) if x.confidence < llm_below]
    out: dict[str, Any] = {"llm_below": llm_below, "n": len(rows), "n_rules_unknown": len(unknown),
                           "n_unsure": len(unsure), "llm_calls": layer.calls,
                           "backend": getattr(backend, "name", "?"), "model": getattr(backend, "model", "?")}
    for name, pred in preds.items():
        out[name] = _summary(list(zip(gold, pred)))
        if name != "rules":
            out[f"delta_{name}_vs_rules"] = paired_accuracy_delta(gold, preds["rules"], pred)
    for subset, idx in (("rules_unknown", unknown), ("unsure", unsure)):
        for name in ("rules", "llm_only"):
            out[f"{subset}_{name}"] = _summary([(gold[i], preds[name][i]) for i in idx])
    return out


def _keys(c: Candidate) -> list[str]:
    from authorag.domains import host_keys

    return list(host_keys(c.host, c.domain))


def handmade_instances(seed: int = 0) -> list[RagInstance]:
    """The hand-made non-health questions as RAG instances (documents shuffled with ``seed``)."""
    by_q: dict[str, list[dict[str, str]]] = {}
    for r in _rows(QUESTIONS_FILE):
        by_q.setdefault(r["qid"], []).append(r)
    rng = random.Random(seed)
    out: list[RagInstance] = []
    for qid, rows in by_q.items():
        docs = [BenchItem(f"{qid}-{i}", r["url"], 0, text=r["text"], meta={"stance": int(r["stance"])})
                for i, r in enumerate(rows)]
        rng.shuffle(docs)
        out.append(RagInstance(qid, 0, rows[0]["question"], rows[0]["question"], int(rows[0]["gold"]), tuple(docs)))
    return out


Scorer = Callable[[RagInstance], list[float]]


def rag_filters(prior_scores: Callable[[Sequence[BenchItem]], list[float | None]],
                suit: MatrixSuitability, suit_proto: MatrixSuitability | None,
                variants: dict[str, MatrixSuitability] | None = None) -> dict[str, Scorer]:
    """Filter name -> per-document score (higher kept first)."""
    def authority(inst: RagInstance) -> list[float]:
        return [UNKNOWN_LEVEL if a is None else a for a in prior_scores(inst.documents)]

    def suitability_of(s: MatrixSuitability) -> Scorer:
        return lambda inst: list(s.score(inst.question, [Candidate.create(d.url, d.text) for d in inst.documents]).values)

    def both(inst: RagInstance) -> list[float]:
        return [(1 - BOTH_WEIGHT) * a + BOTH_WEIGHT * s for a, s in zip(authority(inst), suitability_of(suit)(inst))]

    filters: dict[str, Scorer] = {"none": lambda inst: [float(-i) for i in range(len(inst.documents))],
                                  "authority": authority, "suitability": suitability_of(suit), "both": both}
    if suit_proto is not None:
        filters["suitability+proto"] = suitability_of(suit_proto)
    for name, variant in (variants or {}).items():
        filters[f"suitability ({name})"] = suitability_of(variant)
    return filters


def types_vs_credibility(instances: Sequence[RagInstance], clf: SourceTypeClassifier) -> dict[str, Any]:
    """Per predicted source type: pages and mean NIST credibility (RAGAuth-open pages, each once)."""
    docs = {d.url: d for inst in instances for d in inst.documents}
    by_type: dict[str, list[int]] = {}
    layers: dict[str, int] = {}
    for url, d in docs.items():
        r = clf.classify(Candidate.create(url, d.text))
        by_type.setdefault(r.source_type, []).append(d.level)
        layers[r.layer] = layers.get(r.layer, 0) + 1
    return {"pages": len(docs), "deciding_layer": layers,
            "by_type": {t: {"pages": len(v), "mean_credibility": mean([float(x) for x in v])}
                        for t, v in sorted(by_type.items(), key=lambda kv: -len(kv[1]))}}


def rag_eval(instances: Sequence[RagInstance], filters: dict[str, Scorer], suit: MatrixSuitability) -> dict[str, Any]:
    """Generator-free accuracy per filter and k, plus the topics the classifier gave."""
    acc: dict[str, dict[str, list[float]]] = {f: {str(k): [] for k in TOP_KS} for f in filters}
    for inst in instances:
        for name, fn in filters.items():
            scores = fn(inst)
            for k in TOP_KS:
                kept = [inst.documents[i] for i in keep_top(scores, k)]
                acc[name][str(k)].append(stance_majority_score([int(d.meta["stance"]) for d in kept], inst.gold))
    topics = _topic_counts(instances, suit)
    return {"n_instances": len(instances), "accuracy": {f: {k: mean(v) for k, v in ks.items()} for f, ks in acc.items()},
            "accuracy_ci95": {f: {k: list(bootstrap_ci(v, seed=0)) for k, v in ks.items()} for f, ks in acc.items()},
            "question_topics": topics}


def _topic_counts(instances: Sequence[RagInstance], suit: MatrixSuitability) -> dict[str, int]:
    counts: dict[str, int] = {}
    for q in sorted({i.question for i in instances}):
        t = suit.topics.classify(q).topic
        counts[t] = counts.get(t, 0) + 1
    return counts


def run_all(prototypes: bool = True) -> dict[str, Any]:
    """Every suitability benchmark (the command: ``python scripts/bench_suitability.py``)."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.suitability.scorer import load_suitability

    prior = build_method("prior", MethodContext(task_family="ragauth", label_source=None, item_kind="document"))
    suit = load_suitability()
    proto = load_suitability(prototypes=True) if prototypes else None
    variants = {"URL layers only": MatrixSuitability(
                    classifier=SourceTypeClassifier(layers=("suffix", "list", "platform", "path"))),
                "text layer reads 5,000 chars": MatrixSuitability(classifier=SourceTypeClassifier(text_chars=5000))}
    filters = rag_filters(prior.score, suit, proto, variants)
    trec = list(load_rag_task().instances)
    return {"source_types": source_type_eval(),
            "rag": {"ragauth-trec2019": rag_eval(trec, filters, suit),
                    "handmade-nonhealth-v1": rag_eval(handmade_instances(), filters, suit)},
            "ragauth_types_vs_credibility": types_vs_credibility(trec, suit.classifier),
            "question_topics_with_prototypes": None if proto is None else {
                task: _topic_counts(insts, proto) for task, insts in (("ragauth-trec2019", trec),
                                                                      ("handmade-nonhealth-v1", handmade_instances()))},
            "matrix": suit.matrix.to_dict()}


__all__ = ["confusion", "handmade_instances", "llm_layer_eval", "rag_eval", "rag_filters", "run_all",
           "source_type_eval", "types_vs_credibility"]
