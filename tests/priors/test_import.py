"""``authorag priors import``: each public list format (synthetic files in the documented
layouts), gzip, bad rows with line numbers, --skip-bad, resume after an interruption."""
from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from authorag.cli import main
from authorag.errors import ConfigError
from authorag.priors.sources import normalize_key
from authorag.priors.store import import_job
from authorag.priors.store.import_job import import_lists
from authorag.priors.store.importers import fast_key, web_log_rank
from authorag.priors.store.mapped import PriorStore


def _lr(rank: float) -> float:
    return 1 - math.log10(rank) / math.log10(3.6e8)


FILES = {
    "tranco": ("top-1m.csv", "1,google.com\n2,NIH.gov\n3,www.example.co.uk\n"),
    "umbrella": ("top-1m.csv", "1,google.com\n2,api.nih.gov\n3,www.example.co.uk\n"),
    "majestic": ("majestic_million.csv", (
        "GlobalRank,TldRank,Domain,TLD,RefSubNets,RefIPs,IDN_Domain,IDN_TLD,PrevGlobalRank,PrevTldRank,"
        "PrevRefSubNets,PrevRefIPs\n1,1,google.com,com,1,1,google.com,com,1,1,1,1\n"
        "2,1,nih.gov,gov,1,1,nih.gov,gov,2,1,1,1\n3,1,example.co.uk,uk,1,1,example.co.uk,uk,3,1,1,1\n")),
    "openpagerank": ("top10milliondomains.csv", (
        '"Rank","Domain","Open Page Rank"\n"1","google.com","10.00"\n"2","nih.gov","7.50"\n'
        '"3","example.co.uk","3.20"\n')),
    "cc-webgraph": ("cc-main-2024-domain-ranks.txt", (
        "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev\t#n_hosts\n"
        "1\t3.1E7\t2\t0.01\tcom.google\t100\n2\t2.9E7\t1\t0.02\tgov.nih\t50\n"
        "3\t2.0E7\t3\t0.001\tuk.co.example\t4\n")),
}


@pytest.mark.parametrize("fmt", sorted(FILES))
@pytest.mark.parametrize("gz", [False, True])
def test_each_format_maps_ranks_with_its_documented_transform(tmp_path: Path, fmt: str, gz: bool) -> None:
    name, text = FILES[fmt]
    src = tmp_path / (name + (".gz" if gz else ""))
    src.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    result = import_lists(fmt, [src], tmp_path / "out.store", options={"date": "2024-05-01"})
    store = PriorStore(result.out)
    nih = "api.nih.gov" if fmt == "umbrella" else "nih.gov"
    assert sorted(store) == sorted(["google.com", nih, "example.co.uk"])
    if fmt == "openpagerank":
        assert [store[k].value for k in ("google.com", "nih.gov")] == pytest.approx([1.0, 0.75])
    else:
        assert [store[k].value for k in ("google.com", nih, "example.co.uk")] == pytest.approx(
            [1.0, _lr(2), _lr(3)], abs=1e-6)
        assert store[nih].raw == 2
    prov = store.provenance
    assert (prov["rows"], prov["bad_rows"], prov["format"]) == (3, 0, fmt)
    assert prov["files"][0]["file"] == src.name and prov["files"][0]["date"] == "2024-05-01"
    assert len(prov["files"][0]["sha256"]) == 64 and store.name == fmt.replace("-", "_")


def test_cc_webgraph_pagerank_measure_and_header_check(tmp_path: Path) -> None:
    src = tmp_path / "ranks.txt"
    src.write_text(FILES["cc-webgraph"][1])
    store = PriorStore(import_lists("cc-webgraph", [src], tmp_path / "o.store", options={"measure": "pr"}).out)
    assert store["nih.gov"].raw == 1 and store["google.com"].raw == 2
    src.write_text("#pos\t#name\n1\tcom.google\n")
    with pytest.raises(ConfigError, match=r"has no column host_rev or domain_rev; is this the right --format"):
        import_lists("cc-webgraph", [src], tmp_path / "o.store")


def test_cloudflare_buckets_merge_to_the_smallest_bucket(tmp_path: Path) -> None:
    small = tmp_path / "cloudflare-radar_top-200-domains_20240101-20240108.csv"
    big = tmp_path / "cloudflare-radar_top-1000-domains_20240101-20240108.csv"
    small.write_text("domain\ngoogle.com\n")
    big.write_text("domain\ngoogle.com\nnih.gov\n")
    store = PriorStore(import_lists("cloudflare", [big, small], tmp_path / "cf.store").out)
    assert (store["google.com"].raw, store["nih.gov"].raw) == (200, 1000)
    assert store["nih.gov"].value == pytest.approx(_lr(math.sqrt(500 * 1000)), abs=1e-6)
    assert store.provenance["files"][0]["date"] == "2024-01-01"
    nameless = tmp_path / "radar.csv"
    nameless.write_text("domain\nnih.gov\n")
    with pytest.raises(ConfigError, match="give the bucket with --bucket N"):
        import_lists("cloudflare", [nameless], tmp_path / "x.store")
    assert PriorStore(import_lists("cloudflare", [nameless], tmp_path / "x.store",
                                   options={"bucket": 500}).out)["nih.gov"].raw == 500


def test_bad_row_names_file_and_line_and_skip_bad_counts(tmp_path: Path) -> None:
    src = tmp_path / "top-1m.csv"
    src.write_text("1,google.com\n2,not a domain\nx,nih.gov\n4\n5,example.org\n")
    with pytest.raises(ConfigError, match=r"top-1m.csv:2: 'not a domain' is not a host or domain name; "
                                          r"fix the row or pass --skip-bad"):
        import_lists("tranco", [src], tmp_path / "t.store")
    result = import_lists("tranco", [src], tmp_path / "t.store", skip_bad=True)
    assert (result.rows, result.bad_rows, sorted(PriorStore(result.out))) == (2, 3, ["example.org", "google.com"])


