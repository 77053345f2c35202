"""Pure fusion functions: score normalization, weighted linear fusion, reciprocal rank fusion."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.rerankers.calibration import (
    EQUAL,
    calibrate,
    join_notes,
    named,
    not_reference,
    prior_fusion,
    window_fusion,
)
from authorag.rerankers.leads import NO_LEAD_NOTE, no_lead, restated_no_lead

Array = NDArray[np.float64]


def minmax(values: Sequence[float] | Array) -> Array:
    """Scale to [0, 1]; constant input maps to all 0.5 (no information, no preference).

    Example:
        >>> minmax([2.0, 4.0, 3.0]).tolist()
        [0.0, 1.0, 0.5]
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return arr
    lo, hi = float(arr.min()), float(arr.max())
    if hi - lo <= 1e-12:
        return np.full_like(arr, 0.5)
    return (arr - lo) / (hi - lo)


def ranks_desc(values: Sequence[float] | Array) -> Array:
    """1-based ranks, highest value first; ties share the best (smallest) rank."""
    arr = np.asarray(values, dtype=np.float64)
    order = np.argsort(-arr, kind="stable")
    ranks = np.empty(arr.size, dtype=np.float64)
    ranks[order] = np.arange(1, arr.size + 1, dtype=np.float64)
    for value in np.unique(arr):  # ties: every member gets the group's best rank
        mask = arr == value
        if mask.sum() > 1:
            ranks[mask] = ranks[mask].min()
    return ranks


def linear_fusion(relevance: Array, authority: Array, weight: float) -> Array:
    """``(1 - weight) * relevance + weight * authority`` on already-normalized arrays."""
    return (1.0 - weight) * relevance + weight * authority


def rrf_fusion(relevance: Array, authority: Array, weight: float, k: float = 60.0) -> Array:
    """Weighted reciprocal rank fusion: ``(1-w)/(k + rank_rel) + w/(k + rank_auth)``.

    Unlike unweighted RRF, ``weight`` really moves the result: weight 0 reproduces the relevance
    order and weight 1 the authority order.
    """
    return (1.0 - weight) / (k + ranks_desc(relevance)) + weight / (k + ranks_desc(authority))


@dataclass(frozen=True, slots=True)
class Fusion:
    """What :func:`fuse` gives: the relevance fused (``relevance.norm``), the fused scores, and a
    note on how relevance was calibrated (None when nothing unusual happened)."""

    relevance: Array
    fused: Array
    note: str | None


COVERAGE_SHARE = 0.7
"""Share of query-term coverage in the window's relevance when it is mixed with BM25 or the
incoming order (the rest is that relevance, each relative to its best candidate)."""


@dataclass(frozen=True, slots=True)
class WindowText:
    """What the window fusion reads from the candidates' text.

    The window's relevance is coverage and relevance (BM25, upstream scores or the incoming
    order) mixed by :data:`COVERAGE_SHARE`, each relative to its best candidate, then relative to
    the best candidate that is not stuffed; relevance alone when every candidate has the same
    coverage, unless the relevance is ``ordinal``.

    Attributes:
        coverage: query-term coverage per candidate.
        stuffed: keyword-stuffed candidates (never the relevance reference).
        ordinal: the relevance is the incoming order (no scores), which says too little about
            topic to decide the window alone.
        lexical: BM25 scores of the candidates' text, given when the relevance judges meaning
            (a :class:`~authorag.relevance.base.SemanticScorer` such as dense similarity; upstream
            scores are not assumed to, since a BM25 retriever's do not). The window then mixes
            coverage with these instead, as it does for BM25 relevance, and caps the mix by the
            calibrated relevance: a candidate is on topic only when the query's words and the
            relevance scores both say so, so a trusted page that shares the query's words but
            answers another question stays out. For the window fusion the scores are first put
            on the words' scale (:func:`meaning_on_words_scale`): they must reach
            :func:`default_meaning_on_topic` of the best, a stricter share than the words'; the
            words then need only :func:`words_on_topic` of their best, a looser share: the
            meaning decides, the words veto a page far from the question's words.
    """

    coverage: Sequence[float]
    stuffed: NDArray[np.bool_]
    ordinal: bool = False
    lexical: Sequence[float] | None = None
    names: Sequence[str] = ()
    """The candidates' URLs, in order: the notes name the candidates they are about."""
    cues: Sequence[tuple[str, ...]] = ()
    """Per candidate, the low-credibility cues its text shows (their names; empty: none): like a
    keyword-stuffed one, such a candidate is never the relevance reference."""
    subject: Sequence[float] = ()
    """Per candidate, the share of the query's content words its address and lead name
    (:func:`~authorag.relevance.subject.subject_coverage`; empty: not read): :func:`subject_off_topic`."""
    restates: NDArray[np.bool_] | None = None
    """Candidates whose text restates the question (:func:`~authorag.rerankers.restated.restating`):
    in the window they get no lead on relevance (:func:`restated_no_lead`); None: none."""
    posts: NDArray[np.bool_] | None = None
    """Candidates that are a user's post on a forum, Q&A, social or video platform
    (:func:`~authorag.platforms.user_post`): :func:`subject_off_topic` never keeps one out, and with
    a relevance that judges meaning its window relevance is that meaning alone (no words' veto);
    None: none."""


