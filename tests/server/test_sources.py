"""Where a document's source URL comes from: one lookup on every surface, and text is data.

Before: the server searched the first 4 KB of a string document for a ``url:``/``source:``/
``link:`` line anywhere, so a page whose text said ``Source: https://www.nih.gov/study`` was
scored as nih.gov (0.979); in v1 objects ``source`` won over ``url``; the CLI read ``url``
only and failed on ``"url": null``; a blank ``source`` hid the ``url`` in the adapters only.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from authorag.adapters import DEFAULT_URL_KEYS
from authorag.cli import main
from authorag.server.documents import split_string_document

AUTH = {"Authorization": "Bearer test-key"}  # as in conftest
NIH = "https://www.nih.gov/study"


def _domains(server_url: str, documents: list[Any], path: str = "/v2/rerank") -> list[str | None]:
    r = httpx.post(f"{server_url}{path}", json={"query": "cure", "documents": documents}, headers=AUTH)
    assert r.status_code == 200, r.text
    by_index = {res["index"]: res["authority"] for res in r.json()["results"]}
    return [by_index[i]["domain"] for i in range(len(documents))]


@pytest.mark.parametrize("text", [
    f"https://evil-cures.biz/page\nMiracle cure.\nSource: {NIH}",                 # the URL on line 1 wins
    f"url: https://evil-cures.biz/page\nlink: {NIH}\ntext: Miracle cure.",         # the first URL key wins
    f"url: https://evil-cures.biz/a page\nlink: {NIH}\ntext: Miracle cure.",       # was: link won (a space in url)
    f"title: Cure\nurl: https://evil-cures.biz/page\ntext: Miracle cure.\nsource: {NIH}",
    f"url: https://evil-cures.biz/page\ntext: |\n  Miracle cure.\n  Source: {NIH}",  # YAML block text
    f"url: https://evil-cures.biz/page\nsummary: a cure\n  Source: {NIH}\ntext: x",  # an indented line is a value
    f"source: https://evil-cures.biz/page\nurl: {NIH}\ntext: Miracle cure.",        # was: url won by key order
    f"Source: evil-cures.biz\nlink: {NIH}\n\nMiracle cure.",                        # line order, blank line ends it
])
def test_page_text_cannot_name_the_source(server_url: str, text: str) -> None:
    assert _domains(server_url, [text]) == ["evil-cures.biz"]


@pytest.mark.parametrize("text", [
    f"Miracle cure.\nSource: {NIH}",                                 # text first: no header at all
    f"title: Cure\ntext: Miracle cure.\nsource: {NIH}",              # the header ends at 'text'
    f"title: Cure\n\nSource: {NIH}",                                  # a blank line ends it
    f"title: Cure\n  Source: {NIH}",                                  # a continuation of the title
    f"title: Cure\n  text: Miracle cure.\nsnippet: s\nsource: {NIH}",  # was nih.gov: an indented text key ends it
    f"snippet: Miracle cure.\nsource: {NIH}\nBuy now.",               # was nih.gov: no end marker, no header
])
def test_a_source_line_inside_the_text_gives_no_url(server_url: str, text: str) -> None:
    assert _domains(server_url, [text]) == [None]


def test_header_keys_follow_the_shared_order() -> None:
    assert DEFAULT_URL_KEYS == ("url", "source", "link", "href", "source_url")
    # line order; a value that is no address (a name) is skipped; keys in any case
    assert split_string_document(f"Source: Reuters wire\nURL: {NIH}\ntext: x")[0] == NIH
    assert split_string_document("source: 'https://cdc.gov/flu'\ntext: x")[0] == "https://cdc.gov/flu"


def test_v1_objects_read_url_before_source(server_url: str) -> None:
    """Was: {"source": "Reuters", "url": nih} scored as the invalid URL 'Reuters'."""
    docs = [{"text": "t", "source": "Reuters", "url": "https://www.nih.gov/"},
            {"text": "t", "source": " ", "url": NIH}, {"text": "t", "url": None, "link": NIH}]
    assert _domains(server_url, docs, "/v1/rerank") == ["nih.gov", "nih.gov", "nih.gov"]


# --- the same documents on every surface ---------------------------------------------------

ROWS: list[dict[str, Any]] = [
    {"text": "a", "source": " ", "url": NIH},
    {"text": "b", "source": "Reuters", "url": "https://www.cdc.gov/flu"},
    {"text": "c", "url": None, "link": "https://www.bbc.co.uk/news"},
    {"text": "d", "url": None},
    {"text": "e", "href": "https://en.wikipedia.org/wiki/X", "source_url": NIH},
    {"text": "f", "url": 7, "source": "https://www.who.int/x"},
]
WANT = [("nih.gov", True), ("cdc.gov", True), ("bbc.co.uk", True), (None, False), ("wikipedia.org", True),
        ("who.int", True)]


def test_server_reads_the_shared_keys(server_url: str) -> None:
    r = httpx.post(f"{server_url}/v1/rerank", json={"query": "q", "documents": ROWS}, headers=AUTH)
    by_index = {res["index"]: res["authority"] for res in r.json()["results"]}
    assert [(by_index[i]["domain"], by_index[i]["has_url"]) for i in range(len(ROWS))] == WANT
    assert by_index[3]["note"] == "no URL"  # was "invalid URL: empty string"
    assert r.json()["meta"]["authorag"]["documents_without_url"] == [3]


def test_cli_rerank_reads_the_shared_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Was: only 'url' was read, and "url": null was an error ('url' must be a string)."""
    f = tmp_path / "c.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    assert main(["rerank", "-q", "q", "-i", str(f), "--relevance", "rank"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = {row["text"]: (row["authority"]["domain"], row["authority"]["has_url"]) for row in rows}
    assert [got[r["text"]] for r in ROWS] == WANT
    assert next(row for row in rows if row["text"] == "d")["authority"]["note"] == "no URL"


