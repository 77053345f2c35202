"""Trust is computed once per candidate per request: the reranker computes it and carries it on the
candidate (:attr:`Candidate.trust`); the breakdown reads it instead of applying the rule again."""
from __future__ import annotations

from typing import Any

import pytest

from authorag import adapters
from authorag.priors import load_prior
from authorag.trust import TrustRule
from authorag.types import AuthorityDetail, Candidate, TrustValue

URLS = ["https://someblog.blogspot.com/x", "https://www.nih.gov/y", "https://unknown-clinic-4821.net/z"]


@pytest.fixture
def trust_calls(monkeypatch: pytest.MonkeyPatch) -> list[AuthorityDetail]:
    """Every detail a trust rule is asked about (TrustRule.of is the rule's one entry point)."""
    calls: list[AuthorityDetail] = []
    of = TrustRule.of

    def counted(self: TrustRule, detail: AuthorityDetail) -> TrustValue:
        calls.append(detail)
        return of(self, detail)

    monkeypatch.setattr(TrustRule, "of", counted)
    return calls


@pytest.mark.parametrize("policy", [{}, {"unknown_level": 0.2, "allow": ["*.gov"]}], ids=["default", "changed"])
def test_trust_is_computed_once_per_candidate_per_request(trust_calls: list[AuthorityDetail],
                                                          policy: dict[str, Any]) -> None:
    reranker, mode = adapters.build_reranker(load_prior(), "rank", policy)
    for request in (1, 2):
        cands, source = adapters.candidates([(u, "text", None) for u in URLS], mode)
        rows = adapters.breakdowns(reranker.rerank_owned("q", cands), source)
        assert len(trust_calls) == len(URLS) * request
    rule = TrustRule(unknown_level=policy.get("unknown_level", 0.3))  # a rule of its own: nothing remembered
    by_domain = {r["domain"]: r for r in rows}
    for c in cands:
        expected = rule.of(c.authority or AuthorityDetail(None, 0.0, "unknown"))
        assert c.trust == expected
        assert (by_domain[c.domain]["trust"], by_domain[c.domain]["trust_reason"]) == (
            pytest.approx(expected.value), expected.reason)
    assert by_domain["unknown-clinic-4821.net"]["trust"] == pytest.approx(policy.get("unknown_level", 0.3))
    if policy:
        assert by_domain["nih.gov"]["trust"] == pytest.approx(1.0)  # allow-listed: full trust


def test_a_candidate_no_reranker_scored_gets_the_default_rule() -> None:
    detail = AuthorityDetail(0.95, 0.9, "table", credibility=0.0)
    row = adapters.breakdown(Candidate.create("https://x.example/a").with_authority(detail), "rank")
    assert (row["trust"], row["trust_reason"]) == (0.0, "low credibility")
    assert adapters.breakdown(Candidate.create("https://x.example/a"), "rank")["trust_reason"] is None
