"""A tiny shared data folder in the real files' columns (the real sets are not vendored)."""
from __future__ import annotations

import csv
from pathlib import Path

from authorag.benchmarks.generalisation import shared_sets as ss


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def make_shared(root: Path) -> Path:
    """A shared data folder with a few rows of every set, in the real files' columns."""
    c3 = root / ss.FOLDERS["c3"]
    write_csv(c3 / "pages.csv", ["document_id", "url", "category", "source_type", "source_query_or_feed"],
              [["1", "http://www.cdc.gov/flu", "medicine", "google", "flu shot"],
               ["2", "http://quackcures.biz/flu", "medicine", "google", "flu shot"]])
    write_csv(c3 / "page_credibility_aggregate.csv",
              ["document_id", "url", "category", "n_ratings", "mean_credibility", "median_credibility",
               "std_credibility"],
              [["1", "http://www.cdc.gov/flu", "medicine", "10", "4.5", "5", "0.5"],
               ["2", "http://quackcures.biz/flu", "medicine", "10", "1.5", "1", "0.5"],
               ["3", "not a url", "medicine", "10", "3.0", "3", "0.5"]])
    fake = [[str(n), "fake", "x", f"https://www.diario-falso.org/{n}", "politica", "2017-01-01", f"texto falso {n}"]
            for n in range(5)]
    true = [[str(n), "true", "x", f"https://g1.globo.com/{n}", "politica", "2017-01-01", f"texto verdadeiro {n}"]
            for n in range(3)]
    write_csv(root / ss.FOLDERS["fakebr"] / "fakebr.csv",
              ["pair_id", "label", "author", "url", "category", "date", "text"], fake + true)
    body = "Health officials said the vaccine was tested in large trials. " * 5
    write_csv(root / ss.FOLDERS["coaid"] / "coaid_news.csv",
              ["snapshot", "label", "type", "news_url", "title", "content"],
              [["1", "real", "article", "https://www.cdc.gov/covid/a", "Vaccines", body],
               ["1", "fake", "post", "https://www.facebook.com/p/1", "Miracle cure", "short"],
               ["1", "fake", "article", "https://covid-truth.net/b", "Cure", body],
               ["1", "real", "article", "", "No URL", body]])
    write_csv(root / ss.FOLDERS["decodex"] / "decodex-latest.csv",
              ["id", "url", "fiability", "description", "label", "slug"],
              [["1", "lemonde.fr", "4", "", "Le Monde", "a"], ["2", "faux-infos.fr", "2", "", "x", "b"],
               ["3", "legorafi.fr", "1", "", "satire", "c"], ["4", "douteux.fr", "3", "", "x", "d"],
               ["5", "facebook.com/pageinconnue", "2", "", "x", "e"]])
    wiki = root / ss.FOLDERS["wikipedia"]
    write_csv(wiki / "wikipedia_site_labels.csv", ["site", "path_pattern", "label"],
              [["gamespot.com", "", "reliable"], ["fan-wiki-games.net", "", "unreliable_or_deprecated"],
               ["bbc.co.uk", "", "reliable"], ["youtube.com", "/channel/x", "reliable"],
               ["somesite.org", "", "no_consensus"]])
    write_csv(wiki / "reliability_ranking.csv", ["source_name", "status", "domain"], [["BBC", "gr", "bbc.co.uk"]])
    return root
