"""The rerank policy: how authority and relevance are combined, and how users set it.

:class:`RerankPolicy` (its fields, defaults, modes and the ``DEFAULT_*`` constants) lives here,
below the reranker that applies it, so every surface reads the policy without importing the
ranking engine. One list of its fields (:data:`POLICY_FIELDS`, from the dataclass) becomes
validation (:func:`make_policy`), argparse options (:func:`add_policy_options`), the
``[reranker]`` table of the settings file and ``AUTHORAG_*`` environment variables
(:func:`policy_from_env`, :func:`policy_to_env`) for every surface, all through
:mod:`authorag.settings`.

Example:
    >>> make_policy({"weight": 0.8, "allow": ["*.gov"]}).allow
    ('*.gov',)
"""
from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from authorag.errors import ConfigError
from authorag.settings import (
    add_flags,
    check_setting,
    env_values,
    field_docs,
    field_kinds,
    flag,
    read_settings,
)
from authorag.types import UNKNOWN_LEVEL, FusionMode, RerankMode
from authorag.validation import check_choice, check_positive_int, check_unit

Normalize = Literal["minmax", "none"]
Signal = Literal["trust", "blend"]
"""The source value fused with relevance: ``trust`` (:mod:`authorag.trust`: known low credibility
dominates recognition) or ``blend`` (the earlier signal: recognition averaged with credibility
where known, ``credibility_weight`` sharing; kept as an option)."""

DEFAULT_WEIGHT = 0.5
"""Default share of the source signal in the fused score (for ``fusion="window"``, within the
on-topic and the off-topic group). The earlier linear default was 0.3."""

DEFAULT_ON_TOPIC = 0.55
"""Default share of the best candidate's relevance a candidate needs to be on topic."""

DEFAULT_CREDIBILITY_WEIGHT = 0.5
"""Default share of credibility in the authority signal where credibility is known.

Chosen from measurement (the ``prior`` and ``prior-cred`` rows of benchmarks/results/report.md,
made by benchmarks/results/reproduce.sh): on CredAuth-MBFC the prior's credibility beats its
authority, on CredAuth-Baly they tie, and RAGAuth-open cannot tell the settings apart (few of its
pages have a credibility entry). 0.5 uses credibility where it exists without discarding
recognition."""

DEFAULT_SUITABILITY_WEIGHT = 0.5
"""Share of suitability in the source signal when a suitability scorer is given (docs/suitability.md)."""


@dataclass(frozen=True, slots=True)
class RerankPolicy:
    """How authority and relevance are combined. Validated on construction.

    Attributes:
        mode: ``"rerank"`` fuses and sorts; ``"filter"`` keeps candidates by authority alone
            (top-k by authority, as the paper's authority filter, and/or ``min_authority``),
            then orders the kept ones by fused score.
        fusion: ``"window"`` (relevance relative to the best candidate decides who is on topic;
            the signal orders within the on-topic and the off-topic group, and no off-topic
            candidate ends above an on-topic one: :mod:`authorag.rerankers.calibration`),
            ``"prior"`` (the same calibrated relevance times the signal as a document prior:
            ``relevance^(1 - weight) · signal^weight``),
            ``"linear"`` (a weighted sum with min-max normalized relevance; two candidates
            become 1 and 0) or ``"rrf"`` (weighted reciprocal ranks).
        weight: share of the source signal in the fused score, in [0, 1].
        signal: the source value fused: ``"trust"`` (:mod:`authorag.trust`) or ``"blend"``
            (recognition averaged with credibility where known; the earlier signal).
        on_topic: for ``fusion="window"``, the share of the best candidate's relevance (in
            [0, 1]) a candidate needs to count as on topic.
        meaning_on_topic: for ``fusion="window"`` with a relevance that judges meaning (dense, or
            scores declared ``similarity``), the share of the best meaning score (in [0, 1]) a
            candidate also needs; None (default) is the square root of ``on_topic``.
        credibility_weight: for ``signal="blend"``, the share of credibility in the signal
            where credibility is known, in [0, 1]; 0 uses recognition only.
        unknown_level: the level of a source nothing is known about (the trust rule's
            unknown level; the blend's value for unknown sources), in [0, 1]. Its default is
            :data:`~authorag.types.UNKNOWN_LEVEL`, the one constant the tiers shrink towards and
            page evidence is calibrated to; a value set here moves the fused values only.
        top_k: keep at most this many (None keeps all).
        min_authority: drop candidates whose authority signal is below this (unknown ones are
            dropped too), None disables.
        rrf_k: the RRF constant.
        normalize: how relevance is scaled before linear fusion: ``"minmax"`` over the
            candidates (any scale; note that two candidates become 1 and 0), or ``"none"``
            for scores already calibrated to [0, 1] (e.g. a Cohere-style relevance_score).
        allow: domain patterns always kept, with recognition and credibility set to 1 (so trust
            1: ``*.gov``, ``who.int``).
        deny: domain patterns always dropped.
        suitability_weight: share of suitability in the source signal, in [0, 1]; used only when
            the reranker has a suitability scorer (1 = suitability alone).
    """

    mode: RerankMode = "rerank"
    fusion: FusionMode = "window"
    weight: float = DEFAULT_WEIGHT
    signal: Signal = "trust"
    on_topic: float = DEFAULT_ON_TOPIC
    meaning_on_topic: float | None = None
    credibility_weight: float = DEFAULT_CREDIBILITY_WEIGHT
    unknown_level: float = UNKNOWN_LEVEL
    top_k: int | None = None
    min_authority: float | None = None
    rrf_k: float = 60.0
    normalize: Normalize = "minmax"
    allow: tuple[str, ...] = field(default=(), metadata=flag(metavar="PATTERN"))
    deny: tuple[str, ...] = field(default=(), metadata=flag(metavar="PATTERN"))
    suitability_weight: float = DEFAULT_SUITABILITY_WEIGHT

    def __post_init__(self) -> None:
        check_choice("mode", self.mode, get_args(RerankMode))
        check_choice("fusion", self.fusion, get_args(FusionMode))
        check_choice("normalize", self.normalize, get_args(Normalize))
        check_choice("signal", self.signal, get_args(Signal))
        for name in ("weight", "credibility_weight", "unknown_level", "suitability_weight", "on_topic"):
            check_unit(name, getattr(self, name))
        check_unit("min_authority", self.min_authority, optional=True)
        check_unit("meaning_on_topic", self.meaning_on_topic, optional=True)
        check_positive_int("top_k", self.top_k, optional=True)
        if self.rrf_k <= 0:
            raise ConfigError(f"rrf_k must be > 0, got {self.rrf_k}")

    def replace(self, **changes: Any) -> RerankPolicy:
        """A copy with ``changes`` applied (None values are ignored: keep the instance default)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view, recorded in every Ranking's provenance.

        Example:
            >>> RerankPolicy(weight=0.5).to_dict()["weight"]
            0.5
        """
        # Every field is a scalar or a tuple of strings: no deep copy needed (asdict would make one).
        return {f.name: getattr(self, f.name) for f in _POLICY_FIELDS}


