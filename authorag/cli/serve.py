"""``authorag serve``: run the rerank API with uvicorn.

Flags override ``AUTHORAG_*`` environment variables (see :mod:`authorag.server.config`). The
merged settings go to every worker process through those variables.

Example:
    authorag serve --host 127.0.0.1 --port 8000 --weight 0.4 --api-key "$KEY"
"""
from __future__ import annotations

import argparse
from typing import Any

from authorag.cli._util import Subparsers
from authorag.compose import ScorerSettings, add_scorer_options, args_environ, composition_name
from authorag.policy import RerankPolicy, add_policy_options
from authorag.server.config import ServerConfig
from authorag.settings import add_flags, export_env, flag_values


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
    add_server_options(p)
    p.set_defaults(func=_serve)


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The :class:`~authorag.server.config.ServerConfig` flags, shared by ``serve`` and ``mcp``: one
    per field (:func:`authorag.settings.add_flags`), then the policy's and the scorer's."""
    add_flags(p, ServerConfig)
    add_policy_options(p, exclude=("top_k",))
    add_scorer_options(p)


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The settings the :func:`add_server_options` flags give, over the ``AUTHORAG_*`` variables
    and the config file (``--config`` or ``AUTHORAG_CONFIG``).

    Raises:
        ConfigError: a flag or variable out of range (``max_documents must be a positive integer``).
    """
    return ServerConfig.from_env(args_environ(args), **flag_values(args, ServerConfig),
                                 **flag_values(args, RerankPolicy), **flag_values(args, ScorerSettings))


def _serve(args: argparse.Namespace) -> int:
    import dataclasses

    from authorag._optional import require
    from authorag.errors import ConfigError
    from authorag.server.encoding import default_encode_threads
    from authorag.server.protocol import protocol_path
    from authorag.server.workers import reuse_port_supported, serve_reuse_port
    from authorag.validation import check_positive_int

    uvicorn = require("uvicorn", extra="server", feature="authorag serve")
    check_positive_int("--workers", args.workers)
    config = with_bind(server_config(args), args.host)
    if config.encode_threads is None:  # each worker its share of the cores
        config = dataclasses.replace(config, encode_threads=default_encode_threads(args.workers))
    check_port_free(args.host, args.port)
    _check_files(config, args.workers)
    _banner(args, config)
    # A request never runs past its deadline, so SIGTERM ends the process by then at the latest.
    uvicorn_kw: dict[str, Any] = {"log_level": args.log_level, "access_log": False, "http": protocol_path(),
                                  "h11_max_incomplete_event_size": config.max_header_bytes,
                                  "timeout_graceful_shutdown": int(config.request_deadline_s) + 1}
    export_env(config.to_env())  # the workers read these; set once every check has passed
    reuse = args.reuse_port if args.reuse_port is not None else reuse_port_supported()
    if args.workers > 1 and reuse:
        if not reuse_port_supported():
            raise ConfigError("--reuse-port needs SO_REUSEPORT, which this platform lacks; use --no-reuse-port")
        return serve_reuse_port(args.host, args.port, args.workers, **uvicorn_kw)
    uvicorn.run("authorag.server.app:app_from_env", factory=True, host=args.host, port=args.port,
                workers=args.workers, **uvicorn_kw)
    return 0


def with_bind(config: ServerConfig, host: str) -> ServerConfig:
    """``config`` with the ``Host`` names a server bound to ``host`` answers
    (:func:`~authorag.server.middleware.allowed_hosts_for`: loopback names on a loopback address)."""
    import dataclasses

    from authorag.server.middleware import allowed_hosts_for

    return dataclasses.replace(config, allowed_hosts=allowed_hosts_for(host, config.allowed_hosts))


def check_port_free(host: str, port: int) -> None:
    """Raise ConfigError when ``host:port`` cannot be bound (in use, or not an address of this machine).

    Checked before the banner and before loading anything, so a busy port is one clear line, not a
    banner and then a traceback. Binds with SO_REUSEADDR and no SO_REUSEPORT, as uvicorn does: a
    listening server (ours with --workers too) makes it fail.

    Example:
        >>> check_port_free("127.0.0.1", 70000)
        Traceback (most recent call last):
        ...
        authorag.errors.ConfigError: --port must be in 1..65535, got 70000
    """
    import errno
    import socket

    from authorag.errors import ConfigError

    if not 0 < port < 65536:
        raise ConfigError(f"--port must be in 1..65535, got {port}")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"{host}:{port} is in use (another authorag serve?); stop the program listening "
                              "there or pick another --port") from exc
        raise ConfigError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); check --host "
                          "(an address of this machine, e.g. 127.0.0.1 or 0.0.0.0) and --port") from exc


