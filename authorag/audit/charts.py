"""Inline SVG for the HTML audit page: matrix heatmaps and value bars with 95 % intervals.

Everything is drawn as SVG text in the page (no script, no image file, no font download).
Each matrix cell is one ``<rect class="cell">`` with ``data-row`` (statement), ``data-col``
(source) and ``data-state``, and a ``<title>`` tooltip saying what the cell means.

Cell states of the support matrix: ``supported`` (the source supports the statement, the
statement cites it), ``uncited-support`` (supports it, not cited), ``unsupported`` (cited, does
not support it: the failure DeepTRACE's citation accuracy counts), ``none`` (neither) and
``unknown`` (the row was not judged). Citation matrix: ``cited`` or ``none``.

Example:
    >>> svg = heatmap([[1, 0]], None, ["A statement."], ["1 nih.gov", "2 a.org"], kind="citation")
    >>> svg.count('class="cell'), 'data-state="cited"' in svg
    (2, True)
"""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

CELL = 22
"""Side of one matrix cell in pixels."""
LABEL_CHARS = 46
"""Characters of a statement shown as its row label (the full text is in the tooltip)."""
COLUMN_CHARS = 24
"""Characters of a source label shown above its column (the full label is in the tooltip)."""

Rows = Sequence[Sequence[int] | None]


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _state(kind: str, cited: int, support: Sequence[int] | None, j: int) -> str:
    if kind == "citation":
        return "cited" if cited else "none"
    if support is None:
        return "unknown"
    if support[j]:
        return "supported" if cited else "uncited-support"
    return "unsupported" if cited else "none"


_STATE_TEXT = {
    "cited": "cited", "none": "neither cited nor supporting", "unknown": "support not judged",
    "supported": "cited and supports it", "uncited-support": "supports it, not cited",
    "unsupported": "cited but does not support it",
}


def heatmap(citation: Rows, support: Rows | None, statements: Sequence[str], sources: Sequence[str], *,
            kind: str, lexical: Sequence[Sequence[float | None]] = ()) -> str:
    """One matrix as an SVG heatmap: rows are statements, columns sources (in input order).

    Args:
        citation: C (statements × sources, 0/1).
        support: S (rows None where unknown); only read for ``kind="support"``.
        statements: statement texts (row labels, shortened; full text in the tooltip).
        sources: column labels (``"id domain"``).
        kind: ``"citation"`` or ``"support"``.
        lexical: per cell, the lexical rule's coverage where it fired (marked with an ``L``).
    """
    n, m = len(statements), len(sources)
    left = 42 + 6 * max((len(_short(s, LABEL_CHARS)) for s in statements), default=4)
    label = 6 * max((len(_short(s, COLUMN_CHARS)) for s in sources), default=4)  # rotated by 50°: ~0.77 up, ~0.64 right
    top = 16 + int(0.77 * label)
    width, height = left + m * CELL + int(0.64 * label) + 10, top + n * CELL + 10
    out = [f'<svg class="matrix matrix-{kind}" role="img" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" data-rows="{n}" data-cols="{m}">',
           f"<title>{escape(kind)} matrix: {n} statements × {m} sources</title>"]
    for j, name in enumerate(sources):
        x = left + j * CELL + CELL // 2
        out.append(f'<text class="col-label" x="{x}" y="{top - 6}" transform="rotate(-50 {x} {top - 6})">'
                   f"{escape(_short(name, COLUMN_CHARS))}<title>{escape(name)}</title></text>")
    for i, text in enumerate(statements):
        y = top + i * CELL
        out.append(f'<text class="row-label" x="{left - 6}" y="{y + CELL * 0.68:.0f}" text-anchor="end">'
                   f"[{i}] {escape(_short(text, LABEL_CHARS))}<title>[{i}] {escape(text)}</title></text>")
        crow = citation[i] or [0] * m
        srow = support[i] if support is not None else None
        for j in range(m):
            state = _state(kind, crow[j], srow, j)
            lex = lexical[i][j] if kind == "support" and i < len(lexical) and j < len(lexical[i]) else None
            tip = f"[{i}] × source {sources[j]}: {_STATE_TEXT[state]}"
            if lex is not None:
                tip += f" (lexical rule: {100 * lex:.0f} % of the statement's words in the source)"
            x = left + j * CELL
            out.append(f'<rect class="cell {state}" x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'data-row="{i}" data-col="{j}" data-state="{state}"><title>{escape(tip)}</title></rect>')
            if lex is not None:
                out.append(f'<text class="lex" x="{x + CELL // 2 - 1}" y="{y + CELL * 0.68:.0f}" '
                           f'text-anchor="middle">L</text>')
    out.append("</svg>")
    return "".join(out)


def interval_bar(value: float | None, lo: float | None, hi: float | None, *, width: int = 140) -> str:
    """A 0–1 bar for ``value`` with a whisker from ``lo`` to ``hi`` (empty frame when None).

    Example:
        >>> 'class="bar"' in interval_bar(0.5, 0.1, 0.9), 'class="bar"' in interval_bar(None, None, None)
        (True, False)
    """
    def x(v: float) -> float:
        return 1 + max(0.0, min(1.0, v)) * (width - 2)

    parts = [f'<svg class="ci" xmlns="http://www.w3.org/2000/svg" width="{width}" height="14" '
             f'viewBox="0 0 {width} 14" aria-hidden="true"><rect class="frame" x="0.5" y="2.5" '
             f'width="{width - 1}" height="9"/>']
    if value is not None:
        parts.append(f'<rect class="bar" x="1" y="3" width="{x(value) - 1:.1f}" height="8"/>')
    if lo is not None and hi is not None:
        parts.append(f'<path class="whisker" d="M{x(lo):.1f} 7H{x(hi):.1f}M{x(lo):.1f} 3V11M{x(hi):.1f} 3V11"/>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["CELL", "COLUMN_CHARS", "LABEL_CHARS", "heatmap", "interval_bar"]
