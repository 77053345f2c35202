"""The audit as one self-contained HTML page: matrices as heatmaps, sources, citations, metrics.

:func:`render_html` takes report objects in the JSON shape (``AuditReport.to_dict()``, one
line of ``reports.jsonl``) and, for a batch, the per-system aggregates
(:func:`authorag.audit.batch.aggregate`). The page loads nothing: CSS and SVG are inline, the
one small script (sortable tables) is inline and pinned by its hash in the page's
Content-Security-Policy, which also forbids every network fetch. Every text from the input is
HTML-escaped; only ``http``/``https`` source URLs become links.

Per answer: the question, the metrics with their 95 % intervals, the citation matrix C and the
support matrix S as heatmaps (statements × sources, labelled), each statement with why its
support reads as it does, a sortable sources table (tier, authority, credibility, trust,
credible, source type, suitability, how often cited and supporting, rubric score), the
CiteTrace checks per citation and the notes. A batch adds the per-system aggregates with
intervals and a sortable index of the answers, each answer in a collapsible section.

Example:
    >>> from authorag.audit import audit
    >>> r = audit({"question": "Do flu shots work?", "answer": "Flu shots cut the risk of flu [1].",
    ...            "sources": [{"id": "1", "url": "https://www.cdc.gov/flu",
    ...                         "text": "Flu shots cut the risk of flu by about half."}]})
    >>> page = render_html([r.to_dict()])
    >>> page.startswith("<!doctype html>"), page.count('class="cell ')  # one cell in C, one in S
    (True, 2)
"""
from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from importlib import resources
from typing import Any

from authorag.audit.charts import heatmap, interval_bar

Report = Mapping[str, Any]


@cache
def _asset(name: str) -> str:
    return resources.files("authorag.audit").joinpath("assets", name).read_text(encoding="utf-8")


def _num(v: Any, digits: int = 2) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return f"{v:.{digits}f}" if isinstance(v, float) else escape(str(v))


