"""Run one benchmark condition (task × method) and write its results folder.

A results folder holds ``config.json`` (what was asked) and ``result.json`` (config, package
version, seed, data checksums, backend, calls/tokens/cache hits/wall time, parse failures,
method info such as active prior sources and coverage, and the metrics).

Example:
    >>> cfg = RunConfig(task="credauth-baly", method="oracle", n_lists=5, n_pairs=5)
    >>> run_condition(cfg)["metrics"]["le"]["spearman"]
    1.0
"""
from __future__ import annotations

import dataclasses
import json
import logging
import platform
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from authorag.benchmarks.methods import BenchMethod, MethodContext, make_backend, split_variant
from authorag.benchmarks.protocols import run_lists, run_pairs, sample_lists, sample_pairs
from authorag.benchmarks.rag.protocol import (
    JudgeDocScorer,
    YesNoGenerator,
    make_doc_scorer,
    run_rag,
)
from authorag.benchmarks.rag.tasks import load_rag_task
from authorag.benchmarks.registry import (
    RAG_TASKS,
    RERANK_TASKS,
    build_method,
    load_task,
    method_specs,
)
from authorag.benchmarks.tasks import data_checksums
from authorag.benchmarks.tracks.protocols import hosted_metrics, tail_metrics
from authorag.benchmarks.tracks.tasks import HOSTED_FAMILY, TAIL_FAMILY
from authorag.errors import ConfigError
from authorag.relevance.dense import LEAD_TOKENS
from authorag.validation import check_positive_int

log = logging.getLogger(__name__)
RESULT_VERSION = 1
FULL_COVERAGE_METHODS = frozenset({"prior", "prior-cred", "learned", "hybrid", "table-const", "table-learned",
                                   "default"})
Progress = Callable[[str, int], Callable[[], None]]
"""``progress(label, total)`` returns an ``advance()`` callback (the CLI draws a rich bar)."""
PROTOCOLS = ("authorag", "paper")


@dataclass(frozen=True, slots=True)
class RunConfig:
    """One condition.

    Attributes:
        task: task name (``authorag bench list``).
        method: method name.
        n_lists: LE lists (ranking tasks).
        n_pairs: PE pairs per difficulty (ranking tasks).
        seed: sampling seed (lists, pairs, random method, bootstrap).
        backend: LLM backend for judge methods / the RAG generator.
        model: model path or name for the backend.
        generator: RAG only: also score answers with an LLM generator on ``backend`` (local if None).
        max_instances: RAG only: use the first N instances (None = all).
        relevance: RAG only: relevance filter scorer (``bm25`` | ``dense`` | ``llm-relevance``).
        utility: RAG only: utility filter scorer (``label`` = NIST usefulness | ``llm-utility``).
        options: method options (``credibility_weight=0.5``).
        tag: suffix for the results folder name (e.g. ``cw0.5``).
        keep_units: also record per-unit values (LE: ρ per list; RAG: authority-filter score per
            instance) under ``metrics["units"]`` for paired comparisons (``bench compare``).
        protocol: judge prompt set, ``authorag`` (digits + logprobs) or ``paper`` (the
            AuthorityBench protocol: JSON answers, greedy decoding); ``paper`` runs get
            ``__paper`` in their folder name.
        track_relevance: relevance of the rerank tracks (``bm25``, ``rank``, ``dense``,
            ``upstream``, ``similarity``); empty = the tracks' default. RAG tasks add rerank rows for
            the scored ones (all but ``rank``) when it is not empty.
        split: the trust and no-harm tracks' half: ``dev``, ``test`` or ``all``; not ``all``
            adds ``__<split>`` to the folder name.
        dense_max_tokens: tokens of each page dense relevance reads, as the RAG filter's
            ``relevance`` and in the rerank tracks (and the MiniLM cosines handed over as
            ``upstream`` / ``similarity`` scores): the product's lead by default, None for the
            model's own window.
    """

    task: str
    method: str
    n_lists: int = 100
    n_pairs: int = 200
    seed: int = 0
    backend: str | None = None
    model: str | None = None
    generator: bool = False
    max_instances: int | None = None
    relevance: str = "bm25"
    utility: str = "label"
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tag: str = ""
    keep_units: bool = False
    protocol: str = "authorag"
    track_relevance: tuple[str, ...] = ()
    split: str = "all"
    dense_max_tokens: int | None = LEAD_TOKENS

    def __post_init__(self) -> None:
        from authorag.benchmarks.tracks.rerank import track_relevances
        from authorag.benchmarks.tracks.trust_data import check_split

        track_relevances(self.track_relevance, None)  # unknown names fail here
        check_positive_int("dense_max_tokens", self.dense_max_tokens, optional=True)
        check_split(self.split)
        if self.protocol not in PROTOCOLS:
            raise ConfigError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {self.protocol!r}")
        if self.n_lists <= 0 or self.n_pairs < 0:
            raise ConfigError(f"n_lists must be > 0 and n_pairs >= 0, got {self.n_lists} and {self.n_pairs}")
        if self.max_instances is not None and self.max_instances <= 0:
            raise ConfigError(f"max_instances must be positive or None, got {self.max_instances}")

    def run_id(self) -> str:
        """Folder name: ``<task>__<method>[__paper][__<tag>]``."""
        return (f"{self.task}__{self.method}" + ("__paper" if self.protocol == "paper" else "")
                + (f"__{self.split}" if self.split != "all" else "") + (f"__{self.tag}" if self.tag else ""))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {f.name: dict(self.options) if f.name == "options" else
                list(self.track_relevance) if f.name == "track_relevance" else getattr(self, f.name)
                for f in dataclasses.fields(self)}


