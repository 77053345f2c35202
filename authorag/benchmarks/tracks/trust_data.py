"""The hand-written trust and no-harm sets: every item is a :class:`RerankCase`.

Four vendored files (written by the authorag team, see ``data/provenance/trust_no_harm_v1.md``):

* ``trust_pairs_v1.jsonl.gz``: a query, a page from a trusted institution (paraphrasing, hedged)
  and a page from an untrusted source that repeats the query's words. ``kind`` says what the
  untrusted source is: ``known-misinfo`` (a domain CRED-1 or Wikipedia's perennial list rates
  unreliable), ``content-farm`` (an unknown shop, affiliate or content-farm domain),
  ``hosted-user`` (a user page on blogspot, wordpress.com, medium.com, substack, ...) or
  ``unknown-legit-vs-misinfo`` (the trusted side is a legitimate site no table knows, the
  untrusted one a known misinformation domain).
* ``no_harm_pairs_v1.jsonl.gz``: a query, an on-topic page from an ordinary source
  (``ontopic_kind``: ``unknown``, ``recognised`` by the link tables without credibility
  evidence, or ``hosted``) and an off-topic page from a trusted institution on a nearby question.
* ``no_harm_hard_v1.jsonl.gz`` (``no-harm-hard``): no-harm pairs in the same form, written later
  with harder off-topic pages: a trusted institution's page that shares more of the query's
  words, or its subject, while answering another question. Unlike ``no-harm-pairs`` they were
  not selected by relevance alone ordering them right (BM25 alone misses some), so compare
  against ``relevance-only``.
* ``no_harm_lists_v1.jsonl.gz``: a query and 5–8 pages with roles ``trusted`` (on-topic),
  ``untrusted`` and ``unknown`` (on-topic) and ``offtopic`` (trusted, off-topic).

Three more (``data/provenance/trust_no_harm_v2.md``), multi-topic and multi-language (``lang``
``en``, ``de``, ``es``, ``fr``; topics :data:`V2_TOPICS`; kinds :data:`V2_KINDS`), test half
written first: ``trust_pairs_v2.jsonl.gz`` (``trust-pairs-v2``), ``no_harm_pairs_v2.jsonl.gz``
(``no-harm-pairs-v2``) and ``rerank_lists_v2.jsonl.gz`` (``rerank-lists-v2``: trusted and
untrusted on-topic pages, optionally an ordinary one, and a trusted off-topic page; ``kind`` is
the untrusted page's kind).

Three more in exactly the v2 forms (``data/provenance/trust_no_harm_v2.md``), written later and
larger, independent of v2 (no query or URL in common) because the defaults were tuned on v2's dev
half, test half again written first: ``trust_pairs_v3.jsonl.gz`` (``trust-pairs-v3``),
``no_harm_pairs_v3.jsonl.gz`` (``no-harm-pairs-v3``), ``rerank_lists_v3.jsonl.gz``
(``rerank-lists-v3``). A v3 set is read and scored as its v2 twin (:func:`form_of`).

Three more in the same forms on eight topics no earlier set uses (:data:`V4_TOPICS`), written
after v2 and v3 were tuned on, test half written first, nothing in common with v1–v3:
``trust_pairs_v4.jsonl.gz`` (``trust-pairs-v4``), ``no_harm_pairs_v4.jsonl.gz``
(``no-harm-pairs-v4``), ``rerank_lists_v4.jsonl.gz`` (``rerank-lists-v4``); a v4 set too is
read and scored as its v2 twin.

One more in the list form (``data/provenance/rerank_lists_v5.md``), written after v2–v4 were
tuned on, test half written first: ``rerank_lists_v5.jsonl.gz`` (``rerank-lists-v5``), 24 lists of
7 pages on topics of v2 and v4 (two trusted on-topic pages, one answering in its own words with at
most one of the query's content words; an unknown legitimate one; a farm, pseudo-institute,
look-alike or fake-news page; a wrong user post on a real platform; two trusted off-topic pages),
three quarters not English; read and scored as ``rerank-lists-v2``.

Then, version by version (:data:`LANGUAGE_VERSIONS`, v6 on), two sets in the pair forms on the v2
topics in three languages no earlier set uses, read and scored as their v2 twins, test half written
first: ``trust_pairs_v<N>.jsonl.gz`` (``trust-pairs-v<N>``) and ``no_harm_pairs_v<N>.jsonl.gz``
(``no-harm-pairs-v<N>``), each with its provenance in ``data/provenance/`` (v6 in Italian, Portuguese
and Dutch, ``trust_no_harm_v6.md``; from v7, ``trust_pairs_v<N>.md`` and ``no_harm_pairs_v<N>.md``).

A case's pages carry a ``group``: the expected order is every page of a lower group above every
page of a higher one, and nothing inside a group (trust pairs: trusted 0, untrusted 1; no-harm
pairs: on-topic 0, off-topic 1; lists: trusted 0, untrusted and unknown 1, off-topic 2). Every
item is ``dev`` or ``test`` (half each, stratified by domain and kind): tune on ``dev``.

Example:
    >>> cases = load_cases("trust-pairs")
    >>> len(cases), cases[0].pages[0].role, cases[0].pages[0].group
    (96, 'trusted', 0)
"""
from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from authorag.errors import ConfigError

