"""AuthorityMiddleware inside a real LangChain v1 agent loop (``create_agent``), sync and async.

The chat model is LangChain's own scripted fake (``GenericFakeChatModel``): it asks for the search
tool, then answers; it records every message list it was given, so the tests assert exactly what
the model read after the tool ran. The search tool is a local function (no network).
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from _search_results import MAYO, QUERY
from _search_results import RESULTS as _THREE
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import tool

from authorag import adapters
from authorag.errors import ConfigError
from authorag.integrations.langchain_agents import AuthorityMiddleware
from authorag.websearch.results import ResultFilter, find_results

RESULTS = [*_THREE, MAYO]


class ScriptedChatModel(GenericFakeChatModel):
    """The framework's scripted chat model, recording what it was given; tools bind to itself."""

    seen: list[list[BaseMessage]] = []  # a pydantic field: each instance gets its own list

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def _script(tool_name: str) -> Iterator[AIMessage]:
    call = {"name": tool_name, "args": {"query": QUERY}, "id": "call-1", "type": "tool_call"}
    return iter([AIMessage("", tool_calls=[call]), AIMessage("Per nih.gov, the effect is modest.")])


@tool
def web_search(query: str) -> str:
    """Search the web (a local fake: Tavily's result shape, as a JSON string)."""
    return json.dumps({"query": query, "results": RESULTS})


@tool
def weather(query: str) -> str:
    """Not a search tool: its output must reach the model unchanged."""
    return "sunny, 21 degrees"


def _agent(tools: list[Any], name: str, **policy: Any) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(messages=_script(name), seen=[])
    return create_agent(model, tools=tools, middleware=[AuthorityMiddleware(**policy)]), model


def _tool_message_seen(model: ScriptedChatModel) -> ToolMessage:
    assert len(model.seen) == 2  # the call to the tool, then the answer
    last = model.seen[1][-1]
    assert isinstance(last, ToolMessage)
    return last


def _core_order(**policy: Any) -> list[str]:
    """The adapter core's order for the same results (what every surface must give)."""
    reranker, mode = adapters.build_reranker(relevance="rank", policy=policy)
    flt = ResultFilter(reranker, mode)
    found = find_results(RESULTS)
    assert found is not None
    cands, _ = flt.candidates(found)
    return [c.url for c in reranker.rerank(QUERY, cands).candidates]


POLICY = {"deny": ("*.biz",), "min_authority": 0.4}


def test_sync_agent_reads_filtered_results() -> None:
    agent, model = _agent([web_search], "web_search", **POLICY)
    out = agent.invoke({"messages": [("user", QUERY)]})
    seen = json.loads(_tool_message_seen(model).content)  # type: ignore[arg-type]
    assert [r["url"] for r in seen["results"]] == _core_order(**POLICY)
    assert [r["url"] for r in seen["results"]] == ["https://www.nih.gov/news/cranberry-uti",
                                                    "https://www.mayoclinic.org/cranberry"]
    assert seen["query"] == QUERY  # the tool's other fields are kept
    assert seen["results"][0]["authority"]["domain"] == "nih.gov"
    assert seen["results"][0]["authority"]["rank"] == 1
    assert seen["results"][0]["authority"]["trust_reason"] == "credible"
    dropped = {d["url"]: d["reason"] for d in seen["authorag"]["dropped"]}
    assert dropped == {"https://healthy-tips-4u.example.biz/cranberry": "matches the deny list",
                       "https://cranberrycure.blogspot.com/post": "trust 0.35 below min_authority 0.4"}
    assert seen["authorag"]["kept"] == 2
    assert out["messages"][-1].content == "Per nih.gov, the effect is modest."


def test_async_agent_reads_the_same_as_sync() -> None:
    agent, model = _agent([web_search], "web_search", **POLICY)
    asyncio.run(agent.ainvoke({"messages": [("user", QUERY)]}))
    seen = json.loads(_tool_message_seen(model).content)  # type: ignore[arg-type]
    assert [r["url"] for r in seen["results"]] == _core_order(**POLICY)
    assert [d["url"] for d in seen["authorag"]["dropped"]] == [
        "https://healthy-tips-4u.example.biz/cranberry", "https://cranberrycure.blogspot.com/post"]


def test_other_tools_pass_untouched() -> None:
    agent, model = _agent([weather], "weather", **POLICY)
    agent.invoke({"messages": [("user", "weather?")]})
    assert _tool_message_seen(model).content == "sunny, 21 degrees"


def test_watch_limits_the_tools_rewritten() -> None:
    agent, model = _agent([web_search], "web_search", watch=("other_search",))
    agent.invoke({"messages": [("user", QUERY)]})
    assert json.loads(_tool_message_seen(model).content) == {"query": QUERY, "results": RESULTS}  # type: ignore[arg-type]


def test_rerank_without_drops_keeps_every_result_in_core_order() -> None:
    agent, model = _agent([web_search], "web_search")
    agent.invoke({"messages": [("user", QUERY)]})
    seen = json.loads(_tool_message_seen(model).content)  # type: ignore[arg-type]
    assert [r["url"] for r in seen["results"]] == _core_order()
    assert seen["authorag"] == {"kept": 4, "dropped": []}


def test_bad_policy_field_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown policy field"):
        AuthorityMiddleware(wieght=0.5)


def test_list_content_becomes_a_json_string() -> None:
    from langchain.agents.middleware.types import ToolCallRequest

    call = {"name": "web_search", "args": {"query": QUERY}, "id": "c", "type": "tool_call"}
    request = ToolCallRequest(tool_call=call, tool=None, state={}, runtime=None)  # type: ignore[arg-type]
    message = ToolMessage(content=[dict(r) for r in RESULTS], tool_call_id="c")  # type: ignore[arg-type]
    out = AuthorityMiddleware(deny=("*.biz",)).wrap_tool_call(request, lambda _r: message)
    assert isinstance(out, ToolMessage) and isinstance(out.content, str)
    got = json.loads(out.content)
    assert len(got["results"]) == 3 and got["authorag"]["dropped"][0]["reason"] == "matches the deny list"
