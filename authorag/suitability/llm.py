"""Optional LLM layers: source type of a host + path pattern, and the topic of a query.

They run on any :class:`~authorag.judges.backends.base.LLMBackend` (the embedded model or an
OpenAI-compatible server); wrap it in :class:`~authorag.judges.backends.cache.CachedBackend` for a
persistent cache. The source-type prompt shows only the host and a *path pattern* (the first two
path segments, numbers and ids replaced by ``{id}``), so one answer serves every page of that
pattern: the layer also keeps answers in memory per (host, pattern). Output is constrained by a
grammar to one identifier; an unreadable answer is logged and yields no vote (never a guess).

Example:
    >>> from authorag.testing import FakeBackend
    >>> layer = LLMSourceTypeLayer(FakeBackend(["forum"]))
    >>> layer.vote("talk.example.org", "/t/123/my-question")
    ('forum', 0.6, 'llm', 'LLM on talk.example.org/t/{id}')
    >>> path_pattern("/2021/05/best-shoes-for-running?ref=x")
    '/{id}/{id}'
"""
from __future__ import annotations

import logging
import re

from authorag.errors import JudgeError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.suitability.cues import Vote
from authorag.suitability.taxonomy import SOURCE_TYPES, TOPICS, SourceType, Topic

logger = logging.getLogger(__name__)

PROMPT_VERSION = "source_type_v1"
TOPIC_PROMPT_VERSION = "query_topic_v1"
LLM_WEIGHT = 0.6

_TYPES = [t for t in SOURCE_TYPES if t != "unknown"]
_SYSTEM = "You classify web sources. Answer with one identifier from the list and nothing else."
_USER = ("What kind of publisher is this web page from? Identifiers:\n"
         "government (government or intergovernmental body), academic (university, journal, paper index), "
         "professional (professional, medical or standards body), news (news or media outlet), "
         "reference (encyclopedia or dictionary), commercial (vendor, shop, product or affiliate review), "
         "forum (discussion forum or Q&A site), social (social network or video platform), "
         "blog (personal or small blog), docs_code (software documentation or code), "
         "content_farm (SEO content or answer farm), unknown (cannot tell).\n\nPage: https://{page}\nIdentifier:")
_TOPIC_USER = ("Which topic is this question about? Identifiers: " + ", ".join(TOPICS)
               + ".\n\nQuestion: {query}\nIdentifier:")
_ID = re.compile(r"^(?:\d+|[0-9a-f]{8,}|[\w-]*\d[\w-]{6,})$")


def _grammar(options: list[str]) -> str:
    return "root ::= " + " | ".join(f'"{o}"' for o in options)


def path_pattern(path: str) -> str:
    """The first two path segments of a lower-cased path, ids and long slugs replaced by ``{id}``."""
    segs = [s for s in path.split("?", 1)[0].split("/") if s][:2]
    return "/" + "/".join("{id}" if _ID.match(s) or len(s) > 40 else s for s in segs) if segs else "/"


def _first(text: str, options: list[str]) -> str | None:
    words = re.findall(r"[a-z_]+", text.lower())
    return next((w for w in words if w in options), None)


class LLMSourceTypeLayer:
    """The classifier's LLM layer: one vote per (host, path pattern), remembered in memory.

    Args:
        backend: any LLM backend (wrap in ``CachedBackend`` to persist answers).
        max_memory: most (host, pattern) answers kept in memory.
    """

    def __init__(self, backend: LLMBackend, *, max_memory: int = 100_000) -> None:
        self.backend = backend
        self.max_memory = max_memory
        self._memory: dict[tuple[str, str], SourceType | None] = {}
        self.calls = 0

    def vote(self, host: str, path: str) -> Vote | None:
        """The model's vote for ``host`` + the pattern of ``path`` (None: no usable answer)."""
        pattern = path_pattern(path)
        key = (host, pattern)
        if key not in self._memory:
            answer = self._ask(host + pattern)
            if len(self._memory) < self.max_memory:
                self._memory[key] = answer
            return self._vote(answer, host + pattern)
        return self._vote(self._memory[key], host + pattern)

    def _ask(self, page: str) -> SourceType | None:
        request = ChatRequest(messages=[{"role": "system", "content": _SYSTEM},
                                        {"role": "user", "content": _USER.format(page=page)}],
                              max_tokens=8, grammar=_grammar([*_TYPES, "unknown"]), prompt_version=PROMPT_VERSION)
        self.calls += 1
        try:
            text = self.backend.complete(request).text
        except JudgeError as exc:
            logger.warning("source-type LLM failed for %s: %s", page, exc)
            return None
        answer = _first(text, [*_TYPES, "unknown"])
        if answer is None:
            logger.warning("source-type LLM gave no identifier for %s: %r", page, text[:80])
        return None if answer in (None, "unknown") else answer  # type: ignore[return-value]

    @staticmethod
    def _vote(answer: SourceType | None, page: str) -> Vote | None:
        return None if answer is None else (answer, LLM_WEIGHT, "llm", f"LLM on {page}")

    def __repr__(self) -> str:
        return f"LLMSourceTypeLayer(backend={getattr(self.backend, 'name', '?')!r})"


class LLMTopicLayer:
    """The topic classifier's LLM layer (asked only when keywords and prototypes abstain)."""

    def __init__(self, backend: LLMBackend) -> None:
        self.backend = backend

    def topic(self, query: str) -> Topic | None:
        """The model's topic for ``query``, or None."""
        request = ChatRequest(messages=[{"role": "system", "content": "You classify questions by topic."},
                                        {"role": "user", "content": _TOPIC_USER.format(query=query[:500])}],
                              max_tokens=8, grammar=_grammar(list(TOPICS)), prompt_version=TOPIC_PROMPT_VERSION)
        try:
            text = self.backend.complete(request).text
        except JudgeError as exc:
            logger.warning("topic LLM failed: %s", exc)
            return None
        return _first(text, list(TOPICS))  # type: ignore[return-value]


__all__ = ["LLMSourceTypeLayer", "LLMTopicLayer", "path_pattern"]
