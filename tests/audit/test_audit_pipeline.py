"""audit(): parsing + judge steps + credibility + metrics, with the shipped FakeBackend."""
from __future__ import annotations

import re
import sys
import types
from typing import Any

import pytest

from authorag.audit import AuditJudge, audit
from authorag.audit.metrics import METRIC_KEYS
from authorag.audit.suitability import MISSING_NOTE
from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import ChatRequest
from authorag.testing import FakeBackend

ITEM: dict[str, Any] = {
    "question": "Do flu vaccines prevent influenza?",
    "answer": "Flu vaccines cut the risk of influenza [1]. Hello there. Side effects are mild [2][2].",
    "sources": [
        {"id": "1", "url": "https://www.bbc.co.uk/news/health", "text": "The vaccine reduces flu risk."},
        {"id": "2", "url": "https://www.dailymail.co.uk/health", "text": "Shots cause mild soreness."},
    ],
    "debate": True,
}


def _script(request: ChatRequest) -> str:
    """Relevance: 'Hello' is irrelevant; support: only source [0]; stance pro; confidence 5;
    intent yes; fidelity no; rubrics all 4."""
    prompt = request.prompt_version
    user = request.messages[-1]["content"]
    items = [ln for ln in user.splitlines() if re.match(r"\[\d+\] ", ln)]
    if prompt == "audit_relevance_v1":
        return "".join(f"[{i}]: {'no' if 'Hello' in ln else 'yes'}\n" for i, ln in enumerate(items))
    if prompt == "audit_stance_v1":
        return "".join(f"[{i}]: pro\n" for i in range(len(items)))
    if prompt == "audit_support_v1":
        return "".join(f"[{i}]: {'yes' if i == 0 else 'no'}\n" for i in range(len(items)))
    if prompt == "audit_rubrics_v1":
        return "".join(f"{name}: 4\n" for name in ("content_relevance", "factual_accuracy", "objectivity",
                                                    "freshness", "ownership_accountability",
                                                    "author_accountability", "domain_authority", "layout_clarity"))
    return {"audit_confidence_v1": "5", "audit_intent_v1": "yes", "audit_fidelity_v1": "no"}[prompt]


def test_audit_with_judge_end_to_end() -> None:
    fake = FakeBackend(_script)
    report = audit(ITEM, judge=fake, rubrics=True)
    out = report.to_dict()
    assert [(s["text"], s["citations"], s["relevant"], s["stance"]) for s in out["statements"]] == [
        ("Flu vaccines cut the risk of influenza.", ["1"], True, "pro"),
        ("Hello there.", [], False, "pro"),
        ("Side effects are mild.", ["2"], True, "pro"),
    ]
    assert out["citation_matrix"] == [[1, 0], [0, 0], [0, 1]]
    assert out["support_matrix"] == [[1, 0], [1, 0], [1, 0]]
    assert [(s["domain"], s["credibility"], s["credible"]) for s in out["sources"]] == [
        # dailymail: Wikipedia perennial "generally unreliable" (0.35), CRED-1 and Décodex (0.35), equal weights
        ("bbc.co.uk", 0.9, True), ("dailymail.co.uk", pytest.approx(0.25655, abs=1e-5), False)]
    assert list(out["metrics"]) == list(METRIC_KEYS)
    assert out["metrics"] == {
        "one_sided": True, "overconfident": True,
        "relevant_statement_ratio": pytest.approx(2 / 3),
        "uncited_sources_ratio": 0.0,
        "unsupported_statements_ratio": 0.0,   # both relevant statements supported by source 1
        "source_necessity": 0.5,               # all support goes to source 1: matching 1 / 2
        "citation_accuracy": 0.5,              # (0,0) hit; (2,1) miss
        "citation_thoroughness": pytest.approx(1 / 3),  # ΣS = 3
        "credibility_rate": 0.5, "non_credibility_rate": 0.5,
        "groundedness": 0.5, "credible_groundedness": 1.0, "non_credible_groundedness": 0.0,
    }
    assert out["sources"][0]["rubrics"]["domain_authority"] == 4
    assert out["sources"][0]["rubric_score"] == 75.0
    assert [(c["statement"], c["source"], c["intent_purpose_alignment"], c["source_suitability"],
             c["answer_source_fidelity"], c["verified_misguidance"]) for c in out["citations"]] == [
        (0, "1", True, False, False, False), (2, "2", True, False, False, False)]
    # The suitability package is installed: news outlets are a poor fit for this health question.
    assert [c["source_type"] for c in out["citations"]] == ["news", "news"]
    assert MISSING_NOTE not in out["notes"]
    by_label = out["cost"]["by_label"]
    assert {k: v["calls"] for k, v in by_label.items()} == {
        "audit_confidence": 1, "audit_fidelity": 2, "audit_intent": 2, "audit_relevance": 1,
        "audit_rubrics": 2, "audit_stance": 1, "audit_support": 3}
    assert out["cost"]["totals"]["calls"] == 12 == len(fake.requests)
    assert out["cost"]["uncached"]["calls"] == 12 and out["cost"]["uncached"]["completion_tokens"] == 12
    assert out["judge"] == {"backend": "fake", "model": "fake-model", "prompt_version": "v1"}


def test_cached_calls_keep_their_cost_in_uncached() -> None:
    from authorag.judges.backends.cache import CachedBackend, JudgeCache

    backend = CachedBackend(FakeBackend(_script), JudgeCache(":memory:"))
    first = audit(ITEM, judge=backend).to_dict()["cost"]
    second = audit(ITEM, judge=backend).to_dict()["cost"]
    assert second["totals"]["cache_hits"] == second["totals"]["calls"] == first["totals"]["calls"]
    assert second["totals"]["completion_tokens"] == 0
    assert second["uncached"]["completion_tokens"] == first["uncached"]["completion_tokens"] > 0


