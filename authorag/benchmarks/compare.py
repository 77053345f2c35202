"""``authorag bench compare``: evaluation tracks × methods → ONE comparison table (with CIs).

Authority tracks (the default composition is judged on all of them; run by default):

* ``tail-trec2019``: all-pairs accuracy (= AUC, credible above non-credible) and LE ρ;
* ``hosted-urls``: official above user / reserved / ip pages (overall and per label);
* ``ragauth-trec2019-resampled``: the authority filter, generator-free accuracy at k = 1, 3, 5
  (topic-clustered CIs), plus the rerank-mode grid (:mod:`authorag.benchmarks.rag.rerank_eval`);
* ``domainauth-news-{fine,coarse}`` (unknown domains included, filled with the constant),
  ``credauth-mbfc``, ``credauth-baly``, ``domainauth-web-fine``: LE ρ.

Rerank tracks (named with ``--tracks``; :mod:`authorag.benchmarks.tracks.rerank` and
:mod:`authorag.benchmarks.tracks.graded`): ``trust-pairs``, ``no-harm-pairs``, ``no-harm-hard``,
``no-harm-lists``, ``trust-pairs-v2``, ``no-harm-pairs-v2``, ``rerank-lists-v2``, ``trust-pairs-v3``,
``no-harm-pairs-v3``, ``rerank-lists-v3``, ``trust-pairs-v4``, ``no-harm-pairs-v4``, ``rerank-lists-v4``,
``rerank-lists-v5``, and ``trust-pairs-v6`` / ``no-harm-pairs-v6`` on, one pair of sets per
:data:`~authorag.benchmarks.tracks.trust_data.LANGUAGE_VERSIONS` entry (the hand-written sets, ``--split
dev|test|all``; the v2, v3 and v4 sets span eight topics each, v4's new ones, and four languages;
v5's lists hold 7 pages; each later version is in three languages no earlier set uses) and ``graded-trec2019`` (nDCG), each a row per
relevance of ``--track-relevance``; with it, ``ragauth-trec2019-resampled`` adds the top-k rows
of each method's fused order. Their methods are compositions with a policy
(:mod:`authorag.benchmarks.tracks.rerank_methods`: ``relevance-only``, ``today``, ``default``,
``default:fusion=rrf,weight=0.5``, ...). Their breakdown rows (per domain and kind) form a second
table.

Beside each method's cells, ``Δ method − first method`` with a paired bootstrap CI over the
same units (:mod:`authorag.benchmarks.paired`): the rule "at least as good as table + constant
within the CI" reads directly off these columns when ``table-const`` comes first.

Every method runs leave-source-out with the reranker's default policy: unknown sources at
``UNKNOWN_LEVEL`` and ``credibility_weight = DEFAULT_CREDIBILITY_WEIGHT`` unless
``--option credibility_weight=...`` says otherwise (the same value for every method).

Example:
    authorag bench compare --methods table-const,table-learned,hybrid --out /tmp/compare
    authorag bench compare --methods relevance-only,today,default --tracks trust-pairs,no-harm-pairs --split dev
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from authorag.benchmarks.rag.protocol import TOP_KS
from authorag.benchmarks.tracks.trust_data import MULTI_SETS
from authorag.errors import ConfigError
from authorag.policy import DEFAULT_CREDIBILITY_WEIGHT
from authorag.relevance.dense import LEAD_TOKENS

TrackKind = Literal["tail", "hosted", "rag", "le", "rerank"]
COMPARE_VERSION = 1
DEFAULT_METHODS = ("table-const", "table-learned", "hybrid")


@dataclass(frozen=True, slots=True)
class Track:
    """One evaluation track: the bench task it runs and how its headline is read."""

    task: str
    kind: TrackKind


TRACKS: tuple[Track, ...] = (
    Track("tail-trec2019", "tail"),
    Track("hosted-urls", "hosted"),
    Track("ragauth-trec2019-resampled", "rag"),
    Track("domainauth-news-fine", "le"),
    Track("domainauth-news-coarse", "le"),
    Track("credauth-mbfc", "le"),
    Track("credauth-baly", "le"),
    Track("domainauth-web-fine", "le"),
    Track("trust-pairs", "rerank"),
    Track("no-harm-pairs", "rerank"),
    Track("no-harm-hard", "rerank"),
    Track("no-harm-lists", "rerank"),
    Track("graded-trec2019", "rerank"),
    *(Track(s, "rerank") for s in MULTI_SETS),
)
DEFAULT_TRACKS = tuple(t.task for t in TRACKS if t.kind != "rerank")
"""What ``bench compare`` runs without ``--tracks``: the authority tracks."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One number of the comparison table, with its 95 % CI and coverage of the items."""

    value: float | None
    ci: tuple[float, float] | None
    coverage: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"value": self.value, "ci": None if self.ci is None else list(self.ci), "coverage": self.coverage}

    def text(self) -> str:
        """``0.612 [0.55, 0.67]`` (or ``–``)."""
        if self.value is None:
            return "–"
        return f"{self.value:.3f}" + ("" if self.ci is None else f" [{self.ci[0]:.2f}, {self.ci[1]:.2f}]")


