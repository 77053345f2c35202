"""The one authority composition: settings → scorer, used by every surface.

The CLI (``score``, ``rerank``, ``demo``, ``serve``), the HTTP server, the LangChain and Haystack
components and the benchmark method ``default`` all build their authority scorer here, from the
same :class:`ScorerSettings`, read the same way: defaults < a TOML file (``AUTHORAG_CONFIG`` or
``--config``) < ``AUTHORAG_*`` environment variables < explicit flags or arguments.

The default composition (chosen by measurement, docs/priors.md "Choosing the default"):

    reserved  reserved names and IPs (no value)
    hosted    user content on hosting platforms
    table     the shipped prior table, recognition and credibility
    rule      suffix rules for .gov/.edu/... where the table has no entry
    unknown   everything else: the unknown level

The learned prior (``learned=True``), an LLM judge (``judge="local"|"openai"``) and page evidence
(``page_evidence=True``: the cues found in the text of pages no table knows,
:mod:`authorag.evidence`) are opt-in.

Example:
    >>> from authorag.types import candidates_from
    >>> scorer = load_scorer(ScorerSettings())
    >>> scorer.name
    'reserved>hosted>table'
    >>> [d.tier for d in scorer.score(candidates_from(["nih.gov", "https://johndoe.wordpress.com/x"]))]
    ['table', 'hosted']
"""
from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from authorag.errors import ConfigError
from authorag.priors.base import AuthorityScorer
from authorag.settings import (
    CONFIG_ENV,
    NO_FLAG,
    add_flags,
    build,
    check_fields,
    config_table,
    env_values,
    flag,
    flag_values,
    process_environ,
    read_settings,
)
from authorag.tiers.tiered import DEFAULT_HOSTED_AUTHORITY
from authorag.validation import check_positive_int, check_unit

JudgeKind = Literal["none", "local", "openai"]
_SECRETS = ("judge_api_key",)
_JUDGE_FLAGS = ("judge", "judge_base_url", "judge_model", "judge_cache")
"""The flags a command whose own ``--judge`` means something else leaves out (``audit``)."""
DEFAULT_LEARNED_TAIL: tuple[str, ...] = ("ut1", "cred1")
"""Tail sources of the shipped learned prior (:data:`authorag.priors.learned.tail_data.DEFAULT_TAIL`)."""


