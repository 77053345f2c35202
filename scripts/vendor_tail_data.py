"""Vendor the tail training lists of the learned prior (run once; output is committed).

Reads the UT1 blacklists and CRED-1 from a data folder (default ``../shared/data``) and writes

* ``authorag/data/tail_ut1.csv.gz``  (domain, category): UT1 categories used as tail evidence,
  registrable domains only, at most ``--cap`` per category (a seeded hash sample). Derived from
  UT1 (CC BY-SA 4.0, "UT1 blacklists, Université Toulouse Capitole"), so it stays CC BY-SA 4.0.
* ``authorag/data/tail_cred1.csv.gz`` (domain, category, credibility_score): CRED-1 (CC BY 4.0,
  "CRED-1 (Loth, Kappes, Pahl 2026)"), the columns the trainer reads; also the ``cred1``
  (``cred1.csv.gz`` below is the prior table's copy, keyed by host).
* ``authorag/data/cred1.csv.gz`` (host, category, credibility_score): CRED-1 as the ``cred1``
  credibility source, keyed by the host as listed (``www.`` dropped), so that a flagged blog on
  a hosting platform (``someone.wordpress.com``) says nothing about the platform itself.
* ``authorag/data/ut1_fakenews.csv.gz`` (host): UT1's ``fakenews`` category as the
  ``ut1_fakenews`` credibility source (CC BY-SA 4.0). A listed host is kept as it is when its
  registrable domain is one the authority sources know (``finance.azcentral.com`` says nothing
  about azcentral.com) or a hosting platform; otherwise the registrable domain is the key (the
  list's throw-away hosts share one throw-away domain).

A UT1 line that names a sub-domain (``ads.example.com``) says nothing about the registrable
domain's other pages, so it is kept only in the categories whose hosts are throw-away names
(``fakenews``, ``shortener``) and never under a hosting platform (any ``blogspot.*``, ``wordpress.*``).

Usage:
    python scripts/vendor_tail_data.py --data ../shared/data --cap 2000
"""
from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import io
from pathlib import Path

from authorag.domains import parse_host
from authorag.platforms import default_platforms

UT1_CATEGORIES = ("fakenews", "shortener", "gambling", "dating", "publicite", "download", "sect",
                  "astrology", "press", "blog")
SUBDOMAIN_OK = frozenset({"fakenews", "shortener"})
OUT = Path(__file__).resolve().parents[1] / "authorag" / "data"


def _rank(domain: str, seed: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{domain}".encode(), digest_size=8).digest(), "big")


def _ut1_domains(path: Path, category: str, platforms: set[str]) -> set[str]:
    out: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines()
    for line in lines:
        host = line.strip().lower().split("/")[0]
        parsed = parse_host(host, strict=False)
        if parsed.kind != "domain" or parsed.domain is None or parsed.domain.split(".")[0] in platforms:
            continue
        exact = parsed.host in (parsed.domain, f"www.{parsed.domain}")
        if exact or category in SUBDOMAIN_OK:
            out.add(parsed.domain)
    return out


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    # mtime=0: the same input gives byte-identical output
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(buf.getvalue().encode("utf-8"))
    print(f"wrote {path} ({len(rows)} rows, {path.stat().st_size / 1024:.0f} KiB)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data", help="folder holding ut1_blacklists/ and cred1_2026/")
    ap.add_argument("--cap", type=int, default=2000, help="most domains kept per UT1 category")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    data = Path(args.data)
    # a platform's name under any suffix (blogspot.com, blogspot.mk, ...)
    platforms = {p.split(".")[0] for p in default_platforms().platforms}
    rows: list[list[str]] = []
    for cat in UT1_CATEGORIES:
        domains = sorted(_ut1_domains(data / "ut1_blacklists" / f"{cat}.domains.gz", cat, platforms),
                         key=lambda d: _rank(d, args.seed))[: args.cap]
        rows += [[d, cat] for d in sorted(domains)]
    _write(OUT / "tail_ut1.csv.gz", ["domain", "category"], rows)
    cred: list[list[str]] = []
    with gzip.open(data / "cred1_2026" / "cred1_current.csv.gz", "rt", encoding="utf-8") as fh:
        cred_rows = list(csv.DictReader(fh))
    for r in cred_rows:
        parsed = parse_host(r["domain"].strip().lower(), strict=False)
        if parsed.kind == "domain" and parsed.domain is not None:
            cred.append([parsed.domain, r["category"], r["credibility_score"]])
    _write(OUT / "tail_cred1.csv.gz", ["domain", "category", "credibility_score"], sorted(cred))
    hosts = {}
    for r in cred_rows:
        parsed = parse_host(r["domain"].strip().lower(), strict=False)
        if parsed.kind == "domain" and parsed.host is not None:
            host = parsed.host.removeprefix("www.") if parsed.host != parsed.domain else parsed.host
            hosts[host] = [host, r["category"], r["credibility_score"]]
    _write(OUT / "cred1.csv.gz", ["host", "category", "credibility_score"], sorted(hosts.values()))
    fake = _fakenews_keys(data / "ut1_blacklists" / "fakenews.domains.gz")
    _write(OUT / "ut1_fakenews.csv.gz", ["host"], [[k] for k in sorted(fake)])
    return 0


def _fakenews_keys(path: Path) -> set[str]:
    from authorag.platforms import default_platforms
    from authorag.priors.sources import load_source

    known = {k for name in ("ccnews_pagerank", "majestic", "moz") for k in load_source(name)}
    hosting = set(default_platforms().platforms)
    out: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            parsed = parse_host(line.strip().lower().split("/")[0], strict=False)
            if parsed.kind != "domain" or parsed.domain is None or parsed.host is None:
                continue
            host = parsed.host.removeprefix("www.") if parsed.host != parsed.domain else parsed.host
            keep_host = parsed.domain in known or parsed.domain in hosting or any(
                parsed.domain.endswith("." + p) for p in hosting)
            out.add(host if keep_host else parsed.domain)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
