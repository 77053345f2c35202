"""One settings path: a field is read from the TOML file, the environment and its flag with no
further code; the file's [scorer], [reranker] and [server] tables are all read; the
environment is read in authorag/settings only."""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path
from typing import Literal

import pytest

from authorag.cli import build_parser, main
from authorag.cli.serve import server_config
from authorag.errors import ConfigError
from authorag.server.config import ServerConfig
from authorag.settings import NO_FLAG, add_flags, build, flag, flag_values, read_settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_settings_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process environment of the test run may hold AUTHORAG_* variables: the tests set their own."""
    import os

    for name in [k for k in os.environ if k.startswith("AUTHORAG_")]:
        monkeypatch.delenv(name)


@dataclasses.dataclass(frozen=True)
class Later:
    """Settings a later release might add.

    Attributes:
        mode: how it runs. More words the help leaves out.
        limit: at most this many (None: no limit).
        names: the names it knows.
        fast: take the short way.
        token: a secret.
    """

    mode: Literal["a", "b"] = "a"
    limit: int | None = None
    names: tuple[str, ...] = ()
    fast: bool = dataclasses.field(default=False, metadata=flag("--quick", help="the short way (default {default})"))
    token: str | None = dataclasses.field(default=None, metadata=NO_FLAG)


def _later(path: Path, env: dict[str, str], argv: list[str]) -> Later:
    p = argparse.ArgumentParser()
    add_flags(p, Later)
    args = p.parse_args(argv)
    return build(Later, read_settings(Later, "server", {"AUTHORAG_CONFIG": str(path), **env},
                                      flag_values(args, Later)))


def test_a_new_field_is_read_from_file_environment_and_flags(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[server]\nmode = "b"\nlimit = 3\nnames = ["x"]\ntoken = "t"\n', encoding="utf-8")
    assert _later(path, {}, []) == Later("b", 3, ("x",), False, "t")
    assert _later(path, {"AUTHORAG_LIMIT": "4", "AUTHORAG_NAMES": "y,z", "AUTHORAG_FAST": "yes"}, []) == \
        Later("b", 4, ("y", "z"), True, "t")
    assert _later(path, {"AUTHORAG_LIMIT": "4"}, ["--mode", "a", "--limit", "5", "--names", "w", "--no-quick"]) == \
        Later("a", 5, ("w",), False, "t")
    p = argparse.ArgumentParser()
    add_flags(p, Later)
    text = p.format_help()
    assert "how it runs (default a)" in text and "the short way (default off)" in text and "--token" not in text
    with pytest.raises(ConfigError, match=re.escape("AUTHORAG_LIMIT must be an integer (or unset), got 'many'")):
        _later(path, {"AUTHORAG_LIMIT": "many"}, [])
    path.write_text("[server]\nlimt = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape("unknown server setting(s) ['limt']; known: fast, limit, mode, "
                                                    "names, token")):
        _later(path, {}, [])


def _config(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "authorag.toml"
    path.write_text(text, encoding="utf-8")
    return {"AUTHORAG_CONFIG": str(path)}


def test_reranker_and_server_tables_are_read(tmp_path: Path) -> None:
    """Was: a [reranker] or [server] table was an error ('outside the [scorer] table') or ignored."""
    env = _config(tmp_path, '[scorer]\nlearned = true\n[reranker]\nweight = 0.8\ndeny = ["*.biz"]\n'
                            '[server]\nmax_documents = 5\nrelevance = "rank"\n')
    cfg = ServerConfig.from_env(env)
    assert (cfg.scorer.learned, cfg.policy.weight, cfg.policy.deny, cfg.max_documents, cfg.relevance) == \
        (True, 0.8, ("*.biz",), 5, "rank")
    cfg = ServerConfig.from_env({**env, "AUTHORAG_WEIGHT": "0.6", "AUTHORAG_MAX_DOCUMENTS": "6"}, max_documents=7)
    assert (cfg.policy.weight, cfg.max_documents) == (0.6, 7)
    assert ServerConfig.from_env(cfg.to_env()) == cfg  # what the workers read
    # A worker reads the same file again under the exported variables: a flag that set a field back
    # to its default (weight 0.5 over the file's 0.8) must still win there.
    flagged = ServerConfig.from_env(env, weight=0.5)
    assert flagged.policy.weight == 0.5 and ServerConfig.from_env({**env, **flagged.to_env()}) == flagged


@pytest.mark.parametrize(("text", "message"), [
    ("[reranker]\nwieght = 0.8\n", r"unknown reranker setting\(s\) \['wieght'\]; known: allow, credibility_weight"),
    ("[server]\nmax_documents = \"5\"\n", "max_documents must be an integer, got '5'"),
    ("[reranker]\nweight = 1.5\n", r"weight must be in \[0, 1\], got 1.5"),
    ("[server]\nmax_documents = 0\n", r"max_documents must be a positive integer.*\(settings from config file"),
])
def test_table_errors_name_the_file(tmp_path: Path, text: str, message: str) -> None:
    env = _config(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        ServerConfig.from_env(env)
    assert env["AUTHORAG_CONFIG"] in str(info.value)


def test_serve_flags_keep_their_spellings_and_win(tmp_path: Path) -> None:
    env = _config(tmp_path, "[server]\nmax_documents = 5\njudge_workers = 2\n[reranker]\nweight = 0.8\n")
    args = build_parser().parse_args([
        "serve", "--config", env["AUTHORAG_CONFIG"], "--judge-deadline", "2", "--read-timeout", "3",
        "--request-deadline", "9", "--max-documents", "7", "--weight", "0.4", "--exclude", "moz",
        "--judge", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cache", "c.sqlite",
        "--suitability", "--cpu-threads", "3", "--max-judge-calls", "4"])
    cfg = server_config(args)
    assert (cfg.judge_deadline_s, cfg.read_timeout_s, cfg.request_deadline_s, cfg.max_documents, cfg.judge_workers,
            cfg.policy.weight, cfg.suitability, cfg.cpu_threads) == (2.0, 3.0, 9.0, 7, 2, 0.4, True, 3)
    s = cfg.scorer
    assert (s.exclude_sources, s.judge, s.judge_base_url, s.judge_model, s.judge_cache, s.max_judge_calls) == \
        (("moz",), "openai", "http://127.0.0.1:9/v1", "m", "c.sqlite", 4)
    help_text = build_parser()._subparsers._group_actions[0].choices["serve"].format_help()  # type: ignore[union-attr]
    for words in ("documents per rerank request (default 1000; beyond it: 422 too_many_documents)",
                  "require 'Authorization: Bearer KEY' (prefer AUTHORAG_API_KEY)", "--judge-base-url JUDGE_BASE_URL, "
                  "--base-url JUDGE_BASE_URL", "--prior-file NAME=PATH", "--allow PATTERN"):
        assert words in " ".join(help_text.split()), words
    assert "--judge-api-key" not in help_text


def test_rerank_reads_the_policy_from_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = _config(tmp_path, "[reranker]\nweight = 0.8\nfusion = \"rrf\"\n")
    rows = tmp_path / "in.jsonl"
    rows.write_text('{"text": "a", "url": "https://www.nih.gov/a"}\n', encoding="utf-8")
    argv = ["rerank", "--query", "q", "--input", str(rows), "--json", "--config", env["AUTHORAG_CONFIG"]]
    assert main([*argv, "--weight", "0.7"]) == 0
    policy = json.loads(capsys.readouterr().out)["provenance"]["policy"]
    assert (policy["weight"], policy["fusion"]) == (0.7, "rrf")


_READS = re.compile(r"\bos\.environ\b|\bgetenv\b|\bputenv\b|from os import .*environ")
_ALLOWED = ("authorag/settings/", "authorag/testing/", "authorag/spark/", "authorag/cli/spark.py")


def test_the_environment_is_read_in_the_settings_module_only() -> None:
    """Was: four modules read AUTHORAG_CACHE_DIR, AUTHORAG_RESULTS, OPENAI_API_KEY and list tokens
    themselves, and three settings readers each read AUTHORAG_* variables."""
    found = []
    for path in sorted((ROOT / "authorag").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(_ALLOWED):
            continue
        found += [f"{rel}:{n}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                  if _READS.search(line)]
    assert found == []
    assert _READS.search("x = os.environ.get('A')") and _READS.search("os.getenv('A')")


def test_serve_sets_the_worker_variables_only_once_its_checks_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: the variables were exported before the port check, so a failed start left them behind."""
    import os

    monkeypatch.setattr(os, "environ", {})
    assert main(["serve", "--port", "70000", "--weight", "0.4"]) != 0
    assert os.environ == {}