def test_audit_without_judge_runs_no_llm() -> None:
    out = audit(ITEM).to_dict()
    assert out["support_matrix"] is None and out["judge"] is None and out["cost"] == {}
    m = out["metrics"]
    assert m["credibility_rate"] == 0.5 and m["uncited_sources_ratio"] == 0.0
    assert m["citation_accuracy"] is None and m["relevant_statement_ratio"] is None
    assert out["citations"][0]["verified_misguidance"] is None


def test_given_statements_and_support_are_not_reasked() -> None:
    item = {**ITEM, "debate": False, "statements": [
        {"text": "Vaccines work.", "citations": [1], "relevant": True},
        {"text": "Mild side effects.", "citations": ["2"], "relevant": True}],
        "support": [[1, 0], [0, 0]]}
    fake = FakeBackend(_script)
    out = audit(item, judge=fake).to_dict()
    assert {r.prompt_version for r in fake.requests} == {"audit_intent_v1", "audit_fidelity_v1"}
    assert out["metrics"]["unsupported_statements_ratio"] == 0.5
    assert out["metrics"]["source_necessity"] == 0.5


def test_unknown_id_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"citation \[3\] .* refers to source id '3'"):
        audit({**ITEM, "answer": "Yes [3]."})
    with pytest.raises(ConfigError, match=r"statements\[0\] cites source id 'x'"):
        audit({**ITEM, "statements": [{"text": "a", "citations": ["x"]}]})


def test_empty_answer_and_no_sources() -> None:
    out = audit({"question": "q", "answer": "", "sources": []}, judge=FakeBackend([])).to_dict()
    assert out["statements"] == [] and out["citation_matrix"] == []
    assert set(out["metrics"].values()) == {None}
    assert out["cost"]["totals"]["calls"] == 0


@pytest.mark.parametrize(("bad", "match"), [
    ({"answer": "a"}, "missing 'question'"),
    ({"question": "q", "answer": 3}, "'answer' must be a string"),
    ({"question": "q", "sources": {"id": 1}}, "'sources' must be a list"),
    ({"question": "q", "sources": [{"id": 1, "url": "a"}, {"id": "1", "url": "b"}]}, "source id '1' appears twice"),
    ({"question": "q", "confidence": 7}, "'confidence' must be an integer 1-5, got 7"),
    ({"question": "q", "support": [[1]]}, "'support' needs 'statements'"),
    ({"question": "q", "sources": [{"id": 1, "url": "a"}], "statements": [{"text": "s", "citations": []}],
      "support": [[2]]}, r"support\[0\] must be a list of 1 values 0 or 1"),
    ({"question": "q", "statements": [{"text": "s", "stance": "maybe"}]}, "'stance' must be one of"),
])
def test_bad_input(bad: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        audit(bad)


def test_skip_policy_leaves_support_unknown() -> None:
    def script(request: ChatRequest) -> str | BaseException:
        if request.prompt_version == "audit_support_v1":
            return JudgeError("backend timed out")
        return _script(request)

    out = audit(ITEM, judge=FakeBackend(script)).to_dict()
    assert out["support_matrix"] == [None, None, None]
    assert out["metrics"]["citation_accuracy"] is None
    assert out["cost"]["by_label"]["audit_support"]["errors"] == 3
    assert any(n.startswith("audit_support: backend timed out") for n in out["notes"])


def test_raise_policy_and_parse_failure() -> None:
    def script(request: ChatRequest) -> str:
        return "I think so" if request.prompt_version == "audit_relevance_v1" else _script(request)

    with pytest.raises(JudgeError, match="no '\\[i\\]: yes|no' line could be read"):
        audit(ITEM, judge=AuditJudge(FakeBackend(script), on_failure="raise"))
    out = audit(ITEM, judge=FakeBackend(script)).to_dict()
    assert [s["relevant"] for s in out["statements"]] == [None, None, None]
    assert out["cost"]["by_label"]["audit_relevance"]["parse_failures"] == 1


def test_suitability_hook_uses_the_package_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    # Stands in for the suitability package (another branch) to pin the hook's contract.
    from authorag.audit import suitability

    class Scorer:
        def score(self, query: str, candidates: list[Any]) -> Any:
            values = [0.0 if "dailymail" in c.url else 1.0 for c in candidates]
            return types.SimpleNamespace(values=values, query={"topic": "health"},
                                         source_types=[{"source_type": "news"} for _ in candidates])

    module = types.ModuleType("authorag.suitability")
    module.load_suitability = Scorer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "authorag.suitability", module)
    suitability._scorer.cache_clear()

    def script(request: ChatRequest) -> str:
        return "no" if request.prompt_version == "audit_intent_v1" else _script(request)

    try:
        out = audit(ITEM, judge=FakeBackend(script)).to_dict()
    finally:
        suitability._scorer.cache_clear()
    assert [(c["source_suitability"], c["suitability_score"], c["source_type"], c["verified_misguidance"])
            for c in out["citations"]] == [(True, 1.0, "news", False), (False, 0.0, "news", True)]
    assert MISSING_NOTE not in out["notes"]


def test_decompose_splits_claims_keeping_citations() -> None:
    def script(request: ChatRequest) -> str:
        if request.prompt_version == "audit_decompose_v1":
            return "- Claim one.\n- Claim two.\n" if "risk" in request.messages[-1]["content"] else "- Same.\n"
        return _script(request)

    out = audit({**ITEM, "debate": False}, judge=FakeBackend(script), decompose=True).to_dict()
    assert [(s["text"], s["citations"]) for s in out["statements"]] == [
        ("Claim one.", ["1"]), ("Claim two.", ["1"]), ("Same.", []), ("Same.", ["2"])]
