"""Registries instead of suffixes: a closed suffix vouches only for the names its registry lists.

A suffix rule (:mod:`authorag.priors.rules`) trusts a host because registration under ``.gov``,
``gov.uk`` or ``.int`` is restricted. That holds only for names that really are registered: a
look-alike such as ``nіh.gov`` (Cyrillic ``і``) or a name with a zero-width joiner cannot be
registered under those suffixes, yet it ends in ``.gov``. So:

- under ``.gov``, the rule applies only to registrable domains in the CISA .gov registry
  (``authorag/data/us_dotgov.csv.gz``, CC0, vendored by ``scripts/vendor_registries.py``);
- under every closed suffix, the rule never applies to an internationalized name (a label in
  punycode), since none of the default closed suffixes registers them.

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
REGISTRIES: dict[str, str] = {"gov": DOTGOV_FILE}
"""Suffix → the vendored registry file listing every registered domain under it."""


@cache
def registered_domains(file: str) -> frozenset[str]:
    """Every domain a vendored registry file lists (read once)."""
    try:
        with resources.files("authorag.data").joinpath(file).open("rb") as raw:
            text = gzip.decompress(raw.read()).decode("utf-8")
    except OSError as exc:
        raise PriorUnavailable(f"cannot read registry file {file} ({exc}); reinstall authorag") from exc
    return frozenset(r["domain"] for r in csv.DictReader(text.splitlines()))


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


__all__ = ["DOTGOV_FILE", "REGISTRIES", "refusal", "registered_domains"]
