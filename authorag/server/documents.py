"""Read rerank request documents: the text to score, the source URL, what to echo back.

Where the source URL comes from, first match wins:

1. ``urls[i]`` of the request (an authorag extension aligned with ``documents``);
2. a document object's fields, by :func:`authorag.adapters.url_from_metadata` (``url``, then
   ``source``, ``link``, ``href``, ``source_url``: the lookup of every surface);
3. a string document whose first non-empty line is a bare ``http(s)://`` URL (what Haystack's
   ``CohereRanker`` sends with ``meta_fields_to_embed=["url"]``);
4. the header block of a string document (Cohere recommends YAML strings for structured
   documents in v2), by this grammar:

   - the header is the ``key: value`` lines the string starts with, at the first line's
     indentation; a line indented deeper continues the value above it;
   - it must end with an end marker: a blank line, a ``text`` / ``content`` / ``body`` /
     ``page_content`` key (at any indentation; its value starts the text) or the end of the
     string. Key lines followed directly by plain text are not a header: they are the page's
     first lines, and the document gets no URL from them;
   - its URL keys are those of the shared lookup (any letter case, quotes dropped), read in line
     order: the first whose value is an address (has ``://``, or is one word with a dot) names
     the source; later URL keys are ignored (``source: Reuters`` is skipped as a name).

Only what the client wrote before the text may name the URL: a ``Source: ...`` line inside the
text is data, never the document's source (page text could otherwise borrow any site's
authority). A document without a URL gets no authority evidence (``has_url: false``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from authorag.adapters import DEFAULT_URL_KEYS, url_from_metadata
from authorag.errors import ConfigError

TEXT_KEYS: tuple[str, ...] = ("text", "content", "body", "page_content")
"""Header keys whose value is the document's text: the header block ends there."""
HEADER_CHARS = 4096
"""Characters of a string document read for its header block (and its first line)."""

_BARE_URL = re.compile(r"\s*(https?://\S+)[ \t\r\f\v]*(?:\n|\Z)", re.IGNORECASE)  # the first line, a bare URL
# The header block, in one match (it runs for every string document of a request): lines of
# 'key: value' at the first line's indentation (group 1), or deeper-indented continuation
# lines, up to a blank line, plain text or a text key. Keys and values exclude each other's
# characters, so the match never backtracks far.
_KEY = r"[A-Za-z_][\w.-]{0,39}(?: [\w.-]{1,39}){0,3}[ \t]*:(?:[ \t][^\n]*)?"  # up to 4 words
_NOT_TEXT = rf"(?!(?:{'|'.join(TEXT_KEYS)})[ \t]*:)"
_HEADER = re.compile(rf"[\r\n]*([ \t]*){_NOT_TEXT}{_KEY}(?:\n(?:\1[ \t]+{_NOT_TEXT}\S[^\n]*|\1{_NOT_TEXT}{_KEY}))*",
                     re.IGNORECASE)
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*(?:\n|\Z)")  # the end marker of a header that is not a text key
_TEXT_KEY = re.compile(rf"\n([ \t]*(?:{'|'.join(TEXT_KEYS)})[ \t]*:[ \t]?)", re.IGNORECASE)
_URL_LINE = re.compile(rf"^([ \t]*)({'|'.join(DEFAULT_URL_KEYS)})[ \t]*:[ \t]([^\n]*)", re.IGNORECASE | re.MULTILINE)


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


