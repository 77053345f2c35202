"""Model registry and assembly: small fake parts in tmp dirs; the real 1.5B model only when slow."""
from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from authorag.errors import ConfigError, JudgeError, MissingDependencyError
from authorag.judges.backends import models
from authorag.judges.backends.base import ChatRequest
from authorag.judges.backends.models import (
    MODELS,
    ModelSpec,
    assemble_parts,
    installed_parts,
    model_path,
    resolve_model,
)
from authorag.settings import cache_dir


def _parts(tmp_path: Path, chunks: Sequence[bytes]) -> list[Path]:
    paths = []
    for i, chunk in enumerate(chunks, start=1):
        path = tmp_path / "parts" / f"part{i:02d}.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(chunk)
        paths.append(path)
    return paths


CHUNKS = [b"GGUF" + b"a" * 100, b"b" * 50, b"c" * 7]
WHOLE = b"".join(CHUNKS)
SHA = hashlib.sha256(WHOLE).hexdigest()


@pytest.fixture()
def fake_spec(monkeypatch: pytest.MonkeyPatch) -> ModelSpec:
    spec = ModelSpec(name="fake-3", description="three fake parts", filename="fake.gguf",
                     packages=("p1", "p2", "p3"), kind="parts", install="pip install fake",
                     sha256=SHA, size=len(WHOLE))
    monkeypatch.setitem(MODELS, "fake-3", spec)
    return spec


def test_assemble_concatenates_in_order_and_verifies(tmp_path: Path) -> None:
    target = tmp_path / "out" / "m.gguf"
    assert assemble_parts(_parts(tmp_path, CHUNKS), target, sha256=SHA, size=len(WHOLE)) == target
    assert target.read_bytes() == WHOLE
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.gguf", "m.gguf.sha256"]


def test_sha_mismatch_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "out" / "m.gguf"
    with pytest.raises(JudgeError, match=r"has SHA-256 [0-9a-f]{64}, expected 0{64}.*reinstall"):
        assemble_parts(_parts(tmp_path, CHUNKS), target, sha256="0" * 64)
    assert list(target.parent.iterdir()) == []


def test_size_mismatch(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=f"has {len(WHOLE)} bytes, expected 5"):
        assemble_parts(_parts(tmp_path, CHUNKS), tmp_path / "m.gguf", sha256=SHA, size=5)


def test_no_parts(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="no model parts"):
        assemble_parts([], tmp_path / "m.gguf", sha256=SHA)


def test_model_path_assembles_once_then_reuses(tmp_path: Path, fake_spec: ModelSpec) -> None:
    calls: list[str] = []

    def finder(spec: ModelSpec) -> list[Path]:
        calls.append(spec.name)
        return _parts(tmp_path, CHUNKS)

    first = model_path("fake-3", directory=tmp_path / "models", find_parts=finder)
    second = model_path("fake-3", directory=tmp_path / "models", find_parts=finder)
    assert first == second == tmp_path / "models" / "fake.gguf"
    assert first.read_bytes() == WHOLE and calls == ["fake-3"]


def test_damaged_cached_file_is_assembled_again(tmp_path: Path, fake_spec: ModelSpec) -> None:
    directory = tmp_path / "models"
    path = model_path("fake-3", directory=directory, find_parts=lambda s: _parts(tmp_path, CHUNKS))
    path.write_bytes(b"X" * len(WHOLE))  # same size, new mtime, wrong content
    os.utime(path, ns=(1, 1))
    again = model_path("fake-3", directory=directory, find_parts=lambda s: _parts(tmp_path, CHUNKS))
    assert again.read_bytes() == WHOLE


def test_wrong_parts_through_model_path(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="expected 1117320768"):
        model_path("qwen2.5-coder-1.5b", directory=tmp_path,
                   find_parts=lambda s: _parts(tmp_path, CHUNKS))


def test_missing_part_packages_name_the_extra() -> None:
    spec = ModelSpec(name="x", description="", filename="x.gguf",
                     packages=("authorag-test-no-such-part1", "authorag-test-no-such-part2"),
                     kind="parts", install="pip install 'authorag[model]'")
    with pytest.raises(MissingDependencyError,
                       match=r"2 are not installed \(authorag-test-no-such-part1, .*"
                             r"pip install 'authorag\[model\]'"):
        installed_parts(spec)


@pytest.mark.slow  # needs the 1.1 GB authorag[model] parts (scripts/test.sh -m slow installs them)
def test_installed_parts_of_the_default_model_are_in_order() -> None:
    parts = installed_parts(MODELS["qwen2.5-coder-1.5b"])
    assert [p.name for p in parts] == [f"part{i:02d}.bin" for i in range(1, 23)]
    assert sum(p.stat().st_size for p in parts) == MODELS["qwen2.5-coder-1.5b"].size


def test_smollm2_is_located_in_its_package() -> None:
    path = model_path("smollm2-135m")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 90_000_000


def test_resolve_model(tmp_path: Path) -> None:
    gguf = tmp_path / "my-model.gguf"
    gguf.write_bytes(b"GGUF")
    assert resolve_model(gguf) == ("my-model", gguf)
    assert resolve_model("smollm2-135m")[0] == "smollm2-135m"
    with pytest.raises(ConfigError, match=r"'nope' is neither a registered model \(\['qwen2.5"):
        resolve_model("nope")
    with pytest.raises(ConfigError, match=r"unknown model 'nope'; registered models are"):
        model_path("nope")


def test_cache_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("AUTHORAG_CACHE_DIR", str(tmp_path / "explicit"))
    assert cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("AUTHORAG_CACHE_DIR")
    assert cache_dir() == tmp_path / "xdg" / "authorag"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "authorag"


def test_check_available_names_missing_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = ModelSpec(name="ghost", description="", filename="ghost.gguf",
                     packages=("authorag-test-no-such-package",), kind="file",
                     install="pip install ghost")
    monkeypatch.setitem(MODELS, "ghost", spec)
    with pytest.raises(MissingDependencyError, match="needs the package 'authorag-test-no-such"):
        models.check_available("ghost")


@pytest.mark.slow
def test_real_default_model_assembles_and_answers_a_digit(tmp_path: Path) -> None:
    from authorag.judges.backends.local import LocalBackend, unload_all

    path = model_path("qwen2.5-coder-1.5b", directory=tmp_path)
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    assert digest == MODELS["qwen2.5-coder-1.5b"].sha256
    backend = LocalBackend(path, n_ctx=1024, n_threads=1)
    completion = backend.complete(ChatRequest(
        messages=[{"role": "system", "content": "Rate how authoritative a web domain is, 0 to 9."},
                  {"role": "user", "content": "Domain: nature.com"}],
        max_tokens=1, grammar="root ::= [0-9]", logprobs=True))
    assert re.fullmatch(r"[0-9]", completion.text)
    assert completion.logprobs is not None and len(completion.logprobs[0].top) >= 2
    unload_all()
