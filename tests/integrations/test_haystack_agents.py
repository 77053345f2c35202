"""AuthorityToolHook inside a real Haystack Agent loop, sync and async.

The chat generator is Haystack's own ``MockChatGenerator`` with a scripted ``response_fn``: it asks
for the search tool, then answers; it records the messages it was given, so the tests assert what
the model read after the tool ran. The search tool is a local function (no network).
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("haystack")

from _search_results import QUERY, RESULTS
from haystack.components.agents import Agent
from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ToolCall
from haystack.tools import Tool

from authorag.errors import ConfigError
from authorag.integrations.haystack_agents import AuthorityToolHook

PARAMS = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}


def _tool(name: str, answer: str) -> Tool:
    return Tool(name=name, description="search the web", parameters=PARAMS, function=lambda query: answer)


def _agent(tool: Tool, seen: list[list[ChatMessage]], **policy: Any) -> Agent:
    def script(messages: list[ChatMessage]) -> ChatMessage:
        seen.append(list(messages))
        if not any(m.tool_call_result is not None for m in messages):
            return ChatMessage.from_assistant(tool_calls=[ToolCall(tool_name=tool.name, arguments={"query": QUERY})])
        return ChatMessage.from_assistant("Per nih.gov, the effect is modest.")

    agent = Agent(chat_generator=MockChatGenerator(response_fn=script), tools=[tool],
                  hooks={"after_tool": [AuthorityToolHook(**policy)]})
    agent.warm_up()
    return agent


def _tool_text(seen: list[list[ChatMessage]]) -> str:
    results = [m.tool_call_result for m in seen[-1] if m.tool_call_result is not None]
    assert len(results) == 1
    return str(results[0].result)


POLICY: dict[str, Any] = {"deny": ("*.biz",), "min_authority": 0.4}
TAVILY = json.dumps({"query": QUERY, "results": RESULTS})


def _check(seen: list[list[ChatMessage]]) -> None:
    got = json.loads(_tool_text(seen))
    assert [r["url"] for r in got["results"]] == ["https://www.nih.gov/news/cranberry-uti"]
    assert got["query"] == QUERY
    assert {d["url"]: d["reason"] for d in got["authorag"]["dropped"]} == {
        "https://healthy-tips-4u.example.biz/cranberry": "matches the deny list",
        "https://cranberrycure.blogspot.com/post": "trust 0.35 below min_authority 0.4"}


def test_sync_agent_reads_filtered_results() -> None:
    seen: list[list[ChatMessage]] = []
    out = _agent(_tool("web_search", TAVILY), seen, **POLICY).run(messages=[ChatMessage.from_user(QUERY)])
    _check(seen)
    assert out["last_message"].text == "Per nih.gov, the effect is modest."


def test_async_agent_reads_the_same() -> None:
    seen: list[list[ChatMessage]] = []
    agent = _agent(_tool("web_search", TAVILY), seen, **POLICY)
    asyncio.run(agent.run_async(messages=[ChatMessage.from_user(QUERY)]))
    _check(seen)


def test_other_tools_and_unwatched_tools_pass_untouched() -> None:
    seen: list[list[ChatMessage]] = []
    _agent(_tool("weather", "sunny, 21 degrees"), seen, **POLICY).run(messages=[ChatMessage.from_user("weather?")])
    assert _tool_text(seen) == "sunny, 21 degrees"
    seen.clear()
    _agent(_tool("web_search", TAVILY), seen, watch=("other",)).run(messages=[ChatMessage.from_user(QUERY)])
    assert _tool_text(seen) == TAVILY


def test_hook_serializes() -> None:
    hook = AuthorityToolHook(deny=("*.biz",), top_n=3)
    again = AuthorityToolHook.from_dict(hook.to_dict())
    assert again.policy == {"deny": ["*.biz"]} and again.top_n == 3


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown policy field"):
        AuthorityToolHook(wieght=0.5)
