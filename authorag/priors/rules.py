"""Suffix rules: authority for domains no table knows, from what their suffix guarantees.

Registration under these suffixes is restricted to governments, universities, militaries and
treaty organizations, so a hit says something real about who publishes. The rule set is data:
pass your own ``rules=`` to :func:`authorag.priors.load_prior`, or ``rules=()`` to turn it off.
Rule values carry low confidence (0.5) and ``tier="rule"``.

The same restriction is credibility evidence: a publisher that had to prove it is a government
body, a university or a treaty organisation is accountable for what it publishes. Every default
rule therefore also carries a ``credibility`` value, applied on the credibility axis to every
host under the suffix, whether or not a table knows its authority (source ``suffix_rule``).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from authorag.errors import ConfigError


@dataclass(frozen=True, slots=True)
class SuffixRule:
    """Hosts ending in ``.suffix`` (or equal to it) get ``authority`` with ``confidence``, and
    ``credibility`` (when set) on the credibility axis.

    Example:
        >>> SuffixRule("gov", 0.85).matches("www.nih.gov")
        True
    """

    suffix: str
    authority: float
    confidence: float = 0.5
    label: str = ""
    credibility: float | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.authority <= 1.0:
            raise ConfigError(f"rule {self.suffix!r}: authority must be in [0, 1], got {self.authority}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ConfigError(f"rule {self.suffix!r}: confidence must be in [0, 1], got {self.confidence}")
        if self.credibility is not None and not 0.0 <= self.credibility <= 1.0:
            raise ConfigError(f"rule {self.suffix!r}: credibility must be in [0, 1], got {self.credibility}")
        if not self.suffix or self.suffix.startswith(".") or "*" in self.suffix:
            raise ConfigError(f"rule suffix must look like 'gov' or 'ac.uk', got {self.suffix!r}")

    def matches(self, host: str) -> bool:
        """True when ``host`` is under this suffix."""
        return host == self.suffix or host.endswith("." + self.suffix)


def _many(suffixes: Iterable[str], authority: float, label: str, credibility: float) -> list[SuffixRule]:
    return [SuffixRule(s, authority, 0.5, label, credibility) for s in suffixes]


_CC_GOV = ("gov.uk", "gov.au", "gov.in", "gov.za", "gov.sg", "gov.br", "gc.ca", "canada.ca", "gouv.fr",
           "gob.mx", "gob.es", "go.jp", "go.kr", "gov.cn", "govt.nz", "gv.at", "admin.ch", "bund.de",
           "gov.ie", "gov.it", "europa.eu", "gov.scot", "gov.wales",
           # more national government suffixes, registration restricted to public bodies
           "gov.pl", "gov.pt", "gov.gr", "gov.il", "gov.tr", "gob.ar", "gob.cl", "gob.pe", "gov.co", "gov.ph",
           "gov.my", "go.id", "go.th", "gov.ng", "go.ke", "gov.eg", "gov.sa", "gov.ae", "gov.hk", "gov.tw",
           "gouv.qc.ca", "police.uk", "mod.uk",
           "gov.ru", "gov.ua", "gov.kz", "gov.by", "gov.uz", "nic.in", "gov.pk", "gov.bd", "gov.np", "gov.lk",
           "gov.jo", "gov.qa", "gov.bh", "gov.om", "gov.kw", "gov.lb", "gov.ma", "gov.dz", "gov.tn", "gov.vn", "gov.ir",
           "gov.cz", "gov.ro", "gov.hu")
NATIONAL_BODIES = (
    # national governments, parliaments and official portals outside a closed suffix (hand-listed)
    "bundesregierung.de", "bundestag.de", "bundesrat.de", "bundesgesundheitsministerium.de",
    "bundesfinanzministerium.de", "auswaertiges-amt.de", "destatis.de", "rki.de", "bfarm.de", "pei.de",
    "gouvernement.fr", "elysee.fr", "service-public.fr", "assemblee-nationale.fr", "senat.fr", "insee.fr",
    "boe.es", "congreso.es", "senado.es", "ine.es", "isciii.es", "aemet.es",
    "governo.it", "quirinale.it", "parlamento.it", "camera.it", "senato.it", "istat.it", "iss.it",
    "rijksoverheid.nl", "overheid.nl", "government.nl", "tweedekamer.nl", "rivm.nl", "cbs.nl",
    "regeringen.se", "riksdagen.se", "folkhalsomyndigheten.se", "regjeringen.no", "stortinget.no", "fhi.no",
    "stm.dk", "ft.dk", "sst.dk", "valtioneuvosto.fi", "eduskunta.fi", "thl.fi",
    "belgium.be", "premier.be", "sciensano.be", "gov.lu", "parlament.gv.at",
    "parliament.uk", "parl.ca",
    "gosuslugi.ru", "government.ru", "cikrf.ru", "mvd.ru", "u.ae", "government.ae", "absher.sa",
    "chinhphu.vn", "vlada.cz", "kormany.hu", "magyarorszag.hu", "korea.kr",
    "suomi.fi", "borger.dk", "norge.no",
    "santepubliquefrance.fr", "has-sante.fr", "inserm.fr", "cnrs.fr", "nice.org.uk",
    "un.org", "unicef.org", "unhcr.org", "undp.org", "unesco.org", "wfp.org", "fao.org", "ilo.org", "iaea.org",
    "wto.org", "paho.org", "oecd.org", "imf.org", "worldbank.org",
)
_PUBLIC_HEALTH = ("nhs.uk", "nhs.scot", "nhs.wales", "hse.ie")
_CC_ACADEMIC = ("ac.uk", "ac.jp", "ac.nz", "ac.za", "ac.in", "ac.kr", "edu.au", "edu.cn", "edu.sg",
                "edu.br", "edu.mx", "ac.at", "ac.il", "edu.tw", "ac.cn", "re.kr")

DEFAULT_RULES: tuple[SuffixRule, ...] = tuple(
    _many(("gov", "mil"), 0.85, "US government / military", 0.85)
    + _many(_CC_GOV, 0.8, "national government", 0.8)
    + _many(NATIONAL_BODIES, 0.8, "national government or intergovernmental body (listed domain)", 0.8)
    + _many(_PUBLIC_HEALTH, 0.8, "national health service", 0.85)
    + _many(("lg.jp",), 0.75, "Japanese local government (registration restricted)", 0.8)
    + _many(("edu",), 0.8, "accredited US higher education", 0.75)
    + _many(_CC_ACADEMIC, 0.75, "academic network", 0.75)
    + _many(("int",), 0.8, "treaty organization", 0.8)
)
"""The documented default rule set (``authorag priors info`` prints it)."""


_INDEXES: dict[int, tuple[tuple[SuffixRule, ...], dict[str, SuffixRule]]] = {}
"""Rule sets by identity → suffix index (hashing a rule set on every lookup costs more than the lookup)."""


def _by_suffix(rules: tuple[SuffixRule, ...]) -> dict[str, SuffixRule]:
    hit = _INDEXES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    out: dict[str, SuffixRule] = {}
    for rule in rules:
        out.setdefault(rule.suffix, rule)  # the first of equal suffixes wins
    if len(_INDEXES) >= 64:
        _INDEXES.clear()
    _INDEXES[id(rules)] = (rules, out)
    return out


def match_rule(host: str | None, rules: Iterable[SuffixRule]) -> SuffixRule | None:
    """The most specific (longest suffix) rule matching ``host``, or None (a dictionary read per
    label of ``host``, whatever the number of rules)."""
    if not host:
        return None
    by_suffix = _by_suffix(rules if isinstance(rules, tuple) else tuple(rules))
    name = host
    while True:
        rule = by_suffix.get(name)
        if rule is not None:
            return rule
        dot = name.find(".")
        if dot < 0:
            return None
        name = name[dot + 1:]
