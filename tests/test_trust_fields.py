"""The trust rule reads typed fields of the detail, never a value parsed back from its source list:
page evidence is :attr:`AuthorityDetail.page_trust`; a credibility source merely named ``page`` is
a reporting reliability like any other."""
from __future__ import annotations

import pytest

from authorag.rerankers.authority import AuthorityReranker
from authorag.trust import TrustRule
from authorag.types import AuthorityDetail, Candidate, SourceValue


def test_page_evidence_is_read_from_page_trust() -> None:
    rule = TrustRule()
    page = AuthorityDetail(None, 0.15, "page", credibility=0.22, page_trust=0.22)
    got = rule.of(page)
    assert (got.value, got.reason) == (pytest.approx(0.22), "page evidence")
    assert TrustRule(unknown_level=0.4).of(page).value == pytest.approx(0.32)  # moves with the unknown level
    named = AuthorityDetail(None, 0.15, "page", credibility=0.9, credibility_sources=(SourceValue("page", 0.9),))
    assert rule.of(named).reason == "credible"  # a name in the list is no page evidence


def test_an_allow_listed_page_gets_full_trust() -> None:
    class PageOnly:
        name = "page-only"

        def score(self, candidates: list[Candidate]) -> list[AuthorityDetail]:
            return [AuthorityDetail(None, 0.15, "page", credibility=0.1, page_trust=0.1) for _ in candidates]

    cands = [Candidate.create("https://zq-clinic.gov/a"), Candidate.create("https://zq-shop.biz/b")]
    ranked = AuthorityReranker(PageOnly(), allow=("*.gov",), relevance=None).rerank("q", cands)
    assert [(c.domain, c.scores["trust"]) for c in ranked] == [("zq-clinic.gov", pytest.approx(1.0)),
                                                                ("zq-shop.biz", pytest.approx(0.1))]