def _no_progress(_label: str, _total: int) -> Callable[[], None]:
    return lambda: None


def _context(cfg: RunConfig, family: str, label_source: str | None, kind: Any) -> MethodContext:
    return MethodContext(task_family=family, label_source=label_source, item_kind=kind, backend=cfg.backend,
                         model=cfg.model, options=MappingProxyType(dict(cfg.options)), seed=cfg.seed,
                         protocol=cfg.protocol)


def _check_kind(method: str, kind: str) -> None:
    spec = method_specs().get(split_variant(method)[0])
    if spec is None:
        raise ConfigError(f"unknown method {method!r}; known methods: {', '.join(method_specs())}")
    if kind not in spec.kinds:
        raise ConfigError(f"method {method!r} cannot score {kind} items (it handles {', '.join(spec.kinds)}); "
                          "pick another method or task")


def _rank_metrics(cfg: RunConfig, progress: Progress) -> tuple[dict[str, Any], BenchMethod, tuple[str, ...]]:
    task = load_task(cfg.task)
    _check_kind(cfg.method, task.item_kind)
    method = build_method(cfg.method, _context(cfg, task.family, task.label_source, task.item_kind))
    if split_variant(cfg.method)[0] in FULL_COVERAGE_METHODS:  # table lookups are cheap: report coverage of every item
        method.score(task.items)
    if task.family == TAIL_FAMILY:
        return tail_metrics(task, method.score, cfg.n_lists, cfg.seed, progress("domains", len(task.items))), \
            method, task.data_files
    if task.family == HOSTED_FAMILY:
        return hosted_metrics(task, method.score, cfg.seed, progress("urls", len(task.items))), method, task.data_files
    lists = sample_lists(task, cfg.n_lists, cfg.seed)
    list_result = run_lists(task, lists, method.score, progress("lists", len(lists)))
    le = list_result.summary(cfg.seed)
    pe: dict[str, Any] = {}
    for difficulty in ("easy", "hard"):
        pairs = sample_pairs(task, cfg.n_pairs, difficulty, cfg.seed)
        pe[difficulty] = run_pairs(task, pairs, method.score, progress(f"{difficulty} pairs", len(pairs)))
    metrics = {"protocol": "le+pe", "n_levels": task.n_levels, "n_items": len(task.items),
               "label_source": task.label_source, "le": le, "pe": pe}
    if cfg.keep_units:
        metrics["units"] = {"spearman": list_result.spearman}
    return metrics, method, task.data_files


