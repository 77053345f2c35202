"""The lexical support rule: coverage values worked out by hand, cue guards, short statements."""
from __future__ import annotations

import random
import re
import time

import pytest

from authorag.audit.lexical import (
    LEXICAL_SUPPORT_AT,
    MAX_CUES,
    MIN_WORDS,
    NEGATION_CUES,
    RUN_WORDS,
    SourceIndex,
    lexical_coverage,
    lexical_matrix,
    words,
)
from authorag.audit.model import AuditSource, AuditStatement
from authorag.deadline import DeadlinePassed, deadline_scope

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


def _reference(statement: str, source: str) -> float | None:
    """The rule as its docstring states it, computed the slow way (every run, every sentence)."""
    tokens = words(statement)
    cues = {t for t in tokens if t in NEGATION_CUES or t.endswith("n't")}
    if len(tokens) < max(MIN_WORDS, RUN_WORDS) or len(cues) > MAX_CUES:
        return None
    sentences = [words(s) for s in re.split(r"(?<=[.!?])\s+|\n+", source)]
    covered, holding = [False] * len(tokens), set()
    for k in range(len(tokens) - RUN_WORDS + 1):
        run = tokens[k:k + RUN_WORDS]
        for n, sent in enumerate(sentences):
            if any(sent[j:j + RUN_WORDS] == run for j in range(len(sent) - RUN_WORDS + 1)):
                covered[k:k + RUN_WORDS] = [True] * RUN_WORDS
                holding.add(n)
    coverage = sum(covered) / len(tokens)
    source_cues = {t for n in holding for t in sentences[n] if t in NEGATION_CUES or t.endswith("n't")}
    return round(coverage, 4) if coverage >= LEXICAL_SUPPORT_AT and source_cues == cues else None


def test_matrix_agrees_with_the_rule_worked_the_slow_way() -> None:
    rng = random.Random(7)
    vocab = ["flu", "shots", "work", "not", "no", "myth", "don't", "well", "in", "adults"]
    statements = [" ".join(rng.choice(vocab) for _ in range(rng.randrange(2, 14))) for _ in range(60)]
    sources = [". ".join(rng.choice(statements) if rng.random() < 0.6 else " ".join(rng.choices(vocab, k=6))
                         for _ in range(rng.randrange(0, 4))) for _ in range(30)]
    got = lexical_matrix([AuditStatement(s) for s in statements],
                         [AuditSource(str(j), f"https://s{j}.org", t) for j, t in enumerate(sources)])
    want = tuple(tuple(_reference(s, t) if t else None for t in sources) for s in statements)
    assert got == want
    assert sum(c is not None for row in got for c in row) > 20  # the rule fired on many pairs


def test_a_statement_with_too_many_cue_words_is_never_supported() -> None:
    many = " ".join(f"w{k}n't" for k in range(MAX_CUES + 1))
    assert lexical_coverage(f"flu shots work {many}", SourceIndex(f"flu shots work {many}")) is None
    few = " ".join(f"w{k}n't" for k in range(MAX_CUES))
    assert lexical_coverage(f"flu shots work {few}", SourceIndex(f"flu shots work {few}")) == 1.0


def test_source_sentences_with_too_many_cues_between_them_support_nothing() -> None:
    # the run "flu shots work" lies in sentences whose cue words add up to more than MAX_CUES
    text = ". ".join(f"flu shots work c{k}n't" for k in range(MAX_CUES + 1))
    assert lexical_coverage("flu shots work c0n't", SourceIndex(text)) is None


def test_a_long_statement_against_a_long_repetitive_source_is_linear() -> None:
    # quadratic before: every found run re-added the source sentences holding it (minutes of CPU at 4 MB)
    start = time.thread_time()
    assert lexical_matrix([AuditStatement("a " * 15_000)],
                          [AuditSource("1", "https://a.org", "a " * 30_000)]) == ((1.0,),)
    assert time.thread_time() - start < 0.5


def test_each_statement_is_read_once_for_all_sources() -> None:
    # before: every statement was split into words again for each source (seconds at 200 sources)
    statements = [AuditStatement(f"Claim {k} says that w{k}a w{k}b w{k}c w{k}d hold " + "and more words " * 10)
                  for k in range(500)]
    sources = [AuditSource(str(j), f"https://s{j}.org") for j in range(200)]
    start = time.thread_time()
    matrix = lexical_matrix(statements, sources)
    assert time.thread_time() - start < 0.5
    assert len(matrix) == 500 and all(row == (None,) * 200 for row in matrix)


def test_the_matrix_stops_at_the_calls_deadline() -> None:
    statements = [AuditStatement("flu shots work well in adults")] * 3
    sources = [AuditSource("1", "https://a.org", "flu shots work well in adults")]
    with deadline_scope(time.monotonic() - 1), pytest.raises(DeadlinePassed, match="deadline passed"):
        lexical_matrix(statements, sources)
    with deadline_scope(time.monotonic() + 60):
        assert lexical_matrix(statements, sources) == ((1.0,), (1.0,), (1.0,))


def test_text_read_in_pieces_gives_the_same_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    # long texts are read in pieces (so other threads get the interpreter between them); tiny
    # pieces put a cut at every place a sentence, a word or a run of white space can be cut
    from authorag.audit import lexical

    monkeypatch.setattr(lexical, "_PIECE", 7)
    rng = random.Random(3)
    vocab = ["flu", "shot.", "works!", "a", "b\n", "c", "not", "x?", " ", "\n\n", "dd  "]
    for _ in range(2_000):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randrange(0, 40)))
        expected = [w for w in (words(s) for s in re.split(r"(?<=[.!?])\s+|\n+", text)) if w]
        assert list(lexical._sentence_words(text)) == expected, text  # pyright: ignore[reportPrivateUsage]
    assert lexical_coverage("flu shots work well", SourceIndex("so flu shots work well. ok")) == 1.0
