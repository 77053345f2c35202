"""Relevance on a scale that survives two or three candidates, and the window fusion built on it.

Min-max scaling turns any relevance gap between two candidates into 1 versus 0, so no
authority weight below one half can overturn it, and with many candidates the spread is noise.
:func:`calibrate` puts relevance relative to the best candidate instead: a candidate scoring
80 % of the best gets 0.8, whatever the number of candidates. The rules (the note says which
one applied, so the breakdown can show it):

* scores all ``>= 0`` (BM25, clipped cosine, a Cohere-style ``relevance_score``, the incoming
  order's ``(n - i) / n``): ``score / best``;
* some score ``< 0`` (logits): min-max over the candidates, said in the note;
* all equal, a single candidate, or a best of 0: every candidate gets 1 (nothing to tell them
  apart), said in the note; NaN counts as no relevance (0), said in the note.

:func:`window_fusion` then lets trust decide among the on-topic candidates and never lifts an
off-topic one: a candidate is *on topic* when its calibrated relevance is at least
``window`` (a share of the best). Every on-topic candidate ends above every off-topic one; the
on-topic ones are ordered by ``(1 - weight) · relevance + weight · trust``, the off-topic ones by
relevance alone.

Example:
    >>> import numpy as np
    >>> q, note = calibrate(np.array([7.5, 3.0, 0.0]))
    >>> q.tolist(), note
    ([1.0, 0.4, 0.0], None)
    >>> window_fusion(np.array([1.0, 0.6, 0.2]), np.array([0.05, 0.9, 0.9]), 0.7, 0.5).round(3).tolist()
    [0.668, 0.905, 0.2]
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]


EQUAL = "relevance equal for every candidate"
"""What a note says when the relevance tells no candidate apart (then trust orders them)."""


def calibrate(values: Array, stuffed: NDArray[np.bool_] | None = None,
              names: Sequence[str] = (), low: NDArray[np.bool_] | None = None,
              cues: Sequence[Sequence[str]] = (), part: bool = False) -> tuple[Array, str | None]:
    """Relevance relative to the best candidate (see the module doc), and a note when a rule
    other than ``score / best`` applied.

    ``stuffed`` marks keyword-stuffed candidates (:func:`~authorag.relevance.coverage.keyword_stuffed`),
    ``low`` candidates with a present low-credibility finding (:meth:`~authorag.trust.TrustRule.low_credibility`:
    a look-alike of a trusted domain, a known-unreliable or phishing site), ``cues`` per candidate
    the low-credibility cues its text shows (:func:`~authorag.evidence.text.read_texts`; empty:
    none): the best is then taken over the others, and an excluded candidate's value is capped
    at 1, so one page that repeats the query, imitates an institution with the query's words or
    shouts a fabricated story in them cannot push every careful page off topic. ``names`` (the
    candidates' URLs, in order) let the note say which ones (:func:`stuffed_note`,
    :func:`low_note`, :func:`cues_note`). ``part``: the values are one part of the window's
    relevance (mixed with coverage, or capped by the words), so when they tell no candidate apart
    the note does not say that trust orders: the other part may still tell them apart.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return arr, None
    note: str | None = None
    bad = np.isnan(arr) | np.isinf(arr)
    if bad.any():
        arr = np.where(bad, 0.0, arr)
        note = f"{int(bad.sum())} relevance score(s) not a finite number, read as 0"
    lo, hi = float(arr.min()), float(arr.max())
    if arr.size == 1 or hi - lo <= 1e-12 or hi <= 0.0:
        why = "one candidate" if arr.size == 1 else EQUAL if hi - lo <= 1e-12 \
            else "no candidate has relevance above 0"
        return np.ones_like(arr), note if part else join_notes(note, f"{why}: trust orders")
    if lo < 0.0:
        return (arr - lo) / (hi - lo), join_notes(note, "scores below 0: min-max scaled")
    excluded, said = _excluded(arr.size, stuffed, low, names, cues)
    if excluded is not None:
        best = float(arr[~excluded].max())
        if best > 0.0:
            return np.minimum(arr / best, 1.0), join_notes(note, said)
        # only excluded pages have relevance: repeating the query is no evidence, trust orders
        why = said if part else join_notes("no candidate but keyword-stuffed or low-credibility ones has relevance "
                                           "above 0: trust orders", said)
        return np.ones_like(arr), join_notes(note, why)
    return arr / hi, note