def default_meaning_on_topic(on_topic: float) -> float:
    """``RerankPolicy.meaning_on_topic`` when it is None: the share of the best meaning score a
    candidate needs to be on topic when the relevance judges meaning, the square root of the
    words' share ``on_topic`` (0.74 at the default 0.55).

    Similarities between texts on one subject bunch together, so at the words' share a page that
    shares the question's subject but answers another question passes by its meaning too. The
    root is stricter inside (0, 1) and equal at both ends (0: every candidate on topic; 1: only
    the best). Chosen on the dev halves against the words' share itself and fixed shares 0.7–0.9
    (benchmarks/results/trust/README.md, "The meaning's own share of the window").

    Example:
        >>> round(default_meaning_on_topic(0.55), 3), default_meaning_on_topic(0.0), default_meaning_on_topic(1.0)
        (0.742, 0.0, 1.0)
    """
    return math.sqrt(on_topic)


WORDS_POWER = 1.5
"""With a relevance that judges meaning, the words' window needs ``on_topic ** WORDS_POWER`` of
its best (:func:`words_on_topic`). Chosen on the dev halves against 1 (the words' own share, the
earlier rule: the reference page of an error message falls out) and 2 (an off-topic trusted page
of the no-harm pairs gets in)."""


def words_on_topic(on_topic: float) -> float:
    """The share of the best words' window (coverage mixed with BM25) a candidate needs when the
    relevance judges meaning: ``on_topic ** WORDS_POWER``, looser than ``on_topic`` inside (0, 1).

    A page that explains the question without quoting it (the reference documentation for an
    error message that every Q&A page quotes) lacks some of the question's words, so at the
    words' own share the words would veto what the meaning says; the meaning already asks for a
    stricter share (:func:`default_meaning_on_topic`).

    Example:
        >>> round(words_on_topic(0.55), 4), words_on_topic(0.0), words_on_topic(1.0)
        (0.4079, 0.0, 1.0)
    """
    return on_topic ** WORDS_POWER


def meaning_on_words_scale(meaning: Array, on_topic: float, meaning_on_topic: float | None = None) -> Array:
    """Calibrated meaning scores mapped onto the words' scale, piecewise linearly and in order:
    ``meaning_on_topic`` of the best (None: :func:`default_meaning_on_topic`) lands on
    ``on_topic``, 0 stays 0 (unless ``meaning_on_topic`` is 0: every score is then on topic) and
    1 stays 1, so the window's one test (``>= on_topic``) asks for both shares.
    ``meaning_on_topic`` equal to ``on_topic`` leaves the scores as they are.

    Example:
        >>> meaning_on_words_scale(np.array([1.0, 0.8, 0.7]), 0.49).round(3).tolist()
        [1.0, 0.66, 0.49]
    """
    share = default_meaning_on_topic(on_topic) if meaning_on_topic is None else meaning_on_topic
    if share == on_topic:
        return meaning
    if share >= 1.0:  # only the best by meaning
        return np.where(meaning >= 1.0, 1.0, meaning * on_topic)
    above = on_topic + (meaning - share) * ((1.0 - on_topic) / (1.0 - share))
    if share <= 0.0:  # every candidate by meaning
        return above
    return np.where(meaning < share, meaning * (on_topic / share), above)