CaseSet = Literal["trust-pairs", "no-harm-pairs", "no-harm-hard", "no-harm-lists",
                  "trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2",
                  "trust-pairs-v3", "no-harm-pairs-v3", "rerank-lists-v3",
                  "trust-pairs-v4", "no-harm-pairs-v4", "rerank-lists-v4", "rerank-lists-v5",
                  "trust-pairs-v6", "no-harm-pairs-v6", "trust-pairs-v7", "no-harm-pairs-v7",
                  "trust-pairs-v8", "no-harm-pairs-v8", "trust-pairs-v9", "no-harm-pairs-v9",
                  "trust-pairs-v10", "no-harm-pairs-v10", "trust-pairs-v11", "no-harm-pairs-v11",
                  "trust-pairs-v12", "no-harm-pairs-v12", "trust-pairs-v13", "no-harm-pairs-v13"]
Split = Literal["dev", "test", "all"]
PACKAGE = "authorag.benchmarks.data"


@dataclass(frozen=True, slots=True)
class LanguageVersion:
    """One version of the pair sets in languages no earlier set uses: ``trust-pairs-v<number>`` and
    ``no-harm-pairs-v<number>``, 48 pairs each in the v2 forms, topics and kinds, every topic ×
    language once per half, read and scored as their v2 twins.

    Attributes:
        number: the version (6 on).
        languages: ISO 639-1 codes, none of them a language of an earlier set.
        names: the languages in words, as the docs and ``authorag bench list`` name them.
    """

    number: int
    languages: tuple[str, ...]
    names: str

    @property
    def sets(self) -> tuple[str, str]:
        """The trust-pairs and no-harm-pairs set names of this version."""
        return f"trust-pairs-v{self.number}", f"no-harm-pairs-v{self.number}"


LANGUAGE_VERSIONS: tuple[LanguageVersion, ...] = (
    LanguageVersion(6, ("it", "pt", "nl"), "Italian, Portuguese and Dutch"),
    LanguageVersion(7, ("zh", "ja", "ko"), "Chinese (simplified characters), Japanese and Korean"),
    LanguageVersion(8, ("ru", "ar", "hi"), "Russian, Arabic and Hindi (Devanagari)"),
    LanguageVersion(9, ("tr", "pl", "id"), "Turkish, Polish and Indonesian"),
    LanguageVersion(10, ("vi", "fa", "bn"), "Vietnamese, Persian and Bengali"),
    LanguageVersion(11, ("sv", "cs", "el"), "Swedish, Czech and Greek"),
    LanguageVersion(12, ("uk", "ro", "hu"), "Ukrainian, Romanian and Hungarian"),
    LanguageVersion(13, ("fi", "da", "no"), "Finnish, Danish and Norwegian (Bokmål)"),
)
"""The pair sets in new languages, in the order they were written: the one table the tracks, the
language rows of their breakdown, ``authorag bench list`` and the tests read."""