def not_reference(size: int, stuffed: NDArray[np.bool_] | None = None, low: NDArray[np.bool_] | None = None,
                  cues: Sequence[Sequence[str]] = ()) -> NDArray[np.bool_]:
    """The candidates never used as the relevance reference: keyword-stuffed (``stuffed``), with a
    present low-credibility finding (``low``) or showing low-credibility cues (``cues``, per
    candidate), each read only when it has one value per candidate.

    Example:
        >>> not_reference(3, np.array([True, False, False]), None, [(), ("alarm",), ()]).tolist()
        [True, True, False]
    """
    out = np.zeros(size, dtype=np.bool_)
    for mask in (stuffed, low):
        if mask is not None and mask.size == size:
            out |= mask
    if len(cues) == size:
        out |= np.fromiter((bool(c) for c in cues), dtype=np.bool_, count=size)
    return out


def _excluded(size: int, stuffed: NDArray[np.bool_] | None, low: NDArray[np.bool_] | None,
              names: Sequence[str], cues: Sequence[Sequence[str]] = ()) -> tuple[NDArray[np.bool_] | None, str | None]:
    """The candidates never used as the relevance reference (stuffed, low credibility or showing
    low-credibility cues) and the note naming them (each once); None when there
    are none, or when every candidate is one (nothing is left to measure against: the scores are
    read as they are)."""
    excluded = not_reference(size, stuffed, low, cues)
    if not excluded.any() or excluded.all():
        return None, None
    cued = np.fromiter((bool(c) for c in cues), dtype=np.bool_, count=len(cues)) if len(cues) == size else None
    for earlier in (stuffed, low):  # a candidate is named once, for the first reason
        if cued is not None and earlier is not None and earlier.size == size:
            cued &= ~earlier
    low_named = low & ~stuffed if low is not None and stuffed is not None and low.size == stuffed.size else low
    said = join_notes(stuffed_note(stuffed, names) if stuffed is not None and stuffed.any() else None,
                      low_note(low_named, names) if low_named is not None and low_named.any() else None)
    return excluded, join_notes(said, cues_note(cued, cues, names) if cued is not None and cued.any() else None)


NAMED = 5
"""Candidates a note names at most (then how many more)."""


def stuffed_note(stuffed: NDArray[np.bool_], names: Sequence[str] = ()) -> str:
    """The note saying which candidates are keyword-stuffed: their ``names`` (at most
    :data:`NAMED`), or their count when no names are given.

    Example:
        >>> stuffed_note(np.array([True, False, True]), ["https://a.org/x", "https://b.org", "https://c.org/y"])
        'keyword-stuffed, not used as the relevance reference: https://a.org/x, https://c.org/y'
        >>> stuffed_note(np.array([True, False]))
        '1 keyword-stuffed candidate(s) not used as the relevance reference'
    """
    return _not_reference_note(stuffed, names, "keyword-stuffed")


def low_note(low: NDArray[np.bool_], names: Sequence[str] = ()) -> str:
    """The note saying which candidates have a present low-credibility finding and so are never
    the relevance reference: their ``names`` (at most :data:`NAMED`), or their count.

    Example:
        >>> low_note(np.array([False, True]), ["https://a.org/x", "https://a-org.example-pay.com/"])
        'low credibility, not used as the relevance reference: https://a-org.example-pay.com/'
        >>> low_note(np.array([True, False]))
        '1 low-credibility candidate(s) not used as the relevance reference'
    """
    return _not_reference_note(low, names, "low credibility", "low-credibility")