def _check_files(config: Any, workers: int = 1) -> None:
    """Read every file the workers will read (prior files, the judge cache, the suitability
    matrix) before the server starts, so a bad one is one error line here, not a traceback in
    each worker. The scorer is cached per settings: a single worker reuses it. With more
    workers the check runs in a short-lived process, so the supervising process does not keep
    the tables in memory beside the workers' own copies.

    Raises:
        ConfigError: a file that cannot be read, with the reason.
    """
    if workers == 1:
        _read_files(config)
        return
    import multiprocessing

    from authorag.errors import ConfigError

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        error = pool.apply(_read_files_error, (config,))
    if error is not None:
        raise ConfigError(error)


def _read_files(config: Any) -> None:
    from authorag.compose import load_scorer
    from authorag.suitability.matrix import load_matrix

    load_scorer(config.scorer)
    if config.suitability or config.suitability_matrix:
        load_matrix(config.suitability_matrix)


def _read_files_error(config: Any) -> str | None:
    """:func:`_read_files` in a child process: the error's message, or None."""
    from authorag.errors import AuthoragError

    try:
        _read_files(config)
    except (AuthoragError, ImportError, OSError, ValueError) as exc:
        return str(exc)
    return None


def _banner(args: argparse.Namespace, config: Any) -> None:
    """What the operator needs at start: where to send requests, what runs, where the docs are."""
    import sys

    base = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}"
    policy = config.policy
    suit = "off"
    if config.suitability or config.suitability_matrix:
        suit = f"on ({config.suitability_matrix or 'shipped matrix'}, weight {policy.suitability_weight})"
    lines = [
        f"authorag serve: {base}  ({args.workers} worker{'s' if args.workers != 1 else ''})",
        f"  rerank    POST {base}/v2/rerank  (also /v1/rerank, /rerank; authority: POST {base}/v1/authority)",
        f"  openapi   {base}/openapi.json" + (f"  (docs {base}/docs)" if config.docs else ""),
        f"  hosts     {', '.join(config.allowed_hosts)}  (--allowed-hosts)",
        f"  scorer    {composition_name(config.scorer)}",
        f"  relevance {relevance_words(config)}; {_fusion_words(policy)}" + _encode_words(config),
        (f"  limits    {config.max_documents} documents, {config.max_urls} urls, {config.max_body_bytes} bytes "
         f"per request; auth {'on' if config.api_key else 'off'}"),
        f"  suitability {suit}; judge deadline {config.judge_deadline_s} s, {config.judge_workers} calls in flight",
    ]
    print("\n".join(lines), file=sys.stderr, flush=True)


def _encode_words(config: ServerConfig) -> str:
    """How dense or cascade relevance encodes, on its own banner line (nothing for another relevance)."""
    if not config.encodes_pages():
        return ""
    threads = "torch's default" if config.encode_threads is None else str(config.encode_threads)
    return (f"\n  encoding  {threads} torch thread(s) per worker, {config.encode_batch} pages per pass, "
            f"{config.max_encoding_documents} new pages in flight per worker (--encode-threads, --encode-batch, "
            "--max-encoding-documents)")


def relevance_words(config: ServerConfig) -> str:
    """``dense`` or ``bm25`` and, when the setting chose between them, the setting."""
    in_use = config.relevance_in_use()
    return in_use if in_use == config.relevance else f"{in_use} ({config.relevance})"


def _fusion_words(policy: Any) -> str:
    """The policy's fusion in one line, naming only the fields that mode reads."""
    signal = (f"signal {policy.signal}" if policy.signal == "trust"
              else f"signal blend (credibility_weight {policy.credibility_weight})")
    head = (f"fusion window (on topic from {policy.on_topic:g} of the best relevance)" if policy.fusion == "window"
            else f"fusion {policy.fusion}" + (f", normalize {policy.normalize}" if policy.fusion == "linear" else ""))
    return f"{head}, {signal}, weight {policy.weight:g}, unknown level {policy.unknown_level:g}"
