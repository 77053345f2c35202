"""Long work stops at the request's deadline, and the costliest inputs stay cheap (issue items on
cooperative deadlines, the MCP rerank policy lists and the domain-list match).

CPU is read with ``time.thread_time`` (this thread's CPU only), so other jobs on the machine
do not move the figures.
"""
from __future__ import annotations

import time

import pytest

from authorag.errors import LimitExceeded
from authorag.policy import RerankPolicy
from authorag.rerankers.domain_lists import DomainList
from authorag.server.config import ServerConfig
from authorag.server.mcp_tools import (
    ALLOW_WARNING,
    POLICY_PATTERN_CHARS,
    TOOLS,
    ToolInputError,
    call_policy,
    call_tool,
    policy_schema,
)
from authorag.server.schemas import AuditRequest
from authorag.server.service import DeadlineExceeded, RerankService
from authorag.types import Candidate


@pytest.fixture(scope="module")
def service() -> RerankService:
    svc = RerankService(ServerConfig(relevance="rank", max_policy_patterns=5))
    svc.warm_up()
    return svc


def _big_audit() -> AuditRequest:
    """An audit that costs about a second of CPU without a deadline: 500 statements against 100
    sources of 40,000 characters each (4 MB of source text)."""
    answer = " ".join(f"Statement {k} holds that w{k}a w{k}b w{k}c w{k}d are so." for k in range(500))
    text = " ".join(f"z{j} y{j} x{j}." for j in range(3_000))[:40_000]
    sources = [{"id": str(i), "url": f"https://www.s{i}.org/p", "text": text} for i in range(100)]
    return AuditRequest.model_validate({"question": "q", "answer": answer, "sources": sources})


def test_an_audit_stops_soon_after_its_deadline(service: RerankService) -> None:
    # before, an audit ran to its end whatever the deadline (the 503 came, the thread went on)
    request = _big_audit()
    start = time.thread_time()
    with pytest.raises(DeadlineExceeded, match="did not finish within the server's deadline"):
        service.audit(request, deadline=time.monotonic() + 0.05)
    assert time.thread_time() - start < 0.3


def test_the_same_audit_answers_without_a_deadline(service: RerankService) -> None:
    report = service.audit(_big_audit(), deadline=time.monotonic() + 120)
    assert len(report["statements"]) == 500 and len(report["sources"]) == 100


def test_a_long_allow_list_is_refused_before_any_work(service: RerankService) -> None:
    docs = [{"url": f"https://www.s{i}.org/p", "text": "flu shots"} for i in range(10)]
    with pytest.raises(ToolInputError, match=r"rerank: policy.deny has 6 patterns, the limit is 5; send fewer "
                                             r"patterns, e\.g\. '\*\.gov' for every \.gov site \(server setting "
                                             r"--max-policy-patterns\)"):
        call_tool(service, "rerank", {"query": "flu", "documents": docs,
                                      "policy": {"deny": [f"d{i}.org" for i in range(6)]}})
    with pytest.raises(ToolInputError, match=rf"rerank: policy.allow\[1\] has 301 characters, the limit is "
                                             rf"{POLICY_PATTERN_CHARS}"):
        call_tool(service, "rerank", {"query": "flu", "documents": docs, "policy": {"allow": ["a.org", "a" * 301]}})
    ranked = call_tool(service, "rerank", {"query": "flu", "documents": docs,
                                           "policy": {"deny": [f"s{i}.org" for i in range(5)]}})
    assert sorted(r["index"] for r in ranked["results"]) == [5, 6, 7, 8, 9]


def test_the_policy_bounds_are_checked_before_the_policy_is_read() -> None:
    with pytest.raises(LimitExceeded, match="policy.allow has 3 patterns, the limit is 2") as info:
        call_policy(RerankPolicy(), {"allow": ["a.org", "b.org", 7]}, 2)
    assert info.value.code == "too_many_policy_patterns"
    assert call_policy(RerankPolicy(), {"allow": ["a.org", "b.org"]}, 2).allow == ("a.org", "b.org")


def test_the_rerank_tool_says_what_allow_does() -> None:
    assert ALLOW_WARNING in TOOLS["rerank"].description
    allow = policy_schema(RerankPolicy())["anyOf"][0]["properties"]["allow"]
    assert allow["description"].endswith(ALLOW_WARNING)
    assert "trust 1.0, above every scored source (nih.gov included)" in ALLOW_WARNING


def test_domain_list_match_does_not_grow_with_the_list() -> None:
    # before: every host was compared with every pattern (1,000 documents x 20,000 patterns: seconds)
    patterns = [f"site-{i}.example.org" for i in range(10_000)] + [f"*.tld{i}" for i in range(10_000)]
    patterns += [f"medium.com/@writer{i}" for i in range(1_000)]
    listed = DomainList.compile(patterns)
    cands = [Candidate.create(f"https://www.page-{i}.news.site-{i}.example.org/a/b") for i in range(500)]
    cands += [Candidate.create(f"https://www.page-{i}.news.other-{i}.net/a/b") for i in range(500)]  # no pattern
    start = time.thread_time()
    hits = [listed.matches_candidate(c) for c in cands]
    assert time.thread_time() - start < 0.2
    assert hits == [True] * 500 + [False] * 500
    assert listed.matches_candidate(Candidate.create("https://medium.com/@writer7/post"))
    assert not listed.matches_candidate(Candidate.create("https://medium.com/@writer70000/post"))
    assert not listed.matches_candidate(Candidate.create("https://medium.com/@writer7x/post"))
    assert listed.matches("a.b.tld9999") and not listed.matches("tld9999x") and not listed.matches("example.org")
