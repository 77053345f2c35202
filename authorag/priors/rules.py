"""Suffix rules: authority for domains no table knows, from what their suffix guarantees.

Registration under these suffixes is restricted to governments, universities, militaries and
treaty organizations, so a hit says something real about who publishes. The rule set is data:
pass your own ``rules=`` to :func:`authorag.priors.load_prior`, or ``rules=()`` to turn it off.
Rule values carry low confidence (0.5) and ``tier="rule"``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from authorag.errors import ConfigError


@dataclass(frozen=True, slots=True)
class SuffixRule:
    """Hosts ending in ``.suffix`` (or equal to it) get ``authority`` with ``confidence``.

    Example:
        >>> SuffixRule("gov", 0.85).matches("www.nih.gov")
        True
    """

    suffix: str
    authority: float
    confidence: float = 0.5
    label: str = ""

    def __post_init__(self) -> None:
        if not 0.0 <= self.authority <= 1.0:
            raise ConfigError(f"rule {self.suffix!r}: authority must be in [0, 1], got {self.authority}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ConfigError(f"rule {self.suffix!r}: confidence must be in [0, 1], got {self.confidence}")
        if not self.suffix or self.suffix.startswith(".") or "*" in self.suffix:
            raise ConfigError(f"rule suffix must look like 'gov' or 'ac.uk', got {self.suffix!r}")

    def matches(self, host: str) -> bool:
        """True when ``host`` is under this suffix."""
        return host == self.suffix or host.endswith("." + self.suffix)


def _many(suffixes: Iterable[str], authority: float, label: str) -> list[SuffixRule]:
    return [SuffixRule(s, authority, 0.5, label) for s in suffixes]


_CC_GOV = ("gov.uk", "gov.au", "gov.in", "gov.za", "gov.sg", "gov.br", "gc.ca", "canada.ca", "gouv.fr",
           "gob.mx", "gob.es", "go.jp", "go.kr", "gov.cn", "govt.nz", "gv.at", "admin.ch", "bund.de",
           "gov.ie", "gov.it", "europa.eu")
_CC_ACADEMIC = ("ac.uk", "ac.jp", "ac.nz", "ac.za", "ac.in", "ac.kr", "edu.au", "edu.cn", "edu.sg",
                "edu.br", "edu.mx", "ac.at", "ac.il")

DEFAULT_RULES: tuple[SuffixRule, ...] = tuple(
    _many(("gov", "mil"), 0.85, "US government / military")
    + _many(_CC_GOV, 0.8, "national government")
    + _many(("edu",), 0.8, "accredited US higher education")
    + _many(_CC_ACADEMIC, 0.75, "academic network")
    + _many(("int",), 0.8, "treaty organization")
)
"""The documented default rule set (``authorag priors info`` prints it)."""


def match_rule(host: str | None, rules: Iterable[SuffixRule]) -> SuffixRule | None:
    """The most specific (longest suffix) rule matching ``host``, or None."""
    if not host:
        return None
    best: SuffixRule | None = None
    for rule in rules:
        if rule.matches(host) and (best is None or len(rule.suffix) > len(best.suffix)):
            best = rule
    return best
