"""Which domains a look-alike may imitate: chosen from what a prior table trusts.

One rule, used twice: ``scripts/vendor_registries.py`` writes the shipped target list
(``authorag/data/lookalike_targets.csv.gz``) with it from the default sources, and a table that
leaves a source out (``load_prior(exclude=[...])``, a leave-source-out benchmark) builds its own
index with it from the sources it keeps, so an excluded source's labels never reach the
look-alike check through the target list.

A target is a registrable domain the table trusts at or above :data:`TRUSTED_FROM` (the trust
rule every surface uses, suffix rules included), or a federal domain of the .gov registry. It is
an ``institution`` when a public body's suffix rule (government, military, treaty, national
health service) vouches for it or the registry lists it as federal; ``trusted`` otherwise. Every
other registrable domain the table rates above the unknown level is ``known``: a look-alike may
spell it out as words, but it is not compared by name.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from authorag.domains import parse_host
from authorag.priors.registry import DOTGOV_FILE, registered_domains
from authorag.priors.rules import DEFAULT_RULES, match_rule
from authorag.trust import DEFAULT_TRUST_RULE

if TYPE_CHECKING:
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


def federal_domains() -> list[str]:
    """The federal domains of the vendored .gov registry."""
    return [d for d, kind in registered_domains(DOTGOV_FILE).items() if kind.startswith("Federal")]


def target_rows(prior: PriorSources, federal: Iterable[str] = ()) -> list[Target]:
    """The target list of ``prior``: trusted and known registrable domains, then ``federal``
    ones, ordered by trust (highest first), then name.

    ``prior`` should have no look-alike index itself (``lookalikes=None``).
    """
    domains = set(registrable_keys(_candidates(prior)))
    rows: dict[str, Target] = {}
    for d in sorted(domains):
        trust = DEFAULT_TRUST_RULE.value(prior.lookup_host(d, d))
        if trust >= TRUSTED_FROM:
            rule = match_rule(d, DEFAULT_RULES)
            public = rule is not None and rule.suffix not in ACADEMIC_SUFFIXES
            rows[d] = (d, parse_host(d).suffix or "", round(trust, 3), "institution" if public else "trusted")
        elif trust > DEFAULT_TRUST_RULE.unknown_level:
            rows[d] = (d, parse_host(d).suffix or "", round(trust, 3), "known")
    for d in federal:
        if d not in rows or rows[d][3] == "known":
            rows[d] = (d, "gov", round(DEFAULT_TRUST_RULE.value(prior.lookup_host(d, d)), 3), "institution")
    return sorted(rows.values(), key=lambda r: (-r[2], r[0]))


__all__ = ["ACADEMIC_SUFFIXES", "TRUSTED_FROM", "Target", "federal_domains", "registrable_keys", "target_rows"]
