"""Bad CLI input gets a clear error and a non-zero exit, as the HTTP API answers 422; input files are capped."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.cli import main
from authorag.cli._util import read_jsonl, read_text
from authorag.errors import ConfigError


def _rerank(capsys: pytest.CaptureFixture[str], path: Path, *extra: str, query: str = "q") -> tuple[int, str, str]:
    code = main(["rerank", "-q", query, "-i", str(path), "--no-learned", "--relevance", "bm25", *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("line", "message"), [
    ('{"url": 5, "text": "a"}', "c.jsonl:1: 'url' must be a string (the page's URL), got int 5"),
    ('{"url": "https://a.org", "text": ["a"]}', "c.jsonl:1: an object without a string 'text' field ('text' [\"a\"])"),
    ('{"url": "https://a.org", "text": 1}', "c.jsonl:1: an object without a string 'text' field ('text' 1)"),
    ('{"url": "https://a.org", "text": null}', "c.jsonl:1: an object without a string 'text' field ('text' null)"),
    ('{"url": "https://a.org"}', "c.jsonl:1: an object without a string 'text' field (no 'text')"),
])
def test_rerank_refuses_a_line_the_server_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str,
                                                  message: str) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text(line + "\n", encoding="utf-8")
    code, out, err = _rerank(capsys, f)
    assert code == 1 and out == "" and message in err


def test_rerank_refuses_an_empty_input_and_an_empty_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    code, out, err = _rerank(capsys, empty)
    assert code == 1 and out == ""
    assert f"{empty}: no candidates (no JSON object line); give one object per line" in err
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"url": "https://www.nih.gov/x", "text": "t"}) + "\n", encoding="utf-8")
    code, out, err = _rerank(capsys, one, query="  ")
    assert code == 1 and out == ""
    assert "--query is empty; give the question the candidates were retrieved for" in err


def test_input_files_are_capped_before_they_are_parsed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as fh:  # sparse: a large file of zeros that takes no disk
        fh.truncate(200 << 20)
    with pytest.raises(ConfigError, match=r"is larger than the 1 MiB input limit; split it into smaller files, "
                                          r"or raise the limit with --max-input-mib"):
        next(read_jsonl(str(big), 1 << 20))
    with pytest.raises(ConfigError, match="larger than the 1 MiB input limit"):
        read_text(str(big), 1 << 20)
    code, _, err = _rerank(capsys, big, "--max-input-mib", "0.5")
    assert code == 1 and "is larger than the 0.5 MiB input limit" in err
    code = main(["audit", str(big), "--max-input-mib", "0.5"])
    assert code == 1 and "is larger than the 0.5 MiB input limit" in capsys.readouterr().err


def test_jsonl_lines_stream_with_their_numbers(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n\n{"b": "\xe2\x80\xa8"}')  # a byte-order mark, CRLF, a U+2028 in a string
    assert list(read_jsonl(str(f), 1 << 20)) == [(1, {"a": 1}), (3, {"b": "\u2028"})]
    f.write_bytes(b'{"a": 1}\n{"b": "caf\xe9"}\n')
    with pytest.raises(ConfigError, match=r"c.jsonl:2: not UTF-8 text \(byte 0xe9\)"):
        list(read_jsonl(str(f), 1 << 20))


def test_max_input_must_be_positive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"text": "t"}\n', encoding="utf-8")
    code, _, err = _rerank(capsys, f, "--max-input-mib", "0")
    assert code == 1 and "--max-input-mib must be a positive number of MiB, got 0" in err