def test_langchain_reads_the_shared_keys() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(r["text"], metadata={k: v for k, v in r.items() if k != "text"}) for r in ROWS]
    out = AuthorityCompressor(relevance="rank").compress_documents(docs, "q")
    got = {d.page_content: (d.metadata["authority"]["domain"], d.metadata["authority"]["has_url"]) for d in out}
    assert [got[r["text"]] for r in ROWS] == WANT


def test_haystack_reads_the_shared_keys() -> None:
    pytest.importorskip("haystack")
    from haystack import Document

    from authorag.integrations.haystack import AuthorityRanker

    docs = [Document(content=r["text"], meta={k: v for k, v in r.items() if k != "text"}) for r in ROWS]
    out = AuthorityRanker(relevance="rank").run("q", docs)["documents"]
    got = {d.content: (d.meta["authority"]["domain"], d.meta["authority"]["has_url"]) for d in out}
    assert [got[r["text"]] for r in ROWS] == WANT


def test_the_examples_in_the_docs_hold() -> None:
    """docs/server.md's table of documents and the source each gets."""
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    rows = re.findall(r'^\| `(".*")` \| (`[^`]+`|none)', text, re.MULTILINE)
    assert len(rows) == 6
    for document, source in rows:
        assert split_string_document(json.loads(document))[0] == ("" if source == "none" else source.strip("`")), document


@pytest.mark.parametrize("score", ["NaN", "Infinity", "1e400"])
def test_cli_rerank_refuses_non_finite_scores(capsys: pytest.CaptureFixture[str], tmp_path: Path, score: str) -> None:
    """Was: a NaN score ranked nothing and was printed back as NaN (not JSON)."""
    f = tmp_path / "c.jsonl"
    f.write_text(f'{{"url": "https://cdc.gov/", "text": "a", "score": 0.5}}\n{{"text": "b", "score": {score}}}\n')
    assert main(["rerank", "-q", "q", "-i", str(f), "--relevance", "upstream"]) == 1
    assert f"{f}:2: 'score' must be a finite number, got " in capsys.readouterr().err
