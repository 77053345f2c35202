"""The lexical support rule: a source that repeats a statement word for word supports it.

No LLM is needed to see that a source supports a statement it contains. The rule, per
statement and source (both case-folded into words: letters and digits, with inner apostrophes):

- **coverage** = the share of the statement's words that lie in a run of at least
  :data:`RUN_WORDS` consecutive statement words which also occurs, in the same order, inside
  one sentence of the source's ``text`` (the title is not used);
- the rule fires when the statement has at least :data:`MIN_WORDS` words, coverage is at least
  :data:`LEXICAL_SUPPORT_AT`, and the source sentences holding those runs carry the same
  negation and debunking cues (:data:`NEGATION_CUES`, and words ending in ``n't``) as the
  statement: "cranberries cure infections" is not supported by "it is a myth that cranberries
  cure infections", nor "vaccines do not cause autism" by "vaccines cause autism" (a statement
  with more than :data:`MAX_CUES` distinct cue words is never supported).

The rule only ever says *supported*. When it does not fire, the statement may still be
supported in other words; that takes a judge (``--judge``). Work is linear in the length of
the statements and of the source texts (each statement is read once, each source once, long
texts in pieces); memory grows with the statements only. Under a deadline
(:func:`authorag.deadline.deadline_scope`) :func:`lexical_matrix` stops between statements and
sources once it passes.

Example:
    >>> index = SourceIndex("Background. Cranberry juice can reduce the number of urinary tract infections in women.")
    >>> lexical_coverage("Cranberry juice can reduce the number of urinary tract infections in women.", index)
    1.0
    >>> lexical_coverage("It is a myth that cranberry juice can reduce the number of urinary tract infections.",
    ...                  SourceIndex("Cranberry juice can reduce the number of urinary tract infections.")) is None
    True
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from authorag.audit.model import AuditSource, AuditStatement
from authorag.deadline import stop_if_past_deadline

LEXICAL_SUPPORT_AT = 0.9
"""Coverage at or above which the lexical rule marks a source as supporting a statement."""
MIN_WORDS = 4
"""Statements shorter than this many words are never supported by the lexical rule."""
RUN_WORDS = 3
"""A statement word counts as found when it is in a run of this many words found in order."""
NEGATION_CUES = frozenset({
    "not", "no", "never", "nor", "neither", "none", "nothing", "cannot",
    "myth", "myths", "false", "untrue", "debunked", "disproven", "unproven", "misconception",
})
"""Words that turn a sentence's claim around; statement and source sentence must share them."""
MAX_CUES = 8
"""A statement with more distinct cue words than this is never supported by the lexical rule
(and a run found in source sentences holding more than this many between them supports nothing):
the cue check then stays a comparison of small sets, however the text is built."""
_PIECE = 1 << 15
"""Characters (or words) handled in one call into C: the interpreter lock is free for other
threads (the server's event loop) between pieces, however long a source's text."""
_REMEMBERED = 256  # partial coverages remembered per statement
_TOO_MANY_CUES = frozenset({"\x00"})  # no word is "\x00": a subset of no statement's cues

_WORD = re.compile(r"\w+(?:'\w+)*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_SPACES = re.compile(r"\s*")


def words(text: str) -> list[str]:
    """Case-folded words of ``text`` (typographic apostrophes read as ``'``).

    Example:
        >>> words("Doesn’t it? 3 UTIs!")
        ["doesn't", 'it', '3', 'utis']
    """
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


def _cues(tokens: Sequence[str]) -> frozenset[str]:
    distinct: set[str] = set()
    for k in range(0, len(tokens), _PIECE):
        distinct.update(tokens[k:k + _PIECE])
    found = frozenset(t for t in distinct if t in NEGATION_CUES or t.endswith("n't"))
    return found if len(found) <= MAX_CUES else _TOO_MANY_CUES


def _runs(tokens: Sequence[str]) -> Iterator[tuple[str, ...]]:
    return zip(*(tokens[k:] for k in range(RUN_WORDS)))


def _merge(old: frozenset[str] | None, new: frozenset[str]) -> frozenset[str]:
    """The cues of the sentences holding a run, with one more sentence's (kept small: a union of
    more than :data:`MAX_CUES` cues can equal no statement's, so it becomes the mismatch marker)."""
    if old is None or old is new or new <= old:
        return new if old is None else old
    if _TOO_MANY_CUES in (old, new):
        return _TOO_MANY_CUES
    union = old | new
    return union if len(union) <= MAX_CUES else _TOO_MANY_CUES


class SourceIndex:
    """A source text's word runs, each with the cue words of the sentences it occurs in; built
    once per source, in time linear in the text.

    Args:
        text: the source's text.
        wanted: keep only these runs (the statements' runs; memory then stays small however
            long the text is); None keeps every run.
    """

    def __init__(self, text: str, wanted: AbstractSet[tuple[str, ...]] | None = None) -> None:
        self.runs: dict[tuple[str, ...], frozenset[str]] = {}
        runs = self.runs
        for tokens in _sentence_words(text):
            if len(tokens) < RUN_WORDS:
                continue
            cues = _cues(tokens)
            for k in range(0, len(tokens) - RUN_WORDS + 1, _PIECE):
                found = set(_runs(tokens[k:k + _PIECE + RUN_WORDS - 1]))
                for run in found if wanted is None else found & wanted:
                    old = runs.get(run)
                    if old is not cues:
                        runs[run] = _merge(old, cues)


def _sentence_words(text: str) -> Iterator[list[str]]:
    """The words of each sentence of ``text``, read in pieces of about :data:`_PIECE` characters
    cut at white space (a sentence across pieces is joined again)."""
    carry: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + _PIECE, len(text))
        if end < len(text):
            cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
            space = _SPACES.match(text, cut if cut > start else end)  # a piece ends after its white space
            end = space.end() if space is not None else end
        parts = _SENTENCE.split(text[start:end])
        start = end
        ended = start >= len(text) or not parts[-1].strip()
        for i, part in enumerate(parts):
            tokens = words(part)
            if i == 0 and carry:
                carry.extend(tokens)
                tokens, carry = carry, []
            if i == len(parts) - 1 and not ended:
                carry = tokens
            elif tokens:
                yield tokens
    if carry:
        yield carry