FILES: Mapping[str, str] = {"trust-pairs": "trust_pairs_v1.jsonl.gz", "no-harm-pairs": "no_harm_pairs_v1.jsonl.gz",
                            "no-harm-hard": "no_harm_hard_v1.jsonl.gz", "no-harm-lists": "no_harm_lists_v1.jsonl.gz",
                            "trust-pairs-v2": "trust_pairs_v2.jsonl.gz", "no-harm-pairs-v2": "no_harm_pairs_v2.jsonl.gz",
                            "rerank-lists-v2": "rerank_lists_v2.jsonl.gz",
                            "trust-pairs-v3": "trust_pairs_v3.jsonl.gz", "no-harm-pairs-v3": "no_harm_pairs_v3.jsonl.gz",
                            "rerank-lists-v3": "rerank_lists_v3.jsonl.gz",
                            "trust-pairs-v4": "trust_pairs_v4.jsonl.gz", "no-harm-pairs-v4": "no_harm_pairs_v4.jsonl.gz",
                            "rerank-lists-v4": "rerank_lists_v4.jsonl.gz",
                            "rerank-lists-v5": "rerank_lists_v5.jsonl.gz",
                            **{s: s.replace("-", "_") + ".jsonl.gz" for v in LANGUAGE_VERSIONS for s in v.sets}}
"""Each set's file under :data:`PACKAGE`, in the order the sets were written."""
V2_SETS = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
"""The multi-topic, multi-language sets (``data/provenance/trust_no_harm_v2.md``)."""
V3_SETS = ("trust-pairs-v3", "no-harm-pairs-v3", "rerank-lists-v3")
"""The larger, independent sets in the v2 forms, topics, kinds and languages."""
V4_SETS = ("trust-pairs-v4", "no-harm-pairs-v4", "rerank-lists-v4")
"""Sets in the v2 forms, kinds and languages on topics the tuned sets never cover (:data:`V4_TOPICS`)."""
V5_SETS = ("rerank-lists-v5",)
"""Longer lists (7 pages, two trusted: one in its own words) in the v2 list form and languages."""
MULTI_SETS = (*V2_SETS, *V3_SETS, *V4_SETS, *V5_SETS, *(s for v in LANGUAGE_VERSIONS for s in v.sets))
"""Every multi-topic, multi-language set (rows broken down by language)."""
_TWINS: Mapping[str, str] = {**dict(zip(V3_SETS, V2_SETS, strict=True)), **dict(zip(V4_SETS, V2_SETS, strict=True)),
                             "rerank-lists-v5": "rerank-lists-v2",
                             **{s: twin for v in LANGUAGE_VERSIONS for s, twin in zip(v.sets, V2_SETS[:2], strict=True)}}
DOMAINS = ("health", "science", "news", "finance", "law", "technology")
V2_TOPICS = ("finance", "law", "software", "science", "history", "consumer", "news", "health")
V4_TOPICS = ("travel", "education", "food", "sport", "environment", "family", "work", "housing")
"""The v4 sets' topics, none of them a topic of v1–v3."""
V2_KINDS = ("keyword-stuffed", "sober-misinfo", "unknown-legit", "spoofed-authority", "user-content", "fabricated-news")
V2_LANGS = ("en", "de", "es", "fr")
MULTI_LANGS: tuple[str, ...] = (*V2_LANGS, *(g for v in LANGUAGE_VERSIONS for g in v.languages))
"""Every language of the multi-language sets, in the order the sets were written."""
TRUST_KINDS = ("known-misinfo", "content-farm", "hosted-user", "unknown-legit-vs-misinfo")
ONTOPIC_KINDS = ("unknown", "recognised", "hosted")
LIST_GROUPS: Mapping[str, int] = {"trusted": 0, "untrusted": 1, "unknown": 1, "offtopic": 2}
SPLITS = ("dev", "test", "all")


def check_split(split: str) -> None:
    """A :class:`ConfigError` unless ``split`` is one of :data:`SPLITS` (the halves of the
    hand-written sets, of Fake.br and CoAID by domain, or ``all``)."""
    if split not in SPLITS:
        raise ConfigError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")


@dataclass(frozen=True, slots=True)
class CasePage:
    """One candidate page of a case: URL, text, role and the group of the expected order."""

    url: str
    text: str
    role: str
    group: int