def window_relevance(relevance: Array, text: WindowText | None, on_topic: float | None = None,
                     meaning_on_topic: float | None = None, low: NDArray[np.bool_] | None = None
                     ) -> tuple[Array, str | None]:
    """The relevance the window fusion uses: calibrated relevance (no text), or the mix of
    coverage with relevance (capped by the calibrated relevance when :attr:`WindowText.lexical` is
    given; with ``on_topic``, the window's share, that relevance is first put on the words' scale
    by :func:`meaning_on_words_scale`, ``meaning_on_topic`` of the best landing on ``on_topic``).
    ``low`` marks candidates with a present low-credibility finding: like keyword-stuffed ones and
    those whose text shows low-credibility cues (:attr:`WindowText.cues`), they are never the
    reference the others are measured against (:func:`calibrate`). With a relevance that judges
    meaning a user's post (:attr:`WindowText.posts`) is read by its meaning alone: a reply answers
    its thread's question in its own words, which the words' share would veto."""
    if text is None:
        return calibrate(relevance, low=low)
    stuffed, names, cues = text.stuffed, text.names, text.cues
    cov = np.asarray(text.coverage, dtype=np.float64)
    if not text.ordinal and cov.size and float(cov.max() - cov.min()) <= 1e-12:
        cal, note = calibrate(relevance, stuffed, names, low, cues)  # coverage tells none apart: the scores decide
        if text.lexical is not None and on_topic is not None:  # they judge meaning: the meaning's share
            cal = meaning_on_words_scale(cal, on_topic, meaning_on_topic)
        return cal, note
    if text.lexical is not None:  # the words' window, capped by what the relevance scores say
        words, why = _mix(cov, np.asarray(text.lexical, dtype=np.float64), text, low, part=True)
        meaning, note = calibrate(relevance, stuffed, names, low, cues, part=True)
        if on_topic is not None:
            meaning = meaning_on_words_scale(meaning, on_topic, meaning_on_topic)
            words = meaning_on_words_scale(words, on_topic, words_on_topic(on_topic))
        window = np.minimum(words, meaning)
        if text.posts is not None and text.posts.size == window.size:  # a reply needs not repeat the question's words
            window = np.where(text.posts, meaning, window)
        return window, join_notes(join_notes(note, why), _equal_note(window))
    return _mix(cov, relevance, text, low)


def _mix(cov: Array, relevance: Array, text: WindowText, low: NDArray[np.bool_] | None = None,
         part: bool = False) -> tuple[Array, str | None]:
    """Coverage and relevance mixed by :data:`COVERAGE_SHARE`, each relative to its best, then
    relative to the best candidate that is not keyword-stuffed, of low credibility or showing
    low-credibility cues. Relevance equal for every candidate is no note of its own: coverage may
    still tell them apart, and the mix says whether it does (``part``: the mix is capped by
    another part, which says so)."""
    rel, note = calibrate(relevance, part=True)
    mixed, why = calibrate(COVERAGE_SHARE * calibrate(cov)[0] + (1.0 - COVERAGE_SHARE) * rel, text.stuffed,
                           text.names, low, text.cues, part=part)
    return mixed, join_notes(note, why)


def _equal_note(window: Array) -> str | None:
    """The note of a window relevance that tells no candidate apart (trust orders them), else None."""
    flat = window.size > 1 and float(window.max() - window.min()) <= 1e-12
    return f"{EQUAL}: trust orders" if flat else None


SUBJECT_MARGIN = 1e-6
"""How far below the window's share :func:`subject_off_topic` puts a page it keeps out."""

SUBJECT_PASSING = 0.5
"""Share of the query's content words a page's text holds at most for its words to be read as
passing mentions when its address and lead name none of them (:func:`subject_off_topic`)."""


