"""A compiled policy written in each search provider's or engine's own format, within its caps.

Formats (:data:`FORMATS`) and the caps they respect (sources in docs/integrations.md):

* ``goggle``: a Brave Search Goggle: ``$discard`` (deny), ``$boost=N`` (allow, trusted band; N from
  trust, at most the documented maximum strength), ``$downrank=N`` (low band), ``site=`` options;
  the mandatory header metadata and the provenance as ``!`` comments; at most :data:`GOGGLE_MAX_INSTRUCTIONS`
  instructions and :data:`GOGGLE_MAX_BYTES` bytes.
* ``searxng``: the ``hostnames`` table of SearXNG's ``settings.yml`` (``remove``, ``high_priority``,
  ``low_priority``: lists of host regular expressions), provenance as ``#`` comments.
* ``tavily``, ``exa``, ``perplexity``, ``openai``, ``anthropic``: the request fields that carry
  domain lists (JSON); one list only where the provider takes one (``side``).

Each writer returns an :class:`Export`: the text, and what it had to cut (the weakest band entries
first: trusted from the least trusted, low from the most trusted) or could not express.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from authorag.errors import ConfigError
from authorag.websearch.export import CompiledPolicy, Entry

Side = Literal["include", "exclude"]
GOGGLE_MAX_INSTRUCTIONS = 100_000
GOGGLE_MAX_BYTES = 2_000_000
GOGGLE_MAX_INSTRUCTION_CHARS = 500
GOGGLE_MAX_STRENGTH = 10
ALLOW_BOOST = 5
"""The ``$boost`` strength of the user's allow patterns (above every trusted-band strength)."""

# (include cap, exclude cap) per list format; None: the provider takes no such list.
LIST_CAPS: dict[str, tuple[int | None, int | None]] = {
    "tavily": (300, 150), "exa": (1000, 1000), "perplexity": (20, 20), "openai": (100, None), "anthropic": (64, 64),
}
ONE_LIST = frozenset({"perplexity", "anthropic"})
"""Providers that take an allow list or a block list in one request, never both."""


@dataclass(frozen=True, slots=True)
class Export:
    """One format's output and what it left out.

    Attributes:
        text: the file or JSON body.
        cut: band entries left out for the cap, as ``{"pattern", "band", "trust", "why"}``.
        not_expressible: user patterns the format cannot say, with why.
    """

    text: str
    cut: tuple[dict[str, Any], ...] = ()
    not_expressible: tuple[dict[str, str], ...] = field(default=())

    def summary(self) -> list[str]:
        """What was cut, by band, as short lines (a header comment or a note on stderr)."""
        lines: list[str] = []
        for band in ("trusted", "low"):
            cut = [c for c in self.cut if c["band"] == band]
            if cut:
                trusts = [c["trust"] for c in cut]
                lines.append(f"cut {len(cut)} {band}-band domains for the cap (trust {min(trusts):.3f}..{max(trusts):.3f}): "
                             f"{cut[0]['why']}")
        lines += [f"not expressible: {n['pattern']} ({n['why']})" for n in self.not_expressible]
        return lines


def _strength(trust: float, boost: bool) -> int:
    """1..10 from trust: higher trust boosts more, lower trust downranks more."""
    raw = round(trust * 10) - 5 if boost else round((1.0 - trust) * 10) - 5
    return max(1, min(GOGGLE_MAX_STRENGTH, raw))


def goggle_instruction(entry: Entry) -> str | None:
    """The Goggle instruction for one entry (None: a pattern the syntax cannot hold)."""
    action = {"deny": "$discard", "allow": f"$boost={ALLOW_BOOST}"}.get(entry.band)
    if action is None:
        action = f"$boost={_strength(entry.trust or 0.0, True)}" if entry.band == "trusted" else \
            f"$downrank={_strength(entry.trust or 0.0, False)}"
    pat = entry.pattern.lower()
    if "/" in pat:
        host, _, path = pat.partition("/")
        return f"/{path.strip('/')}^{action},site={host.lstrip('=')}"
    if pat.startswith("*."):
        return f".{pat[2:]}^{action}"
    return f"{action},site={pat.lstrip('=')}"