def _sort_key(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(int(v))
    return escape(str(v))


def _td(v: Any, digits: int = 2, *, text: str | None = None, cls: str = "") -> str:
    cls = cls or ("num" if isinstance(v, int | float) and not isinstance(v, bool) else "")
    attr = f' class="{cls}"' if cls else ""
    return f'<td{attr} data-sort="{_sort_key(v)}">{_num(v, digits) if text is None else text}</td>'


def _sortable(table_id: str, headers: Sequence[str], rows: Sequence[str]) -> str:
    head = "".join(f'<th scope="col"><button type="button">{escape(h)}</button></th>' for h in headers)
    return (f'<table class="sortable" id="{table_id}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _link(url: str, label: str) -> str:
    if url.lower().startswith(("http://", "https://")):
        return f'<a href="{escape(url)}" rel="noreferrer noopener">{escape(label)}</a>'
    return escape(label)


def _metrics(r: Report) -> str:
    intervals: Mapping[str, Any] = r.get("intervals") or {}
    rows: list[str] = []
    for key, value in (r.get("metrics") or {}).items():
        lo, hi = (intervals.get(key) or (None, None))[:2]
        ci = "–" if lo is None or hi is None else f"{lo:.2f}–{hi:.2f}"
        bar = interval_bar(value, lo, hi) if isinstance(value, float | int) and not isinstance(value, bool) else ""
        rows.append(f'<tr data-metric="{escape(key)}"><th scope="row">{escape(key)}</th>'
                    f'<td class="num">{_num(value, 3)}</td><td class="num">{ci}</td><td>{bar}</td></tr>')
    counts = ", ".join(f"{escape(k)} {v}" for k, v in (r.get("counts") or {}).items())
    return ('<table class="metrics"><thead><tr><th>metric</th><th class="num">value</th>'
            '<th class="num">95 % CI</th><th>0 – 1</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
            f'<p class="muted">counts: {counts}</p>')


_CITATION_LEGEND = '<div class="legend"><span><i class="cited"></i>cited</span><span><i class="none"></i>not cited</span></div>'
_SUPPORT_LEGEND = ('<div class="legend"><span><i class="supported"></i>cited and supports</span>'
                   '<span><i class="unsupported"></i>cited, does not support</span>'
                   '<span><i class="uncited-support"></i>supports, not cited</span>'
                   '<span><i class="none"></i>neither</span><span><i class="unknown"></i>not judged</span>'
                   '<span>L: lexical rule (the source repeats the statement)</span></div>')


def _lexical(r: Report) -> list[list[float | None]]:
    ids = [s.get("id") for s in r.get("sources") or []]
    return [[(st.get("lexical_support") or {}).get(i) for i in ids] for st in r.get("statements") or []]


def _matrices(r: Report) -> str:
    statements = [str(st.get("text", "")) for st in r.get("statements") or []]
    labels = [f"{s.get('id')} {s.get('domain') or s.get('url') or ''}".strip() for s in r.get("sources") or []]
    C = r.get("citation_matrix") or []
    S = r.get("support_matrix")
    if not statements or not labels:
        return '<p class="muted">no matrix: the answer has no statements or no sources</p>'
    support = (heatmap(C, S, statements, labels, kind="support", lexical=_lexical(r)) + _SUPPORT_LEGEND
               if S is not None else '<p class="muted">support not judged (no judge, no given support, and no '
               'source repeats a statement)</p>')
    return ('<div class="matrices"><div class="matrix-box"><h3>Citation matrix C</h3>'
            + heatmap(C, None, statements, labels, kind="citation") + _CITATION_LEGEND
            + '</div><div class="matrix-box"><h3>Support matrix S</h3>' + support + "</div></div>")


def _statements(r: Report) -> str:
    items: list[str] = []
    for i, st in enumerate(r.get("statements") or []):
        cites = ", ".join(escape(str(c)) for c in st.get("citations") or []) or "–"
        why = st.get("support_reason")
        items.append(f"<li><b>[{i}]</b> {escape(str(st.get('text', '')))} <span class=\"muted\">cites {cites}; "
                     f"relevant {_num(st.get('relevant'))}; stance {_num(st.get('stance'))}</span>"
                     + (f'<span class="why">{escape(str(why))}</span>' if why else "") + "</li>")
    return '<ol class="statements">' + "".join(items) + "</ol>"


def _first_checks(r: Report) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for c in r.get("citations") or []:
        out.setdefault(str(c.get("source")), c)
    return out


def _sources(r: Report, k: int) -> str:
    C, S = r.get("citation_matrix") or [], r.get("support_matrix") or []
    checks = _first_checks(r)
    rows: list[str] = []
    for j, s in enumerate(r.get("sources") or []):
        cited = sum(row[j] for row in C if j < len(row))
        supports = sum(row[j] for row in S if row is not None and j < len(row))
        check = checks.get(str(s.get("id")), {})
        domain = str(s.get("domain") or s.get("url") or "")
        rows.append("<tr>" + _td(str(s.get("id"))) + _td(domain, text=_link(str(s.get("url", "")), domain))
                    + _td(s.get("tier")) + _td(s.get("authority"), 3) + _td(s.get("credibility"))
                    + _td(s.get("trust")) + _td(s.get("credible")) + _td(check.get("source_type"))
                    + _td(check.get("source_suitability")) + _td(cited) + _td(supports if r.get("support_matrix") is not None else None)
                    + _td(s.get("rubric_score"), 1) + "</tr>")
    headers = ("id", "domain", "tier", "authority", "credibility", "trust", "credible", "source type",
               "suitable", "cited by", "supports", "rubric score")
    return _sortable(f"sources-{k}", headers, rows)


def _citations(r: Report) -> str:
    sources = {str(s.get("id")): s for s in r.get("sources") or []}
    rows: list[str] = []
    for c in r.get("citations") or []:
        s = sources.get(str(c.get("source")), {})
        rows.append(f"<tr><td>[{escape(str(c.get('statement')))}]</td><td>{escape(str(c.get('source')))}</td>"
                    f"<td>{escape(str(s.get('domain') or ''))}</td><td class=\"num\">{_num(s.get('trust'))}</td>"
                    f"<td>{_num(c.get('source_type'))}</td><td>{_num(c.get('source_suitability'))}</td>"
                    f"<td class=\"num\">{_num(c.get('suitability_score'))}</td>"
                    f"<td>{_num(c.get('intent_purpose_alignment'))}</td><td>{_num(c.get('answer_source_fidelity'))}</td>"
                    f"<td>{_num(c.get('verified_misguidance'))}</td></tr>")
    if not rows:
        return '<p class="muted">no citations</p>'
    head = "".join(f"<th>{h}</th>" for h in ("statement", "source", "domain", "trust", "source type", "suitable",
                                              "suitability", "intent fits", "faithful", "misguidance"))
    return f'<table class="citations"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _answer(r: Report, k: int, *, batch: bool) -> str:
    judge = r.get("judge") or {}
    meta = [f"id {escape(str(r['id']))}" if r.get("id") else "", f"system {escape(str(r['system']))}" if r.get("system") else "",
            f"judge {escape(str(judge.get('backend')))}:{escape(str(judge.get('model')))}" if judge else "judge none"]
    notes = "".join(f"<li>{escape(str(n))}</li>" for n in r.get("notes") or [])
    body = (f'<p class="meta">{" · ".join(m for m in meta if m)}</p><h3>Metrics</h3>{_metrics(r)}{_matrices(r)}'
            f"<h3>Statements</h3>{_statements(r)}<h3>Sources</h3>{_sources(r, k)}"
            f"<h3>Citations (CiteTrace)</h3>{_citations(r)}"
            + (f'<h3>Notes</h3><ul class="notes">{notes}</ul>' if notes else ""))
    question = escape(str(r.get("question", "")))
    if batch:
        return (f'<details class="answer" id="answer-{k}"><summary>[{k}] {question}</summary>'
                f'<section class="answer">{body}</section></details>')
    return f'<section class="answer" id="answer-{k}"><h2>{question}</h2>{body}</section>'


def _index(reports: Sequence[Report]) -> str:
    keys = {"groundedness": "grounded", "citation_accuracy": "citation accuracy",
            "unsupported_statements_ratio": "unsupported", "credibility_rate": "credible"}
    rows: list[str] = []
    for k, r in enumerate(reports):
        m = r.get("metrics") or {}
        q = str(r.get("question", ""))
        link = f'<a class="open-answer" href="#answer-{k}">{escape(q[:90] + ("…" if len(q) > 90 else ""))}</a>'
        rows.append("<tr>" + _td(k) + _td(str(r.get("id", ""))) + _td(str(r.get("system", "")))
                    + _td(q, text=link, cls="wide") + _td(len(r.get("statements") or []))
                    + _td(len(r.get("sources") or [])) + "".join(_td(m.get(key), 3, cls="num") for key in keys) + "</tr>")
    headers = ("#", "id", "system", "question", "statements", "sources", *keys.values())
    return "<h2>Answers</h2>" + _sortable("answers", headers, rows)


def _aggregates(aggregates: Mapping[str, Mapping[str, Any]]) -> str:
    out = ["<h2>Per system</h2>"]
    for system, agg in aggregates.items():
        rows: list[str] = []
        for key, s in (agg.get("metrics") or {}).items():
            rows.append(_agg_row(key, s.get("mean"), s.get("lo"), s.get("hi"), s.get("n"), str(s.get("ci", ""))))
        for key, p in (agg.get("pooled") or {}).items():
            rows.append(_agg_row(f"{key} (pooled)", p.get("rate"), p.get("lo"), p.get("hi"), p.get("n"), "agresti-coull"))
        cost = ", ".join(f"{escape(k)} {_num(v)}" for k, v in (agg.get("cost_per_answer") or {}).items())
        out.append(f'<h3>{escape(str(system))} ({agg.get("answers")} answers)</h3>'
                   f'<table class="aggregate" data-system="{escape(str(system))}"><thead><tr><th>metric</th>'
                   '<th class="num">value</th><th class="num">95 % CI</th><th>0 – 1</th><th class="num">n</th>'
                   f'<th>interval</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
                   f'<p class="muted">LLM cost per answer: {cost}</p>')
    return "".join(out)


def _agg_row(key: str, mean: Any, lo: Any, hi: Any, n: Any, how: str) -> str:
    ci = "–" if lo is None or hi is None else f"{lo:.2f}–{hi:.2f}"
    return (f'<tr data-metric="{escape(key)}"><th scope="row">{escape(key)}</th><td class="num">{_num(mean)}</td>'
            f'<td class="num">{ci}</td><td>{interval_bar(mean, lo, hi)}</td><td class="num">{_num(n)}</td>'
            f"<td>{escape(how)}</td></tr>")


def render_html(reports: Sequence[Report], aggregates: Mapping[str, Mapping[str, Any]] | None = None, *,
                title: str = "authorag citation audit") -> str:
    """The whole page for one report (no ``aggregates``) or a batch.

    Args:
        reports: report objects in the JSON shape, in order.
        aggregates: per-system aggregates; given, the page is a batch page (index, collapsible
            answers).
        title: the page title.

    Returns:
        The HTML text (UTF-8), loading nothing from the network.
    """
    script = _asset("report.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; img-src data:"
    batch = aggregates is not None
    body = ((_aggregates(aggregates) + _index(reports)) if aggregates is not None else "") + "".join(
        _answer(r, k, batch=batch) for k, r in enumerate(reports))
    what = f"{len(reports)} answers" if batch else "one answer"
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
            f"<style>{_asset('report.css')}</style></head><body><header><h1>{escape(title)}</h1>"
            f'<p class="meta">{what} · made by authorag · nothing on this page was fetched</p></header>'
            f"<main>{body}</main><script>{script}</script></body></html>\n")


__all__ = ["render_html"]
