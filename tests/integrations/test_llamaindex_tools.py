"""trusted_search_tool inside a real LlamaIndex agent loop (FunctionAgent), and called directly.

The LLM is LlamaIndex's own ``MockFunctionCallingLLM`` with a scripted response generator: it asks
for the search tool, then answers; it records the messages it was given, so the test asserts what
the agent's model read after the tool ran. The search function is local (no network).
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from _search_results import QUERY, RESULTS
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

from authorag.errors import ConfigError
from authorag.integrations.llamaindex_tools import trusted_search_tool

POLICY: dict[str, Any] = {"deny": ("*.biz",), "min_authority": 0.4}


def web_search(query: str) -> list[dict[str, str]]:
    """Search the web for a query."""
    return RESULTS


async def aweb_search(query: str) -> dict[str, Any]:
    """Search the web for a query (async)."""
    return {"query": query, "results": RESULTS}


def _llm(seen: list[list[ChatMessage]]) -> MockFunctionCallingLLM:
    def script(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        seen.append(list(messages))
        if not any(m.role == MessageRole.TOOL for m in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[ToolCallBlock(
                tool_call_id="call-1", tool_name="web_search",
                tool_kwargs={"query": QUERY})])
        return ChatMessage(role=MessageRole.ASSISTANT, content="Per nih.gov, the effect is modest.")

    return MockFunctionCallingLLM(response_generator=script)


def _tool_seen(seen: list[list[ChatMessage]]) -> dict[str, Any]:
    tool_messages = [m for m in seen[-1] if m.role == MessageRole.TOOL]
    assert len(tool_messages) == 1
    return json.loads(tool_messages[0].content or "")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # FunctionAgent reads pydantic's __fields__ itself
@pytest.mark.parametrize("search", [web_search, aweb_search])
def test_agent_reads_filtered_results(search: Any) -> None:
    seen: list[list[ChatMessage]] = []
    tool = trusted_search_tool(search, name="web_search", **POLICY)
    agent = FunctionAgent(tools=[tool], llm=_llm(seen))
    answer = asyncio.run(_run(agent))
    got = _tool_seen(seen)
    assert [r["url"] for r in got["results"]] == ["https://www.nih.gov/news/cranberry-uti"]
    assert got["results"][0]["authority"]["trust_reason"] == "credible"
    assert {d["url"]: d["reason"] for d in got["authorag"]["dropped"]} == {
        "https://healthy-tips-4u.example.biz/cranberry": "matches the deny list",
        "https://cranberrycure.blogspot.com/post": "trust 0.35 below min_authority 0.4"}
    assert answer == "Per nih.gov, the effect is modest."


async def _run(agent: FunctionAgent) -> str:
    return str(await agent.run(user_msg=QUERY))


def test_sync_call_filters_and_keeps_schema() -> None:
    tool = trusted_search_tool(web_search, **POLICY)
    assert tool.metadata.name == "web_search"
    assert list(tool.metadata.get_parameters_dict()["properties"]) == ["query"]
    out = json.loads(tool.call(query=QUERY).content)
    assert [r["url"] for r in out["results"]] == ["https://www.nih.gov/news/cranberry-uti"]


def test_other_output_is_returned_as_is() -> None:
    tool = trusted_search_tool(lambda query: "sunny, 21 degrees", name="weather")
    assert tool.call(query="x").content == "sunny, 21 degrees"


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown policy field"):
        trusted_search_tool(web_search, wieght=0.5)
