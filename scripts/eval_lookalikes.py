"""Evaluate look-alike detection with the default scorer: clones, generated variants, false alarms.

Three measurements, all with the default composition (``load_scorer(ScorerSettings())``) and the
trust rule every surface uses:

1. **Hijacked journals** (``stop_predatory_journals/hijacked.csv``, read from ``--data-dir``, MIT):
   for each clone URL and its authentic journal URL, is the clone's trust below the authentic's?
   The ``hijacked`` prior source is built from this list, so the measurement leaves it out
   (``leave_source_out``): what remains is what the other sources and the look-alike rules say.
   ``with_hijacked_source`` is the product's behaviour on the same pairs (in-sample: every clone
   is listed), not an evaluation.
2. **Generated variants** of the top ``--top`` look-alike targets (``lookalike_targets.csv.gz``,
   by trust): a homograph (every Latin letter of the name with a Cyrillic look-alike replaced),
   a mixed-script name (the first such letter replaced) and a zero-width name (a U+200D joiner
   inside the name). Counted: variants whose trust is at or above the unknown level.
3. **False alarms** on ``benchmarks/lookalike/legit_lookalike_v1.csv`` (legitimate domains that
   look like trusted ones, hand-assembled) and ``legit_institution_words_v1.csv`` (names that hold
   an institution's word, a town's name or a brand beside a country code, as firms' names do):
   how many get the ``impersonation`` value; likewise on ``legit_institution_words_v2.csv`` (a
   public body's name that is a dictionary word beside a phishing-kind service word, written
   before that rule was made finer) and ``legit_institution_words_v3.csv`` (the same kind,
   written after v2 was measured).
4. **Phishing names** (``phishing_institution_names_v1.csv``, ``_v2.csv``): how many get the
   ``impersonation`` value with the note naming the imitated domain of the list.
5. **Brands** (``authorag/data/impersonated_brands.csv``): false alarms on
   ``legit_brand_sisters_v1.csv`` (the brands' legitimate sister domains, national sites and
   names that share a word), and generated spoofs of every listed brand (brand-country under a
   cheap TLD, brand beside a service word the rules read and beside one they do not, the
   ``correos-es.envio-pendiente.com`` sub-domain form, a Cyrillic letter, a digit for o or l):
   how many are flagged with the note naming that brand's domain; and how many of the hand-written
   ``phishing_brand_names_v1.csv`` and ``_v2.csv`` (Dutch, Italian, Portuguese) are caught, naming
   the imitated domain; false alarms on ``legit_brand_words_v1.csv`` (names that put a listed
   brand beside a Dutch, Italian or Portuguese service word, as firms' names do).

Usage::

    python scripts/eval_lookalikes.py --data-dir ../shared/data [--top 1000] [--out FILE]
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from importlib import resources
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authorag.compose import ScorerSettings, load_scorer
from authorag.priors.lookalike import IMPERSONATION, TARGETS_FILE
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, candidates_from

CYRILLIC = {"a": "\u0430", "c": "\u0441", "e": "\u0435", "o": "\u043e", "p": "\u0440", "x": "\u0445",
            "y": "\u0443", "i": "\u0456", "j": "\u0458", "s": "\u0455", "h": "\u04bb", "l": "\u04cf",
            "d": "\u0501", "q": "\u051b", "w": "\u051d"}
LEGIT = ROOT / "benchmarks" / "lookalike" / "legit_lookalike_v1.csv"
LEGIT_WORDS = ROOT / "benchmarks" / "lookalike" / "legit_institution_words_v1.csv"
LEGIT_WORDS_V2 = ROOT / "benchmarks" / "lookalike" / "legit_institution_words_v2.csv"
LEGIT_WORDS_V3 = ROOT / "benchmarks" / "lookalike" / "legit_institution_words_v3.csv"
PHISHING = ROOT / "benchmarks" / "lookalike" / "phishing_institution_names_v1.csv"
PHISHING_V2 = ROOT / "benchmarks" / "lookalike" / "phishing_institution_names_v2.csv"
BRAND_SISTERS = ROOT / "benchmarks" / "lookalike" / "legit_brand_sisters_v1.csv"
PHISHING_BRANDS = ROOT / "benchmarks" / "lookalike" / "phishing_brand_names_v1.csv"
PHISHING_BRANDS_V2 = ROOT / "benchmarks" / "lookalike" / "phishing_brand_names_v2.csv"
LEGIT_BRAND_WORDS = ROOT / "benchmarks" / "lookalike" / "legit_brand_words_v1.csv"
BRANDS = ROOT / "authorag" / "data" / "impersonated_brands.csv"
CHEAP_TLDS = ("top", "xyz", "info", "online", "shop", "site")
SERVICE_BY_KIND = {"postal": ("tracking", "redelivery"), "parcel": ("delivery", "customs"), "bank": ("secure", "unlock"),
                   "payment": ("verify", "wallet"), "telecom": ("account", "billing"), "retail": ("login", "rewards"),
                   "streaming": ("payment", "renewal"), "software": ("login", "storage")}
"""Per brand kind: a service word the rules read, then one they do not (both kinds phishing uses)."""


def _details(urls: list[str], exclude: tuple[str, ...] = ()) -> list[AuthorityDetail]:
    return load_scorer(ScorerSettings(exclude_sources=exclude)).score(candidates_from(urls))


def _trust(d: AuthorityDetail) -> float:
    return DEFAULT_TRUST_RULE.value(d)


def hijacked(data_dir: Path) -> dict[str, object]:
    with open(data_dir / "stop_predatory_journals" / "hijacked.csv", newline="", encoding="utf-8") as f:
        pairs = [(r["hijackedurl"].strip(), r["authenticurl"].strip().replace("&amp;", "&"), r["hijacked"])
                 for r in csv.DictReader(f) if r["hijackedurl"].strip() and r["authenticurl"].strip()]
    return {"leave_source_out": _hijacked_pairs(pairs, ("hijacked",)),
            "with_hijacked_source": {k: v for k, v in _hijacked_pairs(pairs, ()).items() if k != "failures"}}


def _hijacked_pairs(pairs: list[tuple[str, str, str]], exclude: tuple[str, ...]) -> dict[str, object]:
    clones = _details([p[0] for p in pairs], exclude)
    authentic = _details([p[1] for p in pairs], exclude)
    rows = [(p, _trust(c), _trust(a), c) for p, c, a in zip(pairs, clones, authentic)]
    failures = [{"journal": p[2], "clone": p[0], "authentic": p[1], "clone_trust": round(tc, 3),
                 "authentic_trust": round(ta, 3), "clone_note": c.note} for p, tc, ta, c in rows if not tc < ta]
    return {"excluded_sources": list(exclude), "pairs": len(rows),
            "clone_below_authentic": sum(tc < ta for _, tc, ta, _ in rows),
            "clone_flagged": sum(any(s.name == IMPERSONATION for s in c.credibility_sources) for *_, c in rows),
            "failures": failures}


def _target_rows() -> list[dict[str, str]]:
    with resources.files("authorag.data").joinpath(TARGETS_FILE).open("rb") as raw:
        return list(csv.DictReader(gzip.decompress(raw.read()).decode("utf-8").splitlines()))


def _targets(top: int) -> list[tuple[str, str]]:
    return [(r["domain"][: -len(r["suffix"]) - 1], r["suffix"]) for r in _target_rows()[:top]]


def variants(label: str) -> dict[str, str | None]:
    swappable = [i for i, ch in enumerate(label) if ch in CYRILLIC]
    homograph = "".join(CYRILLIC.get(ch, ch) for ch in label) if swappable else None
    mixed = label[: swappable[0]] + CYRILLIC[label[swappable[0]]] + label[swappable[0] + 1:] if swappable else None
    mid = max(1, len(label) // 2)
    return {"homograph": homograph, "mixed-script": mixed, "zero-width": label[:mid] + "\u200d" + label[mid:]}


def generated(top: int) -> dict[str, object]:
    out: dict[str, object] = {}
    made: dict[str, list[tuple[str, str]]] = {"homograph": [], "mixed-script": [], "zero-width": []}
    for label, suffix in _targets(top):
        for kind, name in variants(label).items():
            if name is not None:
                made[kind].append((f"{label}.{suffix}", f"https://{name}.{suffix}/"))
    for kind, pairs in made.items():
        details = _details([u for _, u in pairs])
        above = [(t, u, round(_trust(d), 3)) for (t, u), d in zip(pairs, details) if _trust(d) >= UNKNOWN_LEVEL]
        out[kind] = {"variants": len(pairs), "at_or_above_unknown": len(above),
                     "flagged": sum(any(s.name == IMPERSONATION for s in d.credibility_sources) for d in details),
                     "examples_at_or_above": [{"target": t, "url": u, "trust": v} for t, u, v in above[:20]]}
    return out


def _brand_rows() -> list[dict[str, str]]:
    with open(BRANDS, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))


def brand_spoof_names(label: str, suffix: str, country: str, kind: str, i: int) -> dict[str, str]:
    """Generated spoofs of one brand target (``i`` picks the cheap TLD, so the list is fixed)."""
    cc = country if len(country) == 2 else "us"
    known, outside = SERVICE_BY_KIND[kind]
    swap = next((j for j, ch in enumerate(label) if ch in CYRILLIC), None)
    digit = next((j for j, ch in enumerate(label) if ch in "ol"), None)
    out = {"brand-country": f"{label}-{cc}.{CHEAP_TLDS[i % len(CHEAP_TLDS)]}",
           "brand-service": f"{label}-{known}.com", "brand-other-word": f"{label}-{outside}.com",
           "sub-domain": f"{label}-{cc}.{known}-pending.com"}
    if swap is not None:
        out["mixed-script"] = f"{label[:swap]}{CYRILLIC[label[swap]]}{label[swap + 1:]}.{suffix}"
    if digit is not None:
        out["digit"] = f"{label[:digit]}{'0' if label[digit] == 'o' else '1'}{label[digit + 1:]}.{suffix}"
    return out


def _names_brand(note: str, domain: str) -> bool:
    """True when a look-alike note names ``domain`` or a domain whose first label is the same
    (``usps-us.top`` read as a look-alike of ``usps.gov`` names the same organisation)."""
    imitated = note.removeprefix("look-alike of ").split(" ", 1)[0]
    return note.startswith("look-alike of ") and (imitated == domain
                                                  or imitated.split(".")[0] == domain.split(".")[0])


def brand_spoofs() -> dict[str, object]:
    """Generated spoofs of every target of the brand list, per form: how many are flagged with the
    note naming that brand's domain (or one with the same first label); the brands whose name is a common word (kind office-only in
    the target file) are counted apart."""
    kinds = {r["domain"]: (r["kind"], r["suffix"]) for r in _target_rows()}
    made: list[tuple[str, str, str, bool]] = []  # (form, host, brand domain, office-only)
    for i, r in enumerate(_brand_rows()):
        kind, suffix = kinds[r["domain"]]
        label = r["domain"][: -len(suffix) - 1]
        for form, host in brand_spoof_names(label, suffix, r["country"], r["kind"], i).items():
            made.append((form, host, r["domain"], kind == "office-only"))
    details = _details([f"https://{h}/" for _, h, _, _ in made])
    out: dict[str, object] = {"brands": len(_brand_rows())}
    for group, office in (("brand", False), ("common_word_names", True)):
        per: dict[str, dict[str, object]] = {}
        for (form, host, domain, off), d in zip(made, details):
            if off != office:
                continue
            row = per.setdefault(form, {"spoofs": 0, "caught": 0, "flagged": 0, "missed_examples": []})
            flagged = any(s.name == IMPERSONATION for s in d.credibility_sources)
            caught = flagged and _names_brand(d.note or "", domain)
            row["spoofs"] = cast(int, row["spoofs"]) + 1
            row["caught"] = cast(int, row["caught"]) + caught
            row["flagged"] = cast(int, row["flagged"]) + flagged
            if not caught and len(cast(list[str], row["missed_examples"])) < 15:
                cast(list[str], row["missed_examples"]).append(f"{host} ({d.note})")
        out[group] = per
    return out


def false_alarms(path: Path) -> dict[str, object]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    details = _details([f"https://{r['domain']}/" for r in rows])
    flagged = [{"domain": r["domain"], "similar_to": r["similar_to"], "note": d.note}
               for r, d in zip(rows, details) if any(s.name == IMPERSONATION for s in d.credibility_sources)]
    unknown = sum(d.tier in ("unknown", "page") for d in details)
    from authorag.domains import parse_host
    from authorag.priors.lookalike import default_index

    index = default_index()
    bare = [(r["domain"], parse_host(r["domain"])) for r in rows]
    index_only = [{"domain": d, "note": f.reason} for d, p in bare
                  if (f := index.check(p.host, p.domain, p.suffix)) is not None]
    return {"file": str(path.relative_to(ROOT)), "domains": len(rows), "not_in_any_table": unknown, "flagged": len(flagged),
            "rate": round(len(flagged) / len(rows), 4), "flagged_domains": flagged,
            "index_only": {"note": "the index asked directly, as if no table listed the domain "
                                   "(a listed domain is never checked in the product)",
                           "checked": sum(p.domain not in index.targets for _, p in bare),
                           "flagged": len(index_only), "flagged_domains": index_only}}


def phishing(path: Path) -> dict[str, object]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    details = _details([f"https://{r['domain']}/" for r in rows])
    caught = [any(s.name == IMPERSONATION for s in d.credibility_sources)
              and (d.note or "").startswith(f"look-alike of {r['imitates']} ") for r, d in zip(rows, details)]
    return {"file": str(path.relative_to(ROOT)), "domains": len(rows), "caught": sum(caught),
            "rows": [{"domain": r["domain"], "imitates": r["imitates"], "trust": round(_trust(d), 3), "note": d.note}
                     for r, d in zip(rows, details)],
            "missed": [r["domain"] for r, c in zip(rows, caught) if not c]}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True, help="the shared data folder (stop_predatory_journals)")
    ap.add_argument("--top", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    from authorag.priors.lookalike import default_index

    default_index()
    build = time.perf_counter() - t0
    result = {"command": "python scripts/eval_lookalikes.py --data-dir ../shared/data --top " + str(args.top),
              "index_targets": len(default_index().targets), "index_build_seconds": round(build, 2),
              "hijacked_journals": hijacked(args.data_dir), "generated_variants": generated(args.top),
              "false_alarms": false_alarms(LEGIT), "false_alarms_institution_words": false_alarms(LEGIT_WORDS),
              "false_alarms_institution_words_v2": false_alarms(LEGIT_WORDS_V2),
              "false_alarms_institution_words_v3": false_alarms(LEGIT_WORDS_V3), "phishing_names": phishing(PHISHING),
              "phishing_names_v2": phishing(PHISHING_V2), "false_alarms_brand_sisters": false_alarms(BRAND_SISTERS),
              "phishing_brand_names": phishing(PHISHING_BRANDS), "phishing_brand_names_v2": phishing(PHISHING_BRANDS_V2),
              "false_alarms_brand_words": false_alarms(LEGIT_BRAND_WORDS),
              "brand_spoofs": brand_spoofs()}
    text = json.dumps(result, indent=1, ensure_ascii=False)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
