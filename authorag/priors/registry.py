"""Registries instead of suffixes: a closed suffix vouches only for the names its registry lists.

A suffix rule (:mod:`authorag.priors.rules`) trusts a host because registration under ``.gov``,
``gov.uk`` or ``.int`` is restricted. That holds only for names that really are registered: a
look-alike such as ``nіh.gov`` (Cyrillic ``і``) or a name with a zero-width joiner cannot be
registered under those suffixes, yet it ends in ``.gov``. So:

- under ``.gov``, the rule applies only to registrable domains in the CISA .gov registry
  (``authorag/data/us_dotgov.csv.gz``, CC0, vendored by ``scripts/vendor_registries.py``);
- under every closed suffix, the rule never applies to an internationalized name (a label in
  punycode), since none of the default closed suffixes registers them;
- a registry that says who holds a name can say more than the suffix: a federal .gov domain
  (an agency bound by the Information Quality Act's guidelines for what it publishes) gets
  :data:`FEDERAL_CREDIBILITY`, above the .gov rule's value for state, county and city sites.

Example:
    >>> from authorag.priors.rules import SuffixRule
    >>> refusal(SuffixRule("gov", 0.85), "www.nih.gov", "nih.gov") is None
    True
    >>> refusal(SuffixRule("gov", 0.85), "xn--nh-hoc.gov", "xn--nh-hoc.gov")
    'internationalized name under the closed suffix .gov: no registry there lists it'
"""
from __future__ import annotations

import csv
import gzip
from functools import cache
from importlib import resources

from authorag.errors import PriorUnavailable
from authorag.priors.rules import SuffixRule

DOTGOV_FILE = "us_dotgov.csv.gz"
UK_GOV_FILE = "uk_gov_domains.csv.gz"
"""The UK government's list of gov.uk domains (type ``national`` or ``local``): look-alike targets only."""
REGISTRIES: dict[str, str] = {"gov": DOTGOV_FILE}
"""Suffix → the vendored registry file listing every registered domain under it."""
FEDERAL_CREDIBILITY = 0.9
"""Credibility of a federal .gov domain (the registry's type starts with ``Federal``)."""


@cache
def registered_domains(file: str) -> dict[str, str]:
    """Every domain a vendored registry file lists, with its type (read once)."""
    try:
        with resources.files("authorag.data").joinpath(file).open("rb") as raw:
            text = gzip.decompress(raw.read()).decode("utf-8")
    except OSError as exc:
        raise PriorUnavailable(f"cannot read registry file {file} ({exc}); reinstall authorag") from exc
    return {r["domain"]: r["type"] for r in csv.DictReader(text.splitlines())}


def refusal(rule: SuffixRule, host: str | None, domain: str | None) -> str | None:
    """Why ``rule`` must not vouch for ``host`` (None when it may)."""
    if not host:
        return None
    if "xn--" in host:
        return f"internationalized name under the closed suffix .{rule.suffix}: no registry there lists it"
    registry = REGISTRIES.get(rule.suffix)
    if registry is not None and domain is not None and domain not in registered_domains(registry):
        return f"{domain} is not in the .{rule.suffix} registry ({registry})"
    return None


def registry_credibility(rule: SuffixRule, domain: str | None) -> float | None:
    """The credibility the registry gives ``domain`` under ``rule`` (else the rule's own).

    Example:
        >>> from authorag.priors.rules import SuffixRule
        >>> registry_credibility(SuffixRule("gov", 0.85, credibility=0.85), "irs.gov")
        0.9
        >>> registry_credibility(SuffixRule("gov", 0.85, credibility=0.85), "abbevillecitymarshal.gov")
        0.85
    """
    registry = REGISTRIES.get(rule.suffix)
    if registry is not None and domain is not None and registered_domains(registry).get(domain, "").startswith("Federal"):
        return FEDERAL_CREDIBILITY
    return rule.credibility


__all__ = ["DOTGOV_FILE", "UK_GOV_FILE", "FEDERAL_CREDIBILITY", "REGISTRIES", "refusal", "registered_domains", "registry_credibility"]
