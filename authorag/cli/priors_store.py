"""``authorag priors import`` and ``authorag priors store-info``: public rank lists → prior stores.

Example:
    authorag priors import --format tranco top-1m.csv.gz --out tranco.store
    authorag score nih.gov --prior-file tranco=tranco.store
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from authorag.cli._util import JSON_VERSION, Subparsers, progress_bar
from authorag.compose import split_prior_file
from authorag.errors import ConfigError

_FORMATS = ("tranco", "umbrella", "majestic", "cloudflare", "openpagerank", "cc-webgraph")


def add_parsers(psub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``import`` and ``store-info`` to the ``authorag priors`` sub-commands."""
    p = psub.add_parser("import", help="import a public rank list into a compact prior store",
                        description="Read rank-list files (plain or gzip) and write a memory-mapped prior "
                                    "store usable with --prior-file NAME=STORE. An interrupted import "
                                    "resumes from its last saved chunk when run again.")
    p.add_argument("files", nargs="+", metavar="FILE", help="input file(s); several are merged, best value wins")
    p.add_argument("--format", required=True, choices=_FORMATS, help="the list's format (see docs/scale.md)")
    p.add_argument("--out", required=True, metavar="STORE", help="store file to write (e.g. tranco.store)")
    p.add_argument("--name", help="source name in breakdowns (default: the format name)")
    p.add_argument("--measure", choices=["harmonicc", "pr"], help="cc-webgraph: which rank column (default harmonicc)")
    p.add_argument("--bucket", type=int, help="cloudflare: the bucket size, when the file name does not say 'top-N'")
    p.add_argument("--date", help="date of the list for provenance (default: from the file name, else its mtime)")
    p.add_argument("--skip-bad", action="store_true", help="skip malformed rows (counted) instead of failing")
    p.add_argument("--chunk-rows", type=int, default=1_000_000, help="rows per resumable chunk (default 1,000,000)")
    p.add_argument("--memory", default="2G", metavar="SIZE",
                   help="memory budget, e.g. 512M or 4G (default 2G); bigger imports sort on disk; 'none': no bound")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_import)
    _add_fetch_parser(psub)
    info = psub.add_parser("store-info", help="verify a prior store whole (arrays, checksum) and show its source "
                                              "name, size, transform and provenance")
    info.add_argument("store", metavar="STORE")
    info.set_defaults(func=_store_info)


def _add_fetch_parser(psub: Subparsers[argparse.ArgumentParser]) -> None:
    from authorag.priors.store.fetch import LISTS

    known = ", ".join(f"{r.name} ({r.terms})" for r in LISTS.values())
    p = psub.add_parser("fetch", help="download a public rank list and import it (needs network)",
                        description=f"Download a known list, record its SHA-256 and date, import it. Lists: {known}. "
                                    "Each publisher's terms apply.")
    p.add_argument("name", choices=sorted(LISTS), metavar="NAME", help=", ".join(sorted(LISTS)))
    p.add_argument("--out", metavar="STORE", help="store file to write (default NAME.store)")
    p.add_argument("--url", help="download from here instead (a mirror or a dated copy of the same list)")
    p.add_argument("--sha256", help="expected SHA-256 of the download; a mismatch stops before importing")
    p.add_argument("--dir", metavar="FOLDER", help="keep the download here (default STORE.download/)")
    p.add_argument("--memory", default="2G", metavar="SIZE", help="import memory budget (as for 'priors import')")
    p.add_argument("--skip-bad", action="store_true", help="skip malformed rows (counted) instead of failing")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=_fetch)


