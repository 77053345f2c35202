"""Every ``--help`` text is plain text: no reStructuredText roles or literals from the settings' docstrings."""
from __future__ import annotations

import argparse
import re

from authorag.cli import build_parser


def _helps(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, str]]:
    out = [(name, parser.format_help())]
    for action in parser._actions:  # pyright: ignore[reportPrivateUsage]
        if isinstance(action, argparse._SubParsersAction):  # pyright: ignore[reportPrivateUsage]
            for sub, child in action.choices.items():  # pyright: ignore[reportUnknownVariableType]
                out += _helps(child, f"{name} {sub}")  # pyright: ignore[reportUnknownArgumentType]
    return out


def test_no_help_text_shows_markup() -> None:
    helps = _helps(build_parser(), "authorag")
    assert len(helps) >= 27
    marked = [(name, m.group(0)) for name, text in helps for m in re.finditer(r":[a-z]+:`|``", text)]
    assert marked == []
    text = dict(helps)["authorag rerank"]
    assert '"trust" (authorag.trust)' in " ".join(text.split())
    assert "calibration (Calibration);" in " ".join(text.split())


def test_score_help_names_page_evidence() -> None:
    text = " ".join(dict(_helps(build_parser(), "authorag"))["authorag score"].split())
    assert ("prior table; opt-in: page evidence for sources no table knows (here read from the "
            "URL alone, as there is no page text)") in text
    assert "--no-page-evidence turns it off" not in text