def _rag_metrics(cfg: RunConfig, progress: Progress) -> tuple[dict[str, Any], BenchMethod, tuple[str, ...]]:
    task = load_rag_task(cfg.task)
    _check_kind(cfg.method, "document")
    method = build_method(cfg.method, _context(cfg, "ragauth", None, "document"))
    instances = task.instances if cfg.max_instances is None else task.instances[: cfg.max_instances]
    backend = None
    if cfg.generator or cfg.relevance.startswith("llm") or cfg.utility.startswith("llm"):
        # the generator and LLM filters run on --backend, the local model when none is given
        llm_cfg = dataclasses.replace(cfg, backend=cfg.backend or "local")
        backend = make_backend(_context(llm_cfg, "ragauth", None, "document"))
    generator = YesNoGenerator(backend) if cfg.generator and backend is not None else None
    relevance = make_doc_scorer(cfg.relevance, backend, cfg.protocol, cfg.dense_max_tokens)
    utility = make_doc_scorer(cfg.utility, backend, cfg.protocol)
    metrics = run_rag(instances, method.score, relevance=relevance, utility=utility, generator=generator,
                      seed=cfg.seed, ci_by_topic=task.ci_unit == "topic", keep_units=cfg.keep_units,
                      progress=progress("instances", len(instances)))
    metrics.update(protocol="rag", relevance_scorer=cfg.relevance, utility_scorer=cfg.utility,
                   filter_judge_stats={n: dict(s.stats) for n, s in (("relevance", relevance), ("utility", utility))
                                       if isinstance(s, JudgeDocScorer)})
    if cfg.track_relevance:
        metrics["rerank"] = _rag_rerank(cfg, method, instances, task.ci_unit == "topic", metrics)
    return metrics, method, task.data_files


def _rag_rerank(cfg: RunConfig, method: BenchMethod, instances: Any, by_topic: bool,
                metrics: dict[str, Any]) -> dict[str, Any]:
    """The fused order's top-k rows (:func:`~authorag.benchmarks.tracks.graded.rag_rerank_metrics`)."""
    from authorag.benchmarks.methods import ScorerMethod
    from authorag.benchmarks.tracks.graded import SCORED_RELEVANCE, rag_rerank_metrics
    from authorag.benchmarks.tracks.rerank import Reranking, track_relevances
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    if not isinstance(method, ScorerMethod):
        return {"skipped": f"method {method.name!r} has no AuthorityScorer to rerank with", "rows": {}}
    setup = rerank_setup(method)
    rels = track_relevances(cfg.track_relevance, setup.relevance, SCORED_RELEVANCE)
    out = rag_rerank_metrics(instances, Reranking(setup, cfg.dense_max_tokens), rels, seed=cfg.seed, ci_by_topic=by_topic)
    if cfg.keep_units:
        metrics.setdefault("units", {})["rows"] = out["units"]["rows"]
    return {"relevance": rels, "rows": out["rows"]}


