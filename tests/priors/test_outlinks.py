"""HTML outlink extraction and graphs over document collections."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.errors import ConfigError
from authorag.priors.outlinks import (
    extract_links,
    graph_from_documents,
    iter_html_dir,
    iter_html_jsonl,
    page_url,
)

PAGE = """<html><head><title>t</title></head><body>
<a href="/health/flu.html">flu</a>
<a href="../about#team">about</a>
<a href="#top">same page</a>
<a href="mailto:editor@example.org">mail</a>
<a href="javascript:void(0)">js</a>
<a href="tel:+123">call</a>
<a href="https://www.nih.gov/flu?x=1#section">nih</a>
<A HREF="//cdc.gov/flu">cdc</A>
<a>no href</a><a href="">empty</a>
<map><area href="https://who.int/" alt="who"></map>
<a href="https://www.nih.gov/flu?x=1">nih again</a>
</body></html>"""


def test_extract_links_resolves_and_filters() -> None:
    assert extract_links(PAGE, "https://example.org/news/today.html") == [
        "https://example.org/health/flu.html",
        "https://example.org/about",
        "https://www.nih.gov/flu?x=1",
        "https://cdc.gov/flu",
        "https://who.int/",
        "https://www.nih.gov/flu?x=1",
    ]


def test_base_href_takes_precedence() -> None:
    html = '<head><base href="/docs/"></head><a href="a.html">a</a><a href="http://x.org">x</a>'
    assert extract_links(html, "https://example.org/index.html") == [
        "https://example.org/docs/a.html", "http://x.org"]


def test_broken_markup_and_bad_hrefs_do_not_raise() -> None:
    html = '<a href="http://[::1">bad ipv6</a><a href="https://ok.org/"<p>unclosed <a href=/rel>'
    assert extract_links(html, "https://example.org/") == ["https://ok.org/", "https://example.org/rel"]


@pytest.mark.parametrize(("html", "rel", "expected"), [
    ('<link rel="canonical" href="https://site.org/a">', None, "https://site.org/a"),
    ('<meta property="og:url" content="https://site.org/b">', Path("x/y.html"), "https://site.org/b"),
    ('<base href="https://site.org/c/">', None, "https://site.org/c/"),
    ("<p>no hints</p>", Path("news.example.co.uk/2024/a.html"), "https://news.example.co.uk/2024/a.html"),
    ("<p>no hints</p>", Path("pages/a.html"), None),
    ('<link rel="canonical" href="/relative">', Path("a.html"), None),
])
def test_page_url(html: str, rel: Path | None, expected: str | None) -> None:
    assert page_url(html, rel) == expected


def test_graph_from_html_dir(tmp_path: Path) -> None:
    (tmp_path / "en.wikipedia.org" / "wiki").mkdir(parents=True)
    (tmp_path / "en.wikipedia.org" / "wiki" / "Flu.html").write_text(
        '<a href="https://www.nih.gov/flu">a</a><a href="/wiki/Cold">b</a><a href="https://cdc.gov/">c</a>')
    (tmp_path / "nih.html").write_text('<link rel="canonical" href="https://www.nih.gov/">'
                                       '<a href="https://www.cdc.gov/x">x</a>')
    (tmp_path / "orphan.html").write_text('<a href="https://cdc.gov/">x</a>')
    (tmp_path / "notes.txt").write_text("ignored")
    g = graph_from_documents(iter_html_dir(tmp_path))
    edges = {(g.domains[s], g.domains[d]): w for s, d, w in zip(g.src.tolist(), g.dst.tolist(), g.weight.tolist())}
    assert edges == {("wikipedia.org", "nih.gov"): 1.0, ("wikipedia.org", "cdc.gov"): 1.0, ("nih.gov", "cdc.gov"): 1.0}
    assert g.self_links == 1
    assert g.skipped == {"no page url": 1}


def test_graph_from_html_jsonl_counts_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "pages.jsonl"
    lines = [json.dumps({"url": "https://blog.example.com/p", "html": '<a href="/q">q</a>'}),
             json.dumps({"url": "https://nih.gov/", "html": '<a href="https://cdc.gov">c</a>'}),
             "{not json", json.dumps({"url": "https://x.org"}), json.dumps(["list"]), "",
             json.dumps({"url": "not a url", "html": "<a href='https://cdc.gov'>c</a>"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    g = graph_from_documents(iter_html_jsonl(path))
    assert g.domains == ("example.com", "nih.gov", "cdc.gov")  # a site with only internal links is a node
    assert g.num_edges == 1 and g.self_links == 1
    assert g.skipped == {"no page url": 3, "invalid page url": 1}


def test_missing_inputs_raise() -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        list(iter_html_dir("/nonexistent/dir"))
    with pytest.raises(ConfigError, match="does not exist"):
        list(iter_html_jsonl("/nonexistent/file.jsonl"))