def _ci(raw: Sequence[float] | None) -> tuple[float, float] | None:
    return None if raw is None else (float(raw[0]), float(raw[1]))


def _row_cells(rows: Mapping[str, Mapping[str, Any]]) -> dict[str, Cell]:
    return {name: Cell(r["value"], _ci(r.get("ci"))) for name, r in rows.items()}


def headline_cells(kind: TrackKind, metrics: Mapping[str, Any]) -> dict[str, Cell]:
    """The table rows one track contributes: row name → cell."""
    if kind == "rerank":
        return _row_cells(metrics["rows"])
    if kind == "tail":
        p, le, cov = metrics["pairs"], metrics["le"], metrics["coverage"]
        return {"pair accuracy (AUC)": Cell(p["accuracy"], _ci(p["accuracy_ci"]), cov),
                "LE ρ": Cell(le["spearman"], _ci(le["spearman_ci"]), cov)}
    if kind == "hosted":
        cov = metrics["coverage"]
        out = {"official > other": Cell(metrics["overall"]["accuracy"], _ci(metrics["overall"]["accuracy_ci"]), cov)}
        for label, m in metrics["by_label"].items():
            out[f"official > {label}"] = Cell(m["accuracy"], _ci(m["accuracy_ci"]), cov)
        return out
    if kind == "rag":
        acc, ci, cov = metrics["generator_free"]["authority"], metrics["generator_free_ci"]["authority"], \
            metrics["authority_coverage"]
        cells = {f"authority filter k={k}": Cell(acc[str(k)], _ci(ci.get(str(k))), cov) for k in TOP_KS}
        return {**cells, **_row_cells(metrics.get("rerank", {}).get("rows", {}))}
    le = metrics["le"]
    return {"LE ρ": Cell(le["spearman"], _ci(le["spearman_ci"]), le["coverage"])}


@dataclass(frozen=True, slots=True)
class CompareConfig:
    """What ``bench compare`` runs.

    Attributes:
        methods: bench method names (``table-const``, ``table-learned``, ``hybrid``, ``default``...).
        tracks: task names out of :data:`TRACKS` (default: all).
        n_lists: LE lists per ranking track.
        n_pairs: PE pairs per difficulty (recorded in the runs, not in the table).
        seed: sampling and bootstrap seed.
        rerank_relevance: relevance scorers of the rerank-mode grid (``bm25``, ``dense``); empty = no grid.
        options: method options applied to every method (``credibility_weight`` defaults to the
            reranker's ``DEFAULT_CREDIBILITY_WEIGHT``).
        track_relevance: relevance of the rerank tracks and of the RAG track's rerank rows
            (``bm25``, ``rank``, ``dense``, ``upstream``, ``similarity``; empty = no RAG rerank rows).
        split: ``dev``, ``test`` or ``all`` of the hand-written trust and no-harm sets.
        imported: method name → a compare folder whose runs give that method's results instead
            of running it here (same tracks, seed, split and relevance): a method as an earlier
            commit of authorag computed it (``benchmarks/results/trust/reproduce.sh`` runs the
            commit before trust fusion in a temporary worktree and imports its ``today``).
        delta_against: the methods every other method gets a paired Δ column against (default:
            the first method).
        dense_max_tokens: tokens of each page the tracks' dense relevance reads
            (:attr:`~authorag.benchmarks.runner.RunConfig.dense_max_tokens`).
    """

    methods: tuple[str, ...] = DEFAULT_METHODS
    tracks: tuple[str, ...] = DEFAULT_TRACKS
    n_lists: int = 500
    n_pairs: int = 500
    seed: int = 0
    rerank_relevance: tuple[str, ...] = ("bm25",)
    options: Mapping[str, str] | None = None
    track_relevance: tuple[str, ...] = ("bm25", "rank", "dense")
    split: str = "all"
    imported: Mapping[str, Path] | None = None
    delta_against: tuple[str, ...] = ()
    dense_max_tokens: int | None = LEAD_TOKENS

    def __post_init__(self) -> None:
        known = {t.task for t in TRACKS}
        bad = [t for t in self.tracks if t not in known]
        if bad:
            raise ConfigError(f"unknown track(s) {', '.join(bad)}; known: {', '.join(t.task for t in TRACKS)}")
        if not self.methods:
            raise ConfigError("compare needs at least one method, got none (e.g. --methods table-const,hybrid)")
        bad_rel = [r for r in self.rerank_relevance if r not in ("bm25", "dense")]
        if bad_rel:
            raise ConfigError(f"rerank relevance must be bm25 or dense, got {', '.join(bad_rel)}")
        from authorag.benchmarks.tracks.rerank import track_relevances
        from authorag.benchmarks.tracks.trust_data import check_split

        track_relevances(self.track_relevance, None)
        check_split(self.split)
        stray = sorted((set(self.imported or {}) | set(self.delta_against)) - set(self.methods))
        if stray:
            raise ConfigError(f"--import-method / --delta-against name {stray}, which --methods does not list; "
                              "add them to --methods")

    def method_options(self) -> dict[str, str]:
        """Options for every method, with the reranker's credibility weight unless overridden."""
        return {"credibility_weight": str(DEFAULT_CREDIBILITY_WEIGHT), **dict(self.options or {})}