def write_goggle(policy: CompiledPolicy, name: str = "authorag trust policy") -> Export:
    """The policy as a Goggle (see the module docstring)."""
    header = [f"! name: {name}", ("! description: source trust from authorag's priors: boost trusted, downrank "
                                  "low-credibility, discard denied"), "! public: false", "! author: authorag"]
    fixed = [*policy.deny, *policy.allow]
    room = GOGGLE_MAX_INSTRUCTIONS - len(fixed)
    if room < 0:
        raise ConfigError(f"the allow and deny lists hold {len(fixed)} patterns, over the Goggle limit of "
                          f"{GOGGLE_MAX_INSTRUCTIONS} instructions; shorten them")
    bands = sorted([*policy.trusted, *policy.low], key=lambda e: -abs((e.trust or 0.0) - 0.5))
    kept, cut = bands[:room], [_cut(e, f"over the Goggle limit of {GOGGLE_MAX_INSTRUCTIONS} instructions")
                               for e in bands[room:]]
    kept.sort(key=lambda e: (e.band != "trusted", -(e.trust or 0.0) if e.band == "trusted" else e.trust or 0.0))
    lines, size = [], sum(len(h) + 1 for h in header) + 2048  # room for the provenance comments
    for entry in [*fixed, *kept]:
        line = goggle_instruction(entry)
        if line is None or len(line) > GOGGLE_MAX_INSTRUCTION_CHARS:
            continue
        if size + len(line) + 1 > GOGGLE_MAX_BYTES and entry.band in ("trusted", "low"):
            cut.append(_cut(entry, f"over the Goggle file size limit of {GOGGLE_MAX_BYTES} bytes"))
            continue
        lines.append(line)
        size += len(line) + 1
    export = Export("", tuple(cut))
    notes = ["! - " + line for line in (*policy.provenance_lines(), *export.summary())]
    return Export("\n".join([*header, *notes, *lines]) + "\n", tuple(cut))


def _cut(entry: Entry, why: str) -> dict[str, Any]:
    return {"pattern": entry.pattern, "band": entry.band, "trust": entry.trust, "why": why}


def host_regex(pattern: str) -> str | None:
    """A SearXNG host regular expression for a domain pattern (None: a path pattern)."""
    pat = pattern.lower()
    if "/" in pat:
        return None
    if pat.startswith("="):
        return f"^{re.escape(pat[1:])}$"
    if pat.startswith("*."):
        return f"\\.{re.escape(pat[2:])}$"
    return f"^(.*\\.)?{re.escape(pat)}$"


def write_searxng(policy: CompiledPolicy) -> Export:
    """The policy as SearXNG's ``hostnames`` settings (YAML; see the module docstring)."""
    tables: dict[str, list[str]] = {"remove": [], "high_priority": [], "low_priority": []}
    missing: list[dict[str, str]] = []
    for key, entries in (("remove", policy.deny), ("high_priority", (*policy.allow, *policy.trusted)),
                         ("low_priority", policy.low)):
        for entry in entries:
            rx = host_regex(entry.pattern)
            if rx is None:
                missing.append({"pattern": entry.pattern, "why": "SearXNG matches host names only, not paths"})
            else:
                tables[key].append(rx)
    export = Export("", (), tuple(missing))
    head = ["# - " + line for line in (*policy.provenance_lines(), *export.summary())]
    body = ["hostnames:"]
    for key, rxs in tables.items():
        body.append(f"  {key}:" + ("" if rxs else " []"))
        body += [f"    - {json.dumps(rx)}" for rx in rxs]  # a JSON string is a valid YAML double-quoted scalar
    return Export("\n".join([*head, *body]) + "\n", (), tuple(missing))


