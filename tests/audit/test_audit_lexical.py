"""The lexical support rule: coverage values worked out by hand, cue guards, short statements."""
from __future__ import annotations

import pytest

from authorag.audit.lexical import SourceIndex, lexical_coverage, lexical_matrix, words
from authorag.audit.model import AuditSource, AuditStatement

SOURCE = ("Cranberry products have been studied for decades. Cranberry juice can reduce the number of "
          "urinary tract infections in women. Drink plenty of water.")


def test_words_fold_case_and_keep_inner_apostrophes() -> None:
    assert words("Doesn’t it? UTIs, 3x!") == ["doesn't", "it", "utis", "3x"]


@pytest.mark.parametrize(("statement", "coverage"), [
    # word for word, different case and punctuation
    ("cranberry juice can reduce the number of urinary tract infections in women", 1.0),
    ("Cranberry juice can reduce the number of urinary tract infections in women!", 1.0),
    # 11 of 12 words in runs of 3: "older" breaks the run, "women" has no run of 3 left -> 10/12 < 0.9
    ("Cranberry juice can reduce the number of urinary tract infections in older women.", None),
    # one extra word at the end of 13: the 12 copied words are found, 12/13 = 0.923
    ("Cranberry juice can reduce the number of urinary tract infections in women quickly.", 0.9231),
    # a paraphrase shares too few runs
    ("Drinking cranberry juice lowers how often women get bladder infections.", None),
])
def test_coverage(statement: str, coverage: float | None) -> None:
    assert lexical_coverage(statement, SourceIndex(SOURCE)) == coverage


def test_runs_do_not_cross_source_sentences() -> None:
    # "for decades cranberry" and "decades cranberry juice" span two source sentences: not runs
    index = SourceIndex("We studied it for decades. Cranberry juice is sour.")
    assert lexical_coverage("for decades cranberry juice", index) is None
    assert lexical_coverage("We studied it for decades.", index) == 1.0
    # two source sentences repeated one after the other: every word is in a run of one of them
    assert lexical_coverage("studied it for decades, cranberry juice is sour", index) == 1.0


@pytest.mark.parametrize(("statement", "source"), [
    ("Cranberries cure urinary tract infections.", "It is a myth that cranberries cure urinary tract infections."),
    ("Cranberries cure urinary tract infections.", "Cranberries cure urinary tract infections: false."),
    ("Vaccines do not cause autism in children.", "Vaccines do cause autism in children."),
    ("Cranberries cure urinary tract infections.", "Cranberries don't cure urinary tract infections."),
])
def test_cue_words_must_agree(statement: str, source: str) -> None:
    assert lexical_coverage(statement, SourceIndex(source)) is None


def test_shared_cue_words_are_fine() -> None:
    source = "Antibiotics do not cure viral infections such as the common cold."
    assert lexical_coverage("Antibiotics do not cure viral infections.", SourceIndex(source)) == 1.0


def test_short_statements_never_fire() -> None:
    assert lexical_coverage("Yes, it works.", SourceIndex("Yes, it works. It does.")) is None
    assert lexical_coverage("Flu shots reduce risk.", SourceIndex("Flu shots reduce risk.")) == 1.0


def test_matrix_marks_only_the_repeating_source() -> None:
    sources = [AuditSource("1", "https://a.org", "Something else entirely, about cats."),
               AuditSource("2", "https://b.org", SOURCE), AuditSource("3", "https://c.org")]
    statements = [AuditStatement("Cranberry juice can reduce the number of urinary tract infections in women."),
                  AuditStatement("Cats purr.")]
    assert lexical_matrix(statements, sources) == ((None, 1.0, None), (None, None, None))
