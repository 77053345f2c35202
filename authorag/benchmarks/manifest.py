"""The YAML manifest of expected numbers and the checker behind ``authorag bench check``.

Shape (``authorag/benchmarks/manifests/expected.yaml``)::

    version: 1
    conditions:
      smoke-baly-prior:                       # condition
        smoke: true                           # part of the CI smoke subset
        command: authorag bench run --task credauth-baly --method prior --lists 20 --pairs 20
        dataset: credauth-baly
        metrics:                              # dotted path into result["metrics"]
          le.spearman: {value: 0.46, tolerance: 0.001}

Example:
    >>> m = load_manifest()
    >>> any(c.smoke for c in m)
    True
"""
from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from authorag.errors import ConfigError

COMMAND_PREFIX = ("authorag", "bench", "run")


@dataclass(frozen=True, slots=True)
class Expectation:
    """One expected metric: dotted path, value and absolute tolerance."""

    metric: str
    value: float
    tolerance: float


@dataclass(frozen=True, slots=True)
class Condition:
    """One manifest condition: a ``bench run`` command and its expected metrics."""

    name: str
    command: str
    dataset: str
    smoke: bool
    expected: tuple[Expectation, ...]

    def run_argv(self) -> list[str]:
        """The command's arguments after ``authorag bench run``."""
        argv = shlex.split(self.command)
        if tuple(argv[:3]) != COMMAND_PREFIX:
            raise ConfigError(f"condition {self.name}: command must start with 'authorag bench run', got {self.command!r}")
        return argv[3:]


def default_manifest_path() -> Path:
    """The manifest shipped in the package."""
    return Path(str(resources.files("authorag.benchmarks").joinpath("manifests", "expected.yaml")))


def _condition(name: str, body: Mapping[str, Any]) -> Condition:
    try:
        expected = tuple(Expectation(str(k), float(v["value"]), float(v.get("tolerance", 1e-6)))
                         for k, v in dict(body.get("metrics") or {}).items())
        return Condition(name, str(body["command"]), str(body.get("dataset", "")), bool(body.get("smoke", False)),
                         expected)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"manifest condition {name!r} is malformed ({exc}); it needs command and "
                          "metrics: {path: {value, tolerance}}") from exc


def load_manifest(path: Path | None = None) -> list[Condition]:
    """Parse the manifest (default: the shipped one)."""
    target = default_manifest_path() if path is None else path
    try:
        data = yaml.safe_load(target.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read manifest {target}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("conditions"), dict):
        raise ConfigError(f"manifest {target} must be a mapping with a 'conditions' mapping")
    return [_condition(str(n), b) for n, b in data["conditions"].items()]


def select(conditions: Sequence[Condition], *, names: Sequence[str] = (), smoke: bool = False) -> list[Condition]:
    """Conditions by name (unknown names raise), or the smoke subset, or all."""
    if names:
        known = {c.name: c for c in conditions}
        missing = [n for n in names if n not in known]
        if missing:
            raise ConfigError(f"unknown condition(s) {missing}; `authorag bench check --list` shows them")
        return [known[n] for n in names]
    return [c for c in conditions if c.smoke] if smoke else list(conditions)


def metric_at(metrics: Mapping[str, Any], path: str) -> float | None:
    """Value at a dotted path (``pe.easy.accuracy``, ``generator_free.authority.3``)."""
    node: Any = metrics
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return float(node) if isinstance(node, (int, float)) else None


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A checked metric (``ok`` False when outside tolerance or missing)."""

    condition: str
    metric: str
    expected: float
    actual: float | None
    tolerance: float

    @property
    def ok(self) -> bool:
        """Within tolerance."""
        return self.actual is not None and abs(self.actual - self.expected) <= self.tolerance


def check_condition(cond: Condition, run: Callable[[Condition], Mapping[str, Any]]) -> list[Mismatch]:
    """Run one condition (``run`` returns the metrics) and compare every expectation."""
    metrics = run(cond)
    return [Mismatch(cond.name, e.metric, e.value, metric_at(metrics, e.metric), e.tolerance) for e in cond.expected]


def update_manifest(path: Path, actual: Mapping[str, Mapping[str, float | None]]) -> None:
    """Rewrite expected values in ``path`` with measured ones (``{condition: {metric: value}}``)."""
    data = yaml.safe_load(path.read_text())
    for name, values in actual.items():
        for metric, value in values.items():
            if value is not None:
                data["conditions"][name]["metrics"][metric]["value"] = round(float(value), 6)
    path.write_text(yaml.safe_dump(data, sort_keys=False, width=120))
