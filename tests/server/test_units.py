"""Server pieces without HTTP: document reading, config parsing, metrics text, doc examples."""
from __future__ import annotations

from typing import Any

import pytest

from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.server.config import ServerConfig
from authorag.server.documents import echo, read_documents, split_string_document, truncate
from authorag.server.metrics import Metrics


@pytest.mark.parametrize("text,url", [
    ("title: T\nurl: https://www.cdc.gov/flu\ntext: flu", "https://www.cdc.gov/flu"),
    ("Source: 'https://nih.gov/x'\n\nbody", "https://nih.gov/x"),
    ("Source: 'https://nih.gov/x'\nbody", ""),  # no end marker: the page's first lines, not a header
    ("  URL:   https://a.org/b  \n", "https://a.org/b"),
    ("https://www.mayoclinic.org/c\nThe text", "https://www.mayoclinic.org/c"),
    ("\n\nhttp://a.org\nx", "http://a.org"),
    ("see https://a.org for more", ""),
    ("curl: not a url key\ntext: x", ""),
    ("", ""),
])
def test_url_of_a_string_document(text: str, url: str) -> None:
    assert split_string_document(text)[0] == url


@pytest.mark.parametrize("document,url,text", [
    ("title: T\nurl: https://www.cdc.gov/flu\ntext: Flu shots.", "https://www.cdc.gov/flu", "title: T\nFlu shots."),
    ("url: https://a.org/x\nsource: https://b.org/y\nTitle: T\nbody: B", "https://a.org/x", "Title: T\nB"),
    ("https://www.mayoclinic.org/c\nThe text", "https://www.mayoclinic.org/c", "The text"),
    ("\n\nhttp://a.org\nx", "http://a.org", "x"),
    ("url: https://a.org/x", "https://a.org/x", ""),
    ("URL: \nsource: https://b.org/y\ntext: orphan", "https://b.org/y", "orphan"),  # a blank url: line goes too
    ("title: Cure\ntext: Miracle.\nsource: https://www.nih.gov/s", "", "title: Cure\nMiracle.\nsource: https://www.nih.gov/s"),
    ("Miracle cure.\nSource: https://www.nih.gov/s", "", "Miracle cure.\nSource: https://www.nih.gov/s"),
    ("text: no header", "", "text: no header"),
    ("", "", ""),
])
def test_a_string_document_is_scored_without_its_labels(document: str, url: str, text: str) -> None:
    # the URL lines and the text key label the page; the title and everything after the header is text
    assert split_string_document(document) == (url, text)
    docs = read_documents([document], None, rank_fields=None, max_chars=10_000, max_tokens=None)
    assert (docs.urls, docs.texts) == ([url], [text])


def test_url_priority_and_echo() -> None:
    documents: list[str | dict[str, Any]] = [
        "url: https://a.org/x\ntext: t", {"text": "t", "source": "https://b.org", "extra": 1}, "plain"]
    cols = read_documents(documents, [None, "https://c.org", ""], rank_fields=None, max_chars=100, max_tokens=None)
    assert cols.urls == ["https://a.org/x", "https://c.org", ""]
    assert echo(documents[1]) == {"text": "t", "source": "https://b.org", "extra": 1}
    assert echo(documents[2]) == {"text": "plain"}


def test_rank_fields_build_the_text() -> None:
    cols = read_documents([{"title": "Flu", "body": "shots", "url": "https://cdc.gov"}], None,
                          rank_fields=["title", "body"], max_chars=100, max_tokens=None)
    assert cols.texts == ["title: Flu\nbody: shots"]
    assert cols.urls == ["https://cdc.gov"]


@pytest.mark.parametrize("text,chars,tokens,out", [
    ("abcdef", 3, None, ("abc", True)),
    ("a b c", 100, 5, ("a b c", False)),
    ("a  b\nc d", 100, 3, ("a b c", True)),
])
def test_truncate(text: str, chars: int, tokens: int | None, out: tuple[str, bool]) -> None:
    assert truncate(text, chars, tokens) == out


