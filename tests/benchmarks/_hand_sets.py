"""Checks every hand-written set version (v3, v4, ...) runs on its own rows: sizes, ids and halves,
and independence from the sets written before it."""
from __future__ import annotations

from collections.abc import Sequence

from authorag.benchmarks.tracks.trust_data import FILES, RerankCase, load_cases


def written_before(case_set: str) -> list[str]:
    """Every set written before ``case_set`` (:data:`FILES` keeps the order they were written in)."""
    names = list(FILES)
    return names[: names.index(case_set)]


def page_texts(cases: Sequence[RerankCase]) -> set[str]:
    """Every page's text, whitespace collapsed and case-folded."""
    return {" ".join(p.text.split()).casefold() for c in cases for p in c.pages}


def assert_sizes_ids_and_halves(case_set: str, size: int, prefix: str) -> None:
    """``case_set`` has ``size`` cases split evenly into dev and test, ids ``prefix-split-topic-…``
    unique, no query in both halves and no page address twice."""
    cases = load_cases(case_set)
    assert len(cases) == size
    dev, test = load_cases(case_set, "dev"), load_cases(case_set, "test")
    assert len(dev) == len(test) == size // 2
    assert all(c.id.startswith(f"{prefix}-{c.split}-{c.domain}-") for c in cases)
    assert len({c.id for c in cases}) == len(cases)
    assert {c.query.casefold() for c in dev}.isdisjoint({c.query.casefold() for c in test})
    urls = [p.url for c in cases for p in c.pages]
    assert len(set(urls)) == len(urls)


def assert_independent(case_set: str, earlier_sets: Sequence[str], texts: bool = False) -> None:
    """No query, page address or id of ``case_set`` is in ``earlier_sets`` (with ``texts``, no page
    text either: :func:`page_texts`)."""
    earlier = [c for s in earlier_sets for c in load_cases(s)]
    cases = load_cases(case_set)
    assert {c.query.casefold() for c in cases}.isdisjoint({c.query.casefold() for c in earlier})
    assert {p.url for c in cases for p in c.pages}.isdisjoint({p.url for c in earlier for p in c.pages})
    assert {c.id for c in cases}.isdisjoint({c.id for c in earlier})
    if texts:
        assert page_texts(cases).isdisjoint(page_texts(earlier))