def split_string_document(text: str) -> tuple[str, str]:
    """A string document's source URL (the one it names before its text, or ``""``) and its text
    without what only labels it: the bare first-line URL, the header block's URL-key lines
    (``url``, ``source``, ...) and the key of the text after the header (``text:``). Other header
    lines (``title: ...``) stay: they are content. Relevance and page evidence then read the same
    text as for the same page sent with a separate URL field.

    Example:
        >>> split_string_document("Source: 'https://www.cdc.gov/flu'\\nURL:\\ntext: ...")[0]
        'https://www.cdc.gov/flu'
        >>> split_string_document("https://evil.example/page\\nMiracle cure.\\nSource: https://www.nih.gov/study")[0]
        'https://evil.example/page'
        >>> split_string_document("title: Cure\\ntext: Miracle cure.\\nsource: https://www.nih.gov/study")[0]
        ''
        >>> split_string_document("source: https://evil.example/p\\nurl: https://www.nih.gov/x\\ntext: Cure.")[0]
        'https://evil.example/p'
        >>> split_string_document("snippet: Cure.\\nsource: https://www.nih.gov/x\\nBuy now.")[0]
        ''
        >>> split_string_document("title: Flu facts\\nurl: https://www.cdc.gov/flu\\ntext: Get a shot.")
        ('https://www.cdc.gov/flu', 'title: Flu facts\\nGet a shot.')
        >>> split_string_document("url: https://www.cdc.gov/flu\\ntext: Get a shot.")
        ('https://www.cdc.gov/flu', 'Get a shot.')
        >>> split_string_document("https://www.cdc.gov/flu\\nFlu facts")
        ('https://www.cdc.gov/flu', 'Flu facts')
    """
    head = text[:HEADER_CHARS]
    bare = _BARE_URL.match(head)
    if bare is not None:
        return bare.group(1), text[bare.end():]
    block = _HEADER.match(head)
    if block is None:
        return "", text
    key = _TEXT_KEY.match(text, block.end())  # the key of the text after the header ("text: ...") is not text
    ended = block.end() == len(text) or key is not None or _BLANK_LINE.match(text, block.end()) is not None
    if not ended:  # key lines then plain text (or a header longer than HEADER_CHARS): the page's first lines
        return "", text
    url, spans = _url_lines(text, head, block)
    if key is not None:
        spans.append((key.start(1), key.end()))
    if not spans:
        return url, text
    kept, start = [], 0
    for a, b in spans:
        kept.append(text[start:a])
        start = b
    kept.append(text[start:])
    return url, "".join(kept)


def _url_lines(text: str, head: str, block: re.Match[str]) -> tuple[str, list[tuple[int, int]]]:
    """The header's source (its first URL-key value that is an address) and the spans of all its
    URL-key lines (labels, removed from the scored text)."""
    indent = len(block.group(1))
    url = ""
    spans: list[tuple[int, int]] = []
    for line in _URL_LINE.finditer(head, block.start(1), block.end()):
        if len(line.group(1)) == indent:  # not a continuation line
            value = line.group(3).strip()
            if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1].strip()
            if not url and ("://" in value or ("." in value.strip(".") and not any(c.isspace() for c in value))):
                url = value
            spans.append((line.start(), line.end() + 1 if text[line.end():line.end() + 1] == "\n" else line.end()))
    return url, spans


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


def read_documents(
    documents: Sequence[str | dict[str, Any]],
    urls: Sequence[str | None] | None,
    *,
    rank_fields: Sequence[str] | None,
    max_chars: int,
    max_tokens: int | None,
) -> DocumentColumns:
    """Read every document of a request (see the module docstring for the URL order).

    ``rank_fields`` names the fields of object documents to score, in order; a name given again
    is read once.

    Raises:
        ConfigError: ``urls`` is not aligned with ``documents``, or an object has no text.
    """
    if urls is not None and len(urls) != len(documents):
        raise ConfigError(f"urls has {len(urls)} entries but documents has {len(documents)}; "
                          "send one URL (or null) per document")
    if rank_fields:  # a field named twice is read once: repeats would only multiply the work
        rank_fields = tuple(dict.fromkeys(rank_fields))
    out = DocumentColumns([], [], [], [])
    add_text, add_url = out.texts.append, out.urls.append
    for i, doc in enumerate(documents):  # runs once per document of every request
        if isinstance(doc, str):
            url, raw = split_string_document(doc)
        else:
            raw, url = _object_text(i, doc, rank_fields), url_from_metadata(doc)
        given = urls[i] if urls is not None else None
        if given is not None and given.strip():
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

