"""Server settings: one frozen dataclass, read from ``AUTHORAG_*`` environment variables.

``authorag serve`` flags override the environment; the CLI passes the result to the worker
processes through the same variables, so one code path configures every worker.

==============================  =========================  ==========================================
variable                        default                    meaning
==============================  =========================  ==========================================
``AUTHORAG_RELEVANCE``          bm25                       ``bm25``, ``dense``, ``rank`` or ``none``
``AUTHORAG_JUDGE_DEADLINE_S``   10.0                       judge time per request, enforced in flight
``AUTHORAG_JUDGE_WORKERS``      4                          judge calls in flight at once (then skipped)
``AUTHORAG_REQUEST_THREADS``    64                         threads for requests that may call a judge
``AUTHORAG_CPU_THREADS``        2                          threads for large requests without a judge
``AUTHORAG_API_KEY``            (none)                     bearer key clients must send; unset: open
``AUTHORAG_MODEL_NAME``         authorag-authority         model name echoed in responses
``AUTHORAG_SUITABILITY``        false                      fuse source-type x topic suitability
``AUTHORAG_SUITABILITY_MATRIX`` (shipped matrix_v1.yaml)   your suitability matrix YAML
==============================  =========================  ==========================================

Every request limit (:data:`LIMITS`: ``AUTHORAG_MAX_DOCUMENTS``, ``AUTHORAG_MAX_QUERY_TERMS``,
``AUTHORAG_REQUEST_DEADLINE_S``, ...) is a field here too; ``docs/server.md`` has the table of
limits, defaults and the error each gives.

The rerank policy is read from ``AUTHORAG_<FIELD>`` for every
:class:`~authorag.rerankers.authority.RerankPolicy` field, with its defaults (``AUTHORAG_WEIGHT``
0.3, ``AUTHORAG_FUSION`` linear, ``AUTHORAG_CREDIBILITY_WEIGHT`` 0.5, ``AUTHORAG_UNKNOWN_LEVEL``
0.3, ``AUTHORAG_MIN_AUTHORITY``, ``AUTHORAG_ALLOW``/``AUTHORAG_DENY`` as comma lists,
``AUTHORAG_SUITABILITY_WEIGHT`` 0.5 (used with ``AUTHORAG_SUITABILITY``), ...).

The authority scorer is configured by :class:`authorag.compose.ScorerSettings`, the same settings
every surface uses (``AUTHORAG_EXCLUDE_SOURCES``, ``AUTHORAG_JUDGE``, ``AUTHORAG_LEARNED``,
``AUTHORAG_HOSTED``, ``AUTHORAG_CONFIG`` for a TOML file, ...): see ``docs/priors.md``.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from authorag._urlhost import redact_credentials
from authorag.adapters import POLICY_FIELDS, make_policy, policy_from_env, policy_to_env
from authorag.audit.model import AuditLimits
from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.rerankers.authority import RerankPolicy
from authorag.settings import check_setting, field_kinds
from authorag.validation import check_choice, check_positive_int

ServerRelevance = Literal["auto", "rank", "none", "bm25", "dense"]
"""The :data:`~authorag.types.Relevance` modes but ``upstream``: request documents carry no upstream score."""
SERVER_RELEVANCE: tuple[str, ...] = get_args(ServerRelevance)
"""Relevance modes the server accepts."""
ENV_PREFIX = "AUTHORAG_"


@dataclass(frozen=True, slots=True)
class Limit:
    """One documented request limit: a :class:`ServerConfig` field, its flag and what it bounds.

    ``error`` is the status and code a client gets beyond the limit.
    """

    field: str
    flag: str
    meaning: str
    error: str


LIMITS: tuple[Limit, ...] = (
    Limit("max_body_bytes", "--max-body-bytes", "request body size in bytes", "413 payload_too_large"),
    Limit("read_timeout_s", "--read-timeout", "seconds to receive a request's headers, and then its body", "408 request_timeout"),
    Limit("max_header_bytes", "--max-header-bytes", "request header size in bytes", "431 headers_too_large"),
    Limit("request_deadline_s", "--request-deadline", "seconds from the request's start to its answer",
          "503 deadline_exceeded"),
    Limit("max_documents", "--max-documents", "documents per rerank request", "422 too_many_documents"),
    Limit("max_doc_chars", "--max-doc-chars", "characters scored per document",
          "none: the rest is cut and meta.authorag.truncated lists the document"),
    Limit("max_query_chars", "--max-query-chars", "characters of a rerank query", "422 query_too_long"),
    Limit("max_query_terms", "--max-query-terms", "distinct words of a rerank query (BM25 relevance)",
          "422 too_many_query_terms"),
    Limit("max_rank_fields", "--max-rank-fields", "rank_fields entries", "422 too_many_rank_fields"),
    Limit("max_urls", "--max-urls", "URLs per /v1/authority request", "422 too_many_urls"),
    Limit("max_answer_chars", "--max-answer-chars", "characters of an audited answer", "422 answer_too_long"),
    Limit("max_statements", "--max-statements", "statements of an audited answer (given or read)",
          "422 too_many_statements"),
    Limit("max_citations", "--max-citations", "citations of an audited answer (markers, citation spans)",
          "422 too_many_citations"),
    Limit("max_sources", "--max-sources", "sources of an audited answer (listed or found in it)",
          "422 too_many_sources"),
)
"""Every request limit of the server (``docs/server.md`` "Limits" lists the same, with defaults)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Settings of one server process (see the module docstring and :data:`LIMITS`).

    Example:
        >>> ServerConfig.from_env({"AUTHORAG_WEIGHT": "0.5", "AUTHORAG_MAX_DOCUMENTS": "50"}).policy.weight
        0.5
    """

    relevance: ServerRelevance = "bm25"
    policy: RerankPolicy = field(default_factory=RerankPolicy)
    scorer: ScorerSettings = field(default_factory=ScorerSettings)
    judge_deadline_s: float = 10.0
    judge_workers: int = 4
    request_threads: int = 64
    cpu_threads: int = 2
    api_key: str | None = field(default=None, repr=False)
    max_documents: int = 1000
    max_urls: int = 1000
    max_body_bytes: int = 5 * 1024 * 1024
    max_doc_chars: int = 20_000
    max_header_bytes: int = 32 * 1024
    max_query_chars: int = 10_000
    max_query_terms: int = 512
    max_rank_fields: int = 32
    max_answer_chars: int = 100_000
    max_statements: int = 500
    max_citations: int = 5_000
    max_sources: int = 200
    request_deadline_s: float = 20.0
    read_timeout_s: float = 10.0
    model_name: str = "authorag-authority"
    suitability: bool = False
    suitability_matrix: str | None = None

    def __post_init__(self) -> None:
        check_choice("relevance", self.relevance, SERVER_RELEVANCE)
        for f in dataclasses.fields(self):
            if f.type == "int":
                check_positive_int(f.name, getattr(self, f.name))
        for name in ("judge_deadline_s", "request_deadline_s", "read_timeout_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
                raise ConfigError(f"{name} must be in (0, 3600] seconds, got {value!r}")
        if self.judge_deadline_s >= self.request_deadline_s:
            raise ConfigError(f"judge_deadline_s ({self.judge_deadline_s:g}) must be shorter than request_deadline_s "
                              f"({self.request_deadline_s:g}): a request waits on its judge calls; raise "
                              "--request-deadline or lower --judge-deadline")

    def audit_limits(self) -> AuditLimits:
        """The audit's size limits from this config."""
        return AuditLimits(self.max_answer_chars, self.max_statements, self.max_citations, self.max_sources)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ServerConfig:
        """Read ``AUTHORAG_*`` variables (default: ``os.environ``); ``overrides`` win when not None.

        ``overrides`` may name server fields, :class:`RerankPolicy` fields (``weight=0.4``) or
        :class:`ScorerSettings` fields (``judge=...``).

        Raises:
            ConfigError: a value that cannot be parsed (``AUTHORAG_WEIGHT must be a number, got 'x'``).
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, kind in field_kinds(cls).items():
            raw = env.get(ENV_PREFIX + name.upper())
            if name not in ("scorer", "policy") and raw is not None and raw != "":
                values[name] = check_setting(ENV_PREFIX + name.upper(), raw, kind, text=True)
        scorer_names = set(ScorerSettings.field_names())
        scorer_kw = {k: v for k, v in overrides.items() if k in scorer_names}
        policy_kw = {k: v for k, v in overrides.items() if k in POLICY_FIELDS}
        values.update({k: v for k, v in overrides.items()
                       if v is not None and k not in scorer_names and k not in POLICY_FIELDS})
        if not isinstance(values.get("policy"), RerankPolicy):
            values["policy"] = make_policy({**policy_from_env(env), **{k: v for k, v in policy_kw.items() if v is not None}})
        if not isinstance(values.get("scorer"), ScorerSettings):
            values["scorer"] = ScorerSettings.from_env(env, **scorer_kw)
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The ``AUTHORAG_*`` variables that reproduce this config (for worker processes)."""
        out: dict[str, str] = {**self.scorer.to_env(), **policy_to_env(self.policy)}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or f.name in ("scorer", "policy"):
                continue
            text = ",".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else str(value)
            out[ENV_PREFIX + f.name.upper()] = text
        return out

    def public(self, *, paths: bool = False) -> dict[str, Any]:
        """A JSON view without secrets (for logs and ``/readyz``).

        The API key is left out; the credentials of every URL-like value are redacted
        (``redis://:PASS@host`` -> ``redis://***@host``, ``?password=`` values); absolute file
        paths are cut to their file name unless ``paths`` (``/readyz`` shows them only to a
        request with the API key).
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name not in ("api_key", "scorer", "policy")}
        out.update(self.policy.to_dict())  # flat, as the /readyz shape has always had weight etc.
        out["scorer"] = self.scorer.public()
        out["auth"] = self.api_key is not None
        return {k: _public_value(v, paths) for k, v in out.items()}


def _public_value(value: Any, paths: bool) -> Any:
    """``value`` with credentials redacted and (unless ``paths``) absolute paths cut to a file name."""
    if isinstance(value, dict):
        return {k: _public_value(v, paths) for k, v in cast(dict[str, Any], value).items()}
    if isinstance(value, tuple | list):
        return [_public_value(v, paths) for v in cast(tuple[Any, ...], value)]
    if not isinstance(value, str):
        return value
    text = redact_credentials(value)
    name, sep, rest = text.partition("=")  # prior files are NAME=PATH
    path = rest if sep and not name.startswith(("/", "~")) else text
    if paths or "://" in path or not (os.path.isabs(path) or path.startswith("~")):
        return text
    return f"{name}={os.path.basename(path)}" if path is rest else os.path.basename(path)
