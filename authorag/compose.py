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
    page      pages no table knows: a credibility estimate from their URL and text
              (:mod:`authorag.evidence`; thin evidence stays unknown)
    unknown   everything else: the unknown level

The learned prior (``learned=True``) and an LLM judge (``judge="local"|"openai"``) are opt-in.

Example:
    >>> from authorag.types import candidates_from
    >>> scorer = load_scorer(ScorerSettings())
    >>> scorer.name
    'reserved>hosted>prior>page'
    >>> [d.tier for d in scorer.score(candidates_from(["nih.gov", "https://johndoe.wordpress.com/x"]))]
    ['table', 'hosted']
"""
from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast, get_args

from authorag.errors import ConfigError
from authorag.priors.base import AuthorityScorer
from authorag.settings import check_fields, check_setting, field_kinds, read_toml
from authorag.tiered import DEFAULT_HOSTED_AUTHORITY
from authorag.validation import check_positive_int, check_unit

JudgeKind = Literal["none", "local", "openai"]
ENV_PREFIX = "AUTHORAG_"
CONFIG_ENV = "AUTHORAG_CONFIG"
_SECRETS = ("judge_api_key",)
DEFAULT_LEARNED_TAIL: tuple[str, ...] = ("ut1", "cred1")
"""Tail sources of the shipped learned prior (:data:`authorag.priors.tail_data.DEFAULT_TAIL`)."""


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
            estimate from their URL and page text (tier ``page``; thin evidence stays unknown).
            On by default (benchmarks/results/trust/).
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

    exclude_sources: tuple[str, ...] = ()
    optin_sources: tuple[str, ...] = ()
    prior_files: tuple[str, ...] = ()
    reserved: bool = True
    hosted: bool = True
    hosted_authority: float = DEFAULT_HOSTED_AUTHORITY
    subdomains: Literal["inherit", "discount"] = "inherit"
    source_type_adjust: bool = False
    learned: bool = False
    learned_tail: tuple[str, ...] = DEFAULT_LEARNED_TAIL
    page_evidence: bool = True
    judge: JudgeKind = "none"
    judge_method: str = "point"
    judge_model: str | None = None
    judge_base_url: str | None = None
    judge_api_key: str | None = field(default=None, repr=False)
    judge_calibration: str | None = None
    judge_cache: str | None = None
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
        from authorag.priors.tail_data import validate_tail

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
        """Defaults < ``AUTHORAG_CONFIG`` file < ``AUTHORAG_*`` variables < ``overrides`` (None skipped).

        Raises:
            ConfigError: a value that cannot be parsed, naming the variable or file key.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        path = env.get(CONFIG_ENV)
        if path:
            values.update(read_config_file(path))
        for name, kind in field_kinds(cls).items():
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is not None and raw != "":
                values[name] = check_setting(ENV_PREFIX + name.upper(), raw, kind, text=True)
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ConfigError as exc:
            if not path:
                raise
            raise ConfigError(f"{exc} (settings from config file {path}, AUTHORAG_* variables and flags)") from exc

    def to_env(self) -> dict[str, str]:
        """``AUTHORAG_*`` variables that reproduce these settings (for worker processes)."""
        out: dict[str, str] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            text = ",".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else str(value)
            out[ENV_PREFIX + f.name.upper()] = text
        return out


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Scorer settings from a TOML file: top-level keys or a ``[scorer]`` table, each checked
    against its field's type (:func:`authorag.settings.check_setting`).

    Raises:
        ConfigError: the file cannot be read or parsed (see :func:`authorag.settings.read_toml`),
            or has an unknown key, a table where a setting belongs, or a value of the wrong type.
    """
    p = Path(path)
    data = read_toml(p, fix="; set AUTHORAG_CONFIG (or --config) to a TOML file")
    where = f"config file {p}"
    table: Any = data.get("scorer", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: 'scorer' must be a table ([scorer]), got {type(table).__name__}")
    if table is not data and set(data) - {"scorer"}:
        raise ConfigError(f"{where}: {sorted(set(data) - {'scorer'})} outside the [scorer] table; move the "
                          "settings into [scorer] (other tables are not read)")
    kinds = field_kinds(ScorerSettings)
    unknown = sorted(set(cast(dict[str, Any], table)) - set(kinds))
    if unknown:
        raise ConfigError(f"{where}: unknown scorer setting(s) {unknown}; known: {', '.join(sorted(kinds))}")
    return {k: check_setting(f"{where}: {k}", v, kinds[k]) for k, v in cast(dict[str, Any], table).items()}


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
    from authorag.tiered import TieredAuthority

    table = load_prior(exclude=settings.exclude_sources, optin=settings.optin_sources,
                       extra=[_prior_file(spec) for spec in settings.prior_files])
    inner: AuthorityScorer = table
    if settings.learned or settings.judge != "none":
        inner = _hybrid(settings, table)
    from authorag.priors.platforms import default_platforms

    page = None
    if settings.page_evidence:
        from authorag.evidence.tier import PageEvidence

        page = PageEvidence()
    return TieredAuthority(inner, reserved=settings.reserved,
                           platforms=default_platforms() if settings.hosted else None,
                           hosted_authority=settings.hosted_authority, subdomains=settings.subdomains,
                           source_type_adjust=settings.source_type_adjust, page=page, name=composition_name(settings))


def composition_name(settings: ScorerSettings) -> str:
    """The composition's name as provenance shows it (``reserved>hosted>prior>learned>judge.point:local``).

    Example:
        >>> composition_name(ScorerSettings(learned=True, exclude_sources=("majestic",)))
        'reserved>hosted>prior-majestic>learned>page'
    """
    parts = (["reserved"] if settings.reserved else []) + (["hosted"] if settings.hosted else [])
    prior = "prior" + "".join(f"-{s}" for s in settings.exclude_sources) + "".join(f"+{s}" for s in settings.optin_sources)
    prior += "".join(f"+{split_prior_file(spec)[0]}" for spec in settings.prior_files)
    parts.append(prior + ("+pagetype" if settings.source_type_adjust else ""))
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
    """The scorer flags shared by ``score``, ``rerank``, ``demo``, ``serve`` and ``audit`` (one definition).

    Unset flags fall back to the environment and the config file (see the module doc).
    ``judge_flags=False`` leaves out ``--judge``, ``--judge-base-url``, ``--judge-model`` and
    ``--cache`` for a command whose own ``--judge`` means something else (``audit``: the LLM
    that checks support); the scorer's judge then comes from the environment or the config file.
    Pass the same value to :func:`settings_from_args`.
    """
    g = p.add_argument_group("authority scorer (defaults: AUTHORAG_* variables, then the config file)")
    g.add_argument("--config", metavar="FILE", help="TOML file of scorer settings (else $AUTHORAG_CONFIG)")
    g.add_argument("--exclude", action="append", metavar="SOURCE", help="leave a prior source out")
    g.add_argument("--optin", action="append", metavar="SOURCE",
                   help="add an opt-in source (averitec_misinfo, grinberg2019)")
    g.add_argument("--prior-file", action="append", metavar="NAME=PATH",
                   help="add a PageRank prior built with 'authorag priors build' as an authority source")
    g.add_argument("--learned", action=argparse.BooleanOptionalAction, default=None,
                   help="add the learned-prior tier for domains the table does not know (opt-in)")
    g.add_argument("--page-evidence", action=argparse.BooleanOptionalAction, default=None,
                   help="credibility from the URL and text of pages no table knows (default on; --no-page-evidence turns it off)")
    if judge_flags:
        g.add_argument("--judge", choices=list(get_args(JudgeKind)), default=judge_default,
                       help="judge unknown/low-confidence domains with an LLM")
        g.add_argument("--judge-base-url", "--base-url", dest="judge_base_url",
                       help="OpenAI-compatible endpoint for --judge openai")
        g.add_argument("--judge-model", "--model", dest="judge_model", help="model name (openai) or GGUF path (local)")
        g.add_argument("--cache", dest="judge_cache", metavar="PATH_OR_URL",
                       help="judge cache: a SQLite file (default: the user cache) or redis://host:port/db")
    g.add_argument("--hosted", action=argparse.BooleanOptionalAction, default=None,
                   help="hosted tier for user pages on platforms like wordpress.com (default on)")
    g.add_argument("--reserved", action=argparse.BooleanOptionalAction, default=None,
                   help="reserved tier for example.*, *.test, IPs, localhost (default on)")
    g.add_argument("--hosted-authority", type=float, help="value of a hosted user page [0, 1] (default 0.4)")
    g.add_argument("--subdomains", choices=["inherit", "discount"],
                   help="hosts the table does not list: take the domain's value or a discounted one")
    g.add_argument("--source-type-adjust", action=argparse.BooleanOptionalAction, default=None,
                   help="scale shop/product and forum pages on high-authority domains towards the unknown level (opt-in)")


def settings_from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None, *,
                       judge_flags: bool = True) -> ScorerSettings:
    """Settings from :func:`add_scorer_options` flags over the environment and config file.

    ``judge_flags`` must match the value given to :func:`add_scorer_options`.
    """
    env = dict(os.environ if environ is None else environ)
    if getattr(args, "config", None):
        env[CONFIG_ENV] = args.config
    judge: dict[str, Any] = {"judge": args.judge, "judge_base_url": args.judge_base_url,
                             "judge_model": args.judge_model, "judge_cache": getattr(args, "judge_cache", None)
                             } if judge_flags else {}
    return ScorerSettings.from_env(
        env, exclude_sources=tuple(args.exclude) if args.exclude else None,
        optin_sources=tuple(args.optin) if args.optin else None,
        prior_files=tuple(args.prior_file) if args.prior_file else None,
        learned=args.learned, **judge,
        hosted=args.hosted, reserved=args.reserved, hosted_authority=args.hosted_authority,
        subdomains=args.subdomains, source_type_adjust=getattr(args, "source_type_adjust", None),
        page_evidence=getattr(args, "page_evidence", None))


def _hybrid(settings: ScorerSettings, table: AuthorityScorer) -> AuthorityScorer:
    from authorag.hybrid import build_hybrid

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
        from authorag.priors.learned_train import learned_prior_for

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
    from authorag.priors.store import is_store
    from authorag.priors.table import ExtraSource

    name, path = split_prior_file(spec)
    csv = not is_store(path) and (is_prior_csv(path) or path.endswith(".gz"))
    return ExtraSource.from_pagerank_file(path, name) if csv else ExtraSource.from_store(path, name)


__all__ = ["ScorerSettings", "add_scorer_options", "composition_name", "load_scorer",
           "read_config_file", "settings_from_args", "split_prior_file"]
