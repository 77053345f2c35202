"""Which domains a look-alike may imitate: chosen from what a prior table trusts.

One rule, used twice: ``scripts/vendor_registries.py`` writes the shipped target list
(``authorag/data/lookalike_targets.csv.gz``) with it from the default sources, and a table that
leaves a source out (``load_prior(exclude=[...])``, a leave-source-out benchmark) builds its own
index with it from the sources it keeps, so an excluded source's labels never reach the
look-alike check through the target list.

A target is a registrable domain the table trusts at or above :data:`TRUSTED_FROM` (the trust
rule every surface uses, suffix rules included): one a source names (itself or through a host
under it, ``www.legifrance.gouv.fr``), or one a shipped registry lists under a government
suffix (:func:`listed_domains`: the .gov registry, the UK government's gov.uk list), so an agency
no popularity list knows is still a name to imitate; and, whatever its trust, a national agency
or regional government of :func:`public_bodies` or a brand phishing imitates
(:mod:`authorag.priors.brands`, kind ``brand``): look-alike targets, not trust sources. It is an ``institution`` when a public
body's suffix rule (government, military, treaty, national health service) vouches for it, the
``reference`` source lists it as a public body (``kfw.de``, a national agency outside a government
suffix) or a registry lists it as a national body; ``office-only`` when a registry lists it as a state, county,
city or council site, or its name is a common word (``treasury.gov``, ``weather.com``: place names
and words are common in firms' names, ``boston-tax-services``, ``treasury-payment-solutions``);
``trusted`` otherwise. Every
other registrable domain the table rates above the unknown level is ``known``: a look-alike may
spell it out as words, but it is not compared by name.
"""
from __future__ import annotations

import csv
import gzip
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from authorag.domains import parse_host
from authorag.priors.brands import impersonated_brands
from authorag.priors.institutions import PUBLIC_BODY_KINDS
from authorag.priors.registry import DOTGOV_FILE, UK_GOV_FILE, registered_domains
from authorag.priors.rules import DEFAULT_RULES, NATIONAL_BODIES, match_rule
from authorag.trust import DEFAULT_TRUST_RULE

if TYPE_CHECKING:
    from authorag.priors.lookalike import TargetKind
    from authorag.priors.rules import SuffixRule
    from authorag.types import AuthorityDetail, SourceValue


class PriorSources(Protocol):
    """What the target list reads of a prior (:class:`~authorag.priors.table.PriorTable`)."""

    rules: tuple[SuffixRule, ...]

    @property
    def source_axes(self) -> Mapping[str, str]: ...

    @property
    def source_tables(self) -> Mapping[str, Mapping[str, SourceValue]]: ...

    def lookup_host(self, host: str | None, domain: str | None) -> AuthorityDetail: ...

TRUSTED_FROM = 0.6
"""The least trust that makes a domain worth imitating."""
MIN_WORD_LENGTH = 4
"""A target's name that is a dictionary word this long or longer (``energy``, ``weather``,
``nature``, ``treasury``) is a common word, claimed only beside an office word; shorter
dictionary words are mostly acronyms (``cdc``, ``nhs``) and count as words only when only a
registry names the domain (``why.gov``). A ``known`` domain with such a name is ``common``: not
looked for as words of another name (``royal-uk-tours`` does not spell ``royal.uk``)."""
ACADEMIC_SUFFIXES = frozenset({"edu", "ac.uk", "ac.jp", "ac.nz", "ac.za", "ac.in", "ac.kr", "edu.au", "edu.cn",
                               "edu.sg", "edu.br", "edu.mx", "ac.at", "ac.il"})
"""Suffix rules whose domains are universities, not public bodies: their short names are
common acronyms, so a country or service word beside them claims nothing."""

Target = tuple[str, str, float, str]
"""``(domain, public suffix, trust, kind)``: one row of the target list."""


def registrable_keys(keys: Iterable[str]) -> Iterator[str]:
    """The keys that are registrable domains themselves (``nih.gov``, not ``www.nih.gov``)."""
    for k in keys:
        if parse_host(k, strict=False).domain == k:
            yield k


def _candidates(prior: PriorSources) -> set[str]:
    """The keys whose trust can be above the unknown level: any authority value, a credibility
    value at or above the trust rule's low threshold, or a suffix rule (a key that only low
    credibility values know ends below the unknown level, whatever the mean)."""
    axes = prior.source_axes
    out: set[str] = set()
    for name, table in prior.source_tables.items():
        if axes[name] == "authority":
            out.update(table)
        else:
            out.update(k for k, sv in table.items() if sv.value >= DEFAULT_TRUST_RULE.low
                       or match_rule(k, prior.rules) is not None)
    return out


def listed_domains() -> dict[str, TargetKind]:
    """The domains the shipped registries list under a government suffix, with their kind: every
    .gov registry domain (federal ones ``institution``, state, county, city... ``office-only``) and the
    UK government's gov.uk list (councils ``office-only``, national bodies ``institution``), the
    national bodies the suffix rules list by name (``institution``), :func:`public_bodies`, and
    the brands phishing imitates most (:func:`~authorag.priors.brands.impersonated_brands`,
    ``brand``; a public body listed anywhere else keeps its kind)."""
    out: dict[str, TargetKind] = {d: "institution" if kind.startswith("Federal") else "office-only"
                                  for d, kind in registered_domains(DOTGOV_FILE).items()}
    out.update({d: "office-only" if level == "local" else "institution"
                for d, level in registered_domains(UK_GOV_FILE).items()})
    out.update({d: "institution" for d in NATIONAL_BODIES})
    out.update(public_bodies())
    out.update({d: "brand" for d in impersonated_brands() if d not in out})
    return out


