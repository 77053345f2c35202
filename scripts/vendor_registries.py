"""Vendor the CISA .gov registry and build the look-alike target list (deterministic outputs).

Run by a maintainer: ``python scripts/vendor_registries.py [SHARED_DATA_DIR]``. Writes

- ``authorag/data/us_dotgov.csv.gz``: every registered .gov domain and its type (CC0, CISA
  .gov registry ``current-full.csv``), read by the ``.gov`` suffix rule;
- ``authorag/data/lookalike_targets.csv.gz``: the domains a look-alike may imitate: registrable
  domains the shipped prior trusts (trust at or above ``TRUSTED_FROM``, suffix rule included)
  and the federal .gov domains, each marked ``institution`` when a government, treaty or
  academic suffix vouches for it. Built from the shipped prior, so run it after the prior
  sources change (``authorag priors compile``).
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.vendor_data import PRIOR_OUT, write_csv_gz  # noqa: E402

TRUSTED_FROM = 0.6


def vendor_dotgov(src: Path) -> list[list[str]]:
    with open(src / "us_dotgov_domains/current-full.csv", newline="", encoding="utf-8") as f:
        rows = sorted({(r["Domain name"].strip().lower(), r["Domain type"].strip()) for r in csv.DictReader(f)
                       if r["Domain name"].strip()})
    out = [list(r) for r in rows]
    write_csv_gz(PRIOR_OUT / "us_dotgov.csv.gz", ["domain", "type"], out)
    return out


def build_targets(dotgov: list[list[str]]) -> None:
    from authorag.domains import parse_host
    from authorag.priors.rules import DEFAULT_RULES, match_rule
    from authorag.priors.sources import SOURCES, load_source
    from authorag.priors.table import load_prior
    from authorag.trust import DEFAULT_TRUST_RULE

    prior = load_prior()
    domains: set[str] = set()
    for name, spec in SOURCES.items():
        if not spec.optin:
            domains.update(k for k in load_source(name) if parse_host(k, strict=False).domain == k)
    rows: dict[str, list[object]] = {}
    for d in sorted(domains):
        trust = DEFAULT_TRUST_RULE.value(prior.lookup_host(d, d))
        if trust >= TRUSTED_FROM:
            rule = match_rule(d, DEFAULT_RULES)
            rows[d] = [d, round(trust, 3), "institution" if rule is not None else "trusted"]
    for d, kind in dotgov:
        if kind.startswith("Federal") and d not in rows:
            rows[d] = [d, round(DEFAULT_TRUST_RULE.value(prior.lookup_host(d, d)), 3), "institution"]
    write_csv_gz(PRIOR_OUT / "lookalike_targets.csv.gz", ["domain", "trust", "kind"],
                 sorted(rows.values(), key=lambda r: (-float(r[1]), str(r[0]))))  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared" / "data"
    dotgov = vendor_dotgov(src)
    build_targets(dotgov)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
