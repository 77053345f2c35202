"""Package-level rules: public API, import direction, optional-dependency hints."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import authorag
from authorag._optional import require
from authorag.errors import MissingDependencyError

PKG = Path(authorag.__file__).parent


@pytest.mark.parametrize("module", ["authorag", "authorag.priors", "authorag.rerankers"])
def test_all_is_sorted_and_resolvable(module: str) -> None:
    import importlib

    mod = importlib.import_module(module)
    # isort-style, as ruff's RUF022 keeps it: CONSTANTS, then Classes, then functions.
    assert mod.__all__ == sorted(mod.__all__, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
    for name in mod.__all__:
        assert hasattr(mod, name), name


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


ADAPTERS = ("authorag.server", "authorag.integrations", "authorag.benchmarks", "authorag.audit")


@pytest.mark.parametrize("path", sorted(p for p in PKG.rglob("*.py")), ids=lambda p: str(p.relative_to(PKG)))
def test_library_never_imports_adapters_or_benchmarks(path: Path) -> None:
    rel = path.relative_to(PKG).parts
    if rel[0] in ("server", "integrations", "benchmarks") or rel[0] == "cli":
        return
    bad = {m for m in _imports(path) if m.startswith(ADAPTERS)}
    if rel[0] == "audit":  # the audit uses the library, never server/integrations/benchmarks
        bad = {m for m in bad if not m.startswith("authorag.audit")}
    assert not bad, f"{path} imports {bad}: library code must not depend on adapters/benchmarks/audit"


def test_audit_function_and_subpackage_coexist() -> None:
    import importlib

    import authorag.audit.metrics as m  # the subpackage is no longer shadowed by the function
    from authorag.audit import AuditJudge, audit

    assert callable(audit) and audit.__module__ == "authorag.audit.pipeline"
    assert authorag.audit is importlib.import_module("authorag.audit") and authorag.audit.AuditJudge is AuditJudge
    from authorag.audit import metrics

    assert metrics.METRIC_KEYS[0] == "one_sided" and m is metrics


def test_require_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[embeddings\]'"):
        require("faiss", extra="embeddings", feature="FAISS index")


def test_import_is_light() -> None:
    import subprocess

    code = ("import sys, authorag; heavy = [m for m in ('torch', 'openai', 'fastapi', 'xllamacpp', "
            "'sentence_transformers', 'langchain_core', 'haystack') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_importing_any_module_raises_no_deprecation_warning() -> None:
    """Every module imports with DeprecationWarning as an error (a shim or a deprecated call
    at import time would warn every user)."""
    import subprocess

    code = ("import importlib, pkgutil, authorag\n"
            "for m in pkgutil.walk_packages(authorag.__path__, 'authorag.'):\n"
            "    if not m.name.endswith('__main__'):\n"
            "        importlib.import_module(m.name)\n")
    run = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code], check=False,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
