"""The structured citation shapes of common chat APIs: URL citations with character offsets.

Recognized in the input object (besides a plain ``answer`` with markers):

- ``annotations`` next to ``answer``, or a chat-completion ``message`` / ``choices[0].message``
  (``{"content", "annotations": [{"type": "url_citation", "url_citation": {"start_index",
  "end_index", "url", "title"}}]}``);
- a responses-style ``output`` list whose ``output_text`` parts carry ``annotations`` with
  ``start_index``/``end_index``/``url`` at the top level of each annotation;
- ``grounding_metadata`` / ``groundingMetadata`` (``groundingChunks[].web.uri`` and
  ``groundingSupports[].segment.startIndex/endIndex`` + ``groundingChunkIndices``); these
  offsets count UTF-8 bytes and are converted to characters;
- an ``answer``/``content`` list of text blocks with ``citations: [{"url", "title"}]`` (the
  citation covers its block);
- ``citations``: a list of URLs numbered from 1 (what ``[1]`` markers refer to) when
  ``sources`` is absent.

Example:
    >>> text, spans = citation_spans({"answer": "Flu shots work.", "annotations": [
    ...     {"type": "url_citation", "url_citation": {"start_index": 0, "end_index": 15,
    ...      "url": "https://cdc.gov/flu", "title": "CDC"}}]})
    >>> text, spans[0].url
    ('Flu shots work.', 'https://cdc.gov/flu')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from authorag.errors import ConfigError


@dataclass(frozen=True, slots=True)
class CitationSpan:
    """A URL cited for the answer characters ``[start, end)``."""

    start: int
    end: int
    url: str
    title: str = ""


def _list(value: object) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def _map(value: object) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], value) if isinstance(value, Mapping) else {}


def _url_annotations(text: str, annotations: list[Any]) -> list[CitationSpan]:
    spans: list[CitationSpan] = []
    for i, ann in enumerate(annotations):
        a = _map(ann)
        body = _map(a.get("url_citation")) or a  # chat: nested; responses: flat
        if a.get("type") not in (None, "url_citation") or "url" not in body:
            continue
        start, end = body.get("start_index"), body.get("end_index")
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end <= len(text):
            raise ConfigError(f"annotations[{i}]: start_index/end_index must be integers with "
                              f"0 <= start <= end <= {len(text)} (the answer's length), got {start!r}, {end!r}")
        spans.append(CitationSpan(start, end, str(body["url"]), str(body.get("title") or "")))
    return spans


def _responses(output: list[Any]) -> tuple[str, list[CitationSpan]]:
    text, spans = "", []
    for item in output:
        for part in _list(_map(item).get("content")):
            p = _map(part)
            if p.get("type") != "output_text":
                continue
            base, chunk = len(text), str(p.get("text", ""))
            spans += [CitationSpan(s.start + base, s.end + base, s.url, s.title)
                      for s in _url_annotations(chunk, _list(p.get("annotations")))]
            text += chunk
    return text, spans


def _grounding(text: str, meta: Mapping[str, Any]) -> list[CitationSpan]:
    chunks = [_map(_map(c).get("web")) for c in _list(meta.get("groundingChunks") or meta.get("grounding_chunks"))]
    raw = text.encode("utf-8")
    spans: list[CitationSpan] = []
    for i, sup in enumerate(_list(meta.get("groundingSupports") or meta.get("grounding_supports"))):
        s = _map(sup)
        seg = _map(s.get("segment"))
        start = len(raw[:_offset(seg, "startIndex", "start_index", i)].decode("utf-8", "ignore"))
        end = len(raw[:_offset(seg, "endIndex", "end_index", i)].decode("utf-8", "ignore"))
        for idx in _list(s.get("groundingChunkIndices") or s.get("grounding_chunk_indices")):
            if not isinstance(idx, int) or not 0 <= idx < len(chunks):
                raise ConfigError(f"grounding support cites chunk {idx!r}, but there are {len(chunks)} "
                                  "groundingChunks; the indices must point into that list")
            web = chunks[idx]
            spans.append(CitationSpan(start, end, str(web.get("uri", "")), str(web.get("title", ""))))
    return spans


def _offset(segment: Mapping[str, Any], camel: str, snake: str, index: int) -> int:
    """A byte offset of a grounding segment: a missing one is 0; anything but an int >= 0 is refused."""
    value = segment.get(camel, segment.get(snake, 0))
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"groundingSupports[{index}].segment.{camel} must be an integer >= 0 (a UTF-8 byte "
                          f"offset into the answer), got {value!r:.40}")
    return value


def _blocks(blocks: list[Any]) -> tuple[str, list[CitationSpan]]:
    text, spans = "", []
    for block in blocks:
        b = _map(block)
        if b.get("type", "text") != "text":
            continue
        chunk = str(b.get("text", ""))
        for c in _list(b.get("citations")):
            cm = _map(c)
            if cm.get("url"):
                spans.append(CitationSpan(len(text), len(text) + len(chunk), str(cm["url"]), str(cm.get("title") or "")))
        text += chunk
    return text, spans


def citation_spans(obj: Mapping[str, Any]) -> tuple[str, list[CitationSpan]]:
    """The answer text and the URL citations with character offsets, from any known shape.

    Returns ``(answer, [])`` for a plain answer whose citations are markers.
    """
    answer = obj.get("answer")
    if isinstance(answer, list):
        return _blocks(cast(list[Any], answer))
    if isinstance(obj.get("content"), list) and answer is None:
        return _blocks(cast(list[Any], obj["content"]))
    if isinstance(obj.get("output"), list) and answer is None:
        return _responses(cast(list[Any], obj["output"]))
    message = _map(obj.get("message")) or _map(_map(_list(obj.get("choices"))[0]).get("message") if _list(obj.get("choices")) else None)
    text = str(answer if answer is not None else message.get("content") or "")
    meta = _map(obj.get("grounding_metadata") or obj.get("groundingMetadata"))
    if meta:
        return text, _grounding(text, meta)
    annotations = _list(obj.get("annotations")) or _list(message.get("annotations"))
    return text, _url_annotations(text, annotations)


__all__ = ["CitationSpan", "citation_spans"]