def _rerank_metrics(cfg: RunConfig, progress: Progress) -> tuple[dict[str, Any], BenchMethod, tuple[str, ...]]:
    """A rerank track (trust and no-harm cases, graded TREC pools) for one method."""
    from authorag.benchmarks.tracks.graded import (
        GRADED_TASK,
        SCORED_RELEVANCE,
        TREC_FILE,
        graded_metrics,
        graded_pools,
    )
    from authorag.benchmarks.tracks.rerank import (
        DEFAULT_RELEVANCE,
        Reranking,
        run_case_track,
        track_relevances,
    )
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup
    from authorag.benchmarks.tracks.trust_data import data_file, load_cases

    _check_kind(cfg.method, "document")
    # graded pools are TREC HM 2019 pages: the page tier is cross-fitted there as on the RAG track
    family = "ragauth" if cfg.task == GRADED_TASK else "rerank"
    method = build_method(cfg.method, _context(cfg, family, None, "document"))
    setup = rerank_setup(method)
    requested = cfg.track_relevance or DEFAULT_RELEVANCE
    if cfg.task == GRADED_TASK:
        pools = graded_pools()
        metrics = graded_metrics(pools, Reranking(setup, cfg.dense_max_tokens), track_relevances(requested, setup.relevance, SCORED_RELEVANCE),
                                 seed=cfg.seed, progress=progress("pools", len(pools)))
        files: tuple[str, ...] = (TREC_FILE,)
    else:
        metrics = run_case_track(cfg.task, cfg.split, Reranking(setup, cfg.dense_max_tokens), track_relevances(requested, setup.relevance),
                                 seed=cfg.seed, progress=progress("cases", len(load_cases(cfg.task, cfg.split))))
        files = (data_file(cfg.task),)
    if not cfg.keep_units:
        metrics.pop("units", None)
    return metrics, method, files


def run_condition(cfg: RunConfig, progress: Progress = _no_progress) -> dict[str, Any]:
    """Run ``cfg`` and return the full result record (nothing written)."""
    from authorag import __version__

    start = time.perf_counter()
    if cfg.task in RAG_TASKS:
        metrics, method, files = _rag_metrics(cfg, progress)
    elif cfg.task in RERANK_TASKS:
        metrics, method, files = _rerank_metrics(cfg, progress)
    else:
        metrics, method, files = _rank_metrics(cfg, progress)
    info = method.info()
    meters = [info, metrics.get("generator_stats", {}), *metrics.get("filter_judge_stats", {}).values()]
    cost_keys = ("calls", "prompt_tokens", "completion_tokens", "cache_hits", "parse_failures")
    totals = {k: sum(int(m.get(k, 0)) for m in meters) for k in cost_keys}
    return {
        "result_version": RESULT_VERSION, "run_id": cfg.run_id(), "config": cfg.to_dict(),
        "package_version": __version__, "python": platform.python_version(), "seed": cfg.seed,
        "data_checksums": data_checksums(files), "backend": {"name": cfg.backend, "model": cfg.model},
        "cost": {k: totals[k] for k in cost_keys[:4]}, "parse_failures": totals["parse_failures"],
        "wall_time_s": round(time.perf_counter() - start, 3), "method_info": info, "metrics": metrics,
    }


def result_folder(out_dir: Path, run_id: str, *, overwrite: bool = False) -> Path:
    """``out_dir/run_id``; raises ConfigError when it holds a result and ``overwrite`` is False."""
    folder = out_dir / run_id
    if (folder / "result.json").exists() and not overwrite:
        raise ConfigError(f"{folder} already holds a result; pass --overwrite to replace it, or choose "
                          "another --out or --tag")
    return folder


def write_result(result: Mapping[str, Any], out_dir: Path, *, overwrite: bool = False) -> Path:
    """Write ``config.json`` and ``result.json`` under ``out_dir/<run_id>``; returns the folder.

    Raises:
        ConfigError: the folder already holds a result and ``overwrite`` is False.
    """
    folder = result_folder(out_dir, str(result["run_id"]), overwrite=overwrite)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(result["config"], indent=2, sort_keys=True) + "\n")
    (folder / "result.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    log.info("wrote %s", folder)
    return folder


def load_results(root: Path) -> list[dict[str, Any]]:
    """Every ``result.json`` under ``root`` (sorted by run id)."""
    out = [json.loads(p.read_text()) for p in sorted(root.glob("*/result.json"))]
    return sorted(out, key=lambda r: str(r["run_id"]))
