"""Request and response models of the HTTP API (Cohere/Jina rerank shape plus authority).

Requests are validated with these models. Responses are built as plain dicts for speed and
follow the response models below, which exist for the OpenAPI document and for tests.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

API_VERSION = 1
"""Version of authorag's own JSON shapes (errors, ``/v1/authority``, the ``authority`` field): an
int, as in the CLI's JSON (``authorag.cli._util.JSON_VERSION``), which has the same value."""
MAX_INT = 2**31 - 1
"""Upper bound of integer request fields (larger values meant nothing and overflowed C code)."""


class RerankRequest(BaseModel):
    """``POST /v1/rerank``, ``/v2/rerank``, ``/rerank`` (Cohere v1/v2 and Jina field names).

    Unknown fields are ignored, so newer client versions keep working.
    """

    model_config = ConfigDict(extra="ignore")

    model: str | None = Field(default=None, description="Echoed back; the server has one model.")
    query: str = Field(description="The search query.")
    documents: list[str | dict[str, Any]] = Field(
        description=(
            "Strings, or objects with a 'text' field (v1 style; 'url', else 'source', 'link', 'href' "
            "or 'source_url' gives the source). A string may name its source in a header before "
            "its text: a bare URL as its first line, or a YAML-style 'url: ...' line."
        )
    )
    top_n: int | None = Field(default=None, ge=1, le=MAX_INT, description="Return at most this many results.")
    return_documents: bool | None = Field(default=None, description="Include each document in its result.")
    max_tokens_per_doc: int | None = Field(
        default=None, ge=1, le=MAX_INT,
        description="Truncate each document to this many whitespace tokens before scoring."
    )
    rank_fields: list[str] | None = Field(
        default=None, description="Object fields joined (in this order) into the text that is scored."
    )
    urls: list[str | None] | None = Field(
        default=None, description="Optional source URLs aligned with 'documents' (authorag extension)."
    )


class ResultDocument(BaseModel):
    """The document echoed in a result (``return_documents``); objects come back whole."""

    model_config = ConfigDict(extra="allow")
    text: str


class RerankResult(BaseModel):
    """One ranked document: ``index`` refers to the input order."""

    index: int
    relevance_score: float = Field(description="The fused authority+relevance score, 0–1 for linear fusion.")
    document: ResultDocument | None = None
    authority: dict[str, Any] = Field(
        description="Per-signal explanation (authority, tier, sources, relevance, fused, has_url, ...)."
    )


class RerankResponse(BaseModel):
    """Cohere-compatible response; ``authority``, ``model`` and ``usage`` are extra fields."""

    id: str
    results: list[RerankResult]
    meta: dict[str, Any]
    model: str
    usage: dict[str, int]


class AuthorityRequest(BaseModel):
    """``POST /v1/authority``: URLs or bare domains to score (nothing is fetched)."""

    model_config = ConfigDict(extra="forbid")
    urls: list[str] = Field(description="URLs or hosts, e.g. 'https://www.nih.gov/x' or 'nih.gov'.")


class AuthorityItem(BaseModel):
    """Authority of one input, in input order."""

    input: str
    host: str | None
    domain: str | None
    authority: float | None
    confidence: float
    tier: str
    credibility: float | None
    matched: str | None
    sources: dict[str, float]
    credibility_sources: dict[str, float]
    raw: dict[str, float | str | None]
    note: str | None
    trust: float
    trust_reason: str
    error: str | None = None


class AuthorityResponse(BaseModel):
    """``/v1/authority`` response."""

    version: int = API_VERSION
    results: list[AuthorityItem]
    meta: dict[str, Any]


class AuditRequest(BaseModel):
    """``POST /v1/audit``: an answer and its sources (the ``authorag audit`` input shape).

    Extra fields pass through, so the chat-API citation shapes (``annotations``,
    ``groundingMetadata``, content blocks) work as they do in the CLI. No LLM runs on the server:
    ``support``/``relevant`` are used when given; otherwise support is known only where a source
    repeats a statement (the lexical rule) and relevance metrics are null. Nothing is fetched.
    The answer, its statements, citations and sources are bounded by the server's limits.
    """

    model_config = ConfigDict(extra="allow")
    question: str
    answer: str | list[dict[str, Any]] = ""
    sources: list[dict[str, Any] | str] = Field(default_factory=list[dict[str, Any] | str])
    statements: list[dict[str, Any]] | None = None
    support: list[list[int]] | None = None
    confidence: int | None = None
    debate: bool | None = None


class AuditResponse(BaseModel):
    """``/v1/audit`` response: the audit report (see docs/audit.md for every field)."""

    model_config = ConfigDict(extra="allow")
    version: int
    statements: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    citation_matrix: list[list[int]]
    support_matrix: list[list[int] | None] | None
    metrics: dict[str, Any]


class ErrorBody(BaseModel):
    """The ``error`` object of every 4xx/5xx response."""

    code: str = Field(description="Stable machine-readable code, e.g. 'too_many_documents'.")
    status: int
    message: str


STATUS_CODES: dict[int, str] = {
    400: "bad_request", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed", 408: "request_timeout",
    413: "payload_too_large", 415: "unsupported_media_type", 421: "misdirected_request", 422: "invalid_request",
    431: "headers_too_large",
    500: "internal_error", 503: "not_ready"}
"""The error ``code`` of an HTTP error raised without one (``HTTPException(408)`` -> ``request_timeout``)."""


class ErrorResponse(BaseModel):
    """Every error: ``{"version": 1, "error": {"code", "status", "message"}}``."""

    version: int = API_VERSION
    error: ErrorBody


def error_body(status: int, code: str, message: str) -> dict[str, Any]:
    """The JSON of an :class:`ErrorResponse`.

    Example:
        >>> error_body(401, "unauthorized", "missing bearer token")["error"]["code"]
        'unauthorized'
    """
    return {"version": API_VERSION, "error": {"code": code, "status": status, "message": message}}
