"""Readers of the institution and outlet lists among the prior sources (all on the credibility axis).

==================  ====================================================================
source              value
==================  ====================================================================
``universities``    a listed university domain: :data:`OWNERSHIP_CAP`
``government``      a US federal or state domain outside .gov: :data:`OWNERSHIP_CAP`
``municipalities``  a Spanish, French, German, Austrian or Swiss town's domain by its country's naming rules
                    (GeoNames places): :data:`OWNERSHIP_CAP`
``wikiproject``     Wikipedia WikiProject source lists: reliable 0.85, no consensus 0.5,
                    unreliable or deprecated 0.2
``decodex``         Le Monde's Décodex (2017): rather reliable 0.8, dubious 0.35,
                    unreliable 0.1, satire 0.3
``legitphish``      a LegitPhish phishing domain: 0.05
``predatory``       a predatory journal or publisher (Stop Predatory Journals): 0.1
``reference``       official documentation, standards, edited reference works, preprint
                    servers, journals and wire services: the value and reason of each
                    row of ``authorag/data/reference_works.csv`` (hand-written by the project)
==================  ====================================================================

Ownership is not accuracy: a university or a government owns campaign pages, student blogs
and press releases, so what ownership alone says is capped at :data:`OWNERSHIP_CAP`, below the
credibility an outlet's reviewed track record earns.
"""
from __future__ import annotations

from collections.abc import Iterator

Rows = Iterator[dict[str, str]]
Values = Iterator[tuple[str, float, float | str]]

OWNERSHIP_CAP = 0.7
"""The most credibility a source saying only who owns a domain can give it."""
_WIKIPROJECT = {"reliable": 0.85, "no_consensus": 0.5, "unreliable_or_deprecated": 0.2}
_DECODEX = {4: 0.8, 3: 0.35, 2: 0.1, 1: 0.3}
PHISHING_VALUE = 0.05
PREDATORY_VALUE = 0.1
HIJACKED_VALUE = 0.05
"""A clone made to pass for a real journal: an impersonation, valued as a phishing site."""
PUBLIC_BODY_KINDS = frozenset({"national agency", "public information", "central bank", "financial supervisor",
                               "weather service", "health insurer", "parliament or court"})
"""Kinds of ``reference_works.csv`` rows that are public bodies (an agency, a central bank, a
regulator, a statutory health insurer, an official advice service, a parliament or a court; not a
regional government, whose name is a place: a firm is named after its town): a look-alike name that puts
one's name beside a service word (``kfw-foerderung-antrag.de``) claims it
(:mod:`authorag.priors.targets`)."""


def read_universities(rows: Rows) -> Values:
    for r in rows:
        yield r["domain"], OWNERSHIP_CAP, r["country"]


def read_government(rows: Rows) -> Values:
    for r in rows:
        yield r["domain"], OWNERSHIP_CAP, r["level"]


def read_municipalities(rows: Rows) -> Values:
    for r in rows:
        yield r["domain"], OWNERSHIP_CAP, r["country"]


PERENNIAL_POLICY_ONLY: frozenset[str] = frozenset({"wikipedia.org", "arxiv.org", "biorxiv.org", "medrxiv.org",
                                                    "ssrn.com", "osf.io"})
"""Domains whose perennial "unreliable" status reflects Wikipedia's citation policy (no
self-citation; preprints are cited through the published paper), not what they report."""


def policy_only(domain: str) -> bool:
    """True for a domain whose "unreliable" Wikipedia rating is citation policy (a preprint
    server, Wikipedia itself, a hosting platform), not a judgement of what it reports."""
    from authorag.platforms import default_platforms

    bare = domain.strip().lower().removeprefix("www.")
    return bare in PERENNIAL_POLICY_ONLY or bare in default_platforms().user_domains


def _platform(domain: str) -> bool:
    from authorag.platforms import default_platforms

    return domain.removeprefix("www.") in default_platforms().user_domains


def read_wikiproject(rows: Rows) -> Values:
    for r in rows:
        if _platform(r["domain"]) or r["label"] == "unreliable_or_deprecated" and policy_only(r["domain"]):
            continue  # a platform's rating is not its users' pages'; citation policy is not accuracy
        yield r["domain"], _WIKIPROJECT[r["label"]], r["label"]


def read_decodex(rows: Rows) -> Values:
    for r in rows:
        if not _platform(r["domain"]):  # a rating of reddit.com is not one of what its users post
            yield r["domain"], _DECODEX[int(r["fiability"])], float(r["fiability"])


def read_legitphish(rows: Rows) -> Values:
    for r in rows:
        yield r["domain"], PHISHING_VALUE, "phishing"


def read_reference(rows: Rows) -> Values:
    for r in rows:
        yield r["domain"], float(r["credibility"]), r["kind"]


def read_predatory(rows: Rows) -> Values:
    for r in rows:
        yield r["host"], PREDATORY_VALUE, r["kind"]


def read_hijacked(rows: Rows) -> Values:
    for r in rows:
        yield r["host"], HIJACKED_VALUE, "hijacked journal"


__all__ = ["HIJACKED_VALUE", "OWNERSHIP_CAP", "PERENNIAL_POLICY_ONLY", "PHISHING_VALUE", "PREDATORY_VALUE", "PUBLIC_BODY_KINDS", "policy_only", "read_decodex",
           "read_government", "read_hijacked", "read_legitphish", "read_municipalities", "read_predatory", "read_reference", "read_universities",
           "read_wikiproject"]
