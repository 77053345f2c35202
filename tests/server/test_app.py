"""HTTP behaviour of the server over a real loopback connection: limits, errors, auth, endpoints."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest

API_KEY = "test-key"  # as in conftest
AUTH = {"Authorization": f"Bearer {API_KEY}"}


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["version"] == 1
    assert body["error"]["code"] == code
    assert body["error"]["status"] == status
    return str(body["error"]["message"])


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": API_KEY}])
def test_bad_auth_is_401(server_url: str, headers: dict[str, str]) -> None:
    r = httpx.post(f"{server_url}/v1/rerank", json={"query": "q", "documents": ["a"]}, headers=headers)
    assert "Authorization: Bearer" in _error(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"


def test_health_is_open_and_ready(server_url: str) -> None:
    assert httpx.get(f"{server_url}/healthz").json() == {"status": "ok", "version": 1}
    ready = httpx.get(f"{server_url}/readyz").json()
    assert ready["status"] == "ready"
    assert ready["config"]["auth"] is True and "api_key" not in ready["config"]


def test_oversized_body_is_413(server_url: str) -> None:
    body = {"query": "q", "documents": ["x" * 25_000]}
    msg = _error(httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH), 413, "payload_too_large")
    assert "limit is 20000 bytes" in msg


def test_oversized_chunked_body_is_413(server_url: str) -> None:
    payload = json.dumps({"query": "q", "documents": ["y" * 30_000]}).encode()

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(payload), 4096):
            yield payload[i:i + 4096]

    r = httpx.post(f"{server_url}/v2/rerank", content=chunks(),
                   headers={**AUTH, "content-type": "application/json"})
    assert "content-length" not in r.request.headers
    _error(r, 413, "payload_too_large")


def test_too_many_documents_is_422(server_url: str) -> None:
    body = {"query": "q", "documents": ["a"] * 21}
    msg = _error(httpx.post(f"{server_url}/v2/rerank", json=body, headers=AUTH), 422, "too_many_documents")
    assert "documents has 21 entries, the limit is 20" in msg


@pytest.mark.parametrize("body,match", [
    ({"query": "q"}, "documents: Field required"),
    ({"query": "q", "documents": ["a"], "top_n": 0}, "top_n: Input should be greater than or equal to 1"),
    ({"query": "q", "documents": [{"title": "no text"}]}, "documents\\[0\\] is an object without a string 'text'"),
    ({"query": "q", "documents": ["a", "b"], "urls": ["https://nih.gov"]}, "urls has 1 entries but documents has 2"),
])
def test_invalid_requests_are_422(server_url: str, body: dict[str, object], match: str) -> None:
    r = httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH)
    msg = _error(r, 422, "invalid_request")
    assert re.search(match, msg), msg


def test_malformed_json_is_422(server_url: str) -> None:
    r = httpx.post(f"{server_url}/v1/rerank", content=b"{not json", headers={**AUTH, "content-type": "application/json"})
    _error(r, 422, "invalid_request")


def test_unknown_route_is_404_in_stable_shape(server_url: str) -> None:
    _error(httpx.get(f"{server_url}/v3/rerank"), 404, "not_found")


def test_documents_without_url_are_flagged(server_url: str) -> None:
    body = {"query": "bread", "documents": ["sourdough bread", "url: https://www.nih.gov/x\ntext: bread"],
            "return_documents": False}
    data = httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH).json()
    by_index = {r["index"]: r for r in data["results"]}
    assert by_index[0]["authority"]["has_url"] is False and by_index[0]["authority"]["tier"] == "unknown"
    assert by_index[1]["authority"]["domain"] == "nih.gov"
    assert data["meta"]["authorag"]["documents_without_url"] == [0]
    assert all("document" not in r for r in data["results"])


def test_empty_documents_give_empty_results(server_url: str) -> None:
    data = httpx.post(f"{server_url}/v2/rerank", json={"model": "m", "query": "q", "documents": []}, headers=AUTH).json()
    assert data["results"] == []


def test_text_budget_truncates(server_url: str) -> None:
    body = {"query": "q", "documents": ["one two three four", "five"], "max_tokens_per_doc": 2}
    data = httpx.post(f"{server_url}/v2/rerank", json=body, headers=AUTH).json()
    assert data["meta"]["authorag"]["truncated"] == [0]


def test_authority_endpoint(server_url: str) -> None:
    body = {"urls": ["nih.gov", "https://someblog.blogspot.com/x", "not a url"]}
    data = httpx.post(f"{server_url}/v1/authority", json=body, headers=AUTH).json()
    assert data["version"] == 1
    got = [(r["input"], r["domain"], r["tier"]) for r in data["results"]]
    assert got == [("nih.gov", "nih.gov", "table"), ("https://someblog.blogspot.com/x", "someblog.blogspot.com",
                                                     "hosted"), ("not a url", None, "unknown")]
    assert data["results"][0]["authority"] == pytest.approx(0.979, abs=0.01)
    assert data["results"][2]["error"] == "no readable host or domain in this input"


def test_authority_endpoint_limit(server_url: str) -> None:
    r = httpx.post(f"{server_url}/v1/authority", json={"urls": ["a.com"] * 6}, headers=AUTH)
    assert "urls has 6 entries, the limit is 5" in _error(r, 422, "too_many_urls")


def test_metrics_count_requests_and_errors(server_url: str) -> None:
    httpx.post(f"{server_url}/v2/rerank", json={"model": "m", "query": "q", "documents": ["a"]}, headers=AUTH)
    httpx.post(f"{server_url}/v2/rerank", json={"model": "m", "query": "q", "documents": ["a"]})
    r = httpx.get(f"{server_url}/metrics", headers=AUTH)
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = r.text
    assert 'authorag_requests_total{method="POST",route="/v2/rerank",status="200"}' in text
    assert 'authorag_requests_total{method="POST",route="/v2/rerank",status="401"}' in text
    assert 'authorag_errors_total{code="unauthorized"}' in text
    assert 'authorag_request_duration_seconds_bucket{route="/v2/rerank",le="+Inf"}' in text
    assert "authorag_documents_total" in text


def test_openapi_lists_every_route(server_url: str) -> None:
    paths = httpx.get(f"{server_url}/openapi.json", headers=AUTH).json()["paths"]
    for path in ("/v1/rerank", "/v2/rerank", "/rerank", "/v1/authority", "/healthz", "/readyz", "/metrics"):
        assert path in paths
    schema = paths["/v1/rerank"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/RerankRequest")


def test_authority_item_is_the_score_json_row(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: the /v1/authority item had no trust, trust_reason or raw and the CLI row no host."""
    from authorag.cli import main

    urls = ["nih.gov", "https://someblog.blogspot.com/x", "not a url"]
    items = httpx.post(f"{server_url}/v1/authority", json={"urls": urls}, headers=AUTH).json()["results"]
    assert main(["score", "--json", *urls]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [{k: v for k, v in i.items() if k != "error"} for i in items] == \
        [{k: v for k, v in r.items() if k not in ("version", "scorer")} for r in rows]
    assert [(i["trust_reason"], "host" in r) for i, r in zip(items, rows)] == \
        [("credible", True), ("recognition only", True), ("unknown", True)]


def test_a_lookalike_of_an_agency_only_a_registry_names_ranks_below_it(server_url: str) -> None:
    text = "Renew your vehicle tax online and claim a refund for the months left."
    body = {"query": "renew vehicle tax refund", "return_documents": False, "documents": [
        f"url: https://dvla-uk.vehicle-tax-refund.com/renew\ntext: {text} Renew vehicle tax refund now.",
        f"url: https://www.gov.uk/vehicle-tax\ntext: {text}"]}
    data = httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH).json()
    assert [r["index"] for r in data["results"]] == [1, 0]
    fake = next(r["authority"] for r in data["results"] if r["index"] == 0)
    assert fake["note"] == "look-alike of dvla.gov.uk (brand claim: 'dvla' beside 'uk')"
    assert (fake["trust_reason"], fake["trust"]) == ("low credibility", pytest.approx(0.0386, abs=1e-3))
