"""scripts/setup.sh reuses an install whose extras cover the wanted ones (a fake .venv python logs pip calls)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def sandbox(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    for name in ("scripts/setup.sh", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    bindir = tmp_path / ".venv" / "bin"
    bindir.mkdir(parents=True)
    fake = bindir / "python"  # the process boundary: every install goes through it
    fake.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "calls.log"}\n')
    fake.chmod(0o755)
    tools = tmp_path / "tools"
    tools.mkdir()
    java = tools / "java"  # a Java 17 runtime as far as the script can tell
    java.write_text('#!/bin/sh\necho \'openjdk version "17.0.15" 2025-04-15\' >&2\n')
    java.chmod(0o755)
    return tmp_path


def _setup(sandbox: Path, *args: str) -> list[str]:
    log = sandbox / "calls.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "PATH": f"{sandbox / 'tools'}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", str(sandbox / "scripts" / "setup.sh"), *args], check=True, env=env,
                   capture_output=True, text=True, timeout=60)
    return log.read_text().splitlines() if log.exists() else []


def test_a_superset_install_is_reused(sandbox: Path) -> None:
    first = _setup(sandbox, "--model")
    assert any("-e .[all,dev,model]" in call for call in first)
    assert _setup(sandbox) == []  # scripts/test.sh after scripts/demo.sh: nothing to install
    assert _setup(sandbox, "--model") == []


def test_a_subset_install_is_not_enough(sandbox: Path) -> None:
    assert any("-e .[all,dev]" in call for call in _setup(sandbox))
    assert any("-e .[all,dev,model]" in call for call in _setup(sandbox, "--model"))
    assert _setup(sandbox) == [] and _setup(sandbox, "--model") == []


def test_a_changed_project_file_reinstalls(sandbox: Path) -> None:
    _setup(sandbox, "--model")
    with (sandbox / "constraints.txt").open("a") as f:
        f.write("# changed\n")
    assert any("-e .[all,dev]" in call for call in _setup(sandbox))