@dataclass(frozen=True, slots=True)
class RerankCase:
    """One query with its candidate pages and the expected partial order (``CasePage.group``).

    Attributes:
        id: ``tp-health-01``, ``nhp-law-03``, ``nhl-news-02``...
        split: ``dev`` or ``test``.
        domain: one of :data:`DOMAINS`, :data:`V2_TOPICS` or :data:`V4_TOPICS`.
        kind: trust pairs: the untrusted source's kind; no-harm pairs: the on-topic source's
            kind; lists: ``list``.
        query: what the user asked.
        pages: the candidates in the order written in the file.
        lang: the language of the query and pages (``en`` for the v1 sets).
    """

    id: str
    split: str
    domain: str
    kind: str
    query: str
    pages: tuple[CasePage, ...]
    lang: str = "en"


def _page(raw: Mapping[str, Any], role: str, group: int, where: str) -> CasePage:
    url, text = raw.get("url"), raw.get("text")
    if not isinstance(url, str) or not url or not isinstance(text, str) or not text.strip():
        raise ConfigError(f"{where}: page {role!r} needs a non-empty 'url' and 'text'")
    return CasePage(url, text, role, group)


def form_of(case_set: str) -> str:
    """The set whose row form and rows ``case_set`` shares: a v3 or later set is read and scored as
    its v2 twin, every other set as itself.

    Example:
        >>> form_of("rerank-lists-v3"), form_of("no-harm-hard")
        ('rerank-lists-v2', 'no-harm-hard')
    """
    return _TWINS.get(case_set, case_set)


def _case(row: Mapping[str, Any], case_set: str, where: str) -> RerankCase:
    form = form_of(case_set)
    if form in ("trust-pairs", "trust-pairs-v2"):
        kind = str(row["kind"])
        pages = (_page(row["trusted"], "trusted", 0, where), _page(row["untrusted"], "untrusted", 1, where))
    elif form in ("no-harm-pairs", "no-harm-hard", "no-harm-pairs-v2"):
        kind = str(row["ontopic_kind"])
        pages = (_page(row["ontopic"], "ontopic", 0, where), _page(row["offtopic"], "offtopic", 1, where))
    else:
        kind = str(row.get("kind", "list"))
        roles = [str(c.get("role")) for c in row["candidates"]]
        bad = sorted({r for r in roles if r not in LIST_GROUPS})
        if bad:
            raise ConfigError(f"{where}: unknown candidate role(s) {bad}; known: {', '.join(LIST_GROUPS)}")
        pages = tuple(_page(c, r, LIST_GROUPS[r], where) for c, r in zip(row["candidates"], roles))
    return RerankCase(str(row["id"]), str(row["split"]), str(row["domain"]), kind, str(row["query"]), pages,
                      str(row.get("lang", "en")))


@cache
def _all_cases(case_set: str) -> tuple[RerankCase, ...]:
    name = FILES[case_set]
    with resources.files(PACKAGE).joinpath(name).open("rb") as raw:
        lines = gzip.decompress(raw.read()).decode("utf-8").splitlines()
    try:
        return tuple(_case(json.loads(line), case_set, f"{name} line {n}") for n, line in enumerate(lines, start=1))
    except (KeyError, ValueError) as exc:
        raise ConfigError(f"{name}: malformed row ({exc}); fix the vendored file") from exc


def load_cases(case_set: str, split: str = "all") -> tuple[RerankCase, ...]:
    """The cases of ``case_set`` (a key of :data:`FILES`) in ``split``.

    Raises:
        ConfigError: an unknown set or split, or a malformed vendored row.
    """
    if case_set not in FILES:
        raise ConfigError(f"unknown case set {case_set!r}; known: {', '.join(FILES)}")
    check_split(split)
    cases = _all_cases(case_set)
    return cases if split == "all" else tuple(c for c in cases if c.split == split)


def data_file(case_set: str) -> str:
    """``package/file`` of a case set (as the results' data checksums name it)."""
    return f"{PACKAGE}/{FILES[case_set]}"


def group_pairs(case: RerankCase) -> Sequence[tuple[int, int]]:
    """Every (above, below) pair of page indices the expected order asks for."""
    return [(i, j) for i, a in enumerate(case.pages) for j, b in enumerate(case.pages) if a.group < b.group]
