"""The fast page-text layer gives exactly the votes and classifications of the code before it.

The oracle is a frozen copy of the old code (``_old_text.py``). Checked on every RAGAuth-open page
(the speed benchmark's pool) at three prefix lengths, with and without a title, one page at a time
and in batches (the array path of ``text_votes_many``), and on random texts built from cue
phrases, case changes, punctuation, whitespace and non-ASCII characters (the Turkish dotted I and
the Kelvin sign, whose lower case is ASCII, among them).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from authorag.benchmarks.tasks import read_rows
from authorag.suitability import SourceTypeClassifier
from authorag.suitability.cues import _TEXT_PHRASES, BATCH_MIN, text_votes, text_votes_many
from authorag.types import Candidate

sys.path.insert(0, str(Path(__file__).parent))
import _old_text as old

POOL = [(r["url"], r["text"][:4000]) for r in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz")]
PHRASES = [p for _, _, phrases in _TEXT_PHRASES for p in phrases]
ODD = ["\u0130", "\u212a", "\u00e9", "\u00a0", "\u4e2d", "\u20ac", "\u00a3", "\x0b", "\x0c", "\x1c", "\x00"]


@st.composite
def _mangled(draw: st.DrawFn) -> str:
    """A cue phrase with one character replaced or inserted (an odd character, a space or a letter)."""
    phrase = draw(st.sampled_from(PHRASES))
    at = draw(st.integers(0, len(phrase)))
    ch = draw(st.sampled_from([*ODD, " ", "-", "x", "`"]))
    return phrase[:at] + ch + phrase[at + draw(st.integers(0, 1)):]


PIECE = st.one_of(
    st.sampled_from(PHRASES),
    st.sampled_from(PHRASES).map(str.upper),
    _mangled(),
    st.sampled_from(["`\u00e9``", "``\u4e2d`", "`\x0b``", "$", " "]),
    st.text(alphabet=st.sampled_from(list("abcKPI09 .,:;()<%$`'-\n\t\r\x0b\x0c\x00\x1c")
                                     + ["\u0130", "\u212a", "\u00e9", "\u00a0", "\u4e2d", "\u20ac", "\u00a3"]),
            max_size=8),
    st.text(max_size=6),
)
# Pages dense in one type's cues, so that votes (and near-votes) are common.
TYPE_PAGE = st.sampled_from([ps for _, _, ps in _TEXT_PHRASES]).flatmap(
    lambda ps: st.lists(st.one_of(st.sampled_from(ps), PIECE), max_size=8)).map(" ".join)
TEXT = st.one_of(st.lists(PIECE, max_size=14).map("".join), TYPE_PAGE)
FAST = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
DEEP = settings(max_examples=3000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def test_pool_pages_same_votes() -> None:
    texts = [t for _, t in POOL]
    assert len(texts) == 276
    for chars in (1000, 300, 4000):
        expected = [old.text_votes(t, chars) for t in texts]
        assert [text_votes(t, chars) for t in texts] == expected
        assert text_votes_many(texts, chars) == expected
    assert sum(bool(v) for v in text_votes_many(texts)) == 31  # the pages with a text vote


@pytest.mark.parametrize("layers", [None, ("text",), ("suffix", "list", "platform", "path")])
def test_pool_pages_same_classification(layers: tuple[str, ...] | None) -> None:
    clf = SourceTypeClassifier() if layers is None else SourceTypeClassifier(layers=layers)  # type: ignore[arg-type]
    cands = [Candidate.create(u, t, id=str(i)) for i, (u, t) in enumerate(POOL)]
    cands += [Candidate.create(u, t, id=f"t{i}", metadata={"title": "Buy now | Shop"}) for i, (u, t) in enumerate(POOL[:40])]
    cands += [Candidate.create(u, "", id=f"e{i}") for i, (u, _) in enumerate(POOL[:10])]
    cands += [Candidate.create("", "\u4e2d\u6587 " * 50, id="cjk"), Candidate.create("http://10.0.0.1/x", "add to cart $5")]
    expected = [old.old_classify(clf, c) for c in cands]
    assert clf.classify_many(cands) == expected
    assert [clf.classify(c) for c in cands[:60]] == expected[:60]


@FAST
@given(TEXT, st.sampled_from([1000, 40, 7]))
def test_random_text_same_votes(text: str, chars: int) -> None:
    assert text_votes(text, chars) == old.text_votes(text, chars)


@FAST
@given(st.lists(TEXT, min_size=BATCH_MIN, max_size=BATCH_MIN + 12), st.sampled_from([1000, 25]))
def test_random_batches_same_votes(texts: list[str], chars: int) -> None:
    assert text_votes_many(texts, chars) == [old.text_votes(t, chars) for t in texts]


@FAST
@given(st.lists(st.tuples(st.sampled_from([u for u, _ in POOL[:30]] + ["", "http://x", "https://blog.example.org/p"]),
                          TEXT), min_size=1, max_size=BATCH_MIN + 4))
def test_random_pages_same_classification(pages: list[tuple[str, str]]) -> None:
    clf = SourceTypeClassifier()
    cands = [Candidate.create(u, t, id=str(i)) for i, (u, t) in enumerate(pages)]
    assert clf.classify_many(cands) == [old.old_classify(clf, c) for c in cands]


@pytest.mark.slow
@DEEP
@given(st.lists(TEXT, min_size=1, max_size=BATCH_MIN + 12), st.sampled_from([1000, 40, 7]))
def test_random_text_same_votes_deep(texts: list[str], chars: int) -> None:
    expected = [old.text_votes(t, chars) for t in texts]
    assert [text_votes(t, chars) for t in texts] == expected
    assert text_votes_many(texts, chars) == expected


@pytest.mark.parametrize("sep", list(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x00\x7f\x85\u2028"))
def test_word_separators_in_batches(sep: str) -> None:
    # bytes.split() separates words at ASCII whitespace only; the array path must agree.
    texts = [f"checkout{sep}coupon", f"{sep}checkout{sep}coupon{sep}", f"p{sep}<{sep}0.{sep}abstract{sep}cohort",
             f"about{sep}me my{sep}blog", "x" * 5] * BATCH_MIN
    expected = [old.text_votes(t) for t in texts]
    assert text_votes_many(texts) == expected
    assert [text_votes(t) for t in texts] == expected


def test_seeded_random_texts_same_votes() -> None:
    # Many short texts dense in cues, symbols and odd characters: a wider net than the hypothesis tests.
    rng = random.Random(12)
    pieces = [*PHRASES, *ODD, "$", "\u20ac", "\u00a3", "```", "`\u00e9``", " ", "-", "x", "10"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(3000)]
    for chars in (1000, 30):
        expected = [old.text_votes(t, chars) for t in texts]
        assert [text_votes(t, chars) for t in texts] == expected
        assert text_votes_many(texts, chars) == expected
