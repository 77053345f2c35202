"""POST /v1/audit on a real server: the report shape, the chat-API shapes, errors."""
from __future__ import annotations

import httpx
import pytest

from authorag.audit.metrics import METRIC_KEYS

AUTH = {"Authorization": "Bearer test-key"}  # as in conftest

BODY = {
    "question": "Do flu vaccines prevent influenza?",
    "answer": "They cut the risk [1]. Mild soreness is common [2].",
    "sources": [{"id": "1", "url": "https://www.bbc.co.uk/news/health"},
                {"id": "2", "url": "https://www.dailymail.co.uk/health"}],
    "statements": None,
}


def test_audit_report(server_url: str) -> None:
    r = httpx.post(f"{server_url}/v1/audit", json=BODY, headers=AUTH)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["version"] == 1
    assert data["citation_matrix"] == [[1, 0], [0, 1]] and data["support_matrix"] is None
    assert list(data["metrics"]) == list(METRIC_KEYS)
    assert data["metrics"]["credibility_rate"] == 0.5
    assert [(s["domain"], s["credible"]) for s in data["sources"]] == [("bbc.co.uk", True), ("dailymail.co.uk", False)]


def test_audit_given_support_and_annotations(server_url: str) -> None:
    body = {"question": "q", "answer": "A holds. B holds.", "annotations": [
        {"type": "url_citation", "url_citation": {"start_index": 0, "end_index": 8, "url": "https://www.bbc.co.uk/x"}}]}
    data = httpx.post(f"{server_url}/v1/audit", json=body, headers=AUTH).json()
    assert data["citation_matrix"] == [[1], [0]] and data["sources"][0]["id"] == "1"
    given = {**BODY, "statements": [{"text": "a", "citations": ["1"], "relevant": True}], "support": [[1, 0]]}
    metrics = httpx.post(f"{server_url}/v1/audit", json=given, headers=AUTH).json()["metrics"]
    assert (metrics["citation_accuracy"], metrics["unsupported_statements_ratio"]) == (1.0, 0.0)


@pytest.mark.parametrize(("body", "message"), [
    ({**BODY, "answer": "Yes [7]."}, "refers to source id '7'"),
    ({"answer": "x"}, "question: Field required"),
])
def test_audit_errors_are_422(server_url: str, body: dict[str, object], message: str) -> None:
    r = httpx.post(f"{server_url}/v1/audit", json=body, headers=AUTH)
    assert r.status_code == 422 and message in r.json()["error"]["message"]


def test_audit_needs_auth(server_url: str) -> None:
    assert httpx.post(f"{server_url}/v1/audit", json=BODY).status_code == 401


def test_openapi_documents_audit(server_url: str) -> None:
    doc = httpx.get(f"{server_url}/openapi.json", headers=AUTH).json()
    assert "/v1/audit" in doc["paths"] and "AuditRequest" in doc["components"]["schemas"]


def test_audit_matches_score_and_finds_word_for_word_support(server_url: str) -> None:
    copied = "Cranberry juice can reduce the number of urinary tract infections in women."
    body = {"question": "Can cranberries prevent UTIs?", "answer": f"{copied} [1]",
            "sources": [{"id": "1", "url": "https://cranberrycure.blogspot.com/2010/05/uti.html",
                         "text": f"Good news! {copied}"}]}
    data = httpx.post(f"{server_url}/v1/audit", json=body, headers=AUTH).json()
    authority = httpx.post(f"{server_url}/v1/authority", json={"urls": [body["sources"][0]["url"]]},
                           headers=AUTH).json()["results"][0]
    source = data["sources"][0]
    assert (source["tier"], source["authority"]) == ("hosted", 0.4) == (authority["tier"], authority["authority"])
    assert data["support_matrix"] == [[1]]
    assert data["statements"][0]["support_reason"] == (
        "supported by [1]: 100 % of the statement's words are in the source's text (lexical rule)")
