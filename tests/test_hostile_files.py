"""Every CLI entry that reads a file, on every hostile file of tests/hostile/: a non-zero exit
code, one error line, never a traceback.

Each command runs over its files in one subprocess (a driver that calls ``authorag.cli.main``
per file and records the exit code and stderr, as the console script would print them), so the
whole set stays fast; a few files per kind also run as real ``python -m authorag`` processes.
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import Variant
from hostile.audits import audit_variants
from hostile.matrices import matrix_variants
from hostile.settings_files import settings_variants
from hostile.stores import store_variants

from authorag.testing import free_port

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
       "AUTHORAG_CACHE_DIR": ""}

PORT = str(free_port())  # serve checks the port first: a bad file must be the error, not the port

_DRIVER = r"""
import contextlib, io, json, sys, traceback
from authorag.cli import main
results = []
for argv in json.load(sys.stdin):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            traceback.print_exc(file=err)
            code = "raised"
    results.append({"argv": argv, "code": code, "stderr": err.getvalue()})
json.dump(results, sys.stdout)
"""


def _write(folder: Path, variants: list[Variant], default_suffix: str) -> list[tuple[Variant, Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for v in variants:
        path = folder / f"{v.name}{v.suffix or default_suffix}"
        path.write_bytes(v.data)
        out.append((v, path))
    return out


def _drive(argvs: list[list[str]], tmp_path: Path) -> list[dict[str, object]]:
    env = {**ENV, "AUTHORAG_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", _DRIVER], input=json.dumps(argvs), capture_output=True, text=True,
                          env=env, timeout=600, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _assert_one_error_line(results: list[dict[str, object]]) -> None:
    bad = []
    for r in results:
        err = str(r["stderr"]).strip()
        if (r["code"] in (0, "raised") or "Traceback" in err or "\n" in err or not err.startswith("authorag: error: ")
                or f":{PORT}" in err or "--port" in err):
            bad.append(f"{r['argv']}: exit {r['code']}: {err[-600:]}")
    assert not bad, "\n\n".join(bad[:10]) + f"\n({len(bad)} of {len(results)} failed)"


def test_settings_files_through_score_rerank_audit_and_serve(tmp_path: Path) -> None:
    files = _write(tmp_path / "toml", settings_variants(), ".toml")
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"url": "https://www.cdc.gov/flu", "text": "Flu shots."}\n')
    answer = tmp_path / "answer.json"
    answer.write_text('{"question": "Do flu shots work?", "answer": "Yes [1].", "sources": ["https://www.cdc.gov/flu"]}')
    argvs = []
    for _, path in files:
        argvs += [["score", "--config", str(path), "nih.gov"],
                  ["rerank", "--config", str(path), "-q", "flu", "-i", str(docs)],
                  ["audit", "--config", str(path), str(answer)],
                  ["serve", "--config", str(path), "--port", PORT]]
    _assert_one_error_line(_drive(argvs, tmp_path))


def test_store_files_through_store_info_and_score(tmp_path: Path) -> None:
    files = _write(tmp_path / "stores", store_variants(), ".store")
    argvs = [a for v, p in files if v.when == "open"
             for a in (["priors", "store-info", str(p)], ["score", "--json", "--prior-file", f"mine={p}", "nih.gov"])]
    _assert_one_error_line(_drive(argvs, tmp_path))
    listed = [["score", "--json", "--prior-file", f"mine={p}", "site3.org"] for v, p in files if v.when == "list"]
    for r in _drive(listed, tmp_path):  # damage only a key listing sees: lookups answer, and right
        assert r["code"] == 0 and "Traceback" not in str(r["stderr"]), r


def test_matrix_files_through_rerank_and_serve(tmp_path: Path) -> None:
    files = _write(tmp_path / "yaml", matrix_variants(), ".yaml")
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"url": "https://www.cdc.gov/flu", "text": "Flu shots."}\n')
    argvs = [a for _, p in files for a in (["rerank", "--suitability-matrix", str(p), "-q", "flu", "-i", str(docs)],
                                           ["serve", "--suitability-matrix", str(p), "--port", PORT])]
    _assert_one_error_line(_drive(argvs, tmp_path))


def test_answer_files_through_audit(tmp_path: Path) -> None:
    files = _write(tmp_path / "audit", audit_variants(), ".json")
    _assert_one_error_line(_drive([["audit", str(p)] for _, p in files], tmp_path))


def _rank_lists(folder: Path) -> list[Path]:
    folder.mkdir()
    files = {"empty.csv": b"", "junk.csv": b"<html>502 Bad Gateway</html>\n", "header-only.csv": b"rank,domain\n",
             "latin1.csv": "1,caf\xe9.com\n".encode("latin-1"), "zeros.csv.gz": gzip.compress(b"\0" * (8 << 20)),
             "truncated.csv.gz": gzip.compress(b"".join(b"%d,site%d.com\n" % (i, i) for i in range(1, 20000)))[:3000],
             "negative.csv": b"-1,google.com\n",
             "nan.csv": b"nan,google.com\n", "no-newline.csv": b"1,google.com" + b",x" * 40_000}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / "a-folder.csv").mkdir()
    return sorted(folder.iterdir())


def test_rank_lists_through_import_and_fetch(tmp_path: Path) -> None:
    lists = _rank_lists(tmp_path / "lists")
    argvs = []
    for path in [*lists, Path("/dev/zero")]:
        argvs.append(["priors", "import", "--format", "tranco", str(path), "--out", str(tmp_path / "t.store"), "--quiet"])
        if path.is_file():
            argvs.append(["priors", "fetch", "tranco", "--url", path.as_uri(), "--out", str(tmp_path / "f.store"),
                          "--quiet"])
    _assert_one_error_line(_drive(argvs, tmp_path))
    assert not (tmp_path / "t.store").exists() and not (tmp_path / "f.store").exists()


@pytest.mark.parametrize("make", [
    lambda d: ["score", "--config", str(_one(d, settings_variants(), "dotted-key", ".toml")), "nih.gov"],
    lambda d: ["priors", "store-info", str(_one(d, store_variants(), "len-2^63", ".store"))],
    lambda d: ["score", "--prior-file", f"x={_one(d, store_variants(), 'value-nan', '.store')}", "--json", "nih.gov"],
    lambda d: ["audit", str(_one(d, audit_variants(), "deep-list", ".json"))],
    lambda d: ["serve", "--suitability-matrix", str(_one(d, matrix_variants(), "deep-flow-map", ".yaml")), "--port", PORT],
], ids=["toml", "store-info", "score-store", "audit", "serve-matrix"])
def test_real_processes(tmp_path: Path, make) -> None:
    done = subprocess.run([sys.executable, "-m", "authorag", *make(tmp_path)], capture_output=True, text=True,
                          env={**ENV, "AUTHORAG_CACHE_DIR": str(tmp_path / "cache")}, timeout=300, check=False)
    err = done.stderr.strip()
    assert done.returncode == 1 and err.startswith("authorag: error: ") and "\n" not in err, err[-2000:]
    assert done.stdout == ""  # no partial (or invalid) JSON


def _one(folder: Path, variants: list[Variant], name: str, suffix: str) -> Path:
    v = next(v for v in variants if v.name == name)
    path = folder / f"{name}{suffix}"
    path.write_bytes(v.data)
    return path


def test_stdin_that_is_not_utf8(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "authorag", "audit", "-"], input='{"question": "caf\xe9"}'.encode("latin-1"),
                          capture_output=True, env={**ENV, "AUTHORAG_CACHE_DIR": str(tmp_path / "cache")}, timeout=300,
                          check=False)
    assert done.returncode == 1 and done.stderr.decode().strip() == (
        "authorag: error: -:1: not UTF-8 text (byte 0xe9); save the file as UTF-8")
