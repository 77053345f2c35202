"""Who may lead the window: pages on topic that repeat the question get no lead on relevance.

Inside the window (:func:`~authorag.rerankers.fusion.fuse`) relevance and trust order the on-topic
pages. Repeating the question is not evidence of answering it: a keyword-stuffed page
(:func:`no_lead`) and a page whose text restates the question (:func:`restated_no_lead`) keep their
place in the window but rank just below the least relevant on-topic page that answers in its own
words, so trust decides between them and an answer.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from authorag.rerankers.calibration import named

if TYPE_CHECKING:
    from authorag.rerankers.fusion import WindowText

Array = NDArray[np.float64]

ANSWER_WORDS = 0.5
"""Share of the query's content words an on-topic page must hold, beyond this, to be an answer
that :func:`restated_no_lead` measures a restating page against (a page that shares fewer only
mentions the question's words: it sets no floor)."""


NO_LEAD_NOTE = ("keyword-stuffed pages get no lead on relevance: set just below the least relevant on-topic page that is not, "
                "then ordered with trust as any")
"""The note :func:`~authorag.rerankers.fusion.fuse` adds when :func:`no_lead` lowered a candidate's relevance."""

NO_LEAD_MARGIN = 1e-6
"""How far below the least relevant on-topic page it does not mark :func:`no_lead` puts a page:
enough to break a tie, too little to show in a breakdown."""


def no_lead(relevance: Array, stuffed: NDArray[np.bool_] | None, on_topic: float) -> tuple[Array, bool]:
    """Window relevance with every on-topic candidate ``stuffed`` marks (keyword-stuffed:
    :attr:`~authorag.rerankers.fusion.WindowText.stuffed`) lowered to just below the least relevant on-topic candidate it does
    not mark (:data:`NO_LEAD_MARGIN`; to ``on_topic``, the window's share, when none is on topic),
    never out of the window; and whether any was. Nothing changes when no candidate or every
    candidate is marked (nothing to measure against, as the relevance reference reads it). The question's words a stuffed page repeats earn it its place in the window, never a
    lead on relevance over a page that answers in its own words: between two on-topic pages of
    equal trust the other comes first, and trust orders the rest as before. (Pages of low
    credibility or with low-credibility cues are left as they are: lowering them too put a
    sensational but on-topic post below an off-topic trusted page inside the window.)

    Example:
        >>> cal, lowered = no_lead(np.array([1.0, 0.9, 0.3]), np.array([True, False, True]), 0.55)
        >>> cal.round(6).tolist(), lowered
        ([0.899999, 0.9, 0.3], True)
    """
    if stuffed is None or stuffed.size != relevance.size or stuffed.all():
        return relevance, False
    on = relevance >= on_topic
    lower = stuffed & on
    if not lower.any():
        return relevance, False
    answers = relevance[on & ~stuffed]
    floor = max(float(answers.min()) - NO_LEAD_MARGIN, on_topic) if answers.size else on_topic
    lowered = lower & (relevance > floor)
    if not lowered.any():
        return relevance, False
    return np.where(lowered, floor, relevance), True


RESTATED_NOTE = ("pages that restate the question get no lead on relevance: set just below the least relevant on-topic "
                 "page that does not, then ordered with trust as any")
"""The note :func:`~authorag.rerankers.fusion.fuse` adds when :func:`restated_no_lead` lowered a candidate's relevance
(followed by the lowered candidates' names, when the window text has them)."""


def restated_no_lead(relevance: Array, text: WindowText, on_topic: float) -> tuple[Array, str | None]:
    """Window relevance with every on-topic candidate whose text restates the question
    (:attr:`~authorag.rerankers.fusion.WindowText.restates`) and is not keyword-stuffed lowered as :func:`no_lead` lowers a
    stuffed one: to just below the least relevant on-topic candidate that neither restates it nor
    is stuffed and holds more than :data:`ANSWER_WORDS` of the question's words (its coverage), in
    their relevance order (a more relevant one stays nearer, by less than
    :data:`NO_LEAD_MARGIN`). Saying the question again earns a page its place in the window, not a
    lead over a page that answers it in its own words: among on-topic pages trust orders them.
    Nothing changes when no on-topic candidate answers without restating it (nothing to measure
    against). Run before :func:`no_lead`, so a stuffed page still ranks below a restating one. The
    note (:data:`RESTATED_NOTE`, then ``: NAMES`` of the lowered candidates, :func:`named`, when
    ``text.names`` has them) when any was lowered, else None.

    Example:
        >>> from authorag.rerankers.fusion import WindowText
        >>> t = WindowText([1.0, 1.0], np.array([False, False]), restates=np.array([True, False]))
        >>> cal, note = restated_no_lead(np.array([1.0, 0.7]), t, 0.55)
        >>> cal.round(6).tolist(), note == RESTATED_NOTE
        ([0.699999, 0.7], True)
    """
    restates = text.restates
    if restates is None or restates.size != relevance.size or text.stuffed.size != relevance.size:
        return relevance, None
    restates = restates & ~text.stuffed
    marked = restates | text.stuffed
    cov = np.asarray(text.coverage, dtype=np.float64)
    answering = cov > ANSWER_WORDS if cov.size == relevance.size else np.ones(relevance.size, dtype=np.bool_)
    answers = ~marked & (relevance >= on_topic) & answering
    if not restates.any() or not answers.any():
        return relevance, None
    floor = max(float(relevance[answers].min()) - NO_LEAD_MARGIN, on_topic)
    # the more relevant of the lowered pages stays nearer the floor: their own order is kept
    kept = np.maximum(floor - NO_LEAD_MARGIN * 0.5 * (1.0 - np.minimum(relevance, 1.0)), on_topic)
    lowered = restates & (relevance >= on_topic) & (relevance > kept)
    if not lowered.any():
        return relevance, None
    which = named(lowered, text.names)
    return np.where(lowered, kept, relevance), f"{RESTATED_NOTE}: {which}" if which else RESTATED_NOTE


__all__ = ["ANSWER_WORDS", "NO_LEAD_MARGIN", "NO_LEAD_NOTE", "RESTATED_NOTE", "no_lead", "restated_no_lead"]
