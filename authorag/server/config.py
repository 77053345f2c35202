"""Server settings: one frozen dataclass, read by :mod:`authorag.settings` like every setting.

Defaults < the ``[server]`` table of the settings file (``AUTHORAG_CONFIG`` or ``--config``) <
``AUTHORAG_*`` environment variables < ``authorag serve`` flags (one per field, generated). The CLI
passes the result to the worker processes through the same variables, so one code path
configures every worker.

==============================  =========================  ==========================================
variable                        default                    meaning
==============================  =========================  ==========================================
``AUTHORAG_RELEVANCE``          cascade-or-bm25            ``cascade-or-bm25``, ``bm25``, ``cascade``, ``dense``, ``rank`` or ``none``
``AUTHORAG_JUDGE_DEADLINE_S``   10.0                       judge time per request, enforced in flight
``AUTHORAG_JUDGE_WORKERS``      4                          judge calls in flight at once (then skipped)
``AUTHORAG_REQUEST_THREADS``    64                         threads for requests that may call a judge
``AUTHORAG_CPU_THREADS``        2                          threads for large requests without a judge
``AUTHORAG_ENCODE_THREADS``     cores / workers            threads per encode (dense relevance: torch, e5 engine)
``AUTHORAG_ENCODE_BATCH``       8                          pages per forward pass (dense relevance)
``AUTHORAG_API_KEY``            (none)                     bearer key clients must send; unset: open
``AUTHORAG_MODEL_NAME``         authorag-authority         model name echoed in responses
``AUTHORAG_SUITABILITY``        false                      fuse source-type x topic suitability
``AUTHORAG_SUITABILITY_MATRIX`` (shipped matrix_v1.yaml)   your suitability matrix YAML
==============================  =========================  ==========================================

Every request limit (:data:`LIMITS`: ``AUTHORAG_MAX_DOCUMENTS``, ``AUTHORAG_MAX_QUERY_TERMS``,
``AUTHORAG_REQUEST_DEADLINE_S``, ...) is a field here too; ``docs/server.md`` has the table of
limits, defaults and the error each gives.

The rerank policy is read from ``AUTHORAG_<FIELD>`` for every
:class:`~authorag.policy.RerankPolicy` field, with that class's defaults
(``AUTHORAG_WEIGHT``, ``AUTHORAG_FUSION``, ``AUTHORAG_ON_TOPIC``, ``AUTHORAG_MIN_AUTHORITY``,
``AUTHORAG_ALLOW``/``AUTHORAG_DENY`` as comma lists, ``AUTHORAG_SUITABILITY_WEIGHT`` (used with
``AUTHORAG_SUITABILITY``), ...; ``docs/server.md`` has the table).

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
from urllib.parse import urlsplit

from authorag._urlhost import redact_credentials
from authorag.audit.model import AuditLimits
from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.policy import POLICY_FIELDS, RerankPolicy, policy_from_env
from authorag.server.encoding import ENCODE_BATCH
from authorag.settings import build, env_name, env_values, flag, read_settings
from authorag.validation import check_choice, check_positive_int

ServerRelevance = Literal["auto", "rank", "none", "bm25", "dense", "cascade", "cascade-or-bm25"]
"""The :data:`~authorag.types.Relevance` modes but ``upstream`` and ``similarity``: request documents carry no upstream score."""
SERVER_RELEVANCE: tuple[str, ...] = get_args(ServerRelevance)
"""Relevance modes the server accepts."""
SERVER_TABLE = "server"
"""The settings file's table of server settings (``[server]``)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """One documented request limit: a :class:`ServerConfig` field, its flag and what it bounds.

    ``error`` is the status and code a client gets beyond the limit.
    """

    field: str
    flag: str
    meaning: str
    error: str
    low: float = 1
    high: float = 10**9
    """The range a server starts with (inclusive): a value outside refuses to start."""


LIMITS: tuple[Limit, ...] = (
    Limit("max_body_bytes", "--max-body-bytes", "request body size in bytes", "413 payload_too_large",
          1024, 2**30),
    Limit("read_timeout_s", "--read-timeout", "seconds to receive a request's headers, and then its body",
          "408 request_timeout", 0.1, 3600),
    Limit("max_header_bytes", "--max-header-bytes", "request header size in bytes", "431 headers_too_large",
          1024, 2**20),
    Limit("request_deadline_s", "--request-deadline", "seconds from the request's start to its answer",
          "503 deadline_exceeded", 0.1, 3600),
    Limit("max_documents", "--max-documents", "documents per rerank request", "422 too_many_documents"),
    Limit("max_doc_chars", "--max-doc-chars", "characters scored per document",
          "none: the rest is cut and meta.authorag.truncated lists the document"),
    Limit("max_query_chars", "--max-query-chars", "characters of a rerank query", "422 query_too_long"),
    Limit("max_query_terms", "--max-query-terms", "distinct words of a rerank query (BM25 relevance)",
          "422 too_many_query_terms"),
    Limit("max_unseen_documents", "--max-unseen-documents",
          "documents of a rerank request dense relevance has not seen (it encodes each; seen ones are remembered; "
          "the cascade counts at most the pages it may encode)",
          "422 too_many_unseen_documents"),
    Limit("max_encoding_documents", "--max-encoding-documents",
          "new pages dense relevance encodes at once in one worker process, over all its requests (a request "
          "that does not fit is refused at once, with Retry-After; one alone is always admitted)",
          "503 overloaded"),
    Limit("encode_batch", "--encode-batch",
          "pages per forward pass of dense relevance in a worker process, MiniLM's and multilingual-e5-small's (the "
          "memory of an encode grows with it, its speed does not)", "none: a request's new pages are encoded in several passes"),
    Limit("max_rank_fields", "--max-rank-fields", "rank_fields entries", "422 too_many_rank_fields"),
    Limit("max_policy_patterns", "--max-policy-patterns",
          "patterns in each of the allow and deny lists of an MCP rerank call's policy", "tool error too_many_policy_patterns"),
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
_LIMIT_GROUP = "request limits (docs/server.md, Limits)"


def _limit(name: str, default: Any) -> Any:
    """A limit field: its default and the flag :data:`LIMITS` gives it."""
    limit = next(x for x in LIMITS if x.field == name)
    return field(default=default, metadata=flag(
        limit.flag, metavar="SECONDS" if isinstance(default, float) else "N", group=_LIMIT_GROUP,
        help=f"{limit.meaning} (default {{default}}; beyond it: {limit.error})"))


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Settings of one server process (see the module docstring and :data:`LIMITS`).

    Example:
        >>> ServerConfig.from_env({"AUTHORAG_WEIGHT": "0.5", "AUTHORAG_MAX_DOCUMENTS": "50"}).policy.weight
        0.5
    """

    relevance: ServerRelevance = field(default="cascade-or-bm25", metadata=flag(
        help="relevance over the request's documents (default {default}: cascade when the embeddings "
             "extra is installed, else bm25; /readyz names the one in use)"))
    policy: RerankPolicy = field(default_factory=RerankPolicy)
    scorer: ScorerSettings = field(default_factory=ScorerSettings)
    judge_deadline_s: float = field(default=10.0, metadata=flag(
        "--judge-deadline", metavar="SECONDS",
        help="judge time per request, enforced while a call is in flight (default 10); past it the "
             "request answers with the other tiers and flags the candidates"))
    judge_workers: int = field(default=4, metadata=flag(
        help="judge calls in flight at once (default 4); more are skipped"))
    request_threads: int = field(default=64, metadata=flag(
        metavar="N", help="threads for requests that may call a judge (default {default})"))
    cpu_threads: int = field(default=2, metadata=flag(
        metavar="N", help="threads for large requests without a judge (default {default})"))
    encode_threads: int | None = field(default=None, metadata=flag(
        metavar="N", help="threads one encode of dense relevance uses in each worker process, torch's for MiniLM "
                          "and the engine's for multilingual-e5-small (default: "
                          "authorag serve gives each worker the machine's cores divided by --workers; more "
                          "threads than cores make every encode slower and starve /healthz)"))
    encode_batch: int = _limit("encode_batch", ENCODE_BATCH)
    api_key: str | None = field(default=None, repr=False, metadata=flag(
        help="require 'Authorization: Bearer KEY' (prefer AUTHORAG_API_KEY)"))
    max_documents: int = _limit("max_documents", 1000)
    max_urls: int = _limit("max_urls", 1000)
    max_body_bytes: int = _limit("max_body_bytes", 5 * 1024 * 1024)
    max_doc_chars: int = _limit("max_doc_chars", 20_000)
    max_header_bytes: int = _limit("max_header_bytes", 32 * 1024)
    max_query_chars: int = _limit("max_query_chars", 10_000)
    max_query_terms: int = _limit("max_query_terms", 512)
    max_unseen_documents: int = _limit("max_unseen_documents", 300)
    max_encoding_documents: int = _limit("max_encoding_documents", 300)
    max_rank_fields: int = _limit("max_rank_fields", 32)
    max_policy_patterns: int = _limit("max_policy_patterns", 100)
    max_answer_chars: int = _limit("max_answer_chars", 100_000)
    max_statements: int = _limit("max_statements", 500)
    max_citations: int = _limit("max_citations", 5_000)
    max_sources: int = _limit("max_sources", 200)
    request_deadline_s: float = _limit("request_deadline_s", 20.0)
    read_timeout_s: float = _limit("read_timeout_s", 10.0)
    model_name: str = field(default="authorag-authority", metadata=flag(
        help="model name echoed in responses (default {default})"))
    suitability: bool = field(default=False, metadata=flag(
        help="fuse source-type x query-topic suitability (docs/suitability.md); off by default"))
    suitability_matrix: str | None = field(default=None, metadata=flag(
        metavar="YAML", help="your own suitability matrix file"))
    allowed_hosts: tuple[str, ...] = field(default=(), metadata=flag(
        metavar="HOST", help="Host header names the server answers, others get 421 (repeat the flag; '*' for any; "
                             "default: the loopback names when bound to a loopback address, else any)"))
    docs: bool = field(default=False, metadata=flag(
        help="serve /docs and /redoc (their pages load scripts from a CDN; off by default; /openapi.json is "
             "always served, with the API key when one is set)"))
    show_url_queries: bool = field(default=False, metadata=flag(
        help="show the query strings of URL settings in /readyz (secret-named values still hidden; "
             "default {default}: scheme, host, port and path only)"))

    def __post_init__(self) -> None:
        check_choice("relevance", self.relevance, SERVER_RELEVANCE)
        check_positive_int("encode_threads", self.encode_threads, optional=True)
        for f in dataclasses.fields(self):
            if f.type == "int":
                check_positive_int(f.name, getattr(self, f.name))
        for name in ("judge_deadline_s", "request_deadline_s", "read_timeout_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
                raise ConfigError(f"{name} must be in (0, 3600] seconds, got {value!r}")
        self._check_ranges()
        if self.judge_deadline_s >= self.request_deadline_s:
            raise ConfigError(f"judge_deadline_s ({self.judge_deadline_s:g}) must be shorter than request_deadline_s "
                              f"({self.request_deadline_s:g}): a request waits on its judge calls; raise "
                              "--request-deadline or lower --judge-deadline")

    def _check_ranges(self) -> None:
        """Each limit within its :data:`LIMITS` range, the policy's domain lists and the host names
        well formed: a server that would refuse every request does not start."""
        from authorag.rerankers.domain_lists import DomainList

        for limit in LIMITS:
            value = getattr(self, limit.field)
            if not limit.low <= value <= limit.high:
                raise ConfigError(
                    f"{limit.field} must be in [{_number(limit.low)}, {_number(limit.high)}], got {value!r}: outside it the server "
                    f"would refuse requests it should serve; set {limit.flag} ({env_name(limit.field)}, or "
                    f"{limit.field} in [server]) within that range")
        for name in ("allow", "deny"):
            try:
                DomainList.compile(getattr(self.policy, name))
            except ConfigError as exc:
                raise ConfigError(f"{name}: {exc}; fix --{name} (AUTHORAG_{name.upper()}, or {name} in "
                                  "[reranker])") from None
        for host in self.allowed_hosts:
            if host != "*" and (not host or any(c in host for c in "/@ ,")):
                raise ConfigError(f"allowed_hosts entries are host names like 'api.example.org' or '*', got "
                                  f"{host!r}; fix --allowed-hosts (AUTHORAG_ALLOWED_HOSTS)")

    def relevance_in_use(self) -> str:
        """The relevance this server computes: :attr:`relevance`, with ``cascade-or-bm25`` resolved
        to ``cascade`` or ``bm25`` by what is installed (:func:`~authorag.relevance.registry.cascade_or_bm25`).

        Example:
            >>> ServerConfig(relevance="bm25").relevance_in_use()
            'bm25'
        """
        if self.relevance != "cascade-or-bm25":
            return self.relevance
        from authorag.relevance.registry import cascade_or_bm25

        return cascade_or_bm25()

    def encodes_pages(self) -> bool:
        """Whether the relevance in use runs the encoder on pages (``dense`` or ``cascade``): then
        admission counts pages and the encoding settings apply.

        Example:
            >>> ServerConfig(relevance="bm25").encodes_pages()
            False
        """
        return self.relevance_in_use() in ("dense", "cascade")

    def audit_limits(self) -> AuditLimits:
        """The audit's size limits from this config."""
        return AuditLimits(self.max_answer_chars, self.max_statements, self.max_citations, self.max_sources)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ServerConfig:
        """Defaults < the ``AUTHORAG_CONFIG`` file (``[server]``, ``[reranker]``, ``[scorer]``) <
        ``AUTHORAG_*`` variables (default: the process environment) < ``overrides`` (None skipped):
        :func:`authorag.settings.read_settings` for each of the three.

        ``overrides`` may name server fields, :class:`RerankPolicy` fields (``weight=0.4``) or
        :class:`ScorerSettings` fields (``judge=...``), or give ``policy``/``scorer`` whole.

        Raises:
            ConfigError: a value that cannot be parsed (``AUTHORAG_WEIGHT must be a number, got 'x'``).
        """
        scorer_names = set(ScorerSettings.field_names())
        scorer_kw = {k: v for k, v in overrides.items() if k in scorer_names}
        policy_kw = {k: v for k, v in overrides.items() if k in POLICY_FIELDS}
        nested = {k: overrides.pop(k) for k in ("policy", "scorer") if k in overrides}
        own = {k: v for k, v in overrides.items() if k not in scorer_names and k not in POLICY_FIELDS}
        values = read_settings(cls, SERVER_TABLE, environ, own)
        values["policy"] = nested.get("policy") or build(RerankPolicy, policy_from_env(environ, **policy_kw), environ)
        values["scorer"] = nested.get("scorer") or ScorerSettings.from_env(environ, **scorer_kw)
        return build(cls, values, environ)

    def to_env(self) -> dict[str, str]:
        """The ``AUTHORAG_*`` variables that reproduce this config (for worker processes): every field,
        so a worker that reads the same config file again ends with the same values."""
        return {**self.scorer.to_env(), **env_values(self.policy), **env_values(self)}

    def public(self, *, paths: bool = False) -> dict[str, Any]:
        """A JSON view without secrets (for logs and ``/readyz``).

        The API key is left out; every URL is cut to its scheme, host, port and path
        (:func:`public_url`: no user name, password or query unless :attr:`show_url_queries`);
        absolute file paths are cut to their file name unless ``paths`` (``/readyz`` shows them
        only to a request with the API key).
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name not in ("api_key", "scorer", "policy")}
        out.update(self.policy.to_dict())  # flat, as the /readyz shape has always had weight etc.
        out["relevance_in_use"] = self.relevance_in_use()
        out["scorer"] = self.scorer.public()
        out["auth"] = self.api_key is not None
        return {k: _public_value(v, paths, self.show_url_queries) for k, v in out.items()}


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _public_value(value: Any, paths: bool, queries: bool) -> Any:
    """``value`` with URLs cut to scheme, host, port and path (:func:`public_url`) and (unless
    ``paths``) absolute paths cut to a file name."""
    if isinstance(value, dict):
        return {k: _public_value(v, paths, queries) for k, v in cast(dict[str, Any], value).items()}
    if isinstance(value, tuple | list):
        return [_public_value(v, paths, queries) for v in cast(tuple[Any, ...], value)]
    if not isinstance(value, str):
        return value
    if "://" in value:
        return public_url(value, paths=paths, queries=queries)
    text = redact_credentials(value)
    name, sep, rest = text.partition("=")  # prior files are NAME=PATH
    path = rest if sep and not name.startswith(("/", "~")) else text
    if paths or not (os.path.isabs(path) or path.startswith("~")):
        return text
    return f"{name}={os.path.basename(path)}" if path is rest else os.path.basename(path)


def public_url(url: str, *, paths: bool = False, queries: bool = False) -> str:
    """``url`` as ``/readyz`` shows it: scheme, host, port and path only, by allowlist (no user
    name, password, query or fragment, whatever their names), the path of a socket or file URL
    cut to its file name unless ``paths``; ``queries`` keeps the query with secret-named values hidden.

    Example:
        >>> public_url("rediss://u:pw@cache:6380/0?ssl_keyfile=/etc/k.pem&client_secret=s")
        'rediss://cache:6380/0'
        >>> public_url("unix:///run/redis/redis.sock?db=1")
        'unix:///redis.sock'
    """
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "(a URL that cannot be parsed, hidden)"
    netloc = (f"[{host}]" if ":" in host else host) + ("" if port is None else f":{port}")
    path = parts.path
    if not paths and not host and path.startswith("/"):
        path = "/" + os.path.basename(path)
    query = f"?{redact_credentials('?' + parts.query)[1:]}" if queries and parts.query else ""
    return f"{parts.scheme}://{netloc}{path}{query}"