_POLICY_FIELDS = dataclasses.fields(RerankPolicy)


POLICY_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RerankPolicy))
"""The :class:`RerankPolicy` field names, in declaration order (the one list)."""
POLICY_TABLE = "reranker"
"""The settings file's table of policy fields (``[reranker]``)."""


def make_policy(fields: Mapping[str, Any], base: RerankPolicy | None = None) -> RerankPolicy:
    """A validated :class:`RerankPolicy` from ``fields`` (None values keep the default).

    Each value is checked against its field's type (:func:`authorag.settings.check_setting`); lists
    become tuples, so JSON/YAML values work for ``allow`` and ``deny``, and a string there is an
    error, not a list of characters.

    Raises:
        ConfigError: an unknown field, a value of the wrong type (``allow must be a list of
            strings, got '*.gov'``) or out of range (``weight must be in [0, 1], got 1.5``).
    """
    unknown = sorted(set(fields) - set(POLICY_FIELDS))
    if unknown:
        raise ConfigError(f"unknown policy field(s) {unknown}; known: {', '.join(POLICY_FIELDS)}")
    kinds = field_kinds(RerankPolicy)
    values = {k: check_setting(k, v, kinds[k]) for k, v in fields.items() if v is not None}
    return (RerankPolicy() if base is None else base).replace(**values)


def policy_fields(obj: object, names: Iterable[str] = POLICY_FIELDS) -> dict[str, Any]:
    """The policy fields ``obj`` carries as attributes (an adapter instance, parsed CLI args)."""
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}


def policy_field_docs() -> dict[str, str]:
    """``name -> first sentence`` from the Attributes section of the RerankPolicy docstring
    (the help text of the CLI flags and the descriptions of the MCP ``rerank`` tool's policy).

    Example:
        >>> policy_field_docs()["weight"]
        'share of the source signal in the fused score, in [0, 1]'
    """
    return dict(field_docs(RerankPolicy))


def add_policy_options(p: argparse.ArgumentParser, *, exclude: Iterable[str] = (), **defaults: Any) -> None:
    """Add one ``--flag`` per :class:`RerankPolicy` field (:func:`authorag.settings.add_flags`).

    ``defaults`` replace the policy defaults for this command (``authorag demo`` uses
    ``weight=0.5``); the help text shows the default that applies.
    """
    add_flags(p.add_argument_group("rerank policy"), RerankPolicy, exclude=exclude, defaults=defaults)


def policy_from_env(environ: Mapping[str, str] | None = None, **overrides: Any) -> dict[str, Any]:
    """Policy fields set by the ``[reranker]`` table of the ``AUTHORAG_CONFIG`` file and by
    ``AUTHORAG_<FIELD>`` variables (``AUTHORAG_WEIGHT=0.4``), then ``overrides`` (None skipped):
    :func:`authorag.settings.read_settings`. Pass the result to :func:`make_policy`."""
    return read_settings(RerankPolicy, POLICY_TABLE, environ, overrides)


def policy_to_env(policy: RerankPolicy) -> dict[str, str]:
    """The ``AUTHORAG_*`` variables that reproduce the non-default fields of ``policy``."""
    return env_values(policy, changed_only=True)


__all__ = ["DEFAULT_CREDIBILITY_WEIGHT", "DEFAULT_ON_TOPIC", "DEFAULT_SUITABILITY_WEIGHT", "DEFAULT_WEIGHT",
           "POLICY_FIELDS", "POLICY_TABLE", "Normalize", "RerankPolicy", "Signal", "add_policy_options",
           "make_policy", "policy_field_docs", "policy_fields", "policy_from_env", "policy_to_env"]
