"""Vendor the CISA .gov registry and build the look-alike target list (deterministic outputs).

Run by a maintainer: ``python scripts/vendor_registries.py [SHARED_DATA_DIR]``. Writes

- ``authorag/data/us_dotgov.csv.gz``: every registered .gov domain and its type (CC0, CISA
  .gov registry ``current-full.csv``), read by the ``.gov`` suffix rule;
- ``authorag/data/uk_gov_domains.csv.gz``: the UK government's list of gov.uk domains (1 Oct
  2016, Open Government Licence v3.0), national or local, read only as look-alike targets;
- the institution and outlet lists of the prior sources ``universities`` (Hipo university
  domains, MIT), ``government`` (US federal and state domains outside .gov, GSA, public
  domain), ``wikiproject`` (Wikipedia WikiProject source lists, CC BY-SA 4.0), ``decodex``
  (Le Monde's Décodex 2017, ODbL: its own file), ``legitphish`` (LegitPhish phishing domains,
  CC BY 4.0), ``predatory`` (Stop Predatory Journals journals and publishers, MIT) and
  ``hijacked`` (the clone sites of its hijacked-journal list, MIT);
- ``authorag/data/lookalike_targets.csv.gz``: the domains a look-alike may imitate, chosen from
  the shipped prior by :func:`authorag.priors.targets.target_rows` (the rule is documented
  there). Built from the shipped prior, so run it after the prior sources change
  (``authorag priors compile``).
"""
from __future__ import annotations

import csv
import json
import re
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.vendor_data import PRIOR_OUT, write_csv_gz


def vendor_dotgov(src: Path) -> list[list[object]]:
    with open(src / "us_dotgov_domains/current-full.csv", newline="", encoding="utf-8") as f:
        rows = sorted({(r["Domain name"].strip().lower(), r["Domain type"].strip()) for r in csv.DictReader(f)
                       if r["Domain name"].strip()})
    out: list[list[object]] = [list(r) for r in rows]
    write_csv_gz(PRIOR_OUT / "us_dotgov.csv.gz", ["domain", "type"], out)
    return out


_LOCAL = re.compile(r"council|parish|borough|county|district|town|city|village|community|authority", re.I)


def vendor_uk_gov(src: Path) -> None:
    """The UK government's list of gov.uk domains (1 Oct 2016, OGL v3.0): a council's (its owner or
    what it represents names a council, borough, parish...) is ``local``, any other ``national``."""
    rows = sorted({(d, "local" if _LOCAL.search(r["Owner"] + " " + r["Representing"]) else "national")
                   for r in _csv(src / "uk_public_sector_domains/govuk_domains_2016.csv")
                   if (d := r["Domain Name"].strip().lower()).endswith(".gov.uk") and d.count(".") == 2})
    write_csv_gz(PRIOR_OUT / "uk_gov_domains.csv.gz", ["domain", "type"], [list(r) for r in rows])


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _host(url: str) -> str | None:
    from authorag.domains import parse_host
    from authorag.platforms import match_platform

    url = url.strip()
    if not url or match_platform(url) is not None:  # a platform's page: its host is not the publisher
        return None
    parsed = parse_host(url, strict=False)
    return None if parsed.host is None or parsed.kind == "invalid" else parsed.host.removeprefix("www.")


@cache
def _recognised() -> frozenset[str]:
    from authorag.priors.sources import SOURCES, load_source

    return frozenset(k for n, spec in SOURCES.items() if spec.axis == "authority" and not spec.optin
                     for k in load_source(n))


def _phishing_site(host: str) -> bool:
    """A LegitPhish row names a phishing site when its host is a user's site on a hosting platform
    or a name no authority source knows; a phishing page on docs.google.com or github.com says
    nothing about those services (the row is a URL's host, not the site's owner)."""
    from authorag.domains import host_keys, parse_host
    from authorag.platforms import match_platform

    hit = match_platform(f"https://{host}/")
    if hit is not None:
        return not hit.official and hit.owner == host.removeprefix("www.")
    parsed = parse_host(host, strict=False)
    return parsed.kind != "invalid" and not any(k in _recognised() for k in host_keys(parsed.host, parsed.domain))


def _place(url: str) -> set[str]:
    from authorag.domains import parse_host

    url = url.strip()
    if "/" in url.split("://", 1)[-1].rstrip("/"):
        return set()  # a section (lefigaro.fr/vox, liberation.fr/tribunes): the outlet is rated on its own
    host = (parse_host(url, strict=False).host or "").removeprefix("www.")
    return {host, host.removeprefix("fr.")} - {""}  # the French edition names the platform too


