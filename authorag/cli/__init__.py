"""The ``authorag`` command line. ``main(argv) -> int``; each command lives in its own module.

A command module exposes ``register(subparsers) -> None``, which adds its parser and sets
``func`` (``(args) -> int``) as the parser default. Modules import heavy dependencies only
inside ``func``, so ``authorag --help`` stays fast.

The package sits on top of the library: commands import ``authorag.*`` freely, and no library
module imports ``authorag.cli`` (tests/test_architecture.py checks it). ``priors.py`` holds
``score`` and ``priors`` (its sub-commands in ``priors_pagerank``, ``priors_learned``,
``priors_store``); ``rerank.py`` holds ``rerank`` and ``demo`` (drawn by ``demo.py``);
``bench.py`` holds ``bench`` (``bench suite`` in ``bench_suite``, ``bench judges`` in
``bench_judges``); ``judge.py``, ``serve.py``, ``mcp.py``, ``audit.py`` and ``spark.py`` one
command each; ``websearch.py`` holds ``export`` and ``check``; ``_util`` the shared input, output
and progress helpers.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from authorag.errors import AuthoragError

COMMAND_MODULES: tuple[str, ...] = (
    "authorag.cli.priors",
    "authorag.cli.rerank",
    "authorag.cli.judge",
    "authorag.cli.serve",
    "authorag.cli.mcp",
    "authorag.cli.bench",
    "authorag.cli.audit",
    "authorag.cli.spark",
    "authorag.cli.websearch",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered command."""
    from authorag import __version__
    from authorag.cli._util import CommandParser

    parser = CommandParser(prog="authorag", description="Authority-aware reranking for RAG.")
    parser.add_argument("--version", action="version", version=f"authorag {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (2 for usage errors, 1 for failures)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = int(func(args))
        sys.stdout.flush()  # inside the try: a closed pipe shows up here, not at interpreter exit
        return code
    except AuthoragError as exc:
        print(f"authorag: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`authorag ... | head`): stop quietly, as Unix tools do. Point
        # stdout at /dev/null so the interpreter's final flush does not raise a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, the shell's code for a writer killed by a closed pipe


def entry() -> None:
    """Console-script entry point."""
    raise SystemExit(main())


__all__ = ["COMMAND_MODULES", "build_parser", "entry", "main"]
