"""Test oracle: the page-text layer and the classifier's per-page path as they were before the speed work.

Frozen copies (commit 0146f0f) of the algorithm of ``cues._words``, ``cues._lower``,
``cues.text_votes`` and ``SourceTypeClassifier._classify`` / ``rule_votes``; the equivalence tests
compare the current code with them. The cue tables they read (``_BY_KEY``, ``_SYMBOLS``,
``_FOLD``...) are compiled by the same code as then and ``looks_like_text`` is unchanged, so those
are imported, not copied. Not imported by the library.
"""
from __future__ import annotations

from authorag.suitability.classifier import SourceTypeClassifier, combine, split_url
from authorag.suitability.cues import (  # the compiled cue tables: unchanged by the speed work
    _ASCII_LOWER_OF,
    _BY_KEY,
    _FOLD,
    _KEYS,
    _ORDER,
    _SYMBOLS,
    _WHY,
    TEXT_CHARS,
    Vote,
    looks_like_text,
    path_votes,
)
from authorag.suitability.platform import content_type_vote
from authorag.suitability.taxonomy import SourceType, SourceTypeResult, unknown_source
from authorag.types import Candidate

_ASCII_SYMBOLS = [s for s in _SYMBOLS if s[1].isascii()]


def _words(chunk: str, ascii_only: bool) -> list[bytes]:
    """The lower-cased ASCII words of ``chunk`` (punctuation splits words, other characters are dropped).

    The same words as lower-casing the str first: outside :data:`_ASCII_LOWER_OF`, lower-casing maps
    ASCII to ASCII and everything else to non-ASCII, so it commutes with dropping non-ASCII.
    """
    if ascii_only:
        return chunk.encode("ascii").translate(_FOLD).split()
    if any(c in chunk for c in _ASCII_LOWER_OF):
        return chunk.lower().encode("ascii", "ignore").translate(_FOLD).split()
    return chunk.encode("ascii", "ignore").translate(_FOLD).split()


def _lower(chunk: str, ascii_only: bool) -> bytes:
    """``" " + chunk.lower()`` as ASCII bytes, each non-ASCII character as ``?`` (phrases have no ``?``,
    so a phrase is found here exactly when it is in the lower-cased str)."""
    if ascii_only:
        return b" " + chunk.encode("ascii").lower()
    if any(c in chunk for c in _ASCII_LOWER_OF):
        return b" " + chunk.lower().encode("ascii", "replace")
    return b" " + chunk.encode("ascii", "replace").lower()


def text_votes(text: str, chars: int = TEXT_CHARS) -> list[Vote]:
    """Votes from page-text cues; a type needs at least two distinct cues."""
    if not text:
        return []
    chunk = text[:chars]
    ascii_only = chunk.isascii()
    cues: list[tuple[SourceType, bytes | None, str]] = []
    for word in _KEYS.intersection(_words(chunk, ascii_only)):
        cues += _BY_KEY[word]
    for t, symbol, label in _ASCII_SYMBOLS if ascii_only else _SYMBOLS:
        if symbol in chunk:
            cues.append((t, None, label))
    possible: dict[SourceType, int] = {}
    for c in cues:
        possible[c[0]] = possible.get(c[0], 0) + 1
    if len(cues) < 2 or max(possible.values()) < 2:  # most pages: no type can reach two cues
        return []
    hits: dict[SourceType, list[str]] = {}
    low = b""
    for t, phrase, label in cues:
        if possible[t] < 2:
            continue
        if phrase is not None:  # a phrase is searched only when its type can still reach two cues
            low = low or _lower(chunk, ascii_only)
            if phrase not in low:
                continue
        hits.setdefault(t, []).append(label)
    return [(t, min(0.5, 0.15 * len(h)), "text", f"{_WHY[t]}: {', '.join(sorted(h)[:3])}")
            for t, h in sorted(hits.items(), key=lambda kv: _ORDER[kv[0]]) if len(h) >= 2]


def old_rule_votes(clf: SourceTypeClassifier, host: str | None, domain: str | None, path: str,
                   text: str) -> list[Vote]:
    on = clf.layers
    votes: list[Vote] = []
    usable = host is not None and domain is not None and "." in host
    if usable:
        assert host is not None and domain is not None
        votes += clf._per_host(host, domain)  # pyright: ignore[reportPrivateUsage]
        if "platform" in on:
            match = clf.platforms(host, domain, path)
            pv = None if match is None else content_type_vote(match)
            if pv is not None:
                votes.append(pv)
    if "path" in on and path:
        votes += path_votes(path)
    if "text" in on and text and looks_like_text(text):
        votes += text_votes(text, clf.text_chars)
    return votes


def _why_unknown(host: str | None, domain: str | None, text: str, text_on: bool) -> str:
    if host is None or domain is None:
        return "no readable host in the URL"
    if "." not in host or host.replace(".", "").isdigit() or ":" in host:
        return f"host {host!r} is an IP address or local name: it says nothing about the publisher"
    if text and text_on and not looks_like_text(text):
        return "no URL rule matched and the page text is not in a Latin script (text cues are English)"
    return "no layer matched the host, path or text"


def old_classify(clf: SourceTypeClassifier, candidate: Candidate) -> SourceTypeResult:
    """The old ``classify`` (no LLM layer)."""
    title = candidate.metadata.get("title") if candidate.metadata else None
    text = f"{title}\n{candidate.text}" if isinstance(title, str) and title else candidate.text
    url, host, domain = candidate.url, candidate.host, candidate.domain
    if not url and not text:
        return unknown_source("no URL or host")
    path = split_url(url) if url else ""
    result = combine(old_rule_votes(clf, host, domain, path, text))
    if result is not None:
        return result
    return unknown_source(_why_unknown(host, domain, text, "text" in clf.layers))
