"""Which brands the LegitPhish phishing hosts carry, and which of them the brand list covers.

Reads the phishing hosts of LegitPhish as the project ships them (``authorag/data/legitphish.csv.gz``,
CC BY 4.0) and counts, for each name token (``[a-z0-9]+`` runs of the host, once per host), how
many hosts carry it. Reports the most frequent tokens (the reader tells brands from hosting
platforms and filler), and for every name of ``authorag/data/impersonated_brands.csv`` (each
domain's label and its other names) the hosts that carry it as a whole token and inside a longer
token (``paypalcom``). Also: how many phishing hosts the look-alike index flags when asked
directly (the product never checks them: the ``legitphish`` source lists them), with the brand
list and, given ``--before`` (an earlier target file), without it. The brand list was written after looking at these counts, so this is a
coverage check, not a held-out evaluation.

Usage::

    python scripts/count_phishing_brands.py [--top 60] [--before OLD_TARGETS.csv.gz] [--out FILE]
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import sys
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authorag.domains import parse_host
from authorag.priors.brands import impersonated_brands
from authorag.priors.lookalike import LookalikeIndex, TargetKind, _read_targets  # pyright: ignore[reportPrivateUsage]

TOKEN = re.compile(r"[a-z0-9]+")


def phishing_hosts() -> list[str]:
    text = gzip.decompress(resources.files("authorag.data").joinpath("legitphish.csv.gz").read_bytes()).decode()
    return [ln.strip().lower() for ln in text.splitlines()[1:] if ln.strip()]


def brand_names() -> dict[str, str]:
    """Every name of the brand list -> its domain (the label before the public suffix, then other names)."""
    out: dict[str, str] = {}
    for domain, names in impersonated_brands().items():
        p = parse_host(domain)
        label = domain[: -len(p.suffix) - 1] if p.suffix else domain
        for n in (label, *names):
            out.setdefault(n, domain)
    return out


def _rows(path: Path | None) -> list[tuple[str, str, str]]:
    if path is None:
        return list(_read_targets())
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return [(r["domain"], r["suffix"], r["kind"]) for r in csv.DictReader(f)]


def flagged(hosts: list[str], rows: list[tuple[str, str, str]], names: Mapping[str, tuple[str, ...]]) -> int:
    """How many of ``hosts`` an index over ``rows`` (with the brands' other ``names``) flags."""
    from authorag.priors.rules import DEFAULT_RULES

    index = LookalikeIndex((), closed=(r.suffix for r in DEFAULT_RULES))
    for domain, suffix, kind in rows:
        if kind in ("institution", "brand", "trusted", "office-only"):
            index.add(domain, suffix, cast(TargetKind, kind), names.get(domain, ()))
    index.known = frozenset(d for d, _, k in rows if k not in ("common", "office-only"))
    n = 0
    for h in hosts:
        p = parse_host(h, strict=False)
        n += p.domain is not None and index.check(p.host, p.domain, p.suffix) is not None
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--top", type=int, default=60)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--before", type=Path, default=None, help="an earlier target file (lookalike_targets.csv.gz)")
    args = ap.parse_args()
    hosts = phishing_hosts()
    tokens: Counter[str] = Counter()
    for h in hosts:
        tokens.update(set(TOKEN.findall(h)))
    names = brand_names()
    whole = {n: tokens[n] for n in names if tokens[n]}
    inside = {n: sum(n in h and n not in TOKEN.findall(h) for h in hosts) for n in names if len(n) >= 4}
    result = {"command": f"python scripts/count_phishing_brands.py --top {args.top}"
                         + (" --before <target file of 78cd20d>" if args.before else ""),
              "phishing_hosts": len(hosts), "top_tokens": [(t, n) for t, n in tokens.most_common() if len(t) >= 3 and not t.isdigit()][: args.top],
              "brand_names_as_token": dict(sorted(whole.items(), key=lambda kv: -kv[1])),
              "brand_names_inside_a_token": {n: c for n, c in sorted(inside.items(), key=lambda kv: -kv[1]) if c},
              "hosts_with_a_brand_name_token": sum(any(t in names for t in TOKEN.findall(h)) for h in hosts),
              "index_flags_directly": {"this_target_file": flagged(hosts, _rows(None), impersonated_brands())}}
    if args.before is not None:
        result["index_flags_directly"]["before"] = flagged(hosts, _rows(args.before), {})  # type: ignore[index]
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
