"""The suitability matrix: query topic x source type -> 1..5, read from a versioned YAML file.

The shipped default is ``matrix_v1.yaml`` (package data; the file documents its choices). A user
file may say ``extends: default`` and list only the cells it changes. Every load error names the
file, the line and what is wrong (``my.yaml:7: health.forum must be an integer 1..5, got 'low'``).

Example:
    >>> m = load_matrix()
    >>> m.cell("health", "forum"), m.cell("technology", "forum")
    (1, 5)
    >>> m.value("health", "government", confidence=1.0)
    1.0
"""
from __future__ import annotations

import stat
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from authorag.errors import ConfigError
from authorag.suitability.taxonomy import SOURCE_TYPES, TOPICS, SourceType, Topic

DEFAULT_MATRIX_FILE = "matrix_v1.yaml"
SUPPORTED_VERSIONS = (1,)
_KEYS = ("version", "ymyl", "matrix", "extends", "description")


@dataclass(frozen=True, slots=True)
class SuitabilityMatrix:
    """Cells 1..5 for every topic x source type, the YMYL topics and where the matrix came from.

    Attributes:
        cells: ``cells[topic][source_type]`` in 1..5.
        ymyl: topics flagged "your money or your life".
        version: the file's ``version``.
        source: the file it was read from (``"default"`` for the shipped one).
    """

    cells: dict[Topic, dict[SourceType, int]]
    ymyl: frozenset[Topic]
    version: int
    source: str

    def cell(self, topic: Topic, source_type: SourceType) -> int:
        """The 1..5 cell."""
        return self.cells[topic][source_type]

    def value(self, topic: Topic, source_type: SourceType, confidence: float) -> float:
        """The cell on 0–1, shrunk toward the topic's ``unknown`` cell by ``1 - confidence``."""
        unknown = (self.cells[topic]["unknown"] - 1) / 4.0
        known = (self.cells[topic][source_type] - 1) / 4.0
        return unknown + confidence * (known - unknown)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (recorded in rerank provenance and benchmark results)."""
        return {"version": self.version, "source": self.source, "ymyl": sorted(self.ymyl),
                "matrix": {t: dict(row) for t, row in self.cells.items()}}


def _err(where: str, node: yaml.Node | None, problem: str) -> ConfigError:
    line = "" if node is None else f":{node.start_mark.line + 1}"
    return ConfigError(f"{where}{line}: {problem}")


def _mapping(where: str, node: yaml.Node, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """A mapping node's items by key text, rejecting non-mappings and duplicate keys."""
    if not isinstance(node, yaml.MappingNode):
        raise _err(where, node, f"{what} must be a mapping")
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            raise _err(where, key, f"{what}: keys must be plain names")
        if key.value in out:
            raise _err(where, key, f"{what}: duplicate key {key.value!r}")
        out[key.value] = (key, value)
    return out


def _cell(where: str, node: yaml.Node, name: str) -> int:
    raw = node.value if isinstance(node, yaml.ScalarNode) else None
    if raw is None or raw not in ("1", "2", "3", "4", "5"):
        raise _err(where, node, f"{name} must be an integer 1..5, got {raw if raw is not None else 'a collection'!r}")
    return int(raw)


def _row(where: str, key: yaml.Node, node: yaml.Node, base: dict[SourceType, int] | None) -> dict[SourceType, int]:
    items = _mapping(where, node, f"matrix.{key.value}")
    row: dict[SourceType, int] = dict(base) if base else {}
    for name, (k, v) in items.items():
        if name not in SOURCE_TYPES:
            raise _err(where, k, f"unknown source type {name!r} under {key.value!r}; allowed: {', '.join(SOURCE_TYPES)}")
        row[name] = _cell(where, v, f"{key.value}.{name}")  # type: ignore[index]
    missing = [t for t in SOURCE_TYPES if t not in row]
    if missing:
        raise _err(where, key, f"topic {key.value!r} lacks source type(s) {', '.join(missing)} "
                               "(give every cell, or add 'extends: default' at the top to inherit them)")
    return row