def _run_track(cfg: CompareConfig, track: Track, method: str,
               runs_dir: Path) -> tuple[dict[str, Cell], dict[str, Cell], Any]:
    """The track's table cells and breakdown cells for ``method``, and its per-unit values (for paired deltas)."""
    from authorag.benchmarks.runner import RunConfig, run_condition, write_result

    run_cfg = RunConfig(task=track.task, method=method, n_lists=cfg.n_lists, n_pairs=cfg.n_pairs, seed=cfg.seed,
                        options=cfg.method_options(), keep_units=True, track_relevance=cfg.track_relevance,
                        split=cfg.split, dense_max_tokens=cfg.dense_max_tokens)
    source = (cfg.imported or {}).get(method)
    result = run_condition(run_cfg) if source is None else _imported_result(run_cfg, source)
    write_result(result, runs_dir)
    metrics = result["metrics"]
    return headline_cells(track.kind, metrics), _row_cells(metrics.get("detail_rows", {})), metrics["units"]


def _imported_result(run_cfg: Any, source: Path) -> dict[str, Any]:
    """The result of ``run_cfg`` as the compare folder ``source`` holds it (checked to match).

    Raises:
        ConfigError: the folder has no such run, or it ran with another seed, split or relevance.
    """
    path = source / "runs" / run_cfg.run_id() / "result.json"
    try:
        result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"imported method {run_cfg.method!r}: cannot read {path} ({exc}); run "
                          "'authorag bench compare' with the same tracks there first") from exc
    theirs, ours = result.get("config", {}), run_cfg.to_dict()
    for key in ("seed", "split", "track_relevance", "n_lists", "n_pairs"):
        if key in theirs and theirs[key] != ours[key]:
            raise ConfigError(f"imported method {run_cfg.method!r}: {path} ran with {key}={theirs[key]!r}, "
                              f"this comparison with {ours[key]!r}; run both with the same settings")
    return {**result, "imported_from": str(source)}


def delta_label(method: str, base: str) -> str:
    """Column name of a paired difference: ``Δ table-learned − table-const``."""
    return f"Δ {method} − {base}"


def pinned_relevance(method: str) -> str | None:
    """The relevance a composition method pins (``default:relevance=dense`` → ``dense``), else None.

    Example:
        >>> pinned_relevance("default:relevance=dense"), pinned_relevance("default"), pinned_relevance("prior")
        ('dense', None, None)
    """
    from authorag.benchmarks.methods import split_variant
    from authorag.benchmarks.tracks.rerank_methods import COMPOSITIONS, parse_method

    return parse_method(method).relevance if split_variant(method)[0] in COMPOSITIONS else None


def paired_row(row: str, method_pin: str | None, base_pin: str | None) -> str | None:
    """The base's row that ``row`` of a method pinned to another relevance is paired with: the same
    metric with the base's relevance (``on-topic first (dense)`` → ``on-topic first (bm25)``), so
    a relevance can be compared with another on the same units. None unless both are pinned and
    differ, or when ``row`` is not a row of the method's relevance.

    Example:
        >>> paired_row("on-topic first (dense)", "dense", "bm25")
        'on-topic first (bm25)'
        >>> paired_row("on-topic first (dense)", None, "bm25") is None
        True
    """
    suffix = f" ({method_pin})"
    if method_pin is None or base_pin is None or method_pin == base_pin or not row.endswith(suffix):
        return None
    return f"{row[: -len(suffix)]} ({base_pin})"


