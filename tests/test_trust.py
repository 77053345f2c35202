from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from authorag.errors import ConfigError
from authorag.trust import DEFAULT_TRUST_RULE, TrustRule, trust_fields, trust_rule_for
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail

unit = st.floats(0.0, 1.0)


def detail(r: float | None, c: float | None) -> AuthorityDetail:
    return AuthorityDetail(r, 0.0 if r is None else 0.9, "unknown" if r is None else "table", credibility=c)


def test_each_branch_worked_by_hand() -> None:
    rule = TrustRule()
    # credible: s = (0.9 - 0.35) / 0.65, lift = (0.9 - 0.3) / 0.7, share = 0.7 + 0.3 * lift
    s, lift = 0.55 / 0.65, 0.6 / 0.7
    assert rule.of(detail(0.9, 0.9)).value == pytest.approx(0.3 + 0.7 * s * (0.7 + 0.3 * lift))
    assert rule.of(detail(0.9, 0.9)).reason == "credible"
    assert rule.of(detail(0.9, 0.5)).reason == "mixed credibility"
    assert rule.of(detail(0.9, None)).value == pytest.approx(0.3 + 0.5 * 0.6)
    assert rule.of(detail(0.9, None)).reason == "recognition only"
    assert rule.of(detail(0.1, None)).value == UNKNOWN_LEVEL  # little recognition is no evidence against
    assert rule.of(detail(0.99, 0.07)).value == pytest.approx(0.3 * 0.9 * 0.07 / 0.35)
    assert rule.of(detail(0.99, 0.07)).reason == "low credibility"
    assert rule.of(detail(None, None)).value == UNKNOWN_LEVEL
    assert rule.of(detail(None, None)).reason == "unknown"


@given(r=st.one_of(st.none(), unit), c=st.floats(0.0, 0.3499))
def test_known_low_credibility_ends_below_every_unknown_source(r: float | None, c: float) -> None:
    assert DEFAULT_TRUST_RULE.value(detail(r, c)) < DEFAULT_TRUST_RULE.value(detail(None, None))


@given(r=unit)
def test_recognition_alone_never_ends_below_an_unknown_source(r: float) -> None:
    """A source a recognition table lists at its lowest (a local paper at the bottom of the news
    crawl's link graph) is better known than one no table lists, never worse."""
    assert DEFAULT_TRUST_RULE.value(detail(r, None)) >= DEFAULT_TRUST_RULE.value(detail(None, None))


@given(r=unit)
def test_recognition_alone_never_reaches_a_credible_source(r: float) -> None:
    credible = DEFAULT_TRUST_RULE.value(detail(r, 0.9))
    assert DEFAULT_TRUST_RULE.value(detail(r, None)) < credible


@given(r=st.one_of(st.none(), unit), c1=unit, c2=unit)
def test_more_credibility_never_lowers_trust(r: float | None, c1: float, c2: float) -> None:
    lo, hi = sorted((c1, c2))
    assert DEFAULT_TRUST_RULE.value(detail(r, lo)) <= DEFAULT_TRUST_RULE.value(detail(r, hi)) + 1e-12


def test_values_stay_on_the_unit_interval() -> None:
    for r in (None, 0.0, 0.5, 1.0):
        for c in (None, 0.0, 0.35, 0.6, 1.0):
            assert 0.0 <= DEFAULT_TRUST_RULE.value(detail(r, c)) <= 1.0


def test_rule_per_unknown_level_and_validation() -> None:
    assert trust_rule_for(UNKNOWN_LEVEL) is DEFAULT_TRUST_RULE
    assert trust_rule_for(0.2).value(detail(None, None)) == 0.2
    assert trust_rule_for(0.2) is trust_rule_for(0.2)
    with pytest.raises(ConfigError, match=r"credible_share must be in \[0, 1\], got 1.5"):
        TrustRule(credible_share=1.5)
    with pytest.raises(ConfigError, match="low_ceiling must be below 1"):
        TrustRule(low_ceiling=1.0)


def test_trust_fields_for_json_rows() -> None:
    assert trust_fields(detail(0.99, 0.0)) == {"trust": 0.0, "trust_reason": "low credibility"}
