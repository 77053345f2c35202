"""Domain graphs from edge lists: aggregation, self-links, weights, bad rows, file formats."""
from __future__ import annotations

import gzip
import sys
from pathlib import Path

import numpy as np
import pytest

from authorag.errors import ConfigError, MissingDependencyError
from authorag.priors.graph import DomainGraph, DomainGraphBuilder, graph_from_pairs, read_edges


def _edges(g: DomainGraph) -> dict[tuple[str, str], float]:
    return {(g.domains[s], g.domains[d]): w for s, d, w in zip(g.src.tolist(), g.dst.tolist(), g.weight.tolist())}


def test_subdomains_of_one_site_are_a_self_link_and_dropped() -> None:
    g = graph_from_pairs([("https://a.example.com/x", "https://b.example.com/y"),
                          ("https://en.wikipedia.org/wiki/Flu", "https://www.nih.gov/flu")])
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 1.0}
    assert g.self_links == 1
    assert g.domains == ("example.com", "wikipedia.org", "nih.gov")  # example.com stays a node
    assert (g.num_nodes, g.num_edges, g.rows, g.num_skipped) == (3, 1, 2, 0)


def test_repeated_links_become_one_weighted_edge() -> None:
    g = graph_from_pairs([
        ("https://en.wikipedia.org/wiki/A", "https://www.nih.gov/a"),
        ("https://de.wikipedia.org/wiki/B", "http://nih.gov/b"),
        ("en.wikipedia.org", "NIH.GOV"),
        ("nih.gov", "cdc.gov"),
    ])
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 3.0, ("nih.gov", "cdc.gov"): 1.0}
    assert g.src.dtype == np.int32 and g.dst.dtype == np.int32


def test_hosts_are_normalized_like_parse_host() -> None:
    g = graph_from_pairs([("https://user@WWW.BBC.co.uk:443/news?x=1#top", "//bücher.de/path"),
                          ("192.0.2.1", "http://[2001:db8::1]:8080/")])
    assert _edges(g) == {("bbc.co.uk", "xn--bcher-kva.de"): 1.0, ("192.0.2.1", "2001:db8::1"): 1.0}


@pytest.mark.parametrize(("src", "dst", "reason"), [
    ("not a url", "nih.gov", "invalid"),
    ("nih.gov", "", "invalid"),
    ("mailto:someone@nih.gov", "cdc.gov", "unsupported scheme"),
    ("javascript:void(0)", "cdc.gov", "unsupported scheme"),
    ("http://localhost:8000/x", "cdc.gov", "localhost"),
    ("nih.gov", "https://no-suffix-here/", "invalid"),
    ("https://com/", "nih.gov", "invalid"),  # a bare top-level domain is not a site
])
def test_unreadable_rows_are_counted_by_reason(src: str, dst: str, reason: str) -> None:
    builder = DomainGraphBuilder()
    assert builder.add(src, dst) is False
    assert builder.add("nih.gov", "cdc.gov") is True
    g = builder.build()
    assert g.skipped == {reason: 1}
    assert (g.rows, g.num_edges) == (2, 1)


def test_empty_graph() -> None:
    g = graph_from_pairs([])
    assert (g.num_nodes, g.num_edges, g.rows) == (0, 0, 0)


def test_host_with_port_is_not_a_scheme() -> None:
    g = graph_from_pairs([("example.org:8080", "nih.gov:443")])
    assert _edges(g) == {("example.org", "nih.gov"): 1.0}


def test_bare_hosts_with_query_or_fragment() -> None:
    g = graph_from_pairs([("example.org?ref=1", "nih.gov#top"), ("https://cdc.gov?x", "ftp://files.who.int/a")])
    assert _edges(g) == {("example.org", "nih.gov"): 1.0, ("cdc.gov", "who.int"): 1.0}


TSV = ("src\tdst\n"
       "https://a.example.com/x\thttps://b.example.com/y\n"
       "https://en.wikipedia.org/wiki/X\thttps://www.nih.gov/\n"
       "https://www.cdc.gov/a\thttps://nih.gov/b\n"
       "not a url\tnih.gov\n"
       "onlyone\n")


def test_read_tsv_with_auto_header_and_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "links.tsv"
    path.write_text(TSV, encoding="utf-8")
    seen: list[int] = []
    g = read_edges(path, progress=seen.append)
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 1.0, ("cdc.gov", "nih.gov"): 1.0}
    assert g.skipped == {"invalid": 1, "missing column": 1}
    assert (g.rows, g.self_links) == (5, 1)
    assert seen[-1] == path.stat().st_size


