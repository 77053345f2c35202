"""Small helpers shared by the CLI command modules (input reading, JSON output)."""
from __future__ import annotations

import argparse
import json
import stat
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from authorag.errors import ConfigError

if TYPE_CHECKING:
    from authorag.progress import ProgressEvent

Subparsers = argparse._SubParsersAction  # pyright: ignore[reportPrivateUsage]
"""The type of ``parser.add_subparsers()``; argparse exposes it under a private name only."""

JSON_VERSION = 1
"""Version of the CLI's JSON output shapes."""


def read_lines(path: str) -> list[str]:
    """Non-empty, non-comment lines of a file (``-`` reads stdin)."""
    text = read_text(path)
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def read_text(path: str) -> str:
    """A regular file (or stdin for ``-``) as UTF-8 text (a leading byte-order mark dropped).

    Raises:
        ConfigError: the file is missing, a device, folder or pipe (``/dev/zero`` would never
            end), or not UTF-8, naming it and the line.
    """
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)  # None for a text-only stdin (a test, an embedding)
        if stream is None:
            return sys.stdin.read().removeprefix("\ufeff")
        data = stream.read()
    else:
        p = Path(path)
        try:
            if not stat.S_ISREG(p.stat().st_mode):  # before opening: opening a pipe waits for a writer
                raise ConfigError(f"input file {path!r} is not a regular file (a folder, device or pipe); "
                                  "give a file, or - for stdin")
            data = p.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read input file {path!r}: {exc.strerror}") from exc
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8") from None


def load_json(text: str, where: str, shape: str) -> Any:
    """``json.loads`` whose every failure (syntax, nesting too deep, a number Python will not
    convert) is a ConfigError naming ``where``; ``shape`` says what was expected."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno}); "
                          f"{shape}") from exc
    except RecursionError:
        raise ConfigError(f"{where}: JSON nested too deeply; {shape}") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ConfigError(f"{where}: not valid JSON ({exc}); {shape}") from exc


def read_jsonl(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON object line; a bad line raises naming its number."""
    text = read_text(path)
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        obj = load_json(line, f"{path}:{n}", "each line must be one JSON object")
        if not isinstance(obj, dict):
            raise ConfigError(f"{path}:{n}: expected a JSON object like {{\"url\": ..., \"text\": ...}}, got {type(obj).__name__}")
        yield n, cast(dict[str, Any], obj)


def write_jsonl(rows: Iterable[dict[str, Any]]) -> None:
    """Write one compact JSON object per line to stdout."""
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


@contextmanager
def show_progress(totals: Mapping[str, int] | None = None) -> Generator[None, None, None]:
    """Progress bars on stderr for every :mod:`authorag.progress` task reported inside the block.

    ``totals`` gives the expected count of a task whose reporter does not know it (the number
    of judge calls of a point judge), so the bar can show an estimate of the time left.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from authorag.progress import listen

    expected = dict(totals or {})
    if not sys.stderr.isatty():  # a file or a pipe: plain lines, written as the work happens
        with listen(_line_reporter(expected)):
            yield
        return
    bars = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[unit]}"),
                    TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True),
                    transient=False)
    ids: dict[str, TaskID] = {}

    def on_event(e: ProgressEvent) -> None:
        _, done, total, unit = _shown(e, expected)
        if e.task not in ids:
            if not ids:
                bars.start()  # on the first event: a command that reports nothing draws nothing
            ids[e.task] = bars.add_task(e.task, total=total, unit=unit)
        bars.update(ids[e.task], completed=done, total=total, unit=unit)

    try:
        with listen(on_event):
            yield
    finally:
        if ids:
            bars.stop()


def _ignore(done: int) -> None:
    del done


@contextmanager
def progress_bar(label: str, total: int | None, quiet: bool, *, unit: str = "items",
                 tty_only: bool = False) -> Generator[Callable[[int], None], None, None]:
    """A transient rich progress bar on stderr; yields a callback taking the amount done so far.

    ``unit="bytes"`` shows sizes and the time left, otherwise a percentage and the time spent.
    ``quiet`` (or ``tty_only`` with stderr not a terminal) yields a callback that does nothing.
    """
    if quiet or (tty_only and not sys.stderr.isatty()):
        yield _ignore
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: tuple[ProgressColumn, ...] = (
        (TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TimeRemainingColumn()) if unit == "bytes"
        else (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn()))
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _shown(e: ProgressEvent, expected: dict[str, int]) -> tuple[int | None, int, int | None, str]:
    """The task's total (a later event without one keeps the one announced, recorded in
    ``expected``), and done, total and unit as shown (bytes in MiB)."""
    if e.total is not None:
        expected[e.task] = e.total
    total = expected.get(e.task)
    if e.unit == "bytes":
        return total, e.done >> 20, None if total is None else total >> 20, "MiB"
    return total, e.done, total, e.unit


def _line_reporter(expected: dict[str, int]) -> Callable[[ProgressEvent], None]:
    """A progress listener for a non-terminal stderr: one line per tenth of a task (or per event
    when its total is unknown, at most one a second), and one when it is complete."""
    last: dict[str, tuple[int, float]] = {}

    def on_event(e: ProgressEvent) -> None:
        total, done, shown_total, unit = _shown(e, expected)
        now = time.monotonic()
        step, at = last.get(e.task, (-1, 0.0))
        tenth = -1 if not total else e.done * 10 // total
        if tenth == step and (total or now - at < 1.0) and e.done != total:
            return
        last[e.task] = (tenth, now)
        sys.stderr.write(f"{e.task}: {done}/{'?' if shown_total is None else shown_total} {unit}\n")
        sys.stderr.flush()

    return on_event
