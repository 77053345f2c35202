"""Vendor the public data sets authorag needs from ../shared/data into the package.

Run once by a maintainer (``python scripts/vendor_data.py [SHARED_DATA_DIR]``); the outputs are
committed, so nothing at install or run time reads ../shared. Output is deterministic
(gzip mtime 0, sorted rows) so re-running it yields byte-identical files.

- ``authorag/data/``: prior sources shipped with the product (columns reduced to what the
  prior uses). Misinformation lists are shipped too but are opt-in (licence, see DATA_LICENSES.md).
- ``authorag/benchmarks/data/``: benchmark label sets (CredAuth, EntityAuth, RAGAuth).
- ``data/provenance/``: verbatim PROVENANCE.md of each set.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRIOR_OUT = ROOT / "authorag" / "data"
BENCH_OUT = ROOT / "authorag" / "benchmarks" / "data"
PROV_OUT = ROOT / "data" / "provenance"


def write_csv_gz(path: Path, header: list[str], rows: list[list[object]]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(buf.getvalue().encode("utf-8"))
    print(f"{path.relative_to(ROOT)}: {len(rows)} rows, {path.stat().st_size / 1024:.0f} KiB")


def vendor_priors(src: Path) -> None:
    rel = json.loads((src / "burdisso2024_news_reliability/reliability_scores.json").read_text())
    # Only the link-graph PageRank: the *-reliability fields are propagated from MBFC/NewsGuard.
    write_csv_gz(PRIOR_OUT / "ccnews_pagerank.csv.gz", ["domain", "pagerank"],
                 sorted([d, repr(float(v["pagerank"]))] for d, v in rel.items()))
    wiki = json.loads((src / "burdisso2024_news_reliability/wikipedia_perennial_sources.json").read_text())
    write_csv_gz(PRIOR_OUT / "wikipedia_perennial.csv.gz", ["domain", "status"],
                 sorted([d, int(v)] for d, v in wiki.items()))
    with open(src / "majestic_million_top15k/majestic_million_top15k.csv", newline="") as f:
        maj = [[r["Domain"], int(r["GlobalRank"]), int(r["RefSubNets"]), int(r["RefIPs"])]
               for r in csv.DictReader(f)]
    write_csv_gz(PRIOR_OUT / "majestic_top15k.csv.gz",
                 ["domain", "global_rank", "ref_subnets", "ref_ips"], sorted(maj, key=lambda r: r[1]))
    moz = json.loads((src / "moz_top500/moz_top500_npm_top-sites_1.1.222.json").read_text())
    write_csv_gz(PRIOR_OUT / "moz_top500.csv.gz", ["domain", "rank", "domain_authority", "linking_root_domains"],
                 [[m["rootDomain"], int(m["rank"]), int(m["domainAuthority"]), int(m["linkingRootDomains"])]
                  for m in sorted(moz, key=lambda m: m["rank"])])
    lines = (src / "averitec_misinfo_domains/misinfo_list.txt").read_text().splitlines()
    write_csv_gz(PRIOR_OUT / "averitec_misinfo.csv.gz", ["domain"],
                 sorted([ln.strip()] for ln in lines if ln.strip()))
    with open(src / "grinberg2019_fake_news_domains/fake_news.tsv", newline="") as f:
        rows = [[r["domain"], r["color"], r["is_fake"]] for r in csv.DictReader(f, delimiter="\t")]
    write_csv_gz(PRIOR_OUT / "grinberg2019_fake_news.csv.gz", ["domain", "color", "is_fake"], sorted(rows))


def vendor_bench(src: Path) -> None:
    mbfc = json.loads((src / "mbfc_extension_2026/sources.json").read_text())
    write_csv_gz(BENCH_OUT / "mbfc2026.csv.gz", ["domain", "reporting", "credibility", "bias", "traffic"],
                 sorted([m.get("domain", ""), m.get("reporting", ""), m.get("credibility", ""),
                         m.get("bias", ""), m.get("traffic", "")] for m in mbfc if m.get("domain")))
    with open(src / "baly2018_news_media_reliability/emnlp18_corpus.tsv", newline="") as f:
        rows = [[r["source_url_normalized"], r["fact"], r["bias"]] for r in csv.DictReader(f, delimiter="\t")]
    write_csv_gz(BENCH_OUT / "baly2018.csv.gz", ["domain", "fact", "bias"], sorted(rows))
    shutil.copyfile(src / "baly2018_news_media_reliability/emnlp18_splits.json", BENCH_OUT / "baly2018_splits.json")
    with gzip.open(src / "yang2023_mbfc_chatgpt/chatgpt_ratings.csv.gz", "rt", newline="") as f:
        rows = [[r["domain"], r["chatgpt_rating"]] for r in csv.DictReader(f)]
    write_csv_gz(BENCH_OUT / "yang2023_chatgpt.csv.gz", ["domain", "chatgpt_rating"], sorted(rows))
    for name in ("basketball", "movies", "songs"):
        rows = []
        for line in (src / f"ni_popularity_entities/{name}.jsonl").read_text().splitlines():
            rec = json.loads(line)
            rows.append([rec["question_entity"], int(rec["popularity"])])
        write_csv_gz(BENCH_OUT / f"entities_{name}.csv.gz", ["entity", "popularity"], rows)
    csv.field_size_limit(10**9)
    with open(src / "trec_hm2019_goldengaze/2019qrels_docs_balanced.csv", newline="") as f:
        reader = csv.DictReader(f)
        cols = list(reader.fieldnames or [])
        rows = [[r[c] for c in cols] for r in reader]
    write_csv_gz(BENCH_OUT / "trec_hm2019.csv.gz", cols, rows)


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data"
    for out in (PRIOR_OUT, BENCH_OUT, PROV_OUT):
        out.mkdir(parents=True, exist_ok=True)
    vendor_priors(src)
    vendor_bench(src)
    for prov in sorted(src.glob("*/PROVENANCE.md")):
        shutil.copyfile(prov, PROV_OUT / f"{prov.parent.name}.md")
    for lic in sorted(src.glob("*/LICENSE*")):
        shutil.copyfile(lic, PROV_OUT / f"{lic.parent.name}.{lic.name}")


if __name__ == "__main__":
    main()