def _fetch(args: argparse.Namespace) -> int:
    from authorag.priors.store.fetch import default_folder, download, import_download, rank_list

    entry = rank_list(args.name)
    out = args.out or f"{args.name}.store"
    memory = parse_size(args.memory)
    with progress_bar(f"downloading {args.name}", None, args.quiet, unit="bytes", tty_only=True) as cb:
        got = download(entry, args.dir or default_folder(out), url=args.url, sha256=args.sha256,
                       progress=lambda done, _total: cb(done))
    size = got.path.stat().st_size
    with progress_bar(f"importing {args.name}", size, args.quiet, unit="bytes", tty_only=True) as cb:
        result = import_download(entry, got, out, progress=cb, memory=memory, skip_bad=args.skip_bad)
    return _report(result, args.json)


def _import(args: argparse.Namespace) -> int:
    from authorag.priors.store.import_job import import_lists

    if args.chunk_rows < 1:
        raise ConfigError(f"--chunk-rows must be >= 1, got {args.chunk_rows}")
    memory = parse_size(args.memory)
    total = sum(Path(f).stat().st_size for f in args.files if Path(f).is_file())
    options = {"measure": args.measure, "bucket": args.bucket, "date": args.date}
    with progress_bar(f"importing {args.format}", total, args.quiet, unit="bytes", tty_only=True) as cb:
        result = import_lists(args.format, args.files, args.out, name=args.name, options=options,
                              skip_bad=args.skip_bad, chunk_rows=args.chunk_rows, progress=cb, memory=memory)
    return _report(result, args.json)


def _report(result: Any, as_json: bool) -> int:
    summary = {"version": JSON_VERSION, "out": str(result.out), "entries": result.entries, "rows": result.rows,
               "bad_rows": result.bad_rows, "resumed_rows": result.resumed_rows, "provenance": result.provenance}
    if as_json:
        print(json.dumps(summary, indent=1))
    else:
        skipped = f", {result.bad_rows} bad rows skipped" if result.bad_rows else ""
        resumed = f" (resumed after {result.resumed_rows} rows)" if result.resumed_rows else ""
        print(f"wrote {result.out}: {result.entries} keys from {result.rows} rows{skipped}{resumed}")
    return 0


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int | None:
    """``512M``, ``2G``, ``1.5G``, ``1000000`` → bytes (binary units); ``none`` → None.

    Example:
        >>> parse_size("1.5G"), parse_size("512m"), parse_size("none")
        (1610612736, 536870912, None)
    """
    raw = text.strip().upper().removesuffix("B").removesuffix("I")
    if raw == "NONE":
        return None
    unit = raw[-1:] if raw[-1:] in _UNITS else ""
    try:
        return int(float(raw[:len(raw) - len(unit)]) * _UNITS[unit])
    except ValueError as exc:
        raise ConfigError(f"--memory must be a size like 512M or 4G (or 'none'), got {text!r}") from exc


def _store_info(args: argparse.Namespace) -> int:
    from authorag.priors.store.mapped import PriorStore

    info = PriorStore(args.store).verify()  # the whole file, every time: arrays and checksum
    print(json.dumps({"version": JSON_VERSION, **info}, indent=1))
    if info["checksum"] is None:
        print(f"authorag: warning: {args.store} has no checksum (written by an older authorag); rebuild it with "
              "'authorag priors import' or 'priors build' so damage to it is found", file=sys.stderr)
    return 0


def store_provenance(prior_files: Iterable[str]) -> dict[str, str]:
    """``NAME=STORE`` specs → source name → one-line provenance (file, date, rows, checksum)."""
    from authorag.priors.store.mapped import PriorStore, is_store

    out: dict[str, str] = {}
    for spec in prior_files:
        name, path = split_prior_file(spec)
        if is_store(path):
            out[name] = provenance_line(PriorStore(path, name=name).provenance)
    return out


def provenance_line(prov: Mapping[str, Any]) -> str:
    """``top-1m.csv 2024-01-01 sha256:1a2b3c4d5e6f 1000000 rows (format tranco)``."""
    files = ", ".join(f"{f.get('file')} {f.get('date')} sha256:{str(f.get('sha256', ''))[:12]}"
                      for f in prov.get("files", []))
    return f"{files}; {prov.get('rows')} rows (format {prov.get('format')})"