def cues_note(cued: NDArray[np.bool_], cues: Sequence[Sequence[str]], names: Sequence[str] = ()) -> str:
    """The note saying which candidates ``cued`` marks, never the relevance reference because their
    text shows low-credibility cues, and which cues (``cues``: per candidate, the cues' names).

    Example:
        >>> cues_note(np.array([True, False]), [("alarm and calls to spread",), ()], ["https://a.example/x", "b"])
        'low-credibility cues (alarm and calls to spread), not used as the relevance reference: https://a.example/x'
    """
    shown = ", ".join(dict.fromkeys(cue for c, m in zip(cues, cued.tolist()) if m for cue in c))
    return _not_reference_note(cued, names, f"low-credibility cues ({shown})", "low-credibility-cue")


def named(mask: NDArray[np.bool_], names: Sequence[str]) -> str:
    """The ``names`` of the candidates ``mask`` marks, as a note lists them: at most :data:`NAMED`,
    then how many more; empty when ``names`` names none of them.

    Example:
        >>> named(np.array([True] * 7), [f"u{n}" for n in range(7)]), named(np.array([True]), [])
        ('u0, u1, u2, u3, u4 and 2 more', '')
    """
    which = [str(n) for n, s in zip(names, mask.tolist()) if s]
    more = f" and {len(which) - NAMED} more" if len(which) > NAMED else ""
    return f"{', '.join(which[:NAMED])}{more}" if which else ""


def _not_reference_note(mask: NDArray[np.bool_], names: Sequence[str], finding: str, adjective: str = "") -> str:
    """``finding, not used as the relevance reference: NAMES`` for the candidates ``mask`` marks
    (:func:`named`), or ``N {adjective} candidate(s) ...`` without names."""
    which = named(mask, names)
    if not which:
        return f"{int(mask.sum())} {adjective or finding} candidate(s) not used as the relevance reference"
    return f"{finding}, not used as the relevance reference: {which}"


def join_notes(a: str | None, b: str | None) -> str | None:
    """Two calibration notes as one (``"a; b"``), either of them possibly None; a part already
    in ``a`` is not repeated.

    Example:
        >>> join_notes("x; y", "y"), join_notes(None, "y"), join_notes("x", "y")
        ('x; y', 'y', 'x; y')
    """
    if a is None or b is None:
        return b if a is None else a
    have = a.split("; ")
    new = [part for part in b.split("; ") if part not in have]
    return "; ".join([*have, *new]) if new else a


def window_fusion(relevance: Array, trust: Array, weight: float, window: float) -> Array:
    """Fused scores on 0–1: on-topic candidates (``relevance >= window``) on [0.5, 1], ordered by
    ``(1 - weight) · relevance + weight · trust``; the rest on [0, 0.5), in relevance order
    (``0.5 · relevance / window``): trust never reorders candidates off topic, so an off-topic
    trusted page cannot pass a page that is nearer the question."""
    on = relevance >= window
    mixed = (1.0 - weight) * relevance + weight * trust
    off = 0.5 * np.minimum(relevance / window if window > 0 else 0.0, np.nextafter(1.0, 0.0))
    return np.where(on, 0.5 + 0.5 * mixed, off)


PRIOR_FLOOR = 1e-3
"""Smallest relevance or signal the multiplicative fusion takes the logarithm of."""


def prior_fusion(relevance: Array, trust: Array, weight: float) -> Array:
    """``relevance^(1 - weight) · trust^weight``: trust as a document prior, the way IR combines a
    query likelihood with a prior (log relevance + log prior). Both are floored at
    :data:`PRIOR_FLOOR`, so a zero never wipes out the other.

    Example:
        >>> prior_fusion(np.array([1.0, 0.25]), np.array([0.1, 0.9]), 0.5).round(3).tolist()
        [0.316, 0.474]
    """
    rel = np.maximum(relevance, PRIOR_FLOOR)
    sig = np.maximum(trust, PRIOR_FLOOR)
    return np.exp((1.0 - weight) * np.log(rel) + weight * np.log(sig))


__all__ = ["EQUAL", "NAMED", "PRIOR_FLOOR", "calibrate", "cues_note", "join_notes", "low_note", "named", "not_reference", "prior_fusion",
           "stuffed_note", "window_fusion"]