@dataclass(frozen=True, slots=True)
class ScorerSettings:
    """Which authority tiers run and how (one settings object for every surface).

    Attributes:
        exclude_sources: prior sources left out (leave-source-out evaluation).
        optin_sources: opt-in prior sources added (``averitec_misinfo``, ``grinberg2019``).
        prior_files: your own PageRank priors, ``NAME=PATH`` (``authorag priors build``).
        reserved: special-use names and IPs get tier ``reserved`` (never a table value).
        hosted: user pages on hosting platforms get tier ``hosted`` (never the platform's value).
        hosted_authority: the value of a hosted user page, in [0, 1].
        subdomains: ``inherit`` or ``discount`` for hosts the table does not list itself.
        source_type_adjust: scale the authority of shop/product and forum pages (URL path cues)
            on a domain valued above the unknown level towards it, with the reason in the note
            (opt-in: benchmarks/results/default/).
        learned: add the learned prior (tier ``learned``) for domains the table does not know.
        learned_tail: tail sources the learned prior trains on (``ut1``, ``cred1``; empty: the
            head-only model of earlier releases). The prior sources in ``exclude_sources`` are
            left out of its training too (retrained once and cached when they differ from the
            shipped model's).
        page_evidence: the page-evidence tier: candidates no table knows get a credibility
            estimate from the cues found in their page text and URL (tier ``page``; it abstains
            where it finds none). Off by default: measured against page evidence off, it wins no
            track beyond the CI (benchmarks/results/page_evidence/, docs/evidence.md).
        judge: ``none``, ``local`` (embedded model) or ``openai`` (any OpenAI-compatible server).
        judge_method: registered judge name (``point``: one call per domain).
        judge_model: model name (openai) or GGUF path (local).
        judge_base_url: endpoint for ``judge="openai"``.
        judge_api_key: API key for that endpoint (never printed).
        judge_calibration: JSON file of a judge calibration
            (:class:`~authorag.judges.calibration.Calibration`); default: the shipped fit.
        judge_cache: the judge cache: a SQLite file or ``redis://host:port/db`` (default: the
            user cache's SQLite file).
        judge_cache_max_entries: entries the judge cache keeps, the oldest evicted first
            (default: the cache's bound, 100,000).
        min_confidence: a tier's value is accepted at or above this confidence.
        max_judge_calls: judge calls allowed per scoring call.
        judge_seconds: wall-time budget for judging per scoring call.
    """

    exclude_sources: tuple[str, ...] = field(default=(), metadata=flag(
        "--exclude", metavar="SOURCE", help="leave a prior source out"))
    optin_sources: tuple[str, ...] = field(default=(), metadata=flag(
        "--optin", metavar="SOURCE", help="add an opt-in source (averitec_misinfo, grinberg2019)"))
    prior_files: tuple[str, ...] = field(default=(), metadata=flag(
        "--prior-file", metavar="NAME=PATH",
        help="add a PageRank prior built with 'authorag priors build' as an authority source"))
    reserved: bool = field(default=True, metadata=flag(
        help="reserved tier for example.*, *.test, IPs, localhost (default on)"))
    hosted: bool = field(default=True, metadata=flag(
        help="hosted tier for user pages on platforms like wordpress.com (default on)"))
    hosted_authority: float = field(default=DEFAULT_HOSTED_AUTHORITY, metadata=flag(
        help="value of a hosted user page [0, 1] (default {default})"))
    subdomains: Literal["inherit", "discount"] = field(default="inherit", metadata=flag(
        help="hosts the table does not list: take the domain's value or a discounted one"))
    source_type_adjust: bool = field(default=False, metadata=flag(
        help="scale shop/product and forum pages on high-authority domains towards the unknown level (opt-in)"))
    learned: bool = field(default=False, metadata=flag(
        help="add the learned-prior tier for domains the table does not know (opt-in)"))
    learned_tail: tuple[str, ...] = field(default=DEFAULT_LEARNED_TAIL, metadata=flag(metavar="SOURCE"))
    page_evidence: bool = field(default=False, metadata=flag(
        help="credibility from the cues found in the text and URL of pages no table knows (opt-in)"))
    judge: JudgeKind = field(default="none", metadata=flag(help="judge unknown/low-confidence domains with an LLM"))
    judge_method: str = "point"
    judge_model: str | None = field(default=None, metadata=flag(
        "--judge-model", "--model", help="model name (openai) or GGUF path (local)"))
    judge_base_url: str | None = field(default=None, metadata=flag(
        "--judge-base-url", "--base-url", help="OpenAI-compatible endpoint for --judge openai"))
    judge_api_key: str | None = field(default=None, repr=False, metadata=NO_FLAG)  # a secret: not in `ps`
    judge_calibration: str | None = None
    judge_cache: str | None = field(default=None, metadata=flag(
        "--cache", metavar="PATH_OR_URL",
        help="judge cache: a SQLite file (default: the user cache) or redis://host:port/db"))
    judge_cache_max_entries: int | None = None
    min_confidence: float = 0.5
    max_judge_calls: int = 20
    judge_seconds: float = 30.0

    def __post_init__(self) -> None:
        check_fields(self)  # every field against its annotation; lists become tuples
        for name in ("hosted_authority", "min_confidence"):
            check_unit(name, getattr(self, name))
        check_positive_int("judge_cache_max_entries", self.judge_cache_max_entries, optional=True)
        if self.max_judge_calls < 0 or self.judge_seconds < 0:
            raise ConfigError(f"judge budgets must be >= 0, got max_judge_calls={self.max_judge_calls}, "
                              f"judge_seconds={self.judge_seconds}")
        from authorag.priors.learned.tail_data import validate_tail

        validate_tail(self.learned_tail)
        if self.judge == "openai" and not self.judge_base_url:
            raise ConfigError("judge 'openai' needs judge_base_url (AUTHORAG_JUDGE_BASE_URL or --judge-base-url)")

    def replace(self, **changes: Any) -> ScorerSettings:
        """A copy with ``changes`` applied; None values keep the current value."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def public(self) -> dict[str, Any]:
        """JSON view without secrets (provenance, logs, ``/readyz``)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in _SECRETS}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The setting names (TOML keys; ``AUTHORAG_`` + upper case for the environment)."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ScorerSettings:
        """Defaults < ``[scorer]`` of the ``AUTHORAG_CONFIG`` file < ``AUTHORAG_*`` variables <
        ``overrides`` (None skipped): :func:`authorag.settings.read_settings`.

        Raises:
            ConfigError: a value that cannot be parsed, naming the variable or file key.
        """
        return build(cls, read_settings(cls, "scorer", environ, overrides), environ)

    def to_env(self) -> dict[str, str]:
        """``AUTHORAG_*`` variables that reproduce these settings (for worker processes)."""
        return env_values(self)


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Scorer settings from a TOML file: a ``[scorer]`` table, or top-level keys in a file
    without tables, each checked against its field's type (:func:`authorag.settings.config_table`).

    Raises:
        ConfigError: the file cannot be read or parsed (see :func:`authorag.settings.read_toml`),
            or has an unknown key or table, or a value of the wrong type.
    """
    return config_table(path, "scorer", ScorerSettings)


def load_scorer(settings: ScorerSettings | None = None, **overrides: Any) -> AuthorityScorer:
    """The authority scorer for ``settings`` (default: :meth:`ScorerSettings.from_env`).

    Scorers are cached per settings in the process: the prior table loads once.

    Raises:
        ConfigError: invalid settings (unknown source, bad ``NAME=PATH``, judge options).
        MissingDependencyError: the judge backend's extra is not installed.
    """
    base = ScorerSettings.from_env() if settings is None else settings
    return _build(base.replace(**overrides) if overrides else base)


@lru_cache(maxsize=16)
def _build(settings: ScorerSettings) -> AuthorityScorer:
    from authorag.priors.table import load_prior
    from authorag.tiers.tiered import TieredAuthority

    table = load_prior(exclude=settings.exclude_sources, optin=settings.optin_sources,
                       extra=[_prior_file(spec) for spec in settings.prior_files])
    inner: AuthorityScorer = table
    if settings.learned or settings.judge != "none":
        inner = _hybrid(settings, table)
    from authorag.platforms import default_platforms

    page = None
    if settings.page_evidence:
        from authorag.evidence.tier import PageEvidence

        page = PageEvidence()
    return TieredAuthority(inner, reserved=settings.reserved,
                           platforms=default_platforms() if settings.hosted else None,
                           hosted_authority=settings.hosted_authority, subdomains=settings.subdomains,
                           source_type_adjust=settings.source_type_adjust, page=page, name=composition_name(settings))


def composition_name(settings: ScorerSettings) -> str:
    """The composition's name as provenance shows it (``reserved>hosted>table>learned>judge.point:local``).

    Example:
        >>> composition_name(ScorerSettings(learned=True, exclude_sources=("majestic",)))
        'reserved>hosted>table-majestic>learned'
    """
    parts = (["reserved"] if settings.reserved else []) + (["hosted"] if settings.hosted else [])
    table = "table" + "".join(f"-{s}" for s in settings.exclude_sources) + "".join(f"+{s}" for s in settings.optin_sources)
    table += "".join(f"+{split_prior_file(spec)[0]}" for spec in settings.prior_files)
    parts.append(table + ("+pagetype" if settings.source_type_adjust else ""))
    if settings.learned:
        parts.append("learned" if settings.learned_tail == DEFAULT_LEARNED_TAIL else
                     f"learned[tail={'+'.join(settings.learned_tail) or 'none'}]")
    if settings.judge != "none":
        parts.append(f"judge.{settings.judge_method}:{settings.judge}")
    if settings.page_evidence:
        parts.append("page")
    return ">".join(parts)


def add_scorer_options(p: argparse.ArgumentParser, *, judge_default: JudgeKind | None = None,
                       judge_flags: bool = True) -> None:
    """The scorer flags shared by ``score``, ``rerank``, ``demo``, ``serve`` and ``audit``: one per
    :class:`ScorerSettings` field (:func:`authorag.settings.add_flags`), plus ``--config``.

    Unset flags fall back to the environment and the config file (see the module doc).
    ``judge_flags=False`` leaves out ``--judge``, ``--judge-base-url``, ``--judge-model`` and
    ``--cache`` for a command whose own ``--judge`` means something else (``audit``: the LLM
    that checks support); the scorer's judge then comes from the environment or the config file.
    Pass the same value to :func:`settings_from_args`.
    """
    g = p.add_argument_group("authority scorer (defaults: AUTHORAG_* variables, then the config file)")
    g.add_argument("--config", metavar="FILE", help="TOML file of settings: [scorer], [reranker], [server] (else $AUTHORAG_CONFIG)")
    add_flags(g, ScorerSettings, exclude=() if judge_flags else _JUDGE_FLAGS,
              defaults={"judge": judge_default} if judge_flags else None)


def settings_from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None, *,
                       judge_flags: bool = True) -> ScorerSettings:
    """Settings from :func:`add_scorer_options` flags over the environment and config file.

    ``judge_flags`` must match the value given to :func:`add_scorer_options`.
    """
    return ScorerSettings.from_env(args_environ(args, environ),
                                   **flag_values(args, ScorerSettings, exclude=() if judge_flags else _JUDGE_FLAGS))


def args_environ(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``environ`` (default: the process environment) with ``--config`` in ``AUTHORAG_CONFIG`` when given."""
    env = process_environ(environ)
    config = getattr(args, "config", None)
    return {**env, CONFIG_ENV: config} if config else env