def vendor_sources(src: Path) -> None:
    unis = sorted({(r["domain"].strip().lower(), r["alpha_two_code"]) for r in
                   _csv(src / "university_domains_hipo/university_domains_flat.csv") if r["domain"].strip()})
    write_csv_gz(PRIOR_OUT / "universities.csv.gz", ["domain", "country"], [list(r) for r in unis])
    gov = sorted({(r["Domain name"].strip().lower(), r["Type of government"].strip()) for r in
                  _csv(src / "us_govt_urls_non_dotgov/1_govt_urls_full.csv")
                  if r["Type of government"].strip() in ("Federal", "State") and "/" not in r["Domain name"]
                  and r["Domain name"].strip()})
    write_csv_gz(PRIOR_OUT / "government.csv.gz", ["domain", "level"], [list(r) for r in gov])
    # sites the perennial list (already the wikipedia_perennial source) rates are left to it:
    # one origin counted once, and the community-wide list wins over a project's
    perennial = set(json.loads((src / "burdisso2024_news_reliability/wikipedia_perennial_sources.json").read_text()))
    wiki = sorted({(r["site"].strip().lower(), r["label"]) for r in
                   _csv(src / "wikipedia_reliable_sources/wikipedia_site_labels.csv")
                   if not r["path_pattern"].strip() and r["site"].strip()
                   and r["site"].strip().lower().removeprefix("www.") not in perennial})
    write_csv_gz(PRIOR_OUT / "wikiproject.csv.gz", ["domain", "label"], [list(r) for r in wiki])
    # Décodex rates platforms and opinion sections as places ("Plateforme, forum, espace-tribune"):
    # a rating of reddit.com is not one of what its users post, so those hosts are left out
    places = {h for r in _csv(src / "decodex_fr_2017/decodex_juillet_2017_enrichi.csv")
              if r["Catégorie"].startswith("Plateforme") for h in _place(r["attr_home"])}
    decodex = sorted({(r["url"].strip().lower().removeprefix("www."), int(r["fiability"])) for r in
                      _csv(src / "decodex_fr_2017/decodex-latest.csv") if "/" not in r["url"] and r["url"].strip()
                      and r["url"].strip().lower().removeprefix("www.") not in places})
    write_csv_gz(PRIOR_OUT / "decodex.csv.gz", ["domain", "fiability"], [list(r) for r in decodex])
    phish = sorted({h for r in _csv(src / "credinet_weak_labels/legitphish_domains.csv")
                    if r["label"].strip() == "0" and (h := r["domain"].strip().lower()) and _phishing_site(h)})
    write_csv_gz(PRIOR_OUT / "legitphish.csv.gz", ["domain"], [[d] for d in phish])
    pred: set[tuple[str, str]] = set()
    for kind, file in (("journal", "journals.csv"), ("publisher", "publishers.csv")):
        pred.update((h, kind) for r in _csv(src / "stop_predatory_journals" / file) if (h := _host(r["url"])))
    write_csv_gz(PRIOR_OUT / "predatory.csv.gz", ["host", "kind"], [list(r) for r in sorted(pred)])
    write_csv_gz(PRIOR_OUT / "hijacked.csv.gz", ["host"], [[h] for h in hijacked_clones(src)])


def hijacked_clones(src: Path) -> list[str]:
    """The clone hosts of the hijacked-journal list (both clone URL columns), without any host that
    is also an authentic journal's or a hosting platform's."""
    rows = _csv(src / "stop_predatory_journals/hijacked.csv")
    authentic = {h for r in rows if (h := _host(r["authenticurl"].replace("&amp;", "&")))}
    return sorted({h for r in rows for col in ("hijackedurl", "althijackedurl")
                   if (h := _host(r[col])) and h not in authentic})


def build_targets() -> None:
    from authorag.priors.sources import SOURCES
    from authorag.priors.table import PriorTable
    from authorag.priors.targets import listed_domains, target_rows

    prior = PriorTable([s for s in SOURCES.values() if not s.optin], lookalikes=None)
    write_csv_gz(PRIOR_OUT / "lookalike_targets.csv.gz", ["domain", "suffix", "trust", "kind"],
                 [list(r) for r in target_rows(prior, listed_domains())])


def main(argv: list[str]) -> int:
    paths = [a for a in argv if not a.startswith("--")]
    src = Path(paths[0]) if paths else Path(__file__).resolve().parents[2] / "shared" / "data"
    vendor_dotgov(src)
    vendor_uk_gov(src)
    if "--targets-only" not in argv:
        vendor_sources(src)
    build_targets()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