def test_interrupted_import_resumes_after_the_last_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "top-1m.csv.gz"
    src.write_bytes(gzip.compress("".join(f"{i},site{i}.com\n" for i in range(1, 101)).encode()))
    out = tmp_path / "t.store"
    real_save = import_job._Parts.save  # pyright: ignore[reportPrivateUsage]
    calls = {"n": 0}

    def crash_after_three(self: object, *args: object) -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        real_save(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(import_job._Parts, "save", crash_after_three)  # pyright: ignore[reportPrivateUsage]
    with pytest.raises(KeyboardInterrupt):
        import_lists("tranco", [src], out, chunk_rows=10)
    assert (tmp_path / "t.store.parts" / "manifest.json").exists() and not out.exists()
    monkeypatch.setattr(import_job._Parts, "save", real_save)  # pyright: ignore[reportPrivateUsage]
    result = import_lists("tranco", [src], out, chunk_rows=10)
    assert (result.resumed_rows, result.rows, result.entries) == (30, 100, 100)
    assert PriorStore(out)["site77.com"].raw == 77 and not (tmp_path / "t.store.parts").exists()
    fresh = import_lists("tranco", [src], tmp_path / "fresh.store")
    assert fresh.provenance["files"] == result.provenance["files"]


def test_fast_key_agrees_with_normalize_key() -> None:
    rng = np.random.default_rng(0)
    tlds = ["com", "co.uk", "de", "io", "github.io", "blogspot.com", "notatld", "gov.uk", "xn--p1ai", "com."]
    letters = np.array(list("abcxyz0-_"))
    names = ["".join(rng.choice(letters, rng.integers(1, 9))) + "." + str(rng.choice(tlds)) for _ in range(400)]
    names += ["www.gov.uk", "www.Example.com", "co.uk", "com", "1.2.3.4", "localhost", "bücher.de", "-a.com"]
    names += ["www." + n for n in names[:100]]
    assert [fast_key(n) for n in names] == [normalize_key(n) for n in names]


def test_cli_import_store_info_and_score_with_provenance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "tranco_2024-03-01.csv"
    src.write_text("1,google.com\n2,tiny-unknown-site.org\n")
    out = tmp_path / "tranco.store"
    assert main(["priors", "import", "--format", "tranco", str(src), "--out", str(out), "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["entries"], summary["rows"], summary["bad_rows"]) == (2, 2, 0)
    assert main(["priors", "store-info", str(out)]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["name"], info["entries"], info["provenance"]["files"][0]["date"]) == ("tranco", 2, "2024-03-01")
    assert main(["score", "tiny-unknown-site.org", "--prior-file", f"tr={out}", "--json", "--no-learned"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["sources"] == {"tr": pytest.approx(_lr(2), abs=1e-6)} and row["raw"] == {"tr": 2}
    assert row["provenance"]["tr"].startswith("tranco_2024-03-01.csv 2024-03-01 sha256:")


def test_web_log_rank_anchor_points() -> None:
    assert web_log_rank(np.array([1, 15_000, 1_000_000, 10**12])).round(2).tolist() == [1.0, 0.51, 0.3, 0.0]


def test_a_file_without_newlines_stops_at_the_line_bound(tmp_path: Path) -> None:
    """Was: a gzip of zeros (or /dev/zero itself) was read into one endless line."""
    bomb = tmp_path / "top-1m.csv.gz"
    bomb.write_bytes(gzip.compress(b"\0" * (64 << 20)))  # 64 MiB of NULs, 64 KB on disk
    with pytest.raises(ConfigError, match=r"top-1m.csv.gz:1: a line longer than 65,536 characters"):
        import_lists("tranco", [bomb], tmp_path / "t.store")
    assert not (tmp_path / "t.store").exists()


def test_a_device_is_not_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"input\(s\) /dev/zero are not regular files \(a folder or a device\)"):
        import_lists("tranco", ["/dev/zero"], tmp_path / "t.store")


def test_a_truncated_gzip_names_the_file(tmp_path: Path) -> None:
    src = tmp_path / "top-1m.csv.gz"
    src.write_bytes(gzip.compress(b"".join(b"%d,site%d.com\n" % (i, i) for i in range(1, 20000)))[:3000])
    with pytest.raises(ConfigError, match=r"top-1m.csv.gz: cannot read past line \d+ .*damaged or truncated"):
        import_lists("tranco", [src], tmp_path / "t.store")


@pytest.mark.parametrize("text", ["", "\n", "junk\n", "rank,domain\n", "1,-not-a-host-\n"])
def test_no_rows_is_an_error_and_writes_no_store(tmp_path: Path, text: str) -> None:
    """Was: an empty or one-junk-line file gave an empty store (and exit code 0)."""
    src = tmp_path / "top-1m.csv"
    src.write_text(text)
    with pytest.raises(ConfigError, match=r"no tranco rows read from .*top-1m.csv.*; no store was written"):
        import_lists("tranco", [src], tmp_path / "t.store", skip_bad=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["top-1m.csv"]


def test_a_damaged_resume_manifest_starts_over(tmp_path: Path) -> None:
    src = tmp_path / "top-1m.csv"
    src.write_text("1,google.com\n2,nih.gov\n")
    parts = tmp_path / "t.store.parts"
    parts.mkdir()
    for bad in ("{broken", "[1, 2]", '{"identity": 1, "chunks": [{"part": 1}]}'):
        parts.mkdir(exist_ok=True)
        (parts / "manifest.json").write_text(bad)
        assert import_lists("tranco", [src], tmp_path / "t.store").entries == 2
