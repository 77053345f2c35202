"""``authorag bench tracks``: every generalisation track × the default and its baselines → one table.

Tracks (each reported on its own, never pooled into one number):

* hand-written, multi-topic and multi-language (:mod:`authorag.benchmarks.tracks.trust_data`):
  ``trust-pairs-v2``, ``no-harm-pairs-v2``, ``rerank-lists-v2`` and their larger, independent
  successors ``trust-pairs-v3``, ``no-harm-pairs-v3``, ``rerank-lists-v3``, and ``trust-pairs-v4``,
  ``no-harm-pairs-v4``, ``rerank-lists-v4`` on eight topics none of them covers, ``rerank-lists-v5`` (7-page lists),
  and the pair sets in new languages, ``trust-pairs-v6``, ``no-harm-pairs-v6`` on, three languages a version
  (:data:`~authorag.benchmarks.tracks.trust_data.LANGUAGE_VERSIONS`),
  reranked as the surfaces rerank
  (:mod:`authorag.benchmarks.tracks.rerank`), one ``--split``;
* from the shared data folder (:mod:`~authorag.benchmarks.generalisation.shared_sets`; skipped
  with a note when absent): ``c3-credibility`` (URL only), ``fakebr-pt`` and ``coaid-covid``
  (text on a neutral unknown host, and text with the real URL; ``--split`` takes their half by
  registrable domain, :func:`~authorag.benchmarks.generalisation.shared_sets.domain_half`), ``decodex-fr`` and
  ``wikipedia-sources`` (URL only; their own prior sources left out, see :data:`TRACK_EXCLUDES`).

Methods (:data:`METHODS`): ``default`` (``ScorerSettings()`` and ``RerankPolicy()`` at run time),
``page-evidence-off`` (the same with ``page_evidence=False``: table + constant, the baseline every
difference is paired against) and ``relevance-only`` (authority weight 0; rerank tracks only).
The verdict column says whether the default beats the baseline beyond the paired 95 % CI, ties
within it, or loses beyond it (:func:`~authorag.benchmarks.generalisation.stats.verdict`).

Example:
    >>> method_name("page-evidence-off")
    'default:page_evidence=false'
    >>> known_exclusions(("wikipedia_perennial", "no-such-source"))
    ('wikipedia_perennial',)
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authorag.benchmarks.generalisation import shared_sets as ss
from authorag.benchmarks.generalisation.stats import (
    Row,
    Unit,
    auc_stat,
    binary_auc_stat,
    group_spearman_stat,
    mean_stat,
    pooled_spearman_stat,
    row_cells,
)
from authorag.benchmarks.tracks.trust_data import MULTI_SETS, check_split
from authorag.errors import ConfigError

METHODS = ("default", "page-evidence-off", "relevance-only")
BASELINE = "page-evidence-off"
HAND_TRACKS = MULTI_SETS
SHARED_TRACKS = ("c3-credibility", "fakebr-pt", "coaid-covid", "decodex-fr", "wikipedia-sources")
ALL_TRACKS = (*HAND_TRACKS, *SHARED_TRACKS)
TRACK_EXCLUDES: dict[str, tuple[str, ...]] = {"decodex-fr": ("decodex",),
                                             "wikipedia-sources": ("wikipedia_perennial", "wikiproject")}
"""Prior sources each track leaves out: a prior is never judged on the labels it was built from
(a name the prior does not have yet is a no-op, and the table says so)."""
VERSION = 1


def method_name(method: str) -> str:
    """The composition (:mod:`authorag.benchmarks.tracks.rerank_methods`) behind a method of :data:`METHODS`."""
    return {"default": "default", "page-evidence-off": "default:page_evidence=false",
            "relevance-only": "relevance-only"}[method]


def known_exclusions(names: Sequence[str]) -> tuple[str, ...]:
    """The names among ``names`` that are prior sources today (the rest cannot be excluded)."""
    from authorag.priors.sources import SOURCES

    return tuple(n for n in names if n in SOURCES)


@dataclass(frozen=True, slots=True)
class TracksConfig:
    """What ``bench tracks`` runs.

    Attributes:
        tracks: names out of :data:`ALL_TRACKS`, in table order.
        split: ``dev``, ``test`` or ``all`` of the hand-written sets and of Fake.br and CoAID (by
            registrable domain; tune on dev only).
        relevance: relevance of the rerank tracks (``bm25``; ``dense`` needs the dense extra).
        data_dir: the shared data folder (None: the shared tracks are skipped with a note).
        seed: bootstrap and sampling seed.
        max_per_domain: items kept per registrable domain and label in Fake.br and CoAID.
        limit: keep at most this many items per shared track (a seeded sample; tests), None = all.
    """

    tracks: tuple[str, ...] = ALL_TRACKS
    split: str = "dev"
    relevance: str = "bm25"
    data_dir: Path | None = None
    seed: int = 0
    max_per_domain: int = ss.MAX_PER_DOMAIN
    limit: int | None = None

    def __post_init__(self) -> None:
        bad = [t for t in self.tracks if t not in ALL_TRACKS]
        if bad:
            raise ConfigError(f"unknown track(s) {', '.join(bad)}; known: {', '.join(ALL_TRACKS)}")
        if not self.tracks:
            raise ConfigError("bench tracks needs at least one track, got none")
        check_split(self.split)
        if self.relevance not in ("bm25", "dense", "cascade"):
            raise ConfigError(f"relevance must be bm25, dense or cascade, got {self.relevance!r}")
        if self.limit is not None and self.limit < 10:
            raise ConfigError(f"limit must be at least 10 items, got {self.limit}")


def _scorer(method: str, exclude: Sequence[str]) -> tuple[Any, Any]:
    from authorag.benchmarks.tracks.rerank_methods import composition_scorer, parse_method
    from authorag.policy import make_policy

    spec = parse_method(method_name(method))
    return composition_scorer(spec, known_exclusions(exclude)), make_policy(dict(spec.policy))


def _hand_track(task: str, cfg: TracksConfig) -> tuple[list[Row], list[Row]]:
    """The rows and breakdown rows of a hand-written track, paired across :data:`METHODS`."""
    from authorag.benchmarks.tracks.rerank import Reranking, case_metrics
    from authorag.benchmarks.tracks.rerank_methods import RerankSetup
    from authorag.benchmarks.tracks.trust_data import load_cases

    cases = load_cases(task, cfg.split)
    per_method: dict[str, dict[str, Any]] = {}
    heads: list[str] = []
    order: list[str] = []
    for method in METHODS:
        scorer, policy = _scorer(method, ())
        out = case_metrics(task, cases, Reranking(RerankSetup(method, scorer, policy, None)), [cfg.relevance],
                           seed=cfg.seed)
        per_method[method] = out["units"]["rows"]
        heads, order = list(out["rows"]), [*out["rows"], *out["detail_rows"]]
    rows: list[Row] = []
    detail: list[Row] = []
    for name in order:
        first = per_method[METHODS[0]][name]
        clusters: dict[int, list[Unit]] = {}
        for n, cluster in enumerate(first["clusters"]):
            values = {m: float(per_method[m][name]["values"][n]) for m in METHODS}
            clusters.setdefault(int(cluster), []).append((0.0, values))
        row = Row(name, list(clusters.values()), mean_stat, "case")
        (rows if name in heads else detail).append(row)
    return rows, detail


def _trusts(pages: Sequence[ss.LabelledPage], method: str, exclude: Sequence[str], neutral: bool,
            with_text: bool) -> list[float]:
    from authorag.trust import trust_rule_for
    from authorag.types import Candidate

    scorer, policy = _scorer(method, exclude)
    cands = [Candidate.create(f"{ss.NEUTRAL_HOST}{n}" if neutral else p.url, text=p.text if with_text else "",
                              id=str(n)) for n, p in enumerate(pages)]
    rule = trust_rule_for(policy.unknown_level)
    return [rule.value(d) for d in scorer.score(cands)]


def _clusters(pages: Sequence[ss.LabelledPage], scores: dict[str, list[float]],
              key: Callable[[ss.LabelledPage], str]) -> list[list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for n, page in enumerate(pages):
        out.setdefault(key(page), []).append((page.label, {m: s[n] for m, s in scores.items()}))
    return list(out.values())


def _sample(pages: list[ss.LabelledPage], cfg: TracksConfig) -> list[ss.LabelledPage]:
    if cfg.limit is None or len(pages) <= cfg.limit:
        return pages
    import random

    keep = set(random.Random(f"{cfg.seed}:limit").sample(range(len(pages)), cfg.limit))
    return [p for n, p in enumerate(pages) if n in keep]


def _load(track: str, root: Path, cfg: TracksConfig) -> list[ss.LabelledPage]:
    if track == "c3-credibility":
        return ss.load_c3(root)
    if track == "fakebr-pt":
        return ss.domain_half(ss.load_fakebr(root, cfg.max_per_domain, cfg.seed), cfg.split)
    if track == "coaid-covid":
        return ss.domain_half(ss.load_coaid(root, cfg.max_per_domain, cfg.seed), cfg.split)
    return ss.load_decodex(root) if track == "decodex-fr" else ss.load_wikipedia_sources(root)


HALVED_TRACKS = ("fakebr-pt", "coaid-covid")
"""Shared tracks that ``--split`` halves by registrable domain (:func:`~authorag.benchmarks.generalisation.shared_sets.domain_half`)."""
SHARED_FOLDER = {"c3-credibility": "c3", "fakebr-pt": "fakebr", "coaid-covid": "coaid",
                 "decodex-fr": "decodex", "wikipedia-sources": "wikipedia"}
SCORED = ("default", "page-evidence-off")


def _shared_track(track: str, pages: list[ss.LabelledPage]) -> tuple[list[Row], list[Row]]:
    exclude = TRACK_EXCLUDES.get(track, ())

    def by_domain(p: ss.LabelledPage) -> str:
        return p.domain

    if track in ("fakebr-pt", "coaid-covid"):
        rows: list[Row] = []
        for label, neutral in (("text on an unknown host", True), ("text with its real URL", False)):
            scores = {m: _trusts(pages, m, exclude, neutral, True) for m in SCORED}
            rows.append(Row(f"AUC true > fake, {label}", _clusters(pages, scores, by_domain), auc_stat, "domain"))
        return rows, []
    scores = {m: _trusts(pages, m, exclude, False, False) for m in SCORED}
    if track != "c3-credibility":
        return [Row("AUC reliable > unreliable (URL only)", _clusters(pages, scores, by_domain), auc_stat,
                    "domain")], []
    rows = [Row("AUC mean rating ≥ 4 vs ≤ 3 (URL only)", _clusters(pages, scores, by_domain),
                binary_auc_stat(4.0, 3.0), "domain"),
            Row("per-query Spearman (URL only)", _clusters(pages, scores, lambda p: p.group), group_spearman_stat(),
                "query")]
    detail = [Row(f"Spearman, topic {topic} (URL only)",
                  _clusters([p for p in pages if p.topic == topic],
                            {m: [s for p, s in zip(pages, v) if p.topic == topic] for m, v in scores.items()},
                            by_domain), pooled_spearman_stat, "domain")
              for topic in sorted({p.topic for p in pages})]
    return rows, detail


def _run_one(track: str, cfg: TracksConfig) -> dict[str, Any]:
    start = time.perf_counter()
    exclude = TRACK_EXCLUDES.get(track, ())
    entry: dict[str, Any] = {"track": track, "excluded_sources": list(exclude),
                             "excluded_present": list(known_exclusions(exclude)), "note": None}
    if track in HAND_TRACKS:
        rows, detail = _hand_track(track, cfg)
        methods: Sequence[str] = METHODS
        entry["split"] = cfg.split
    else:
        missing = ss.missing_note(cfg.data_dir, SHARED_FOLDER[track])
        if missing is not None:
            return {**entry, "note": missing, "rows": [], "breakdown": [], "wall_time_s": 0.0}
        assert cfg.data_dir is not None
        pages = _sample(_load(track, cfg.data_dir, cfg), cfg)
        entry["n_items"] = len(pages)
        if track in HALVED_TRACKS and len({p.label for p in pages}) < 2:
            note = (f"skipped: the {cfg.split} half by registrable domain holds {len(pages)} items and not both "
                    "labels (a label's items come from one domain); run --split all")
            return {**entry, "note": note, "rows": [], "breakdown": [], "wall_time_s": 0.0}
        rows, detail = _shared_track(track, pages)
        methods = SCORED
    entry["rows"] = [row_cells(r, methods, BASELINE, cfg.seed) for r in rows]
    entry["breakdown"] = [row_cells(r, methods, BASELINE, cfg.seed) for r in detail]
    entry["wall_time_s"] = round(time.perf_counter() - start, 2)
    return entry


def run_tracks(cfg: TracksConfig, out_dir: Path, log: Callable[[str], None] = lambda _m: None) -> dict[str, Any]:
    """Run every track of ``cfg``; write ``compare.json`` and ``compare.md`` into ``out_dir``."""
    from authorag import __version__
    from authorag.benchmarks.generalisation.report import render_tracks

    start = time.perf_counter()
    entries: list[dict[str, Any]] = []
    for track in dict.fromkeys(cfg.tracks):
        log(f"track {track}")
        entries.append(_run_one(track, cfg))
    record = {"version": VERSION, "package_version": __version__, "seed": cfg.seed, "split": cfg.split,
              "relevance": cfg.relevance, "data_dir": None if cfg.data_dir is None else str(cfg.data_dir),
              "methods": list(METHODS), "baseline": BASELINE, "max_per_domain": cfg.max_per_domain,
              "limit": cfg.limit, "tracks": entries, "wall_time_s": round(time.perf_counter() - start, 1)}
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compare.json").write_text(json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
    (out_dir / "compare.md").write_text(render_tracks(record), encoding="utf-8")
    return record