def list_domain(pattern: str) -> str | None:
    """A bare domain for the list APIs (None: a TLD wildcard or a path the lists cannot hold)."""
    pat = pattern.lower().lstrip("=")
    if "/" in pat:
        return None
    if pat.startswith("*."):
        pat = pat[2:]
        return pat if "." in pat else None
    return pat


def _side(fixed: Sequence[Entry], band: Sequence[Entry], cap: int, label: str
          ) -> tuple[list[str], list[dict[str, Any]], list[dict[str, str]]]:
    domains: list[str] = []
    missing: list[dict[str, str]] = []
    for e in fixed:
        d = list_domain(e.pattern)
        if d is None:
            missing.append({"pattern": e.pattern, "why": "a domain list holds domains (a TLD wildcard or path cannot be said)"})
        elif d not in domains:
            domains.append(d)
    if len(domains) > cap:
        raise ConfigError(f"{len(domains)} {label} patterns, over the provider's cap of {cap}; shorten the list")
    room = cap - len(domains)
    fresh = [e for e in band if e.pattern not in domains]
    domains += [e.pattern for e in fresh[:room]]
    cut = [_cut(e, f"over the provider's cap of {cap} {label} domains") for e in fresh[room:]]
    return domains, cut, missing


def write_list(fmt: str, policy: CompiledPolicy, side: Side = "include") -> Export:
    """The domain-list request fields of ``fmt`` (see :data:`LIST_CAPS`)."""
    inc_cap, exc_cap = LIST_CAPS[fmt]
    sides = [s for s in ("include", "exclude") if (inc_cap if s == "include" else exc_cap) is not None]
    if fmt in ONE_LIST or fmt == "openai":
        if side not in sides:
            raise ConfigError(f"{fmt} takes no {side} list; use --side include")
        sides = [side]
    lists: dict[str, list[str]] = {}
    cut: list[dict[str, Any]] = []
    missing: list[dict[str, str]] = []
    for s in sides:
        cap = inc_cap if s == "include" else exc_cap
        assert cap is not None
        fixed, band = (policy.allow, policy.trusted) if s == "include" else (policy.deny, policy.low)
        domains, c, m = _side(fixed, band, cap, "allow" if s == "include" else "block")
        lists[s], cut, missing = domains, cut + c, missing + m
    return Export(json.dumps(_body(fmt, lists), indent=1) + "\n", tuple(cut), tuple(missing))


def _body(fmt: str, lists: dict[str, list[str]]) -> dict[str, Any]:
    inc, exc = lists.get("include"), lists.get("exclude")
    if fmt == "tavily":
        return {"include_domains": inc or [], "exclude_domains": exc or []}
    if fmt == "exa":
        return {"includeDomains": inc or [], "excludeDomains": exc or []}
    if fmt == "perplexity":
        return {"search_domain_filter": inc if inc is not None else [f"-{d}" for d in exc or []]}
    if fmt == "openai":
        return {"type": "web_search", "filters": {"allowed_domains": inc or []}}
    tool: dict[str, Any] = {"type": "web_search_20250305", "name": "web_search"}
    tool.update({"allowed_domains": inc} if inc is not None else {"blocked_domains": exc or []})
    return tool


FORMATS: dict[str, Callable[[CompiledPolicy, Side], Export]] = {
    "goggle": lambda p, s: write_goggle(p),
    "searxng": lambda p, s: write_searxng(p),
    **{name: (lambda p, s, _n=name: write_list(_n, p, s)) for name in LIST_CAPS},
}
"""Format name -> writer ``(compiled policy, side) -> Export``."""


__all__ = ["ALLOW_BOOST", "FORMATS", "GOGGLE_MAX_BYTES", "GOGGLE_MAX_INSTRUCTIONS", "GOGGLE_MAX_INSTRUCTION_CHARS",
           "GOGGLE_MAX_STRENGTH", "LIST_CAPS", "ONE_LIST", "Export", "Side", "goggle_instruction", "host_regex",
           "list_domain", "write_goggle", "write_list", "write_searxng"]
