"""The import graph inside authorag has no cycle (function-level imports included), its imports go
down the layers of docs/ARCHITECTURE.md, and no module is over 400 lines."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "authorag"
MAX_LINES = 400


def _name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(node: ast.Import | ast.ImportFrom, package: str, modules: set[str]) -> set[str]:
    """The authorag modules an import statement runs (``from pkg import sub`` names the submodule)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in modules}
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    found = {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
    return found & modules


def import_graph(root: Path = PKG) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at module level or inside functions
    (imports under ``if TYPE_CHECKING:`` never run and are left out)."""
    paths = {_name(p, root): p for p in root.rglob("*.py")}
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out: set[str] = set()
        todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.If) and _type_checking(node):
                todo.extend(node.orelse)
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out |= _targets(node, package, modules)
            todo.extend(ast.iter_child_nodes(node))
        graph[name] = out - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_cycle_finder_on_a_small_graph() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]


def test_graph_reads_lazy_relative_and_submodule_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "authorag"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("def f():\n    from authorag.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from . import c\nfrom typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from authorag.sub.a import f\n")
    (pkg / "sub" / "c.py").write_text("import authorag.sub.a\n")
    graph = import_graph(pkg)
    assert graph["authorag.sub.a"] == {"authorag.sub.b"}
    assert graph["authorag.sub.b"] == {"authorag.sub.c"}  # the TYPE_CHECKING import never runs
    assert cycles(graph) == [["authorag.sub.a", "authorag.sub.b", "authorag.sub.c"]]


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == [], "modules that import each other: give the shared part a module of its own"


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.py")), ids=lambda p: str(p.relative_to(PKG)))
def test_module_size(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PKG)} has {lines} lines (at most {MAX_LINES}): split it along a seam"


# The layers of docs/ARCHITECTURE.md, bottom to top, each a list of top-level names under authorag/
# ("" is the package root, authorag/__init__.py). A module may import its own layer and those below.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("types", "scores", "errors", "validation", "domains", "_urlhost", "progress", "_optional",
              "text_window", "deadline", "settings", "data", "bounded")),
    ("signals", ("platforms", "priors", "judges", "relevance", "evidence", "suitability", "trust", "policy")),
    ("composition", ("tiers", "compose")),
    ("ranking", ("rerankers", "retrieval")),
    ("test support", ("testing",)),
    ("front doors", ("adapters", "server", "integrations", "cli", "audit", "benchmarks", "spark", "websearch",
                     "__main__", "")),
)
ARCHITECTURE = PKG.parent / "docs" / "ARCHITECTURE.md"


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of a dotted module name (``authorag.priors.table`` -> signals)."""
    top = module.split(".")[1] if "." in module else ""
    for i, (_, names) in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"authorag.{top} has no layer: add it to LAYERS here and to the layer table of "
                         "docs/ARCHITECTURE.md")


def arrows_up(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a lower layer into a higher one, as ``a -> b (layer -> layer)``."""
    return sorted(f"{a} -> {b} ({LAYERS[layer_of(a)][0]} -> {LAYERS[layer_of(b)][0]})"
                  for a, targets in graph.items() for b in targets if layer_of(b) > layer_of(a))


def test_arrows_up_finds_an_import_into_a_higher_layer() -> None:
    graph = {"authorag.suitability.scorer": {"authorag.rerankers.suitability", "authorag.types"},
             "authorag.rerankers.authority": {"authorag.policy"}, "authorag": {"authorag.cli"}}
    assert arrows_up(graph) == ["authorag.suitability.scorer -> authorag.rerankers.suitability (signals -> ranking)"]


def test_a_module_outside_every_layer_is_named() -> None:
    with pytest.raises(AssertionError, match=r"authorag\.newroom has no layer: add it to LAYERS"):
        layer_of("authorag.newroom.x")


def test_imports_go_down_the_documented_layers() -> None:
    assert arrows_up(import_graph()) == [], "a module imports a higher layer: move the shared part down"


def test_layers_match_the_architecture_doc() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text[text.index("| layer | modules |"):].split("\n\n")[0].splitlines()[2:]
    rows = {line.split("|")[1].strip(): line.split("|")[2] for line in table}
    assert list(rows) == [name for name, _ in LAYERS]
    missing = [f"{layer}: {name}" for layer, names in LAYERS for name in names
               if name not in ("", "__main__", "data") and f"`{name}`" not in rows[layer]
               and f"`{name}/`" not in rows[layer]]
    assert missing == [], "name these modules in their row of docs/ARCHITECTURE.md's layer table"
