"""Small helpers shared by the CLI command modules (input reading, JSON output)."""
from __future__ import annotations

import argparse
import io
import json
import re
import stat
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from authorag.errors import ConfigError

if TYPE_CHECKING:
    from authorag.progress import ProgressEvent

Subparsers = argparse._SubParsersAction  # pyright: ignore[reportPrivateUsage]
"""The type of ``parser.add_subparsers()``; argparse exposes it under a private name only."""

JSON_VERSION = 1
"""Version of the CLI's JSON output shapes."""

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def plain_text(text: str) -> str:
    """Help text without reStructuredText markup: ``:mod:`a.b``` -> ``a.b``, ``:class:`~a.B``` -> ``B``
    (the last part, as Sphinx shows a ``~`` target), double-backquoted literals without quotes.

    Example:
        >>> plain_text("fused (:mod:`authorag.trust`), (:class:`~authorag.x.Calibration`), ``none``")
        'fused (authorag.trust), (Calibration), none'
    """
    def role(m: re.Match[str]) -> str:
        target = m.group(1)
        return target.rsplit(".", 1)[-1] if m.group(0).split("`", 1)[1].startswith("~") else target

    return _LITERAL.sub(r"\1", _ROLE.sub(role, text))


class PlainHelpFormatter(argparse.HelpFormatter):
    """Every help and description text as plain text (:func:`plain_text`): settings fields take
    their help from docstrings written for Sphinx."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        return None if text is None else plain_text(text)

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain_text(text))


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help is plain text; sub-commands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", PlainHelpFormatter)
        super().__init__(*args, **kwargs)


DEFAULT_MAX_INPUT_MIB = 64
"""Largest input file (or stdin) a command reads, in MiB, unless ``--max-input-mib`` raises it."""
_CHUNK = 1 << 20
MAX_INPUT_FLAG_HELP = ("largest input file (or stdin) read, in MiB (default %(default)s); a larger one is "
                       "refused before it is parsed")


def add_max_input(p: argparse.ArgumentParser) -> None:
    """``--max-input-mib``: the input size cap of :func:`read_text` and :func:`read_jsonl`."""
    p.add_argument("--max-input-mib", type=float, default=DEFAULT_MAX_INPUT_MIB, metavar="MIB", help=MAX_INPUT_FLAG_HELP)


def input_cap(args: argparse.Namespace) -> int:
    """The ``--max-input-mib`` of ``args`` in bytes (checked: a positive number)."""
    mib = float(getattr(args, "max_input_mib", DEFAULT_MAX_INPUT_MIB))
    if not mib > 0:
        raise ConfigError(f"--max-input-mib must be a positive number of MiB, got {mib:g}")
    return int(mib * (1 << 20))


def read_lines(path: str) -> list[str]:
    """Non-empty, non-comment lines of a file (``-`` reads stdin)."""
    text = read_text(path)
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def _chunks(path: str, max_bytes: int) -> Iterator[bytes]:
    """The bytes of a regular file (or stdin for ``-``) in chunks; raises once more than
    ``max_bytes`` have been read, so a huge input costs one chunk of memory, not its size."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)  # None for a text-only stdin (a test, an embedding)
        fh: IO[bytes] = io.BytesIO(sys.stdin.read(max_bytes + 1).encode("utf-8")) if stream is None else stream
        yield from _capped(fh, path, max_bytes)
        return
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # before opening: opening a pipe waits for a writer
            raise ConfigError(f"input file {path!r} is not a regular file (a folder, device or pipe); "
                              "give a file, or - for stdin")
        with p.open("rb") as fh:
            yield from _capped(fh, path, max_bytes)
    except OSError as exc:
        raise ConfigError(f"cannot read input file {path!r}: {exc.strerror}") from exc


def _capped(fh: IO[bytes], path: str, max_bytes: int) -> Iterator[bytes]:
    total = 0
    while chunk := fh.read(min(_CHUNK, max_bytes + 1 - total)):
        total += len(chunk)
        if total > max_bytes:
            raise ConfigError(f"input {'stdin' if path == '-' else repr(path)} is larger than the "
                              f"{max_bytes / (1 << 20):g} MiB input limit; split it into smaller files, "
                              "or raise the limit with --max-input-mib")
        yield chunk


def read_text(path: str, max_bytes: int = DEFAULT_MAX_INPUT_MIB << 20) -> str:
    """A regular file (or stdin for ``-``) as UTF-8 text (a leading byte-order mark dropped).

    Raises:
        ConfigError: the file is missing, a device, folder or pipe (``/dev/zero`` would never
            end), larger than ``max_bytes``, or not UTF-8, naming it and the line.
    """
    data = b"".join(_chunks(path, max_bytes))
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8") from None


def _text_lines(path: str, max_bytes: int) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line, read as the file streams in (at most ``max_bytes``);
    each chunk is searched once, so a long line costs its length, not its length squared."""
    line, n = bytearray(), 0
    for chunk in _chunks(path, max_bytes):
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            line += chunk[start:end]
            n += 1
            yield n, _decode(bytes(line), path, n)
            line.clear()
            start = end + 1
        line += chunk[start:]
    if line:
        yield n + 1, _decode(bytes(line), path, n + 1)


def _decode(raw: bytes, path: str, n: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}:{n}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8") from None
    return text.removeprefix("\ufeff") if n == 1 else text


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


def read_jsonl(path: str, max_bytes: int = DEFAULT_MAX_INPUT_MIB << 20) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON object line, read as the file streams in (at most
    ``max_bytes``); a bad line raises naming its number."""
    for n, line in _text_lines(path, max_bytes):
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