class PreparedStatement:
    """A statement's words read once for every source: its length, its cue words, its distinct
    runs of :data:`RUN_WORDS` words (each with a number) and the run at each position."""

    def __init__(self, statement: str) -> None:
        tokens = words(statement)
        self.size = len(tokens)
        self.cues = _cues(tokens)
        self.eligible = self.size >= max(MIN_WORDS, RUN_WORDS) and self.cues is not _TOO_MANY_CUES
        self.runs: dict[tuple[str, ...], int] = {}
        at: list[int] = []
        if self.eligible:
            for run in _runs(tokens):
                at.append(self.runs.setdefault(run, len(self.runs)))
        self.at = np.array(at, dtype=np.int64)
        self.counts = np.bincount(self.at, minlength=len(self.runs))
        self._seen: dict[frozenset[int], float] = {}

    def coverage(self, index: SourceIndex) -> float | None:
        """The statement's coverage by the source when the lexical rule fires, else None.

        Work: the smaller of the statement's distinct runs and the source's runs in Python, plus,
        when only some of the statement's runs are found, one vectorized pass over its words."""
        if not self.eligible or not index.runs:
            return None
        mine, theirs = self.runs, index.runs
        matched = [r for r in mine if r in theirs] if len(mine) <= len(theirs) else [r for r in theirs if r in mine]
        coverage = 1.0  # when every distinct run is found, every word is in a found run
        if len(matched) < len(mine):
            coverage = self._partial([mine[r] for r in matched])
            if coverage < LEXICAL_SUPPORT_AT:
                return None
        cues: set[str] = set()
        for r in matched:
            found = theirs[r]
            if not found <= self.cues:
                return None
            cues |= found
        return round(coverage, 4) if frozenset(cues) == self.cues else None

    def _partial(self, ids: list[int]) -> float:
        """The share of words in a run among ``ids`` (0 when even all their places could not reach
        :data:`LEXICAL_SUPPORT_AT`); remembered per set of runs, as many sources find the same."""
        key = frozenset(ids)
        known = self._seen.get(key)
        if known is not None:
            return known
        share = 0.0
        if ids and RUN_WORDS * int(self.counts[ids].sum()) >= LEXICAL_SUPPORT_AT * self.size:
            found = np.zeros(len(self.runs), dtype=bool)
            found[ids] = True
            hit = found[self.at]
            covered = np.zeros(self.size, dtype=bool)
            for k in range(RUN_WORDS):
                covered[k:k + len(hit)] |= hit
            share = int(covered.sum()) / self.size
        if len(self._seen) < _REMEMBERED:
            self._seen[key] = share
        return share


def lexical_coverage(statement: str, index: SourceIndex) -> float | None:
    """The statement's coverage by the source when the lexical rule fires, else None."""
    return PreparedStatement(statement).coverage(index)


def lexical_matrix(statements: Sequence[AuditStatement], sources: Sequence[AuditSource]
                   ) -> tuple[tuple[float | None, ...], ...]:
    """Coverage per statement and source where the lexical rule fires (None elsewhere).

    Each statement is read once and each source once; the call's deadline
    (:func:`authorag.deadline.deadline_scope`) is checked before each source.

    Raises:
        DeadlinePassed: the call's deadline passed part-way.

    Example:
        >>> src = [AuditSource("1", "https://a.org", "Flu shots halve the risk of flu in adults."),
        ...        AuditSource("2", "https://b.org", "Unrelated text.")]
        >>> lexical_matrix([AuditStatement("Flu shots halve the risk of flu in adults.")], src)
        ((1.0, None),)
    """
    prepared: list[PreparedStatement] = []
    for st in statements:
        stop_if_past_deadline()
        prepared.append(PreparedStatement(st.text))
    wanted = {run for p in prepared for run in p.runs}
    columns: list[list[float | None]] = []
    for source in sources:
        stop_if_past_deadline()
        index = SourceIndex(source.text, wanted) if source.text and wanted else None
        columns.append([None if index is None else p.coverage(index) for p in prepared])
    return tuple(tuple(col[i] for col in columns) for i in range(len(prepared)))


__all__ = ["LEXICAL_SUPPORT_AT", "MAX_CUES", "MIN_WORDS", "NEGATION_CUES", "RUN_WORDS", "PreparedStatement",
           "SourceIndex", "lexical_coverage",
           "lexical_matrix", "words"]