def _ymyl(where: str, node: yaml.Node) -> frozenset[Topic]:
    if not isinstance(node, yaml.SequenceNode):
        raise _err(where, node, "ymyl must be a list of topics, e.g. [health, finance]")
    out: set[Topic] = set()
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode) or item.value not in TOPICS:
            got = item.value if isinstance(item, yaml.ScalarNode) else "a collection"
            raise _err(where, item, f"ymyl: unknown topic {got!r}; allowed: {', '.join(TOPICS)}")
        out.add(item.value)  # type: ignore[arg-type]
    return frozenset(out)


def parse_matrix(text: str, where: str, base: SuitabilityMatrix | None = None) -> SuitabilityMatrix:
    """Parse matrix YAML ``text``; ``where`` names it in errors; ``base`` serves ``extends: default``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())  # one line: some errors hold newlines
        raise ConfigError(f"{where}{line}: not valid YAML: {problem}") from exc
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply; a matrix is topic -> source type -> 1..5") from None
    if root is None:
        raise ConfigError(f"{where}: the file is empty; it needs 'version: 1' and a 'matrix:' mapping")
    top = _mapping(where, root, "the file")
    for name, (k, _) in top.items():
        if name not in _KEYS:
            raise _err(where, k, f"unknown key {name!r}; allowed: {', '.join(_KEYS)}")
    version = top["version"][1] if "version" in top else None
    if not isinstance(version, yaml.ScalarNode) or version.value not in tuple(map(str, SUPPORTED_VERSIONS)):
        got = "nothing" if version is None else version.value if isinstance(version, yaml.ScalarNode) else "a collection"
        raise _err(where, version or root, f"version must be one of {SUPPORTED_VERSIONS}, got {got!r}")
    inherit = base if "extends" in top else None
    if "extends" in top and (top["extends"][1].value != "default" or base is None):
        raise _err(where, top["extends"][1], "extends must be 'default' (the shipped matrix)")
    if "matrix" not in top:
        raise _err(where, root, "missing 'matrix:' (topic -> source type -> 1..5)")
    rows = _mapping(where, top["matrix"][1], "matrix")
    cells: dict[Topic, dict[SourceType, int]] = {}
    for topic in TOPICS:
        if topic in rows:
            k, v = rows[topic]
            cells[topic] = _row(where, k, v, None if inherit is None else inherit.cells[topic])
        elif inherit is not None:
            cells[topic] = dict(inherit.cells[topic])
        else:
            raise _err(where, top["matrix"][0], f"matrix lacks topic {topic!r} (add it, or 'extends: default')")
    for name, (k, _) in rows.items():
        if name not in TOPICS:
            raise _err(where, k, f"unknown topic {name!r}; allowed: {', '.join(TOPICS)}")
    ymyl = _ymyl(where, top["ymyl"][1]) if "ymyl" in top else (inherit.ymyl if inherit else frozenset())
    return SuitabilityMatrix(cells, ymyl, int(version.value), where)


_DEFAULT: list[SuitabilityMatrix] = []


def load_matrix(path: str | Path | None = None) -> SuitabilityMatrix:
    """The shipped matrix (``path=None``) or a user file.

    Raises:
        ConfigError: the file is missing or malformed; the message names the file, the line and the problem.
    """
    if not _DEFAULT:
        text = resources.files("authorag.suitability").joinpath(DEFAULT_MATRIX_FILE).read_text(encoding="utf-8")
        _DEFAULT.append(parse_matrix(text, "default"))
    if path is None:
        return _DEFAULT[0]
    return parse_matrix(_read(Path(path)), str(path), base=_DEFAULT[0])


MAX_MATRIX_BYTES = 1 << 20
"""Largest matrix file read (the shipped one is a few KB)."""


def _read(p: Path) -> str:
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # before opening: opening a pipe waits for a writer
            raise ConfigError(f"suitability matrix {str(p)!r} is not a regular file (a folder, device or pipe)")
        with p.open("rb") as f:
            data = f.read(MAX_MATRIX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read suitability matrix {str(p)!r}: {exc.strerror or exc}") from exc
    if len(data) > MAX_MATRIX_BYTES:
        raise ConfigError(f"suitability matrix {str(p)!r} is larger than {MAX_MATRIX_BYTES >> 20} MiB; a matrix is "
                          "a few KB (topic -> source type -> 1..5)")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{p}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the matrix as UTF-8") from None


__all__ = ["DEFAULT_MATRIX_FILE", "MAX_MATRIX_BYTES", "SuitabilityMatrix", "load_matrix", "parse_matrix"]
