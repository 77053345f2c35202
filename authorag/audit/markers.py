"""Split an answer into statements and read the citation markers each one carries.

Marker forms (``N`` a source id; ``[A-Za-z0-9_.:-]`` ids such as ``S2`` work in brackets):

- brackets: ``[1]``, ``[1][2]``, ``[1, 2]``, ``[1; 2]``, ``[1-3]`` / ``[1–3]`` (a range),
  ``[^1]`` (markdown footnote reference);
- parentheses ``(1)``, ``(1, 2)``, carets ``^1`` and superscript digits ``¹²``;
- inline links ``[title](https://...)`` (the URL is the citation).

Bracket markers are always citations: a number that names no source (and no footnote) raises
:class:`~authorag.errors.ConfigError` naming the id. Parentheses, carets and superscripts also
appear in ordinary prose (``(2)`` in a list, ``x^2``), so they count only when the number names a
source or a footnote, and a parenthesis attached to the word or number before it (``Article
6(1)``, ``alert(1)``) is text. A bracket whose content is not an id (``[sic]``) is text.

A footnote list at the end of the answer (``[1] https://...``, ``[^1]: ...``, ``1. https://...``,
under an optional ``Sources:``/``References`` heading) maps labels to URLs; a URL matches a listed
source by :func:`url_key` or becomes a new source.

Statements are sentences (and list items / lines). Markers written after the full stop
(``... true. [1]``) belong to the sentence before them.

Example:
    >>> from authorag.audit.model import AuditSource
    >>> srcs = (AuditSource("1", "https://a.org"), AuditSource("2", "https://b.org"))
    >>> parsed = parse_answer("Flu shots work [1][2]. They are safe. [2]", srcs)
    >>> [(s.text, s.citations) for s in parsed.statements]
    [('Flu shots work.', ('1', '2')), ('They are safe.', ('2',))]
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from authorag.audit.model import NO_LIMITS, AuditLimits, AuditSource, AuditStatement
from authorag.audit.structured import CitationSpan, span_hits
from authorag.errors import ConfigError

MAX_RANGE = 50
"""Longest ``[a-b]`` range read as a citation range (``[1-3]``); longer ones raise."""

_ID = r"[A-Za-z0-9_.:\-–]+"
_BRACKET = re.compile(rf"\[(\^?)\s*({_ID}(?:\s*[,;]\s*\^?{_ID})*)\s*\](?!\()")
# A parenthesis attached to the word or number before it is text: "Article 6(1)", "alert(1)", "83(5)".
_PAREN = re.compile(r"(?<!\w)\((\d+(?:\s*[,;–-]\s*\d+)*)\)")
_CARET = re.compile(r"(?<!\[)\^(\d+)")
_SUPER = re.compile(r"[¹²³⁴⁵⁶⁷⁸⁹⁰]+")
_SUPER_MAP = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹⁰", "1234567890")
# No "[" inside a link title or URL, no "(" or ")" inside a URL: each scan then stops at the next
# "[", so a text full of unclosed brackets ("[a [a [a ...") is read in linear time.
_LINK = re.compile(r"\[([^\[\]\n]*)\]\((https?://[^()\s\[\]]+)\)")
_URL = re.compile(r"https?://[^\s<>()\[\]]+")
_FOOTNOTE = re.compile(r"^\s*(?:[-*]\s*)?(?:\[\^?(\w+)\]:?|\^(\d+)|(\d+)[.):])\s+(.+)$")  # rest stripped after
_HEADING = re.compile(r"^\s*(?:#+\s*)?\**\s*(sources|references|citations|footnotes|links)\s*:?\s*\**\s*:?\s*$", re.IGNORECASE)
_SENT_END = re.compile(r"[.!?]+[\"'”’)]*((?:\s*(?:\[\^?[^\]\s(][^\]]{0,40}\](?!\()|\^\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+))*)")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_STRIP_UTM = ("utm_",)


def url_key(url: str) -> str:
    """A URL reduced for matching: no scheme, ``www.``, fragment, ``utm_*`` query or final ``/``.

    Example:
        >>> url_key("https://www.CDC.gov/flu/?utm_source=openai#top")
        'cdc.gov/flu'
        >>> url_key("https://[")
        'https://['
    """
    try:
        parts = urlsplit(url.strip())
        hostname = parts.hostname
    except ValueError:  # "https://[": an unclosed IPv6 bracket; the text itself is the key
        return url.strip().lower()
    host = (hostname or "").lower().removeprefix("www.")
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if not k.startswith(_STRIP_UTM)])
    path = parts.path.rstrip("/")
    return f"{host}{path}" + (f"?{query}" if query else "")


@dataclass
class ParsedAnswer:
    """Statements with citations, the sources (listed ones, then new ones from footnotes/links)."""

    statements: tuple[AuditStatement, ...]
    sources: tuple[AuditSource, ...]
    spans: tuple[tuple[int, int], ...] = ()
    notes: list[str] = field(default_factory=list[str])


class SourceIndex:
    """Listed sources by id and by URL key; adds sources found only in footnotes or links."""

    def __init__(self, sources: Sequence[AuditSource], footnotes: dict[str, tuple[str, str]] | None = None,
                 limits: AuditLimits = NO_LIMITS) -> None:
        limits.check("sources", len(sources), "send fewer sources (server setting --max-sources)")
        self.limits = limits
        self.sources: list[AuditSource] = list(sources)
        self.by_id = {s.id: s for s in sources}
        self.by_url = {url_key(s.url): s.id for s in sources if s.url}
        self.footnotes = footnotes or {}
        self.notes: list[str] = []

    def for_url(self, url: str, title: str = "", label: str | None = None) -> str:
        """The id of the source with this URL, adding a new source when none has it."""
        key = url_key(url)
        found = self.by_url.get(key)
        if found is not None:
            return found
        self.limits.check("sources", len(self.sources) + 1, "cite fewer distinct URLs (server setting --max-sources)")
        ident = label if label is not None and label not in self.by_id else str(len(self.sources) + 1)
        while ident in self.by_id:
            ident += "+"
        source = AuditSource(ident, url, title=title)
        self.sources.append(source)
        self.by_id[ident] = source
        self.by_url[key] = ident
        self.notes.append(f"source {ident!r} ({url}) is cited but was not in 'sources'; added")
        return ident

    def resolve(self, label: str) -> str | None:
        """Source id for a marker label (a listed id, or a footnote's URL), else None."""
        if label in self.by_id:
            return label
        note = self.footnotes.get(label)
        if note is not None and note[0]:
            return self.for_url(note[0], note[1], label)
        return None

    def unknown(self, label: str, statement: str) -> ConfigError:
        """The error for a bracket marker whose id names no source."""
        shown = statement if len(statement) <= 80 else statement[:77] + "..."
        return ConfigError(
            f"citation [{label}] in {shown!r} refers to source id {label!r}, which is not among the "
            f"source ids {list(self.by_id)} nor in a footnote list; give the source this id in "
            "'sources' or fix the marker"
        )


def _expand(token: str) -> list[str] | None:
    token = token.strip().lstrip("^").replace("–", "-")
    m = re.fullmatch(r"(\d+)-(\d+)", token)
    if m is None:
        return [token] if token else None
    lo, hi = int(m.group(1)), int(m.group(2))
    if hi < lo or hi - lo >= MAX_RANGE:
        raise ConfigError(f"citation range [{token}] is not a range of at most {MAX_RANGE} ids "
                          "(expected e.g. [1-3]); write the ids out")
    return [str(n) for n in range(lo, hi + 1)]


def _bracket_ids(content: str, index: SourceIndex, statement: str) -> list[str] | None:
    tokens = [t for t in re.split(r"[,;]", content) if t.strip()]
    labels: list[str] = []
    for tok in tokens:
        expanded = _expand(tok)
        if expanded is None:
            return None
        labels.extend(expanded)
    ids: list[str] = []
    for label in labels:
        found = index.resolve(label)
        if found is None:
            if not label.isdigit():
                return None  # "[sic]", "[citation needed]": text, not a marker
            raise index.unknown(label, statement)
        ids.append(found)
    return ids


def _paren_labels(content: str) -> list[str]:
    """The labels of a parenthesis marker; ``[]`` (text, not a marker) for a year range such
    as ``(1900-2020)``: unlike brackets, parentheses are prose until they name sources."""
    try:
        return [x for t in re.split(r"[,;]", content) for x in _expand(t) or []]
    except ConfigError:
        return []


def _lenient_ids(labels: Iterable[str], index: SourceIndex) -> list[str] | None:
    ids = [index.resolve(lab) for lab in labels]
    return None if any(i is None for i in ids) else [i for i in ids if i is not None]


def read_markers(text: str, index: SourceIndex) -> tuple[str, list[str]]:
    """``text`` without its markers, and the cited source ids in order (duplicates kept)."""
    cited: list[str] = []

    def link(m: re.Match[str]) -> str:
        cited.append(index.for_url(m.group(2), m.group(1)))
        return m.group(1)

    noun_ends: list[int] = []

    def bracket(m: re.Match[str]) -> str:
        ids = _bracket_ids(m.group(2), index, text)
        if ids is None:
            return m.group(0)
        cited.extend(ids)
        if not _used_as_noun(m, noun_ends):
            return ""
        noun_ends.append(_after_space(m.string, m.end()))
        return "source " + ", ".join(dict.fromkeys(ids))

    def lenient(labels: list[str], whole: str) -> str:
        ids = _lenient_ids(labels, index) if labels else None
        if ids is None:
            return whole
        cited.extend(ids)
        return ""

    out = _LINK.sub(link, text)
    out = _BRACKET.sub(bracket, out)
    out = _PAREN.sub(lambda m: lenient(_paren_labels(m.group(1)), m.group(0)), out)
    out = _CARET.sub(lambda m: lenient([m.group(1)], m.group(0)), out)
    out = _SUPER.sub(lambda m: lenient([m.group(0).translate(_SUPER_MAP)], m.group(0)), out)
    return _tidy(out), cited


_NOUN_BEFORE = frozenset({"in", "by", "from", "see", "including", "to", "as", "per", "of", "with", "like",
                          "via", "cf", "both", "between", "on"})


def _used_as_noun(m: re.Match[str], noun_ends: list[int]) -> bool:
    """A marker that stands for its source ("in [1], which says", "[2] reports", "as [3] shows",
    "including [2] and [3]") keeps a word in the statement text; one after a claim is dropped.

    ``noun_ends`` holds, for each earlier marker kept as a noun, where the text after it
    starts (:func:`_after_space`). Only a few characters around the marker are read, never
    the whole statement: this runs once per marker, and a statement may hold thousands.
    """
    text, start = m.string, m.start()
    end = start  # where the white space before the marker starts
    while end > 0 and text[end - 1].isspace():
        end -= 1
    if end == 0:
        return _LOWER_WORD_AFTER.match(text, m.end()) is not None
    if noun_ends and 0 < end - noun_ends[-1] <= 5 and text[noun_ends[-1]:end] in _JOINERS:
        return True
    if end < start:
        word = _WORD_BEFORE.search(text, max(0, end - _NOUN_CHARS - 1), end)
        if word is not None and word.group(1).lower() in _NOUN_BEFORE:
            return True
    return text[end - 1] == "," and _LOWER_WORD_AFTER.match(text, m.end()) is not None


def _after_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


_LOWER_WORD_AFTER = re.compile(r"\s+[a-z]")
_JOINERS = frozenset({",", "and", "or", ", and"})  # "[2] and [3]": the second one is a noun too
_NOUN_CHARS = max(map(len, _NOUN_BEFORE))
_WORD_BEFORE = re.compile(r"(?<!\w)(\w+)$")


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return re.sub(r"\(\s*\)", "", text).strip()


def split_footnotes(answer: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """The answer body and its trailing footnote list as ``{label: (url, title)}``.

    Example:
        >>> body, notes = split_footnotes("Yes [1].\\n\\nSources:\\n[1] https://cdc.gov/flu")
        >>> body, notes
        ('Yes [1].', {'1': ('https://cdc.gov/flu', '')})
    """
    lines = answer.rstrip().split("\n")
    notes: dict[str, tuple[str, str]] = {}
    cut = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        m = _FOOTNOTE.match(lines[i])
        if m is None:
            break
        label = next(g for g in m.groups()[:3] if g is not None)
        rest = m.group(4).strip()
        url_m = _LINK.search(rest) or _URL.search(rest)
        is_def = lines[i].lstrip().startswith("[^")
        if url_m is None and not is_def:
            break
        url = (url_m.group(2) if url_m.re is _LINK else url_m.group(0)).rstrip(".,;") if url_m else ""
        title = url_m.group(1) if url_m is not None and url_m.re is _LINK else rest.replace(url, "").strip(" -–:|")
        notes[label] = (url, title)
        cut = i
    # white space collapsed first: runs of it made the heading pattern backtrack polynomially
    if cut > 0 and notes and _HEADING.match(" ".join(lines[cut - 1].split())):
        cut -= 1
    return "\n".join(lines[:cut]).rstrip(), notes


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences / list items / lines of ``text``.

    Example:
        >>> t = "Yes. [1] It works.\\n- A list item"
        >>> [t[a:b] for a, b in sentence_spans(t)]
        ['Yes. [1]', 'It works.', 'A list item']
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or set(stripped) <= set("-*_=|: "):
            continue
        bullet = _BULLET.match(line)
        start += bullet.end() if bullet else len(line) - len(line.lstrip())
        spans.extend(_split_line(text, start, end))
    return spans


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    cur = start
    for m in _SENT_END.finditer(text, start, end):
        stop = m.start(1)
        nxt = _skip_space(text, m.end(), end)
        if nxt < end and (nxt == m.end() or text[nxt].islower()):
            if m.group(1).strip() and nxt > m.end():
                # "... true. [1] states that ...": the markers open the next sentence
                out.append((cur, stop))
                cur = _skip_space(text, stop, end)
            continue  # no space after the stop, or "e.g. the": not a sentence end
        out.append((cur, m.end()))
        cur = nxt
    if cur < end and text[cur:end].strip():
        stop = end
        while stop > cur and text[stop - 1].isspace():
            stop -= 1
        out.append((cur, stop))
    return out


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def parse_answer(answer: str, sources: Sequence[AuditSource], cited_spans: Sequence[CitationSpan] = (),
                 limits: AuditLimits = NO_LIMITS) -> ParsedAnswer:
    """Statements with their cited source ids, read from the answer's markers.

    ``cited_spans`` (chat-API URL citations with offsets into ``answer``) add the URL's source
    to every statement they overlap. The work is linear in the answer's length and the
    citations found; ``limits`` bound the answer, its statements, citations and sources.

    Raises:
        ConfigError: a bracket marker names an id that is neither a source nor a footnote.
        LimitExceeded: the answer is over one of ``limits``.
    """
    limits.check("answer_chars", len(answer), "audit a shorter answer (server setting --max-answer-chars)")
    body, footnotes = split_footnotes(answer)
    index = SourceIndex(sources, footnotes, limits)
    sentences = sentence_spans(body)
    limits.check("statements", len(sentences), "audit a shorter answer (server setting --max-statements)")
    hits = span_hits(sentences, cited_spans, limits)
    statements: list[AuditStatement] = []
    spans: list[tuple[int, int]] = []
    read = sum(map(len, hits))
    for (a, b), found in zip(sentences, hits):
        text, cited = read_markers(body[a:b], index)
        read += len(cited)
        limits.check("citations", read, "cite fewer sources per statement (server setting --max-citations)")
        cited += [index.for_url(cited_spans[k].url, cited_spans[k].title) for k in found]
        if not text.strip(" .") and statements:  # a line holding only markers
            prev = statements[-1]
            statements[-1] = AuditStatement(prev.text, tuple(dict.fromkeys((*prev.citations, *cited))))
            continue
        if text.startswith("source "):  # "[1] states that ...": the marker is the subject
            text = "S" + text[1:]
        if text.strip(" ."):
            statements.append(AuditStatement(text, tuple(dict.fromkeys(cited))))
            spans.append((a, b))
    return ParsedAnswer(tuple(statements), tuple(index.sources), tuple(spans), index.notes)


__all__ = ["MAX_RANGE", "ParsedAnswer", "SourceIndex", "parse_answer", "read_markers", "sentence_spans",
           "split_footnotes", "url_key"]