PUBLIC_BODIES_FILE = "public_bodies.csv"
"""National agencies and regional governments outside a closed suffix (hand-listed): look-alike
targets, not a trust source."""


@cache
def public_bodies() -> Mapping[str, TargetKind]:
    """The domains of :data:`PUBLIC_BODIES_FILE`: agencies ``institution``, regional governments
    (whose names are places) ``office-only``; read once per process (a target list is built from
    :func:`listed_domains` and :func:`target_rows`, which both read it).

    Example:
        >>> public_bodies()["agenciatributaria.es"], public_bodies()["berlin.de"]
        ('institution', 'office-only')
    """
    text = resources.files("authorag.data").joinpath(PUBLIC_BODIES_FILE).read_text(encoding="utf-8")
    rows = csv.DictReader(ln for ln in text.splitlines() if not ln.startswith("#"))
    return MappingProxyType({r["domain"]: "institution" if r["kind"] == "agency" else "office-only" for r in rows})


@cache
def dictionary_words() -> frozenset[str]:
    """The shipped English word list (``learned_prior_words.txt.gz``) less the names and acronyms
    in it (``proper_names.txt.gz``: ``nasa``, ``medicare``, ``fbi``): a target's name that is a
    common word (``fire.gov.uk``, ``why.gov``) names no one when a firm's name holds it."""
    data = resources.files("authorag.data")
    words, names = (frozenset(gzip.decompress(data.joinpath(f).read_bytes()).decode("ascii").split())
                    for f in ("learned_prior_words.txt.gz", "proper_names.txt.gz"))
    return words - names


def _label(domain: str, suffix: str) -> str:
    return domain[: -len(suffix) - 1] if suffix and domain.endswith("." + suffix) else domain


def _public_body(domain: str, reference: Mapping[str, SourceValue]) -> bool:
    """A public body's suffix rule vouches for ``domain``, or the ``reference`` source lists it as a
    public body (:data:`~authorag.priors.institutions.PUBLIC_BODY_KINDS`: ``kfw.de``, a national agency)."""
    rule = match_rule(domain, DEFAULT_RULES)
    if rule is not None:
        return rule.suffix not in ACADEMIC_SUFFIXES
    sv = reference.get(domain)
    return sv is not None and sv.raw in PUBLIC_BODY_KINDS


def _row(prior: PriorSources, domain: str, kind: str) -> Target:
    trust = round(DEFAULT_TRUST_RULE.value(prior.lookup_host(domain, domain)), 3)
    return domain, parse_host(domain).suffix or "", trust, kind


def target_rows(prior: PriorSources, listed: Mapping[str, TargetKind] | None = None) -> list[Target]:
    """The target list of ``prior``: trusted and known registrable domains, then every registrable domain under a public body's suffix rule that a source of ``prior``
    names (``www.legifrance.gouv.fr`` gives ``legifrance.gouv.fr``) or ``listed`` holds, ordered
    by trust (highest first), then name.

    ``prior`` should have no look-alike index itself (``lookalikes=None``).
    """
    candidates = _candidates(prior)
    domains = set(registrable_keys(candidates))
    reference = prior.source_tables.get("reference", {})
    rows: dict[str, Target] = {}
    for d in sorted(domains):
        trust = DEFAULT_TRUST_RULE.value(prior.lookup_host(d, d))
        if trust >= TRUSTED_FROM:
            rows[d] = _row(prior, d, "institution" if _public_body(d, reference) else "trusted")
        elif trust > DEFAULT_TRUST_RULE.unknown_level:
            rows[d] = _row(prior, d, "known")
    named = {p.domain: "institution" for k in candidates if (p := parse_host(k, strict=False)).domain
             and p.domain != k and _public_body(p.domain, reference)}
    registry_only: set[str] = set()
    bodies = public_bodies().keys() | impersonated_brands().keys()
    for d, kind in sorted(named.items()) + sorted((listed or {}).items()):
        if d in rows and rows[d][3] != "known":
            rows[d] = (*rows[d][:3], kind)  # the registry says which kind of body it is
        elif d in rows and d in bodies and kind == "office-only":
            continue  # a known regional name stays known: spelled out as words, it is still a look-alike
        elif (row := _row(prior, d, kind))[2] >= TRUSTED_FROM or d in bodies:  # a listed body, whatever its trust
            rows[d] = row
            registry_only.update(() if d in named else (d,))
    for d, (_, suffix, trust, kind) in list(rows.items()):
        label = _label(d, suffix)
        if kind in ("institution", "brand", "trusted", "known") and label in dictionary_words() and (
                len(label) >= MIN_WORD_LENGTH or d in registry_only):  # a short word only a registry names: 'why.gov'
            rows[d] = (d, suffix, trust, "common" if kind == "known" else "office-only")
    return sorted(rows.values(), key=lambda r: (-r[2], r[0]))


__all__ = ["ACADEMIC_SUFFIXES", "PUBLIC_BODIES_FILE", "TRUSTED_FROM", "Target", "dictionary_words", "listed_domains", "public_bodies",
           "registrable_keys", "target_rows"]
