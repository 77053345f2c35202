from __future__ import annotations

import pytest

from authorag.errors import ConfigError, InvalidURLError
from authorag.types import AuthorityDetail, Candidate, Ranking, SourceValue


def test_create_normalizes_and_defaults_id() -> None:
    c = Candidate.create("https://www.NIH.gov/x", "text")
    assert (c.id, c.host, c.domain, c.text) == ("https://www.NIH.gov/x", "www.nih.gov", "nih.gov", "text")


def test_create_lenient_and_strict() -> None:
    assert Candidate.create("not a url").domain is None
    with pytest.raises(InvalidURLError, match="whitespace"):
        Candidate.create("not a url", strict=True)


def test_with_score_returns_new_and_never_overwrites() -> None:
    c = Candidate.create("a.com", scores={"relevance": 0.4})
    d = c.with_score("authority", 0.9)
    assert dict(c.scores) == {"relevance": 0.4}
    assert dict(d.scores) == {"relevance": 0.4, "authority": 0.9}
    with pytest.raises(ConfigError, match="score 'relevance' is already set"):
        d.with_score("relevance", 1.0)


def test_scores_and_metadata_are_read_only() -> None:
    c = Candidate.create("a.com", metadata={"k": 1})
    with pytest.raises(TypeError):
        c.metadata["k"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        c.scores["x"] = 1.0  # type: ignore[index]


def test_metadata_copied_from_caller() -> None:
    meta = {"k": 1}
    c = Candidate.create("a.com", metadata=meta)
    meta["k"] = 2
    assert c.metadata["k"] == 1


def test_ranking_top_k() -> None:
    cands = tuple(Candidate.create(f"s{i}.com", id=str(i)) for i in range(3))
    r = Ranking("q", cands)
    assert [c.id for c in r.top_k(2)] == ["0", "1"]
    assert r.ids == ["0", "1", "2"] and len(r) == 3
    with pytest.raises(ConfigError, match="k must be a positive integer, got 0"):
        r.top_k(0)


def test_detail_to_dict_shape() -> None:
    d = AuthorityDetail(0.8, 0.9, "table", (SourceValue("moz", 0.95, 95.0),), 0.5,
                        (SourceValue("wikipedia_perennial", 0.5, 0.0),), "x.com")
    assert d.to_dict() == {
        "authority": 0.8, "confidence": 0.9, "tier": "table", "credibility": 0.5, "matched": "x.com",
        "sources": {"moz": 0.95}, "credibility_sources": {"wikipedia_perennial": 0.5},
        "raw": {"moz": 95.0, "wikipedia_perennial": 0.0}, "note": None,
    }


def test_new_candidate_equals_the_dataclass_constructor_and_is_frozen() -> None:
    import dataclasses
    from types import MappingProxyType

    from authorag.types import new_candidate

    scores = MappingProxyType({"relevance": 0.5})
    fast = new_candidate("1", "https://nih.gov/x", "nih.gov", "nih.gov", "t", MappingProxyType({}), scores, None)
    assert fast == Candidate("1", "https://nih.gov/x", "nih.gov", "nih.gov", "t", scores=scores)
    assert hash(fast.id) == hash("1") and fast.with_score("fused", 1).scores["fused"] == 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.url = "x"  # type: ignore[misc]