def test_config_from_env_and_overrides() -> None:
    cfg = ServerConfig.from_env({"AUTHORAG_WEIGHT": "0.5", "AUTHORAG_EXCLUDE_SOURCES": "majestic, moz",
                                 "AUTHORAG_LEARNED": "yes", "AUTHORAG_API_KEY": "s3cr3t-key",
                                 "AUTHORAG_DENY": "*.biz,spam.com", "AUTHORAG_MIN_AUTHORITY": "0.2"},
                                max_documents=7, fusion="rrf")
    assert (cfg.policy.weight, cfg.policy.fusion, cfg.policy.deny, cfg.policy.min_authority) == (
        0.5, "rrf", ("*.biz", "spam.com"), 0.2)
    assert (cfg.scorer.exclude_sources, cfg.scorer.learned, cfg.max_documents) == (("majestic", "moz"), True, 7)
    assert "s3cr3t-key" not in repr(cfg) and cfg.api_key == "s3cr3t-key"
    assert ServerConfig.from_env(cfg.to_env()) == cfg


@pytest.mark.parametrize("env,match", [
    ({"AUTHORAG_WEIGHT": "heavy"}, "AUTHORAG_WEIGHT must be a finite number, got 'heavy'"),
    ({"AUTHORAG_MAX_DOCUMENTS": "0"}, "max_documents must be a positive integer, got 0"),
    ({"AUTHORAG_RELEVANCE": "tfidf"}, "AUTHORAG_RELEVANCE must be one of .*, 'dense', 'cascade', 'cascade-or-bm25', got 'tfidf'"),
    ({"AUTHORAG_RELEVANCE": "upstream"}, "AUTHORAG_RELEVANCE must be one of 'auto', 'rank', 'none', 'bm25', 'dense', 'cascade', 'cascade-or-bm25'"),
    ({"AUTHORAG_JUDGE": "openai"}, "judge 'openai' needs judge_base_url"),
    ({"AUTHORAG_LEARNED": "maybe"}, "AUTHORAG_LEARNED must be true or false"),
])
def test_config_errors(env: dict[str, str], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        ServerConfig.from_env(env)


def test_metrics_histogram_is_cumulative() -> None:
    m = Metrics()
    for s in (0.0005, 0.003, 0.003, 20.0):
        m.observe_request("POST", "/v1/rerank", 200, s)
    text = m.render()
    assert 'authorag_request_duration_seconds_bucket{route="/v1/rerank",le="0.001"} 1' in text
    assert 'authorag_request_duration_seconds_bucket{route="/v1/rerank",le="0.005"} 3' in text
    assert 'authorag_request_duration_seconds_bucket{route="/v1/rerank",le="10"} 3' in text
    assert 'authorag_request_duration_seconds_bucket{route="/v1/rerank",le="+Inf"} 4' in text
    assert 'authorag_request_duration_seconds_count{route="/v1/rerank"} 4' in text


def test_learned_tier_through_the_service() -> None:
    from authorag.server.schemas import AuthorityRequest
    from authorag.server.service import RerankService

    svc = RerankService(ServerConfig(relevance="rank", scorer=ScorerSettings(learned=True)))
    out = svc.authority(AuthorityRequest(urls=["nih.gov", "cranberry-cures-4u.biz"]))
    assert [r["tier"] for r in out["results"]] == ["table", "learned"]
    assert out["meta"]["scorer"] == "reserved>hosted>table>learned"


def test_a_rank_field_named_again_is_read_once() -> None:
    # before, each repeat added the field again: 32 x one large field was 32 x the text to score
    cols = read_documents([{"title": "Flu", "body": "shots " * 3, "url": "https://cdc.gov"}], None,
                          rank_fields=["body", "title", "body", "body"], max_chars=10_000, max_tokens=None)
    assert cols.texts == ["body: shots shots shots \ntitle: Flu"]