def _hybrid(settings: ScorerSettings, table: AuthorityScorer) -> AuthorityScorer:
    from authorag.tiers.hybrid import build_hybrid

    kw: dict[str, Any] = {k: v for k, v in (("base_url", settings.judge_base_url), ("model", settings.judge_model),
                                           ("api_key", settings.judge_api_key)) if v is not None}
    judge = None if settings.judge == "none" else settings.judge
    hybrid_kw: dict[str, Any] = {"min_confidence": settings.min_confidence, "max_judge_calls": settings.max_judge_calls,
                 "judge_seconds": settings.judge_seconds}
    if settings.judge_calibration:
        from authorag.judges.calibration import Calibration

        hybrid_kw["calibration"] = Calibration.load(settings.judge_calibration)
    learned: Any = False
    if settings.learned:
        from authorag.priors.learned.train import learned_prior_for

        learned = learned_prior_for(exclude=settings.exclude_sources, tail=settings.learned_tail)
    cache: Any = True if settings.judge_cache is None else settings.judge_cache
    return build_hybrid(judge, table=table, learned=learned, judge_method=settings.judge_method,
                        hybrid_kw=hybrid_kw, cache=cache, cache_max_entries=settings.judge_cache_max_entries, **kw)


def split_prior_file(spec: str, option: str = "--prior-file (AUTHORAG_PRIOR_FILES)") -> tuple[str, str]:
    """``NAME=PATH`` → ``(name, path)``; ``option`` names the setting in the error.

    Example:
        >>> split_prior_file("tranco=tranco.store")
        ('tranco', 'tranco.store')

    Raises:
        ConfigError: no ``=``, or an empty name or path.
    """
    name, sep, path = spec.partition("=")
    if not sep or not name or not path:
        raise ConfigError(f"{option} needs NAME=PATH (e.g. mylinks=prior.csv.gz), got {spec!r}")
    return name, path


def _prior_file(spec: str) -> Any:
    """A ``NAME=PATH`` prior as a table source: a gzip CSV (``*.gz`` or gzip bytes) is read as a
    PageRank prior file; anything else as a prior store, whose reader says what is wrong with it."""
    from authorag.priors.pagerank import is_prior_csv
    from authorag.priors.store.mapped import is_store
    from authorag.priors.table import ExtraSource

    name, path = split_prior_file(spec)
    csv = not is_store(path) and (is_prior_csv(path) or path.endswith(".gz"))
    return ExtraSource.from_pagerank_file(path, name) if csv else ExtraSource.from_store(path, name)


__all__ = ["ScorerSettings", "add_scorer_options", "args_environ", "composition_name", "load_scorer",
           "read_config_file", "settings_from_args", "split_prior_file"]
