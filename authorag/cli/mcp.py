"""``authorag mcp``: the authority tools as a Model Context Protocol server (stdio or HTTP).

Flags and ``AUTHORAG_*`` variables are those of ``authorag serve`` (composition, relevance,
policy, limits); the tools are ``score_sources``, ``rerank`` and ``audit_answer``.

Example:
    authorag mcp                                   # stdio: what an MCP client launches
    authorag mcp --transport http --port 8765      # streamable HTTP at http://127.0.0.1:8765/mcp
"""
from __future__ import annotations

import argparse
import sys

from authorag.cli._util import Subparsers
from authorag.cli.serve import add_server_options, check_port_free, relevance_words, server_config


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``mcp`` to the CLI."""
    p = sub.add_parser("mcp", help="serve score_sources, rerank and audit_answer as MCP tools (needs authorag[mcp])",
                       description="A Model Context Protocol server: over stdio (default; an MCP client starts "
                                   "it) or streamable HTTP. Same settings as 'authorag serve'.")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                   help="stdio (default) or streamable HTTP")
    p.add_argument("--host", default="127.0.0.1", help="HTTP: interface to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="HTTP: port (default 8765)")
    p.add_argument("--path", default="/mcp", help="HTTP: endpoint path (default /mcp)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    add_server_options(p)
    p.set_defaults(func=_mcp)


def _mcp(args: argparse.Namespace) -> int:
    import anyio

    from authorag.compose import composition_name
    from authorag.server.mcp import AuthorityMcpServer

    config = server_config(args)
    if args.transport == "http":
        check_port_free(args.host, args.port)
    server = AuthorityMcpServer(config)
    where = "stdio" if args.transport == "stdio" else f"http://{args.host}:{args.port}{args.path}"
    print(f"authorag mcp: {where}; tools score_sources, rerank, audit_answer; scorer "
          f"{composition_name(config.scorer)}; relevance {relevance_words(config)}; limits {config.max_documents} "
          f"documents, {config.max_urls} urls per call", file=sys.stderr, flush=True)
    if args.transport == "stdio":
        anyio.run(server.run_stdio)
    else:
        server.run_http(args.host, args.port, args.path, args.log_level)
    return 0


__all__ = ["register"]
