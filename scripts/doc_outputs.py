"""Run the code examples of README.md and docs/*.md; check or rewrite the output they show.

The convention (it reads as plain Markdown on GitHub: the marker is an HTML comment)::

    <!-- example: NAME [session=S] [needs=server|model] [server="SERVE ARGS"] -->
    ```python                       (or ```bash)
    print("the code")
    ```

    Prints:                         (at most one line of prose, optional)

    ```text
    the code
    ```

* The ```` ```text ```` block right after an example is its shown output, compared with what the
  code prints (after stripping trailing spaces; ``...`` matches anything, as in doctest). An
  example without one must print nothing.
* Examples of one file with the same ``session`` run in one process, in document order, so a
  later block sees the earlier blocks' names and files (bash and python alike, in one fresh
  working directory). Without ``session=`` an example runs alone.
* ``needs=server``: an ``authorag serve`` is started on a free loopback port (with the
  ``server=`` arguments) and ``127.0.0.1:8000`` / ``localhost:8000`` in the code point at it.
  ``needs=model``: the embedded 1.5B judge model; such sessions are slow tests.
* ``authorag`` and ``python`` in bash blocks are this interpreter and this checkout's code.
* A ``text`` block right after an unmarked code block, and a python block that calls
  ``print(`` without a marker, are errors: output in the docs is always checked.

Usage::

    python scripts/doc_outputs.py                  # check every example; diff and exit 1 on a mismatch
    python scripts/doc_outputs.py --update         # rewrite the shown outputs from real runs
    python scripts/doc_outputs.py --list           # sessions and examples
    python scripts/doc_outputs.py docs/priors.md --only priors-lookup --update

``--update`` keeps a shown output that still matches (its ``...`` stay) and rewrites the rest.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import doctest
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's authorag, also where another one is installed
MARKER = re.compile(r"^<!--\s*example:\s*(.*?)\s*-->\s*$")
LANGS = ("python", "bash")
NEEDS = ("server", "model")
SEPARATOR = "\x1e-- authorag doc example --\x1e"
_FENCE = "```"


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every docs/*.md."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


@dataclasses.dataclass(frozen=True)
class Example:
    """One marked code block and the output block after it (line numbers are 0-based indexes)."""

    path: Path
    name: str
    session: str
    needs: frozenset[str]
    server_args: tuple[str, ...]
    lang: str
    code: str
    code_line: int  # index of the opening fence
    code_end: int  # index of the closing fence
    shown: str | None  # the output block's text, None when there is none
    shown_span: tuple[int, int] | None  # indexes of the output block's fences

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.code_line + 1}"


@dataclasses.dataclass(frozen=True)
class Session:
    """Examples that run in one process, in order."""

    path: Path
    name: str
    examples: tuple[Example, ...]

    @property
    def needs(self) -> frozenset[str]:
        return frozenset().union(*(e.needs for e in self.examples))

    @property
    def server_args(self) -> tuple[str, ...]:
        return next((e.server_args for e in self.examples if e.server_args), ())

    @property
    def id(self) -> str:
        return f"{self.examples[0].where.split(':')[0]}::{self.name}"


class DocError(Exception):
    """A malformed marker, an unmarked output, or an example that failed to run."""


def _fence_end(lines: Sequence[str], start: int, path: Path) -> int:
    """The closing fence of the block opened at ``start`` (as long as the opening one, or longer)."""
    ticks = len(lines[start]) - len(lines[start].lstrip("`"))
    for j in range(start + 1, len(lines)):
        line = lines[j].strip()
        if line.startswith("`" * ticks) and not line.strip("`"):
            return j
    raise DocError(f"{path}:{start + 1}: code block is never closed")


def _output_after(lines: Sequence[str], end: int, path: Path) -> tuple[int, int] | None:
    """Fences of the ```text block after the block closing at ``end`` (one prose line allowed)."""
    j, prose = end + 1, 0
    while j < len(lines):
        line = lines[j].strip()
        if line.startswith(_FENCE):
            return (j, _fence_end(lines, j, path)) if line == _FENCE + "text" else None
        if line.startswith("<!--") or (line and (prose := prose + 1) > 1):
            return None
        j += 1
    return None


def _parse_marker(text: str, where: str) -> dict[str, str]:
    words = shlex.split(text)
    if not words or "=" in words[0]:
        raise DocError(f"{where}: the example marker needs a name first: <!-- example: NAME ... -->")
    fields = {"name": words[0]}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in ("session", "needs", "server"):
            raise DocError(f"{where}: unknown marker field {word!r}; use session=, needs=, server=")
        fields[key] = value
    return fields


def parse(path: Path) -> list[Example]:
    """The examples of one Markdown file; raises DocError on a marker or output without a partner."""
    lines = path.read_text(encoding="utf-8").split("\n")
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        marker, line = MARKER.match(lines[i]), lines[i]
        if marker is None and line.startswith(_FENCE):  # an unmarked block: check it shows no output
            end = _fence_end(lines, i, path)
            lang = line[3:].strip()
            if lang in LANGS and _output_after(lines, end, path) is not None:
                raise DocError(f"{path}:{i + 1}: a code block followed by a ```text output block needs an "
                               "<!-- example: NAME --> marker (scripts/doc_outputs.py explains it)")
            if lang == "python" and "print(" in "\n".join(lines[i + 1:end]):
                raise DocError(f"{path}:{i + 1}: a python block that prints needs an <!-- example: NAME --> "
                               "marker and its output (scripts/doc_outputs.py --update writes it)")
            i = end + 1
            continue
        if marker is None:
            i += 1
            continue
        fields = _parse_marker(marker.group(1), f"{path}:{i + 1}")
        start = i + 1
        lang = lines[start][3:].strip() if start < len(lines) and lines[start].startswith(_FENCE) else ""
        if lang not in LANGS:
            raise DocError(f"{path}:{i + 1}: an example marker must stand right above a ```python or ```bash block")
        end = _fence_end(lines, start, path)
        needs = frozenset(n for n in fields.get("needs", "").split(",") if n)
        if not needs <= set(NEEDS):
            raise DocError(f"{path}:{i + 1}: needs= takes {', '.join(NEEDS)}, got {fields['needs']!r}")
        span = _output_after(lines, end, path)
        examples.append(Example(
            path, fields["name"], fields.get("session", fields["name"]), needs,
            tuple(shlex.split(fields.get("server", ""))), lang, "\n".join(lines[start + 1:end]), start, end,
            None if span is None else "\n".join(lines[span[0] + 1:span[1]]), span))
        i = (span or (0, end))[1] + 1
    names = [e.name for e in examples]
    if dup := sorted({n for n in names if names.count(n) > 1}):
        raise DocError(f"{path}: example names must be unique in a file, repeated: {', '.join(dup)}")
    return examples


