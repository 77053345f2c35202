"""Audit tests run without the optional suitability package unless a test puts one in place."""
from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_suitability_package(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make ``import authorag.suitability`` fail as if it were not installed (exact expectations
    below do not depend on the suitability matrix; tests/audit/test_audit_suitability.py uses the
    real package when it is there)."""
    from authorag.audit import suitability

    monkeypatch.setitem(sys.modules, "authorag.suitability", None)
    suitability._scorer.cache_clear()  # pyright: ignore[reportPrivateUsage]
    yield
    suitability._scorer.cache_clear()  # pyright: ignore[reportPrivateUsage]