def test_read_tsv_without_header_keeps_first_row(tmp_path: Path) -> None:
    path = tmp_path / "links.txt"
    path.write_text("en.wikipedia.org\tnih.gov\ncdc.gov\tnih.gov\n", encoding="utf-8")
    assert _edges(read_edges(path)) == {("wikipedia.org", "nih.gov"): 1.0, ("cdc.gov", "nih.gov"): 1.0}


def test_read_gzipped_csv_with_named_columns(tmp_path: Path) -> None:
    path = tmp_path / "links.csv.gz"
    text = "id,target,source\n1,https://nih.gov/,https://en.wikipedia.org/\n2,cdc.gov,nih.gov\n"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    g = read_edges(path, src_col="source", dst_col="target")
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 1.0, ("nih.gov", "cdc.gov"): 1.0}


def test_unknown_column_names_the_header(tmp_path: Path) -> None:
    path = tmp_path / "links.csv"
    path.write_text("from,to\nnih.gov,cdc.gov\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"source column 'src' not found; the header has \['from', 'to'\]"):
        read_edges(path, src_col="src", dst_col="to")


def test_format_errors(tmp_path: Path) -> None:
    path = tmp_path / "links.data"
    path.write_text("nih.gov\tcdc.gov\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot tell the format"):
        read_edges(path)
    assert _edges(read_edges(path, format="tsv")) == {("nih.gov", "cdc.gov"): 1.0}
    with pytest.raises(ConfigError, match=r"format must be one of .*got 'xml'"):
        read_edges(path, format="xml")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="does not exist"):
        read_edges(tmp_path / "missing.tsv")


def test_read_parquet(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"src": ["https://en.wikipedia.org/a", "nih.gov", None, "x.example.com"],
                      "dst": ["https://nih.gov/", "cdc.gov", "cdc.gov", "y.example.com"]})
    path = tmp_path / "links.parquet"
    pq.write_table(table, path)
    g = read_edges(path, src_col="src", dst_col="dst")
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 1.0, ("nih.gov", "cdc.gov"): 1.0}
    assert g.skipped == {"missing value": 1}
    assert g.self_links == 1
    assert _edges(read_edges(path)) == _edges(g)  # default: the first two columns
    table = pa.table({"s": ["a.org", "a.org", "b.org"], "d": ["b.org", "c.org", "c.org"], "n": [2, None, 7]})
    pq.write_table(table, tmp_path / "w.parquet")
    weighted = read_edges(tmp_path / "w.parquet", src_col="s", dst_col="d", weight_col="n")
    assert _edges(weighted) == {("a.org", "b.org"): 2.0, ("b.org", "c.org"): 7.0}
    assert weighted.skipped == {"bad weight": 1}
    with pytest.raises(ConfigError, match=r"target column index 5 is out of range; the file has 2 columns"):
        read_edges(path, dst_col=5)


def test_parquet_without_pyarrow_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "links.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingDependencyError, match=r"Parquet edge files needs .*pip install 'authorag\[bench\]'"):
        read_edges(path)


def test_weight_column_for_pre_aggregated_lists(tmp_path: Path) -> None:
    path = tmp_path / "domains.csv"
    path.write_text("src,dst,links\nwikipedia.org,nih.gov,120\nen.wikipedia.org,nih.gov,5\n"
                    "nih.gov,cdc.gov,2.5\nnih.gov,who.int,-1\nnih.gov,who.int,many\ncdc.gov,cdc.gov,9\n",
                    encoding="utf-8")
    g = read_edges(path, src_col="src", dst_col="dst", weight_col="links")
    assert _edges(g) == {("wikipedia.org", "nih.gov"): 125.0, ("nih.gov", "cdc.gov"): 2.5}
    assert g.skipped == {"bad weight": 2}
    assert g.self_links == 1
    assert _edges(read_edges(path, src_col=0, dst_col=1, weight_col=2)) == _edges(g)


def test_weights_mixed_with_plain_links_count_one_each() -> None:
    b = DomainGraphBuilder()
    b.add("a.org", "b.org")
    b.add("a.org", "b.org", 3.0)
    b.add("a.org", "c.org")  # after a weighted row a missing weight is an error, not 1
    assert _edges(b.build()) == {("a.org", "b.org"): 4.0}
