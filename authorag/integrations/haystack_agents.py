"""Haystack agents: trust on web-search tool results before the model reads them.

:class:`AuthorityToolHook` is an ``after_tool`` hook of a Haystack ``Agent``: after the tools of a
step run, it rewrites each fresh tool-result message that holds web-search results
(:func:`authorag.websearch.results.find_results`) into the kept results in the policy's order,
each with an ``authority`` breakdown, and an ``authorag`` note of what was dropped and why (a
JSON string). Other tools' results and tool errors are left alone.

Install with ``pip install 'authorag[haystack]'``.

Usage (docs/integrations.md has a runnable example)::

    agent = Agent(chat_generator=generator, tools=[web_search],
                  hooks={"after_tool": [AuthorityToolHook(deny=("*.biz",), min_authority=0.35)]})
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from authorag import adapters
from authorag._optional import require
from authorag.policy import make_policy

require("haystack", extra="haystack", feature="authorag.integrations.haystack_agents")

from haystack import default_from_dict, default_to_dict
from haystack.components.agents.state import State
from haystack.components.agents.state.state_utils import replace_values
from haystack.dataclasses import ChatMessage

from authorag.websearch.results import ResultFilter, SearchResults, find_results

QUERY_KEYS: tuple[str, ...] = ("query", "q", "search_query", "question")
"""Tool-call arguments read, in order, as the query the results are ranked for."""

_Target = tuple[int, ChatMessage, SearchResults, str]  # position, message, its results, the query


class AuthorityToolHook:
    """An ``after_tool`` hook reranking or filtering web-search tool results with authorag.

    Args:
        watch: names of the tools to watch; None watches every tool whose result holds search results.
        relevance: a relevance mode (default ``"rank"``: the engine's own order) or scorer name.
        top_n: keep at most this many results (None keeps all the policy keeps).
        policy: :class:`~authorag.policy.RerankPolicy` fields, validated now.

    Raises:
        ConfigError: an unknown or invalid policy field or relevance choice.
    """

    def __init__(self, *, watch: Sequence[str] | None = None, relevance: str = "rank", top_n: int | None = None,
                 **policy: Any) -> None:
        self.watch = None if watch is None else tuple(watch)
        self.relevance, self.top_n, self.policy = relevance, top_n, dict(policy)
        reranker, mode = adapters.build_reranker(None, relevance, make_policy(policy))
        self.filter = ResultFilter(reranker, mode, top_n)

    def _targets(self, messages: list[ChatMessage]) -> list[_Target]:
        """The step's fresh tool results (the trailing tool messages) that hold search results."""
        out: list[_Target] = []
        i = len(messages)
        while i > 0 and messages[i - 1].tool_call_result is not None:
            i -= 1
            result = messages[i].tool_call_result
            assert result is not None
            origin = result.origin
            if result.error or (self.watch is not None and origin.tool_name not in self.watch):
                continue
            found = find_results(result.result)
            if found is not None:
                query = next((v for k in QUERY_KEYS if isinstance(v := origin.arguments.get(k), str)), "")
                out.append((i, messages[i], found, query))
        return out

    @staticmethod
    def _write(state: State, messages: list[ChatMessage], new: dict[int, ChatMessage]) -> None:
        if new:
            state.set("messages", [new.get(i, m) for i, m in enumerate(messages)], handler_override=replace_values)

    @staticmethod
    def _message(old: ChatMessage, out: Any) -> ChatMessage:
        result = old.tool_call_result
        assert result is not None
        text = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)
        return ChatMessage.from_tool(tool_result=text, origin=result.origin, meta=old.meta)

    def run(self, state: State) -> None:
        """Rewrite the step's search-tool results in ``state`` (the Agent calls this)."""
        messages: list[ChatMessage] = list(state.get("messages") or [])
        new = {i: self._message(m, self.filter.apply(q, f)) for i, m, f, q in self._targets(messages)}
        self._write(state, messages, new)

    async def run_async(self, state: State) -> None:
        """Async twin of :meth:`run` (scoring runs off the event loop)."""
        messages: list[ChatMessage] = list(state.get("messages") or [])
        new = {i: self._message(m, await self.filter.aapply(q, f)) for i, m, f, q in self._targets(messages)}
        self._write(state, messages, new)

    def to_dict(self) -> dict[str, Any]:
        """Serialize the hook (its settings; the reranker is rebuilt on load)."""
        return default_to_dict(self, watch=None if self.watch is None else list(self.watch), relevance=self.relevance,
                               top_n=self.top_n, **{k: list(v) if isinstance(v, tuple) else v
                                                    for k, v in self.policy.items()})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuthorityToolHook:
        """The hook from :meth:`to_dict`'s output."""
        return default_from_dict(cls, data)


__all__ = ["QUERY_KEYS", "AuthorityToolHook"]
