"""docs/integrations.md: the LlamaIndex and MCP examples run and print what the page shows."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"
STDIO_LINE = 'StdioServerParameters(command="authorag", args=["mcp"])'


def _block(kind: str, name: str) -> str:
    """The fenced block right after the ``<!-- kind: name ... -->`` marker."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {kind}: {re.escape(name)}(?: [^>]*)?-->\n```[a-z]*\n(.*?)\n```", text, re.DOTALL)
    assert found is not None, f"no '{kind}: {name}' block in {DOC}"
    return found.group(1)


def _run(code: str, name: str) -> None:
    exec(compile(code, f"docs/integrations.md ({name} example)", "exec"), {"__name__": f"docs_{name}"})


def test_llamaindex_example_prints_what_the_docs_show(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("llama_index.core")
    _run(_block("example", "llamaindex"), "llamaindex")
    assert capsys.readouterr().out == _block("output", "llamaindex") + "\n"


def test_mcp_example_prints_what_the_docs_show(capfd: pytest.CaptureFixture[str]) -> None:
    # capfd: the SDK hands the server process the real stderr file descriptor
    pytest.importorskip("mcp")
    code = _block("example", "mcp")
    assert STDIO_LINE in code
    # The page launches the installed 'authorag'; the test launches this checkout with this interpreter.
    here = f'StdioServerParameters(command={sys.executable!r}, args=["-m", "authorag", "mcp"], env=dict(os.environ))'
    _run("import os\n" + code.replace(STDIO_LINE, here), "mcp")
    assert capfd.readouterr().out == _block("output", "mcp") + "\n"


def test_mcp_client_config_and_quoted_errors() -> None:
    pytest.importorskip("mcp")
    from authorag.server.config import ServerConfig
    from authorag.server.mcp_tools import ToolInputError, call_tool
    from authorag.server.service import RerankService

    config = json.loads(_block("config", "mcp"))
    assert config["mcpServers"]["authorag"]["args"] == ["mcp"]
    assert config["mcpServers"]["authorag"]["command"].endswith("/bin/authorag")
    service = RerankService(ServerConfig(relevance="rank"))
    errors: list[str] = []
    for name, arguments in (("score_sources", {"urls": "cdc.gov"}), ("rerank", {"query": "q", "documents": ["x"] * 1200})):
        with pytest.raises(ToolInputError) as err:
            call_tool(service, name, arguments)
        errors.append(str(err.value))
    assert "\n".join(errors) == _block("output", "mcp-errors")
