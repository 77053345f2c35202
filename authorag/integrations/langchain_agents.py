"""LangChain agents: trust on web-search tool results before the model reads them.

:class:`AuthorityMiddleware` is a ``langchain`` (v1) ``AgentMiddleware``: around every tool call
of a ``create_agent`` agent it reads the tool's output, and when that output holds web-search
results (:func:`authorag.websearch.results.find_results`: a list of ``{url|link, title,
content|snippet}``, Tavily's or Exa's ``{"results": [...]}``, Brave's ``web.results``, JSON
strings of those) it reranks or filters them with the one composition and policy
(:mod:`authorag.adapters`) and hands the model the kept results, each with an ``authority``
breakdown it can cite, and an ``authorag`` note of what was dropped and why. Other tools'
outputs, errors and ``Command`` results pass through untouched.

Install with ``pip install 'authorag[langchain]'``.

Usage (docs/integrations.md has a runnable example)::

    from langchain.agents import create_agent

    agent = create_agent(model, tools=[web_search],
                         middleware=[AuthorityMiddleware(deny=("*.blogspot.com",), min_authority=0.3)])
"""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from authorag import adapters
from authorag._optional import require
from authorag.policy import make_policy

require("langchain.agents", extra="langchain", feature="authorag.integrations.langchain_agents")

from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import ToolCallRequest
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from authorag.priors.base import AuthorityScorer
from authorag.websearch.results import ResultFilter, SearchResults, find_results

QUERY_KEYS: tuple[str, ...] = ("query", "q", "search_query", "question")
"""Tool-call arguments read, in order, as the query the results are ranked for."""

_Result = ToolMessage | Command[Any]


class AuthorityMiddleware(AgentMiddleware):  # type: ignore[type-arg]
    """Rerank or filter web-search tool results with authorag before the model reads them.

    Args:
        watch: names of the tools to watch; None watches every tool whose output holds search results.
        scorer: authority scorer; default the shipped composition.
        relevance: a relevance mode (default ``"rank"``: the engine's own order) or scorer name.
        top_n: hand the model at most this many results (None keeps all the policy keeps).
        policy: :class:`~authorag.policy.RerankPolicy` fields (``deny``, ``allow``,
            ``min_authority``, ``mode``, ``weight``...), validated now.

    Raises:
        ConfigError: an unknown or invalid policy field or relevance choice.
    """

    def __init__(self, *, watch: Sequence[str] | None = None, scorer: AuthorityScorer | None = None,
                 relevance: str = "rank", top_n: int | None = None, **policy: Any) -> None:
        super().__init__()
        reranker, mode = adapters.build_reranker(scorer, relevance, make_policy(policy))
        self.filter = ResultFilter(reranker, mode, top_n)
        self.watch = None if watch is None else frozenset(watch)

    def _found(self, request: ToolCallRequest, result: _Result) -> SearchResults | None:
        if not isinstance(result, ToolMessage) or result.status == "error":
            return None
        if self.watch is not None and request.tool_call["name"] not in self.watch:
            return None
        return find_results(result.content)

    @staticmethod
    def _query(request: ToolCallRequest) -> str:
        args: Mapping[str, Any] = request.tool_call.get("args") or {}
        for key in QUERY_KEYS:
            value = args.get(key)
            if isinstance(value, str):
                return value
        return ""

    @staticmethod
    def _message(result: ToolMessage, content: Any) -> ToolMessage:
        """A copy of ``result`` with the rewritten content (a JSON string when the tool gave a Python list)."""
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        return result.model_copy(update={"content": text})

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], _Result]) -> _Result:
        """Run the tool; rewrite its output when it holds search results."""
        result = handler(request)
        found = self._found(request, result)
        if found is None:
            return result
        assert isinstance(result, ToolMessage)
        return self._message(result, self.filter.apply(self._query(request), found))

    async def awrap_tool_call(self, request: ToolCallRequest,
                              handler: Callable[[ToolCallRequest], Awaitable[_Result]]) -> _Result:
        """Async twin of :meth:`wrap_tool_call` (scoring runs off the event loop)."""
        result = await handler(request)
        found = self._found(request, result)
        if found is None:
            return result
        assert isinstance(result, ToolMessage)
        return self._message(result, await self.filter.aapply(self._query(request), found))


__all__ = ["QUERY_KEYS", "AuthorityMiddleware"]
