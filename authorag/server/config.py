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
``AUTHORAG_API_KEY``            (none)                     bearer key clients must send; unset: open
``AUTHORAG_MAX_DOCUMENTS``      1000                       documents per rerank request
``AUTHORAG_MAX_URLS``           1000                       URLs per ``/v1/authority`` request
``AUTHORAG_MAX_BODY_BYTES``     5242880                    request body size (413 beyond)
``AUTHORAG_MAX_DOC_CHARS``      20000                      per-document text budget (truncated)
``AUTHORAG_MAX_HEADER_BYTES``   32768                      request header size (431 beyond)
``AUTHORAG_MODEL_NAME``         authorag-authority         model name echoed in responses
``AUTHORAG_SUITABILITY``        false                      fuse source-type x topic suitability
``AUTHORAG_SUITABILITY_MATRIX`` (shipped matrix_v1.yaml)   your suitability matrix YAML
==============================  =========================  ==========================================

The rerank policy is read from ``AUTHORAG_<FIELD>`` for every
:class:`~authorag.rerankers.authority.RerankPolicy` field, with its defaults (``AUTHORAG_WEIGHT``
0.3, ``AUTHORAG_FUSION`` linear, ``AUTHORAG_CREDIBILITY_WEIGHT`` 0.5, ``AUTHORAG_UNKNOWN_AUTHORITY``
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
from typing import Any, Literal, get_args

from authorag._urlhost import redact_userinfo
from authorag.adapters import POLICY_FIELDS, make_policy, policy_from_env, policy_to_env
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
class ServerConfig:
    """Settings of one server process (see the module docstring for the variables).

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
    api_key: str | None = field(default=None, repr=False)
    max_documents: int = 1000
    max_urls: int = 1000
    max_body_bytes: int = 5 * 1024 * 1024
    max_doc_chars: int = 20_000
    max_header_bytes: int = 32 * 1024
    model_name: str = "authorag-authority"
    suitability: bool = False
    suitability_matrix: str | None = None

    def __post_init__(self) -> None:
        check_choice("relevance", self.relevance, SERVER_RELEVANCE)
        for name in ("max_documents", "max_urls", "max_body_bytes", "max_doc_chars", "max_header_bytes",
                     "judge_workers", "request_threads"):
            check_positive_int(name, getattr(self, name))
        if not 0 < self.judge_deadline_s <= 3600:
            raise ConfigError(f"judge_deadline_s must be in (0, 3600] seconds, got {self.judge_deadline_s!r}")

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

    def public(self) -> dict[str, Any]:
        """A JSON view without secrets (for logs and ``/readyz``)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name not in ("api_key", "scorer", "policy")}
        out.update(self.policy.to_dict())  # flat, as the /readyz shape has always had weight etc.
        scorer = self.scorer.public()
        if scorer.get("judge_base_url") is not None:  # http://user:PASS@host must not reach /readyz
            scorer["judge_base_url"] = redact_userinfo(scorer["judge_base_url"])
        out["scorer"] = scorer
        out["auth"] = self.api_key is not None
        return out
