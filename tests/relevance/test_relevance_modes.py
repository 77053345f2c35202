"""The relevance modes are one list: :data:`authorag.types.Relevance`. The places that spell them out
again (the adapters' order modes, the relevance registry, the server's modes, the CLI's choices, the
docs) must name the same modes, so a mode added in one place and not the others fails here."""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import get_args

from authorag.adapters import ORDER_MODES
from authorag.cli.rerank import register
from authorag.relevance.registry import CASCADE_OR_BM25, RELEVANCE_REGISTRY
from authorag.server.config import SERVER_RELEVANCE
from authorag.types import Relevance

DOCS = Path(__file__).resolve().parents[2] / "docs"
MODES = set(get_args(Relevance))
SCORED = {"upstream", "similarity"}  # modes that read a score each document brings


def test_order_modes_and_the_registry_make_the_vocabulary() -> None:
    assert set(ORDER_MODES) | set(RELEVANCE_REGISTRY) | {CASCADE_OR_BM25} == MODES
    assert not set(ORDER_MODES) & set(RELEVANCE_REGISTRY)


def test_the_server_takes_every_mode_but_those_that_read_document_scores() -> None:
    assert set(SERVER_RELEVANCE) == MODES - SCORED


def test_the_cli_offers_every_mode() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rerank = sub.choices["rerank"]
    relevance = next(a for a in rerank._actions if a.dest == "relevance")
    assert set(relevance.choices or ()) == MODES


def test_the_docs_name_every_mode() -> None:
    architecture = (DOCS / "ARCHITECTURE.md").read_text(encoding="utf-8")
    listed = re.search(r"`authorag\.types\.Relevance` \(([^)]*)\)", architecture)
    assert listed is not None
    assert set(re.findall(r"`([a-z0-9-]+)`", listed.group(1))) == MODES
    server = (DOCS / "server.md").read_text(encoding="utf-8")
    flag = re.search(r"`--relevance ((?:[a-z0-9-]+\\?\|)+[a-z0-9-]+)`", server)  # the flags table's row
    assert flag is not None
    assert set(flag.group(1).replace("\\", "").split("|")) == MODES - SCORED