def subject_off_topic(relevance: Array, text: WindowText, on_topic: float, low: NDArray[np.bool_] | None = None
                      ) -> tuple[Array, NDArray[np.bool_]]:
    """Window relevance with the candidates that only mention the question's words kept out of
    the window, and which were. Such a candidate's subject names none of the query's content
    words (:attr:`WindowText.subject`: its address and lead) while the subject of a candidate that
    may be the relevance reference names some (not keyword-stuffed, without low-credibility cues,
    not ``low``: a page that repeats the question or shouts it in its headline does not make the
    others' subjects wrong), and its text holds at most :data:`SUBJECT_PASSING` of them
    (:attr:`WindowText.coverage`): a page whose address and lead name another subject shares the
    question's words in passing (a FEMA kit page for "how do I build an emergency fund", a tax
    page for "comment fonctionne le livret A"), and trust must not lift it above an answer. It
    goes just below ``on_topic`` (never above where it was) and is not the reference either: the
    others are measured against the best of the rest that may be one, capped at 1.

    A user's post (:attr:`WindowText.posts`) is never kept out: a reply's subject is its thread's
    question, which the reply's own lead and a comment's address need not name ("Since the price
    went up in 2023 it only pays off for long shinkansen trips", at ``/comments/1cw8k3n/comment/l4x7q2d/``,
    answers "is the Japan rail pass still worth it").

    Example:
        >>> t = WindowText([0.5, 0.5, 0.0], np.zeros(3, dtype=np.bool_), subject=[0.5, 0.0, 0.0])
        >>> cal, kept_out = subject_off_topic(np.array([0.8, 1.0, 0.3]), t, 0.55)
        >>> cal.round(6).tolist(), kept_out.tolist()
        ([1.0, 0.549999, 0.375], [False, True, False])
    """
    subj = np.asarray(text.subject, dtype=np.float64)
    cov = np.asarray(text.coverage, dtype=np.float64)
    none = np.zeros(relevance.size, dtype=np.bool_)
    if subj.size != relevance.size or cov.size != relevance.size or not subj.size:
        return relevance, none
    may_lead = ~not_reference(relevance.size, text.stuffed, low, text.cues)
    if not may_lead.any() or float(subj[may_lead].max()) <= 0.0:
        return relevance, none
    out = (subj <= 0.0) & (cov <= SUBJECT_PASSING) & (relevance >= on_topic)
    if text.posts is not None and text.posts.size == relevance.size:
        out &= ~text.posts
    if not out.any():
        return relevance, none
    rest = ~out & may_lead
    best = float(relevance[rest].max()) if rest.any() else 0.0
    scaled = np.minimum(relevance / best, 1.0) if 0.0 < best < 1.0 else relevance
    return np.where(out, np.minimum(relevance, on_topic - SUBJECT_MARGIN), scaled), out


def subject_note(kept_out: NDArray[np.bool_], names: Sequence[str] = ()) -> str | None:
    """The note naming the candidates :func:`subject_off_topic` kept out (at most
    :data:`~authorag.rerankers.calibration.NAMED`, then how many more; their count without
    ``names``); None when it kept none out.

    Example:
        >>> subject_note(np.array([False, True]), ["https://a.example/x", "https://www.fema.gov/kit"])
        "address and lead name none of the query's words, off topic: https://www.fema.gov/kit"
    """
    if not kept_out.any():
        return None
    which = named(kept_out, names)
    if not which:
        return f"{int(kept_out.sum())} candidate(s) whose address and lead name none of the query's words, off topic"
    return f"address and lead name none of the query's words, off topic: {which}"


def fuse(policy: RerankPolicy, relevance: Array, signal: Array, text: WindowText | None = None,
         low: NDArray[np.bool_] | None = None) -> Fusion:
    """Fuse relevance with the source signal by ``policy.fusion``.

    Reads the policy's ``fusion``, ``normalize``, ``weight``, ``on_topic``, ``meaning_on_topic``
    (the window's share for a relevance that judges meaning; None: :func:`default_meaning_on_topic`
    of ``on_topic``) and ``rrf_k``. ``text``: what the window fusion reads from the candidates'
    text (:class:`WindowText`).
    ``low``: candidates with a present low-credibility finding, never the window's relevance
    reference (:func:`window_relevance`).

    Raises:
        ConfigError: ``normalize="none"`` with relevance outside [0, 1].
    """
    fusion, weight = policy.fusion, policy.weight
    if fusion == "window":
        cal, note = window_relevance(relevance, text, policy.on_topic, policy.meaning_on_topic, low)
        if text is not None:
            cal, kept_out = subject_off_topic(cal, text, policy.on_topic, low)
            cal, said = restated_no_lead(cal, text, policy.on_topic)
            cal, lowered = no_lead(cal, text.stuffed, policy.on_topic)
            note = join_notes(join_notes(note, subject_note(kept_out, text.names)),
                              join_notes(NO_LEAD_NOTE if lowered else None, said))
        return Fusion(cal, window_fusion(cal, signal, weight, policy.on_topic), note)
    if fusion == "prior":
        cal, note = window_relevance(relevance, text, low=low)
        return Fusion(cal, prior_fusion(cal, signal, weight), note)
    norm = minmax(relevance) if policy.normalize == "minmax" else checked_unit(relevance)
    if fusion == "linear":
        return Fusion(norm, linear_fusion(norm, signal, weight), None)
    return Fusion(norm, rrf_fusion(relevance, signal, weight, policy.rrf_k), None)


def checked_unit(values: Array) -> Array:
    """``values`` unchanged when all lie in [0, 1]; else the ``normalize='none'`` error."""
    bad = values[(values < 0.0) | (values > 1.0) | np.isnan(values)]
    if bad.size:
        raise ConfigError(f"normalize='none' needs relevance scores in [0, 1], got {float(bad[0])}; "
                          "use normalize='minmax' for scores on another scale")
    return values