def _add_deltas(cfg: CompareConfig, table: dict[str, dict[str, dict[str, Any]]],
                units: Mapping[tuple[str, str], Any]) -> list[str]:
    """Add ``method − base`` paired-bootstrap cells to every row for each base of
    ``cfg.delta_against`` (default: the first method); returns the column names. Methods pinned
    to different relevances are paired row by row on the same metric (:func:`paired_row`)."""
    from authorag.benchmarks.paired import paired_delta

    kinds = {t.task: t.kind for t in TRACKS}
    pins = {m: pinned_relevance(m) for m in cfg.methods}
    columns: list[str] = []
    for base in cfg.delta_against or cfg.methods[:1]:
        others = [m for m in cfg.methods if m != base]
        for key, cells in table.items():
            task, _, row = key.partition(" | ")
            for method in others:
                base_row = row if base in cells else paired_row(row, pins[method], pins[base])
                if method not in cells or base_row is None or base not in table.get(f"{task} | {base_row}", {}):
                    cells[delta_label(method, base)] = {"value": None, "ci": None}  # no row to pair with
                    continue
                cells[delta_label(method, base)] = paired_delta(kinds[task], row, units[(task, base)],
                                                                units[(task, method)], seed=cfg.seed,
                                                                base_row=base_row)
        columns += [delta_label(m, base) for m in others]
    return columns


def _relevance_scorers(names: Sequence[str], dense_max_tokens: int | None = LEAD_TOKENS) -> dict[str, Any]:
    """One scorer per name, shared by every method (dense memoised per question and document)."""
    from authorag.benchmarks.rag.protocol import make_doc_scorer
    from authorag.benchmarks.rag.rerank_eval import PointwiseRelevanceMemo

    out: dict[str, Any] = {}
    for name in names:
        scorer = make_doc_scorer(name, None, dense_max_tokens=dense_max_tokens)
        out[name] = PointwiseRelevanceMemo(scorer) if name == "dense" else scorer  # BM25's IDF is per instance
    return out


def _run_grid(cfg: CompareConfig, method: str, relevance_name: str, relevance: Any) -> dict[str, Any]:
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.rag.rerank_eval import run_rerank_grid
    from authorag.benchmarks.rag.tasks import load_rag_task
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.methods import method_scorer

    task = load_rag_task("ragauth-trec2019-resampled")
    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document",
                        options=cfg.method_options(), seed=cfg.seed)
    scorer = method_scorer(build_method(method, ctx))
    start = time.perf_counter()
    out = run_rerank_grid(task.instances, scorer, relevance, seed=cfg.seed)
    return {**out, "method": method, "relevance": relevance_name, "wall_time_s": round(time.perf_counter() - start, 3)}


def run_compare(cfg: CompareConfig, out_dir: Path, log: Callable[[str], None] = lambda _m: None) -> dict[str, Any]:
    """Run every track × method (and the rerank grid); write ``compare.json`` and ``compare.md``."""
    from authorag import __version__

    runs_dir = out_dir / "runs"
    table: dict[str, dict[str, dict[str, Any]]] = {}
    detail: dict[str, dict[str, dict[str, Any]]] = {}
    units: dict[tuple[str, str], Any] = {}
    by_task = {t.task: t for t in TRACKS}
    for track in (by_task[name] for name in dict.fromkeys(cfg.tracks)):  # in the order asked for
        for method in cfg.methods:
            log(f"{track.task} × {method}")
            cells, details, units[(track.task, method)] = _run_track(cfg, track, method, runs_dir)
            for into, found in ((table, cells), (detail, details)):
                for row, cell in found.items():
                    into.setdefault(f"{track.task} | {row}", {})[method] = cell.to_dict()
    deltas = _add_deltas(cfg, table, units)
    _add_deltas(cfg, detail, units)
    relevance = _relevance_scorers(cfg.rerank_relevance, cfg.dense_max_tokens)
    grids: list[dict[str, Any]] = []
    for name, scorer in relevance.items():
        for method in cfg.methods:
            log(f"rerank grid × {method} × {name}")
            grids.append(_run_grid(cfg, method, name, scorer))
    record = {"version": COMPARE_VERSION, "package_version": __version__, "seed": cfg.seed,
              "methods": list(cfg.methods), "tracks": list(cfg.tracks), "n_lists": cfg.n_lists,
              "n_pairs": cfg.n_pairs, "options": cfg.method_options(), "table": table, "delta_columns": deltas,
              "detail_table": detail, "track_relevance": list(cfg.track_relevance), "split": cfg.split,
              "dense_max_tokens": cfg.dense_max_tokens,
              "rerank_grid": grids, "imported": {k: str(v) for k, v in (cfg.imported or {}).items()}}
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compare.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    from authorag.benchmarks.compare_report import render_compare

    (out_dir / "compare.md").write_text(render_compare(record))
    return record
