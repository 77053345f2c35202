"""Batch audits over a JSONL of answers: per-system aggregates with intervals, Markdown, a plot.

Each line is one answer object (see :mod:`authorag.audit.model`); its ``system`` field groups
the aggregates ("" → ``"default"``). Per system and metric:

- ratio metrics: the mean over answers where the metric is not null, with a seeded percentile
  bootstrap 95 % interval, and ``n`` = answers that contributed;
- ``one_sided`` / ``overconfident``: the share of answers where it is true, Agresti–Coull 95 %;
- pooled over all cited sources / statements (as the credibility studies count):
  ``credibility_rate``, ``non_credibility_rate`` and ``groundedness`` with Agresti–Coull 95 %;
- cost per answer: mean LLM calls, prompt and completion tokens.

Example:
    >>> from authorag.audit import audit
    >>> r = audit({"question": "q", "answer": "A [1].", "sources": [{"id": "1", "url": "https://bbc.co.uk"}]})
    >>> aggregate([r])["default"]["metrics"]["credibility_rate"]["mean"]
    1.0
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Sized
from pathlib import Path
from typing import Any

from authorag._optional import require
from authorag.audit.metrics import METRIC_KEYS
from authorag.audit.report import AuditReport
from authorag.audit.stats import agresti_coull, bootstrap_mean
from authorag.progress import report as progress

PROGRESS_TASK = "audit answers"
"""The :mod:`authorag.progress` task of a batch: answers audited / answers."""
BOOLEAN_METRICS = ("one_sided", "overconfident")
POOLED = {"credibility_rate": ("credible_cited", ("credible_cited", "non_credible_cited")),
          "non_credibility_rate": ("non_credible_cited", ("credible_cited", "non_credible_cited")),
          "groundedness": ("grounded_statements", ("cited_statements_with_support",))}


def _metric_summary(key: str, values: Sequence[Any]) -> dict[str, Any]:
    got = [v for v in values if v is not None]
    if key in BOOLEAN_METRICS:
        hits = sum(bool(v) for v in got)
        lo, hi = agresti_coull(hits, len(got))
        return {"mean": hits / len(got) if got else None, "lo": lo, "hi": hi, "n": len(got), "ci": "agresti-coull"}
    mean, lo, hi = bootstrap_mean([float(v) for v in got])
    return {"mean": mean, "lo": lo, "hi": hi, "n": len(got), "ci": "bootstrap"}


def _cost(reports: Sequence[AuditReport]) -> dict[str, float | None]:
    totals = [r.cost.get("totals", {}) for r in reports if r.cost]
    if not totals:
        return {"calls": None, "prompt_tokens": None, "completion_tokens": None}
    return {k: sum(float(t.get(k, 0)) for t in totals) / len(totals)
            for k in ("calls", "prompt_tokens", "completion_tokens", "cache_hits", "latency_s")}


def aggregate(reports: Iterable[AuditReport]) -> dict[str, dict[str, Any]]:
    """Per-system aggregates (system name → answers, metrics, pooled rates, cost per answer)."""
    groups: dict[str, list[AuditReport]] = {}
    for r in reports:
        groups.setdefault(r.system or "default", []).append(r)
    out: dict[str, dict[str, Any]] = {}
    for system, rs in sorted(groups.items()):
        pooled: dict[str, Any] = {}
        for key, (num, dens) in POOLED.items():
            hits = sum(r.counts.get(num, 0) for r in rs)
            n = sum(r.counts.get(d, 0) for r in rs for d in dens)
            lo, hi = agresti_coull(hits, n)
            pooled[key] = {"rate": hits / n if n else None, "lo": lo, "hi": hi, "n": n}
        out[system] = {
            "answers": len(rs),
            "metrics": {k: _metric_summary(k, [r.metrics[k] for r in rs]) for k in METRIC_KEYS},
            "pooled": pooled,
            "cost_per_answer": _cost(rs),
        }
    return out


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _ci(lo: float | None, hi: float | None, how: str) -> str:
    return "–" if lo is None or hi is None else f"{lo:.2f}–{hi:.2f} ({how})"


def markdown(aggregates: dict[str, dict[str, Any]]) -> str:
    """A Markdown table per system: metric, mean, 95 % interval, answers counted."""
    lines: list[str] = []
    for system, agg in aggregates.items():
        lines += [f"### {system} ({agg['answers']} answers)", "", "| metric | value | 95 % CI | n |",
                  "|---|---|---|---|"]
        for key, s in agg["metrics"].items():
            lines.append(f"| {key} | {_fmt(s['mean'])} | {_ci(s['lo'], s['hi'], s['ci'])} | {s['n']} |")
        for key, p in agg["pooled"].items():
            lines.append(f"| {key} (pooled) | {_fmt(p['rate'])} | {_ci(p['lo'], p['hi'], 'agresti-coull')} | {p['n']} |")
        cost = agg["cost_per_answer"]
        lines += ["", "LLM cost per answer: " + ", ".join(f"{k} {_fmt(v)}" for k, v in cost.items()), ""]
    return "\n".join(lines)


def plot(aggregates: dict[str, dict[str, Any]], path: str | Path) -> Path:
    """Metric profile per system: one bar per metric with its 95 % interval (needs matplotlib).

    Raises:
        MissingDependencyError: matplotlib is not installed (``pip install 'authorag[bench]'``).
    """
    plt: Any = require("matplotlib.pyplot", extra="bench", feature="audit plots")
    keys = [k for k in METRIC_KEYS]
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(keys) * max(1, len(aggregates)) ** 0.5 + 1.5))
    width = 0.8 / max(1, len(aggregates))
    for n, (system, agg) in enumerate(aggregates.items()):
        ys = [i + n * width for i in range(len(keys))]
        stats = [agg["metrics"][k] for k in keys]
        means = [s["mean"] if s["mean"] is not None else 0.0 for s in stats]
        errs = [[m - (s["lo"] if s["lo"] is not None else m) for m, s in zip(means, stats, strict=True)],
                [(s["hi"] if s["hi"] is not None else m) - m for m, s in zip(means, stats, strict=True)]]
        ax.barh(ys, means, height=width, xerr=errs, capsize=2, label=f"{system} ({agg['answers']} answers)")
        for y, s in zip(ys, stats, strict=True):
            note = "no value" if s["mean"] is None else f"{s['mean']:.2f} (n={s['n']})"
            ax.text(1.01, y, note, va="center", fontsize=7, transform=ax.get_yaxis_transform())
    ax.set_yticks([i + width * (len(aggregates) - 1) / 2 for i in range(len(keys))], keys)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("mean over answers with a value (95 % interval); n = answers counted")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def audit_many(items: Iterable[tuple[str, dict[str, Any]]], run: Callable[[dict[str, Any]], AuditReport],
               on_done: Callable[[int, AuditReport], None] | None = None) -> list[AuditReport]:
    """Audit ``(where, object)`` pairs in order; an invalid object raises naming ``where``.

    Each finished answer reports :data:`PROGRESS_TASK` to :mod:`authorag.progress`.
    """
    from authorag.errors import ConfigError

    total = len(items) if isinstance(items, Sized) else None
    reports: list[AuditReport] = []
    for where, obj in items:
        try:
            report = run(obj)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from exc
        reports.append(report)
        progress(PROGRESS_TASK, len(reports), total, unit="answers")
        if on_done is not None:
            on_done(len(reports), report)
    return reports


__all__ = ["BOOLEAN_METRICS", "PROGRESS_TASK", "aggregate", "audit_many", "markdown", "plot"]
