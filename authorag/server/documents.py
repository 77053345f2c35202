"""Read rerank request documents: the text to score, the source URL, what to echo back.

Where the source URL comes from, first match wins:

1. ``urls[i]`` of the request (an authorag extension aligned with ``documents``);
2. a document object's ``url`` / ``source`` / ``link`` / ``href`` / ``source_url`` field;
3. inside a string document, a YAML-style line ``url: https://...`` (also ``source:``,
   ``link:``), as Cohere recommends YAML strings for structured documents in v2;
4. a string document whose first non-empty line is a bare ``http(s)://`` URL (what Haystack's
   ``CohereRanker`` sends with ``meta_fields_to_embed=["url"]``).

A document without any gets no authority evidence (``has_url: false`` in its result).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from authorag.adapters import DEFAULT_URL_KEYS
from authorag.errors import ConfigError

# Greedy value, trailing quote removed afterwards: a lazy ``\S+?`` backtracks at every
# character of the URL and made this search the most expensive step of a rerank request.
_YAML_URL = re.compile(r"^[ \t]*(?:url|source|link|source_url)[ \t]*:[ \t]*[\"']?(\S+)[ \t]*$",
                       re.IGNORECASE | re.MULTILINE)
_BARE_URL = re.compile(r"^\s*(https?://\S+)\s*$", re.IGNORECASE)


class ParsedDocument(NamedTuple):
    """One request document, read (a named tuple: one is built per document per request).

    Attributes:
        text: the text scored for relevance (after the budget).
        url: the source URL, ``""`` when none was found.
        source: the document as the request sent it (a string or an object).
        truncated: True when the text budget cut the text.
    """

    text: str
    url: str
    source: str | dict[str, Any]
    truncated: bool

    @property
    def echo(self) -> dict[str, Any]:
        """What ``return_documents`` sends back: ``{"text": ...}`` for a string, else the object."""
        return echo(self.source)


class DocumentColumns(NamedTuple):
    """Every document of a request, read: one list per field (no object per document).

    Attributes:
        texts: the texts scored for relevance (after the budget), in request order.
        urls: the source URLs, ``""`` where none was found.
        without_url: indices of the documents without a URL.
        truncated: indices of the documents whose text the budget cut.
    """

    texts: list[str]
    urls: list[str]
    without_url: list[int]
    truncated: list[int]


def echo(source: str | dict[str, Any]) -> dict[str, Any]:
    """What ``return_documents`` sends back for a request document: ``{"text": ...}`` for a
    string, else the object itself.

    Example:
        >>> echo("plain"), echo({"text": "t", "url": "u"})
        ({'text': 'plain'}, {'text': 't', 'url': 'u'})
    """
    return {"text": source} if isinstance(source, str) else source


def url_in_text(text: str) -> str:
    """A source URL carried inside a string document, or ``""``.

    Example:
        >>> url_in_text("title: Flu facts\\nurl: https://www.cdc.gov/flu\\ntext: ...")
        'https://www.cdc.gov/flu'
        >>> url_in_text("https://www.cdc.gov/flu\\nFlu facts")
        'https://www.cdc.gov/flu'
        >>> url_in_text("source: 'https://www.cdc.gov/flu'")
        'https://www.cdc.gov/flu'
    """
    match = _YAML_URL.search(text, 0, 4096)
    if match:
        value = match.group(1)
        return value[:-1] if len(value) > 1 and value[-1] in "\"'" else value
    first = text.lstrip().split("\n", 1)[0][:2048]
    bare = _BARE_URL.match(first)
    return bare.group(1) if bare else ""


def truncate(text: str, max_chars: int, max_tokens: int | None) -> tuple[str, bool]:
    """Apply the text budget: ``max_chars`` characters, then ``max_tokens`` whitespace tokens.

    Example:
        >>> truncate("a b c d", 100, 2)
        ('a b', True)
    """
    if max_tokens is None and len(text) <= max_chars:  # within budget: no copy, nothing to cut
        return text, False
    cut = text[:max_chars]
    if max_tokens is not None and max_tokens < len(cut):  # more tokens than characters cannot cut
        parts = cut.split(None, max_tokens)
        if len(parts) > max_tokens:
            cut = " ".join(parts[:max_tokens])
    return cut, cut != text


def _object_text(index: int, doc: dict[str, Any], rank_fields: Sequence[str] | None) -> str:
    if rank_fields:
        return "\n".join(f"{f}: {doc[f]}" for f in rank_fields if doc.get(f) not in (None, ""))
    text = doc.get("text")
    if not isinstance(text, str):
        raise ConfigError(
            f"documents[{index}] is an object without a string 'text' field (got keys {sorted(doc)[:10]}); "
            "send {'text': ..., 'url': ...} or a plain string"
        )
    return text


def _object_url(doc: dict[str, Any]) -> str:
    for key in DEFAULT_URL_KEYS:
        value = doc.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def read_documents(
    documents: Sequence[str | dict[str, Any]],
    urls: Sequence[str | None] | None,
    *,
    rank_fields: Sequence[str] | None,
    max_chars: int,
    max_tokens: int | None,
) -> DocumentColumns:
    """Read every document of a request (see the module docstring for the URL order).

    Raises:
        ConfigError: ``urls`` is not aligned with ``documents``, or an object has no text.
    """
    if urls is not None and len(urls) != len(documents):
        raise ConfigError(f"urls has {len(urls)} entries but documents has {len(documents)}; "
                          "send one URL (or null) per document")
    out = DocumentColumns([], [], [], [])
    add_text, add_url = out.texts.append, out.urls.append
    for i, doc in enumerate(documents):  # runs once per document of every request
        if isinstance(doc, str):
            raw, url = doc, url_in_text(doc)
        else:
            raw, url = _object_text(i, doc, rank_fields), _object_url(doc)
        given = urls[i] if urls is not None else None
        if given:
            url = given.strip()
        add_url(url)
        if not url:
            out.without_url.append(i)
        if max_tokens is None and len(raw) <= max_chars:  # within budget: truncate()'s first case, inline
            add_text(raw)
        else:
            text, cut = truncate(raw, max_chars, max_tokens)
            add_text(text)
            if cut:
                out.truncated.append(i)
    return out


def parse_documents(
    documents: Sequence[str | dict[str, Any]],
    urls: Sequence[str | None] | None,
    *,
    rank_fields: Sequence[str] | None,
    max_chars: int,
    max_tokens: int | None,
) -> list[ParsedDocument]:
    """:func:`read_documents` as one :class:`ParsedDocument` per document.

    Raises:
        ConfigError: ``urls`` is not aligned with ``documents``, or an object has no text.
    """
    cols = read_documents(documents, urls, rank_fields=rank_fields, max_chars=max_chars, max_tokens=max_tokens)
    cut = set(cols.truncated)
    return [ParsedDocument(text, url, doc, i in cut)
            for i, (text, url, doc) in enumerate(zip(cols.texts, cols.urls, documents))]
