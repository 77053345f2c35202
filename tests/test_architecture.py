"""docs/ARCHITECTURE.md shows the import diagram of the current code."""
from __future__ import annotations

from pathlib import Path

from _scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


def _diagram_module():  # scripts/ is not a package: load the generator by path
    return load_script("import_diagram")


def test_committed_diagram_is_current() -> None:
    diagram = _diagram_module()
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    start, end = text.index(diagram.BEGIN), text.index(diagram.END) + len(diagram.END)
    assert text[start:end] == diagram.render(), "docs/ARCHITECTURE.md is stale: run scripts/import_diagram.py"


def test_component_rules() -> None:
    diagram = _diagram_module()
    assert diagram.component("authorag.priors.table") == "priors"
    assert diagram.component("authorag.cli.priors_pagerank") == "cli"
    assert diagram.component("authorag.cli") == "cli"
    assert diagram.component("authorag.__main__") == "cli"
    assert diagram.component("authorag.judges.backends.local") == "judges.backends"
    assert diagram.component("authorag.validation") == "core"
    graph = diagram.edges()
    # the library never reaches up into the front doors
    for lib in ("core", "platforms", "priors", "relevance", "rerankers", "judges", "compose", "tiers"):
        assert not graph[lib] & {"server", "integrations", "benchmarks", "cli", "adapters"}, lib
    # the CLI depends on the library, never the reverse
    assert sorted(src for src, deps in graph.items() if "cli" in deps) == []
    assert diagram.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b"), ("a", "c"), ("b", "c")]
