"""Parsers for the export formats, written from each format's documented rules (the round-trip check).

* :func:`parse_goggle`: a Goggle file: ``!`` comments and the mandatory ``name``, ``description``,
  ``public`` and ``author`` metadata; one instruction per line, ``[pattern][$option,...]`` with the
  options ``boost[=N]``, ``downrank[=N]`` (N from 1 to the maximum strength), ``discard``,
  ``site=DOMAIN``, ``inurl``, ``intitle``, ``indescription``, ``incontent``; at most one action;
  the limits on file size, instruction count, instruction length, ``*`` and ``^`` counts.
* :func:`parse_searxng`: the ``hostnames`` table: ``remove``, ``high_priority``, ``low_priority``
  (lists of regular expressions that compile) and ``replace`` (a mapping).
* :func:`parse_domain_request`: a list provider's request fields: the field names, domains without
  a scheme or path, the caps, and one list only where the provider takes one.

Each raises :class:`~authorag.errors.ConfigError` naming the line or field and the rule broken.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, cast

from authorag.errors import ConfigError
from authorag.websearch.formats import (
    GOGGLE_MAX_BYTES,
    GOGGLE_MAX_INSTRUCTION_CHARS,
    GOGGLE_MAX_INSTRUCTIONS,
    GOGGLE_MAX_STRENGTH,
    LIST_CAPS,
    ONE_LIST,
)

GOGGLE_METADATA = ("name", "description", "public", "author")
GOGGLE_OPTIONAL_METADATA = ("homepage", "issues", "transferred_to", "avatar", "license")
_TARGETS = frozenset({"inurl", "intitle", "indescription", "incontent"})
_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$")
_META = re.compile(r"^!\s*([a-z_]+)\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class GoggleInstruction:
    """One parsed instruction: the URL pattern, its action and strength, the site and target."""

    pattern: str
    action: str
    strength: int | None
    site: str | None
    target: str | None


def _option(line_no: int, opt: str, found: dict[str, Any]) -> None:
    key, eq, value = opt.partition("=")
    if key in ("boost", "downrank", "discard"):
        if "action" in found:
            raise ConfigError(f"goggle line {line_no}: more than one action ({found['action']!r} and {key!r})")
        found["action"] = key
        if eq:
            if key == "discard" or not value.isdigit() or not 1 <= int(value) <= GOGGLE_MAX_STRENGTH:
                raise ConfigError(f"goggle line {line_no}: {opt!r}: a strength is an integer from 1 to "
                                  f"{GOGGLE_MAX_STRENGTH} on boost or downrank only")
            found["strength"] = int(value)
    elif key == "site" and eq:
        if not _DOMAIN.match(value) and not re.fullmatch(r"[a-z0-9-]{2,63}", value):
            raise ConfigError(f"goggle line {line_no}: site={value!r} is not a domain")
        found["site"] = value
    elif key in _TARGETS and not eq:
        found["target"] = key
    else:
        raise ConfigError(f"goggle line {line_no}: unknown option {opt!r}")


def _instruction(line_no: int, line: str) -> GoggleInstruction:
    if len(line) > GOGGLE_MAX_INSTRUCTION_CHARS:
        raise ConfigError(f"goggle line {line_no}: {len(line)} characters, over {GOGGLE_MAX_INSTRUCTION_CHARS}")
    if line.count("*") > 2 or line.count("^") > 2:
        raise ConfigError(f"goggle line {line_no}: more than 2 '*' or 2 '^' in one instruction")
    pattern, dollar, options = line.partition("$")
    found: dict[str, Any] = {}
    if dollar:
        for opt in options.split(","):
            _option(line_no, opt.strip(), found)
    if not pattern and "site" not in found and found.get("action") != "discard":
        raise ConfigError(f"goggle line {line_no}: an instruction needs a pattern or a site")
    if "|" in pattern.strip("|"):
        raise ConfigError(f"goggle line {line_no}: '|' anchors only at the start or end of a pattern")
    return GoggleInstruction(pattern, found.get("action", "boost"), found.get("strength"), found.get("site"),
                             found.get("target"))


def parse_goggle(text: str) -> tuple[dict[str, str], list[GoggleInstruction]]:
    """The metadata and instructions of a Goggle file.

    Raises:
        ConfigError: a missing mandatory metadata field or a broken rule (line named).

    Example:
        >>> meta, ins = parse_goggle("! name: n\\n! description: d\\n! public: false\\n! author: a\\n$discard,site=x.biz\\n")
        >>> meta["name"], ins[0].action, ins[0].site
        ('n', 'discard', 'x.biz')
    """
    if len(text.encode("utf-8")) > GOGGLE_MAX_BYTES:
        raise ConfigError(f"goggle file is over {GOGGLE_MAX_BYTES} bytes")
    meta: dict[str, str] = {}
    out: list[GoggleInstruction] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("!"):
            m = _META.match(line)
            if m and m.group(1) in (*GOGGLE_METADATA, *GOGGLE_OPTIONAL_METADATA):
                meta[m.group(1)] = m.group(2).strip()
        elif line:
            out.append(_instruction(n, line))
    missing = [k for k in GOGGLE_METADATA if not meta.get(k)]
    if missing:
        raise ConfigError(f"goggle metadata missing: {', '.join(missing)} (each a '! key: value' line)")
    if meta["public"] not in ("true", "false"):
        raise ConfigError(f"goggle metadata public must be true or false, got {meta['public']!r}")
    if len(out) > GOGGLE_MAX_INSTRUCTIONS:
        raise ConfigError(f"goggle has {len(out)} instructions, over {GOGGLE_MAX_INSTRUCTIONS}")
    return meta, out


def parse_searxng(text: str) -> dict[str, list[str]]:
    """The ``remove``/``high_priority``/``low_priority`` lists of a SearXNG ``hostnames`` table.

    Raises:
        ConfigError: not YAML, no ``hostnames`` mapping, an unknown key, or a pattern that does not compile.
    """
    import yaml

    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"searxng settings are not valid YAML: {exc}") from exc
    table = doc.get("hostnames") if isinstance(doc, dict) else None
    if not isinstance(table, dict):
        raise ConfigError("searxng settings need a 'hostnames' mapping")
    out: dict[str, list[str]] = {}
    for key, value in cast(dict[str, Any], table).items():
        if key == "replace":
            continue
        if key not in ("remove", "high_priority", "low_priority"):
            raise ConfigError(f"searxng hostnames: unknown key {key!r}; known: remove, high_priority, low_priority, replace")
        if not isinstance(value, list) or not all(isinstance(v, str) for v in cast(list[Any], value)):
            raise ConfigError(f"searxng hostnames.{key} must be a list of regular expressions")
        for rx in cast(list[str], value):
            try:
                re.compile(rx)
            except re.error as exc:
                raise ConfigError(f"searxng hostnames.{key}: {rx!r} does not compile: {exc}") from exc
        out[key] = cast(list[str], value)
    return out


_FIELDS: dict[str, tuple[str, str]] = {
    "tavily": ("include_domains", "exclude_domains"), "exa": ("includeDomains", "excludeDomains"),
    "anthropic": ("allowed_domains", "blocked_domains"),
}


def _domains(fmt: str, key: str, value: object, cap: int | None) -> list[str]:
    if cap is None:
        raise ConfigError(f"{fmt}: {key} is not a field this provider takes")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in cast(list[Any], value)):
        raise ConfigError(f"{fmt}: {key} must be a list of domain strings")
    items = cast(list[str], value)
    if len(items) > cap:
        raise ConfigError(f"{fmt}: {key} has {len(items)} domains, over the cap of {cap}")
    for d in items:
        if not _DOMAIN.match(d.removeprefix("-")):
            raise ConfigError(f"{fmt}: {key}: {d!r} is not a bare domain (no scheme, path or wildcard)")
    return items


def parse_domain_request(fmt: str, text: str) -> dict[str, list[str]]:
    """``{"include": [...], "exclude": [...]}`` from a list provider's request fields.

    Raises:
        ConfigError: not JSON, a wrong field, a domain with a scheme or path, a list over the cap,
            or both lists where the provider takes one.
    """
    if fmt not in LIST_CAPS:
        raise ConfigError(f"unknown list format {fmt!r}; known: {', '.join(LIST_CAPS)}")
    try:
        body = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{fmt}: not JSON: {exc}") from exc
    inc_cap, exc_cap = LIST_CAPS[fmt]
    if fmt == "perplexity":
        items = _domains(fmt, "search_domain_filter", body.get("search_domain_filter"), inc_cap)
        denied = [d.startswith("-") for d in items]
        if any(denied) and not all(denied):
            raise ConfigError("perplexity: search_domain_filter mixes allow and '-' deny entries; use one mode")
        return {"exclude": [d[1:] for d in items]} if any(denied) else {"include": items}
    if fmt == "openai":
        if body.get("type") != "web_search":
            raise ConfigError("openai: the tool's type must be 'web_search'")
        return {"include": _domains(fmt, "filters.allowed_domains", body.get("filters", {}).get("allowed_domains"), inc_cap)}
    inc_key, exc_key = _FIELDS[fmt]
    out = {side: _domains(fmt, key, body[key], cap)
           for side, key, cap in (("include", inc_key, inc_cap), ("exclude", exc_key, exc_cap)) if key in body}
    if fmt in ONE_LIST and len(out) > 1:
        raise ConfigError(f"{fmt}: {inc_key} and {exc_key} cannot be used together")
    return out


__all__ = ["GOGGLE_METADATA", "GOGGLE_OPTIONAL_METADATA", "GoggleInstruction", "parse_domain_request",
           "parse_goggle", "parse_searxng"]
