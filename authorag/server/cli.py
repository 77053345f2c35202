"""``authorag serve``: run the rerank API with uvicorn.

Flags override ``AUTHORAG_*`` environment variables (see :mod:`authorag.server.config`). The
merged settings go to every worker process through those variables.

Example:
    authorag serve --host 127.0.0.1 --port 8000 --weight 0.4 --api-key "$KEY"
"""
from __future__ import annotations

import argparse
import os

from authorag._cliutil import Subparsers
from authorag.compose import add_scorer_options, settings_from_args


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the CLI."""
    p = sub.add_parser("serve", help="run the Cohere/Jina-compatible rerank API (needs authorag[server])")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    p.add_argument("--reuse-port", action=argparse.BooleanOptionalAction, default=None,
                   help="with --workers > 1: one SO_REUSEPORT socket per worker, so the kernel spreads "
                        "connections evenly (default where supported); --no-reuse-port uses uvicorn's "
                        "shared socket")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--weight", type=float, help="share of authority in the fused score [0, 1]")
    p.add_argument("--fusion", choices=["linear", "rrf"])
    p.add_argument("--credibility-weight", type=float)
    p.add_argument("--unknown-authority", type=float, help="value fused for unknown sources [0, 1]")
    p.add_argument("--relevance", choices=["bm25", "dense", "rank"],
                   help="relevance over the request's documents (default bm25)")
    p.add_argument("--judge-deadline", type=float, metavar="SECONDS",
                   help="judge time per request, enforced while a call is in flight (default 10); past it the "
                        "request answers with the other tiers and flags the candidates")
    p.add_argument("--judge-workers", type=int, help="judge calls in flight at once (default 4); more are skipped")
    p.add_argument("--api-key", help="require 'Authorization: Bearer KEY' (prefer AUTHORAG_API_KEY)")
    p.add_argument("--max-documents", type=int)
    p.add_argument("--max-urls", type=int)
    p.add_argument("--max-body-bytes", type=int)
    p.add_argument("--max-doc-chars", type=int)
    add_scorer_options(p)
    p.add_argument("--suitability", action="store_true", default=None,
                   help="fuse source-type x query-topic suitability (docs/suitability.md); off by default")
    p.add_argument("--suitability-matrix", metavar="YAML", help="your own suitability matrix file")
    p.add_argument("--max-header-bytes", type=int, help="request header size limit (default 32768; 431 beyond)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from authorag._optional import require
    from authorag.errors import ConfigError
    from authorag.server.config import ServerConfig
    from authorag.server.workers import reuse_port_supported, serve_reuse_port

    uvicorn = require("uvicorn", extra="server", feature="authorag serve")
    config = ServerConfig.from_env(
        weight=args.weight, fusion=args.fusion, credibility_weight=args.credibility_weight,
        unknown_authority=args.unknown_authority, relevance=args.relevance,
        scorer=settings_from_args(args), api_key=args.api_key, max_documents=args.max_documents,
        max_urls=args.max_urls, max_body_bytes=args.max_body_bytes, max_doc_chars=args.max_doc_chars,
        suitability=args.suitability, suitability_matrix=args.suitability_matrix,
        judge_deadline_s=args.judge_deadline, judge_workers=args.judge_workers,
        max_header_bytes=args.max_header_bytes,
    )
    os.environ.update(config.to_env())
    if args.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {args.workers}")
    reuse = args.reuse_port if args.reuse_port is not None else reuse_port_supported()
    if args.workers > 1 and reuse:
        if not reuse_port_supported():
            raise ConfigError("--reuse-port needs SO_REUSEPORT, which this platform lacks; use --no-reuse-port")
        return serve_reuse_port(args.host, args.port, args.workers, log_level=args.log_level, access_log=False,
                                h11_max_incomplete_event_size=config.max_header_bytes)
    uvicorn.run("authorag.server.app:app_from_env", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level=args.log_level, access_log=False,
                h11_max_incomplete_event_size=config.max_header_bytes)
    return 0
