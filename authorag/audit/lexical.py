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
  cure infections", nor "vaccines do not cause autism" by "vaccines cause autism".

The rule only ever says *supported*. When it does not fire, the statement may still be
supported in other words; that takes a judge (``--judge``). Work is linear in the length of
the statements and of the source texts; memory grows with the statements only.

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
from collections.abc import Sequence

from authorag.audit.model import AuditSource, AuditStatement

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

_WORD = re.compile(r"\w+(?:'\w+)*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def words(text: str) -> list[str]:
    """Case-folded words of ``text`` (typographic apostrophes read as ``'``).

    Example:
        >>> words("Doesn’t it? 3 UTIs!")
        ["doesn't", 'it', '3', 'utis']
    """
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


def _cues(tokens: Sequence[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if t in NEGATION_CUES or t.endswith("n't"))


def _runs(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    return [tuple(tokens[k:k + RUN_WORDS]) for k in range(len(tokens) - RUN_WORDS + 1)]


class SourceIndex:
    """A source text's word runs (the sentences each occurs in), built once per source.

    Args:
        text: the source's text.
        wanted: keep only these runs (the statements' runs; memory then stays small however
            long the text is); None keeps every run.
    """

    def __init__(self, text: str, wanted: set[tuple[str, ...]] | None = None) -> None:
        self.runs: dict[tuple[str, ...], list[int]] = {}
        self.cues: list[frozenset[str]] = []
        for sentence in _SENTENCE.split(text):
            tokens = words(sentence)
            if not tokens:
                continue
            n = len(self.cues)
            self.cues.append(_cues(tokens))
            for run in _runs(tokens):
                if wanted is None or run in wanted:
                    self.runs.setdefault(run, []).append(n)


def lexical_coverage(statement: str, index: SourceIndex) -> float | None:
    """The statement's coverage by the source when the lexical rule fires, else None."""
    tokens = words(statement)
    if len(tokens) < max(MIN_WORDS, RUN_WORDS):
        return None
    covered = [False] * len(tokens)
    sentences: set[int] = set()
    for k, run in enumerate(_runs(tokens)):
        found = index.runs.get(run)
        if found:
            covered[k:k + RUN_WORDS] = [True] * RUN_WORDS
            sentences.update(found)
    coverage = sum(covered) / len(tokens)
    if coverage < LEXICAL_SUPPORT_AT:
        return None
    source_cues = frozenset[str]().union(*(index.cues[n] for n in sentences))
    return round(coverage, 4) if source_cues == _cues(tokens) else None


def lexical_matrix(statements: Sequence[AuditStatement], sources: Sequence[AuditSource]
                   ) -> tuple[tuple[float | None, ...], ...]:
    """Coverage per statement and source where the lexical rule fires (None elsewhere).

    Example:
        >>> src = [AuditSource("1", "https://a.org", "Flu shots halve the risk of flu in adults."),
        ...        AuditSource("2", "https://b.org", "Unrelated text.")]
        >>> lexical_matrix([AuditStatement("Flu shots halve the risk of flu in adults.")], src)
        ((1.0, None),)
    """
    wanted = {run for st in statements for run in _runs(words(st.text))}
    indexes = [SourceIndex(s.text, wanted) for s in sources]
    return tuple(tuple(lexical_coverage(st.text, ix) for ix in indexes) for st in statements)


__all__ = ["LEXICAL_SUPPORT_AT", "MIN_WORDS", "NEGATION_CUES", "RUN_WORDS", "SourceIndex", "lexical_coverage",
           "lexical_matrix", "words"]