def sessions(paths: Sequence[Path]) -> list[Session]:
    """Every session of ``paths``, in document order."""
    out: list[Session] = []
    for path in paths:
        groups: dict[str, list[Example]] = {}
        for example in parse(path):
            groups.setdefault(example.session, []).append(example)
        out += [Session(path, name, tuple(group)) for name, group in groups.items()]
    return out


def normalize(text: str) -> str:
    """Trailing spaces and blank lines at the ends removed."""
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")


def matches(shown: str | None, got: str) -> bool:
    """Whether the printed ``got`` is what the docs show (``...`` matches anything)."""
    if shown is None:
        return normalize(got) == ""
    want, have = normalize(shown) + "\n", normalize(got) + "\n"
    return want == have or doctest.OutputChecker().check_output(want, have, doctest.ELLIPSIS)


_DRIVER = r'''
import json, subprocess, sys
blocks = json.loads(open(sys.argv[1], encoding="utf-8").read())
namespace = {"__name__": "__main__"}
for i, block in enumerate(blocks):
    if i:
        print(sys.argv[2], flush=True)
    if block["lang"] == "python":
        exec(compile(block["code"], block["origin"], "exec"), namespace)
    else:
        subprocess.run(["bash", "-euo", "pipefail", "-c", block["code"]], check=True)
    sys.stdout.flush()
'''


