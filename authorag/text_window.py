"""The part of a long text authorag reads: its head and evenly spaced samples of the rest.

Page evidence (:mod:`authorag.evidence.text`) and query-term coverage
(:mod:`authorag.relevance.coverage`) read at most :data:`READ_CHARS` characters of a candidate's
text: the opening :data:`HEAD_CHARS` (title, byline, review notes, the answer a page leads with)
and :data:`SAMPLES` evenly spaced samples of :data:`SAMPLE_CHARS` from the rest (citations and
reference lists sit further down). Their work per candidate is bounded however long the page.

Example:
    >>> read_window("short page") == "short page"
    True
    >>> len(read_window("x" * 100_000)) <= READ_CHARS + SAMPLES
    True
"""
from __future__ import annotations

HEAD_CHARS = 4000
SAMPLES = 4
SAMPLE_CHARS = 1000
READ_CHARS = HEAD_CHARS + SAMPLES * SAMPLE_CHARS
"""At most this many characters of a text are read, however long it is (plus a space between samples)."""


def read_window(text: str) -> str:
    """``text`` itself when it has at most :data:`READ_CHARS` characters, else its head and
    :data:`SAMPLES` evenly spaced samples of the rest, joined by spaces."""
    if len(text) <= READ_CHARS:
        return text
    rest = len(text) - HEAD_CHARS
    step = rest // SAMPLES
    parts = [text[:HEAD_CHARS]]
    parts += [text[HEAD_CHARS + i * step: HEAD_CHARS + i * step + SAMPLE_CHARS] for i in range(SAMPLES)]
    return " ".join(parts)


__all__ = ["HEAD_CHARS", "READ_CHARS", "SAMPLES", "SAMPLE_CHARS", "read_window"]
