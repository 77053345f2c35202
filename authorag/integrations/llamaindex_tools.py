"""LlamaIndex agents: a web-search tool whose output is trust-filtered before the agent reads it.

:func:`trusted_search_tool` wraps your search function (sync or async) in a LlamaIndex
``FunctionTool`` with the same name, description and argument schema; when the function returns
web-search results (:func:`authorag.websearch.results.find_results`) the tool returns them reranked
or filtered with the one composition and policy, as a JSON string with an ``authority`` breakdown
per result and an ``authorag`` note of what was dropped and why. Anything else is returned as is.

Install with ``pip install 'authorag[llamaindex]'``.

Usage (docs/integrations.md has a runnable example)::

    tool = trusted_search_tool(my_search, deny=("*.biz",), min_authority=0.35)
    agent = FunctionAgent(tools=[tool], llm=llm)
"""
from __future__ import annotations

import asyncio
import functools
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from authorag import adapters
from authorag._optional import require
from authorag.policy import make_policy

require("llama_index.core", extra="llamaindex", feature="authorag.integrations.llamaindex_tools")

from llama_index.core.tools import FunctionTool

from authorag.priors.base import AuthorityScorer
from authorag.websearch.results import ResultFilter, find_results


def _query(args: tuple[Any, ...], kwargs: Mapping[str, Any], query_arg: str) -> str:
    value = kwargs.get(query_arg)
    if value is None and args:
        value = args[0]
    return value if isinstance(value, str) else ""


def _text(out: Any) -> str:
    return out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)


def trusted_search_tool(search: Callable[..., Any], *, name: str | None = None, description: str | None = None,
                        scorer: AuthorityScorer | None = None, relevance: str = "rank", top_n: int | None = None,
                        query_arg: str = "query", **policy: Any) -> FunctionTool:
    """A ``FunctionTool`` calling ``search`` and trust-filtering what it returns.

    Args:
        search: your search function (sync or ``async``); its first argument, or ``query_arg``,
            is the query the results are ranked for.
        name, description: the tool's (default: the function's name and docstring).
        scorer, relevance, top_n: as :class:`~authorag.integrations.langchain_agents.AuthorityMiddleware`.
        policy: :class:`~authorag.policy.RerankPolicy` fields, validated now.

    Raises:
        ConfigError: an unknown or invalid policy field.
    """
    flt = ResultFilter(*adapters.build_reranker(scorer, relevance, make_policy(policy)), top_n)

    async def acall(*args: Any, **kwargs: Any) -> Any:
        out = await search(*args, **kwargs) if is_async else await asyncio.to_thread(search, *args, **kwargs)
        found = find_results(out)
        return out if found is None else _text(await flt.aapply(_query(args, kwargs, query_arg), found))

    def call(*args: Any, **kwargs: Any) -> Any:
        out = search(*args, **kwargs)
        found = find_results(out)
        return out if found is None else _text(flt.apply(_query(args, kwargs, query_arg), found))

    is_async = inspect.iscoroutinefunction(search)
    functools.update_wrapper(acall, search)
    functools.update_wrapper(call, search)
    return FunctionTool.from_defaults(fn=None if is_async else call, async_fn=acall, name=name, description=description)


__all__ = ["trusted_search_tool"]
