"""HybridAuthority: tier choice, budget enforcement, calibration (FakeBackend at the model boundary)."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from authorag.errors import ConfigError
from authorag.judges.backends.base import Completion
from authorag.judges.calibration import Calibration
from authorag.judges.deadline import guard_for
from authorag.judges.point_judge import PointJudge
from authorag.priors.table import load_prior
from authorag.rerankers.authority import AuthorityReranker
from authorag.testing import FakeBackend
from authorag.tiers.hybrid import HybridAuthority, build_hybrid
from authorag.types import AuthorityDetail, Candidate, SourceValue, candidates_from

LINEAR = Calibration("linear", (0.0, 1.0), (0.2, 0.6))
PRIOR = load_prior()


class FixedLearned:
    """A learned-tier scorer with fixed answers per domain (the learned prior is another module)."""

    name = "learned"

    def __init__(self, values: dict[str, tuple[float, float]]) -> None:
        self.values = values
        self.seen: list[str] = []

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        out: list[AuthorityDetail] = []
        for c in candidates:
            self.seen.append(c.domain or "")
            value, conf = self.values.get(c.domain or "", (0.1, 0.1))
            out.append(AuthorityDetail(value, conf, "learned", (SourceValue("learned", value),)))
        return out


def judge(script: list[str] | None = None) -> tuple[PointJudge, FakeBackend]:
    fake = FakeBackend(["6"] * 10 if script is None else script)
    return PointJudge(fake, use_logprobs=False, on_failure="skip"), fake


def test_tiers_table_learned_judge() -> None:
    pj, fake = judge()
    learned = FixedLearned({"fresh-news-site.com": (0.4, 0.8)})
    hybrid = HybridAuthority(PRIOR, learned, pj, calibration=LINEAR)
    details = hybrid.score(candidates_from(["https://www.bbc.co.uk/news", "fresh-news-site.com", "zq-unknown.biz"]))
    assert [d.tier for d in details] == ["table", "learned", "judge"]
    # learned 0.4 (confidence 0.8) and the judge (confidence 0.5) are shrunk towards 0.3
    assert details[1].authority == pytest.approx(0.3 + 0.8 * (0.4 - 0.3))
    assert details[2].authority == pytest.approx(0.3 + 0.5 * (0.2 + 0.4 * 6 / 9 - 0.3))
    assert "shrunk towards 0.3 by confidence 0.50" in (details[2].note or "")
    assert details[2].sources[-1] == SourceValue("judge.calibrated", pytest.approx(0.2 + 0.4 * 6 / 9), pytest.approx(6 / 9))
    assert "calibrated linear" in (details[2].note or "")
    assert learned.seen == ["fresh-news-site.com", "zq-unknown.biz"]  # the table hit never reaches later tiers
    assert len(fake.requests) == 1 and "zq-unknown.biz" in fake.requests[0].messages[-1]["content"]


def test_call_budget_dedupes_and_stops() -> None:
    pj, fake = judge()
    hybrid = HybridAuthority(PRIOR, None, pj, max_judge_calls=2, calibration=None)
    urls = ["https://a-unknown.biz/1", "https://a-unknown.biz/2", "b-unknown.biz", "c-unknown.biz", "d-unknown.biz"]
    details = hybrid.score(candidates_from(urls))
    assert [d.tier for d in details] == ["judge", "judge", "judge", "unknown", "unknown"]
    assert len(fake.requests) == 2
    assert details[3].note == "judge budget exhausted (max_judge_calls=2)"


def test_judged_domains_are_remembered_across_calls() -> None:
    pj, fake = judge(["6", "3"])
    hybrid = HybridAuthority(PRIOR, None, pj, calibration=None)
    first = hybrid.score(candidates_from(["https://a-unknown.biz/1"]))
    again = hybrid.score(candidates_from(["https://a-unknown.biz/2", "b-unknown.biz"]))
    assert len(fake.requests) == 2  # a-unknown.biz was judged once, b-unknown.biz once
    assert again[0] == first[0] and again[0].authority == pytest.approx(0.3 + 0.5 * (6 / 9 - 0.3))
    assert again[1].authority == pytest.approx(0.3 + 0.5 * (3 / 9 - 0.3))


def test_failed_judgements_are_not_remembered() -> None:
    pj, fake = judge(["no idea", "6"])
    guard_for(pj, negative_ttl_s=0.0)  # failures are remembered only this long (see test_judge_deadline.py)
    hybrid = HybridAuthority(PRIOR, None, pj, calibration=None)
    assert hybrid.score(candidates_from(["a-unknown.biz"]))[0].tier == "unknown"
    assert hybrid.score(candidates_from(["a-unknown.biz"]))[0].tier == "judge"
    assert len(fake.requests) == 2


def test_time_budget_zero_judges_nothing_and_keeps_low_confidence_table_value() -> None:
    pj, fake = judge()
    hybrid = HybridAuthority(PRIOR, None, pj, min_confidence=0.99, judge_seconds=0.0, calibration=None)
    details = hybrid.score(candidates_from(["example.com", "zq-unknown.biz"]))
    assert fake.requests == []
    assert details[0].tier == "table" and details[0].confidence < 0.99  # best available, flagged
    assert "judge time budget exhausted" in (details[0].note or "")
    assert details[1].tier == "unknown" and details[1].authority is None


def test_cache_hits_do_not_count_against_the_budget() -> None:
    fake = FakeBackend([Completion(text="7", cached=True)] * 3 + ["7"])
    hybrid = HybridAuthority(PRIOR, None, PointJudge(fake, use_logprobs=False), max_judge_calls=1, calibration=None)
    details = hybrid.score(candidates_from(["a-unknown.biz", "b-unknown.biz", "c-unknown.biz", "d-unknown.biz", "e-unknown.biz"]))
    assert [d.tier for d in details] == ["judge"] * 4 + ["unknown"]


def test_judge_failure_falls_back_with_reason() -> None:
    pj, _ = judge(["no idea"])
    hybrid = HybridAuthority(PRIOR, FixedLearned({}), pj, calibration=None)
    detail = hybrid.score(candidates_from(["zq-unknown.biz"]))[0]
    # low-confidence learned value kept, shrunk towards 0.3 by its confidence 0.1
    assert detail.tier == "learned" and detail.authority == pytest.approx(0.3 + 0.1 * (0.1 - 0.3))
    assert "judge.point gave no score" in (detail.note or "")


def test_shrinkage_off_keeps_tier_values_and_is_validated() -> None:
    learned = FixedLearned({"fresh-news-site.com": (0.4, 0.8)})
    hybrid = HybridAuthority(PRIOR, learned, None, calibration=None, unknown_level=None)
    assert hybrid.score(candidates_from(["fresh-news-site.com"]))[0].authority == pytest.approx(0.4)
    table_hit = HybridAuthority(PRIOR, learned).score(candidates_from(["https://www.bbc.co.uk/news"]))[0]
    assert table_hit.authority == PRIOR.lookup("bbc.co.uk").authority  # table values are never shrunk
    with pytest.raises(ConfigError, match=r"unknown_level must be in \[0, 1\] or None, got 1.5"):
        HybridAuthority(PRIOR, unknown_level=1.5)


def test_no_judge_and_errors() -> None:
    hybrid = HybridAuthority(PRIOR, calibration=None)
    assert hybrid.score(candidates_from(["zq-unknown.biz"]))[0].note == "no judge configured"
    with pytest.raises(ConfigError, match="min_confidence must be in"):
        HybridAuthority(PRIOR, min_confidence=2.0)
    with pytest.raises(ConfigError, match="judge must be 'local', 'openai' or None, got 'gpt'"):
        build_hybrid("gpt", learned=False)


def test_shipped_calibration_is_monotone_and_used_by_default() -> None:
    cal = Calibration.load()
    assert cal.kind in ("isotonic", "linear") and cal.n >= 20
    assert list(cal.y) == sorted(cal.y)
    hybrid = HybridAuthority(PRIOR, None, judge()[0])
    assert hybrid.calibration == cal


def test_plugs_into_the_reranker() -> None:
    pj, _ = judge(["0", "9"])
    reranker = AuthorityReranker(HybridAuthority(PRIOR, None, pj, calibration=None), weight=1.0)
    cands = [Candidate.create(u, id=u, scores={"relevance": 1.0}) for u in ["zq-spam.biz", "zq-great.org"]]
    ranking = reranker.rerank("q", cands)
    assert ranking.ids == ["zq-great.org", "zq-spam.biz"]


def test_build_hybrid_local_is_lazy_and_uses_table_first() -> None:
    hybrid = build_hybrid("local", learned=False, cache=":memory:", model="smollm2-135m",
                          hybrid_kw={"max_judge_calls": 3})
    assert isinstance(hybrid.judge, PointJudge) and hybrid.judge.on_failure == "skip"
    assert hybrid.max_judge_calls == 3
    assert hybrid.score(candidates_from(["https://www.bbc.co.uk/"]))[0].tier == "table"  # no model call