@contextlib.contextmanager
def _server(python: str, args: Sequence[str], env: dict[str, str], log: Path) -> Iterator[int]:
    from authorag.testing import free_port, wait_until_ready

    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen([python, "-m", "authorag", "serve", "--port", str(port), *args],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        try:
            wait_until_ready(f"http://127.0.0.1:{port}/readyz", timeout_s=120, process=proc)
        except RuntimeError as exc:
            raise DocError(f"authorag serve {' '.join(args)} did not start ({exc}):\n{log.read_text()[-2000:]}") from exc
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _environment(tmp: Path, python: str, checkout: bool) -> dict[str, str]:
    bindir = tmp / ".bin"
    bindir.mkdir()
    for name, command in (("authorag", f"{shlex.quote(python)} -m authorag"), ("python", shlex.quote(python))):
        (bindir / name).write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        (bindir / name).chmod(0o755)
    # a fresh cache (judge answers, bench lists) that still sees the assembled judge model
    explicit, xdg = os.environ.get("AUTHORAG_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME")
    user_cache = Path(explicit or Path(xdg or Path.home() / ".cache") / "authorag").expanduser()
    (cache := tmp / ".cache").mkdir()
    if (user_cache / "models").is_dir():
        (cache / "models").symlink_to(user_cache / "models")
    env = {**os.environ, "AUTHORAG_CACHE_DIR": str(cache), "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_DATA_HOME": str(tmp / ".data"), "COLUMNS": "100", "NO_COLOR": "1"}
    if checkout:  # this checkout's code, not an installed copy
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    else:  # only what is installed into ``python``
        env.pop("PYTHONPATH", None)
    return env


def run(session: Session, *, python: str | None = None, timeout: float = 900) -> list[str]:
    """What each example of ``session`` prints, run in a fresh directory and process.

    ``python``: run with this interpreter and what is installed into it (default: this one, with
    this checkout's code first on the path)."""
    with tempfile.TemporaryDirectory(prefix="authorag-doc-") as name:
        tmp = Path(name)
        interpreter = python or sys.executable
        env = _environment(tmp, interpreter, checkout=python is None)
        (work := tmp / "work").mkdir()
        with contextlib.ExitStack() as stack:
            port = (stack.enter_context(_server(interpreter, session.server_args, env, tmp / "server.log"))
                    if "server" in session.needs else None)
            blocks = [{"lang": e.lang, "origin": e.where,
                       "code": e.code if port is None else re.sub(r"(127\.0\.0\.1|localhost):8000",
                                                                  f"127.0.0.1:{port}", e.code)}
                      for e in session.examples]
            (tmp / "blocks.json").write_text(json.dumps(blocks), encoding="utf-8")
            (tmp / "driver.py").write_text(_DRIVER, encoding="utf-8")
            proc = subprocess.run([interpreter, str(tmp / "driver.py"), str(tmp / "blocks.json"), SEPARATOR],
                                  cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        outputs = proc.stdout.split(SEPARATOR + "\n")
        if proc.returncode != 0:
            failed = session.examples[min(len(outputs), len(session.examples)) - 1]
            raise DocError(f"{failed.where} (example {failed.name}) failed with exit code {proc.returncode}:\n"
                           f"{proc.stderr[-3000:]}")
        return outputs


def diff(example: Example, got: str) -> str:
    """A unified diff from the shown output to the printed one."""
    return "".join(difflib.unified_diff(
        (normalize(example.shown or "") + "\n").splitlines(keepends=True), (normalize(got) + "\n").splitlines(keepends=True),
        f"{example.where} {example.name} (shown)", "printed"))


def rewrite(path: Path, printed: dict[str, str]) -> int:
    """Put ``printed`` (example name -> output) into ``path``'s output blocks; returns the count."""
    lines = path.read_text(encoding="utf-8").split("\n")
    changed = 0
    for example in sorted(parse(path), key=lambda e: e.code_line, reverse=True):
        got = printed.get(example.name)
        if got is None or matches(example.shown, got):
            continue
        body = normalize(got).split("\n")
        if example.shown_span is not None:
            start, end = example.shown_span
            lines[start + 1:end] = body if normalize(got) else []
        else:
            lines[example.code_end + 1:example.code_end + 1] = ["", "Prints:", "", _FENCE + "text", *body, _FENCE]
        changed += 1
    if changed:
        path.write_text("\n".join(lines), encoding="utf-8")
    return changed


def _model_installed() -> bool:
    from authorag.judges.backends.models import DEFAULT_MODEL, check_available

    try:
        check_available(DEFAULT_MODEL)
    except ImportError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="Markdown files (default: README.md, docs/*.md)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="sessions or examples of this name")
    ap.add_argument("--update", action="store_true", help="rewrite the shown outputs from real runs")
    ap.add_argument("--list", action="store_true", help="list the sessions and their examples")
    ap.add_argument("--python", help="run the examples with this interpreter and only what is installed "
                                     "into it (scripts/check_install.sh: a venv outside the checkout)")
    args = ap.parse_args(argv)
    chosen = [s for s in sessions([p.resolve() for p in args.files] or doc_files())
              if not args.only or s.name in args.only or any(e.name in args.only for e in s.examples)]
    if args.list:
        for s in chosen:
            print(f"{s.id}  needs={','.join(sorted(s.needs)) or '-'}  " + " ".join(e.name for e in s.examples))
        return 0
    have_model, bad = _model_installed(), 0
    for s in chosen:
        if "model" in s.needs and not have_model:
            print(f"skip {s.id}: needs the judge model (bash scripts/setup.sh --model)")
            continue
        started = time.monotonic()
        outputs = run(s, python=args.python)
        wrong = [(e, got) for e, got in zip(s.examples, outputs) if not matches(e.shown, got)]
        print(f"{'ok  ' if not wrong else 'DIFF'} {s.id} ({time.monotonic() - started:.1f} s)")
        if args.update and wrong:
            print(f"     rewrote {rewrite(s.path, {e.name: got for e, got in wrong})} output block(s)")
        else:
            bad += len(wrong)
            for e, got in wrong:
                print(diff(e, got))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
