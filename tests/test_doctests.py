"""Run the docstring examples of every module that has them (they are documentation; they must work).

Modules are found, not listed: every ``authorag/**/*.py`` with a ``>>>`` line is collected, so a
new module's examples run from the day they are written."""
from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "authorag"
_PROMPT = re.compile(r"^\s*>>> ", re.MULTILINE)


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_with_examples(root: Path = PACKAGE) -> list[str]:
    """Dotted names of the modules under ``root`` whose source has a ``>>>`` prompt line."""
    return sorted(_module_name(p, root) for p in root.rglob("*.py")
                  if _PROMPT.search(p.read_text(encoding="utf-8")))


MODULES = modules_with_examples()


def test_collection_finds_modules_in_every_subpackage() -> None:
    # a regression guard for the collector itself: these hold examples and sit at different depths
    for name in ("authorag", "authorag.types", "authorag.priors.pagerank", "authorag.judges.backends.cache"):
        assert name in MODULES
    assert not any(name.startswith("authorag.") and "__init__" in name for name in MODULES)


def test_collection_skips_modules_without_prompts(tmp_path: Path) -> None:
    pkg = tmp_path / "authorag"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""Package.\n\n    >>> 1 + 1\n    2\n"""\n')
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "plain.py").write_text('x = ">>>"  # not a prompt line\n')
    (pkg / "sub" / "ex.py").write_text('"""\n>>> x = 1\n"""\n')
    assert modules_with_examples(pkg) == ["authorag", "authorag.sub.ex"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has a '>>>' line that doctest does not collect"
    assert result.failed == 0
