"""Spark in the default suite: one small local[1] session (~25 s with the JVM start on this
2-core machine). ``priors build --engine spark`` equals the scipy engine on a small graph, and
``annotate_urls`` gives exactly the values ``authorag score`` prints.

Not skipped without Java or pyspark: the session fixture fails with the fix in the message
(scripts/setup.sh installs both).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from authorag.cli import main
from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.priors.store.mapped import PriorStore, write_store

# One core, one shuffle partition, no UI: a local job on a few hundred rows is all scheduling,
# and every extra task or partition adds to it. C1-only JIT and the serial GC start the JVM faster.
FAST_CONF = {"spark.sql.shuffle.partitions": "1", "spark.default.parallelism": "1",
             "spark.ui.enabled": "false", "spark.sql.adaptive.enabled": "false",
             "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}


@pytest.fixture(scope="module")
def small_spark() -> Iterator[Any]:
    from pyspark.sql import SparkSession

    from authorag.spark.session import spark_session

    existing = SparkSession.getActiveSession()  # the slow tests' session, when they run too
    session = spark_session("local[1]", app_name="authorag-default-tests", conf=FAST_CONF)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    if existing is None:
        session.stop()


def _build(engine: str, edges: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    # --tol 1e-4: 5 iterations instead of 30 (each is ~0.25 s of local scheduling); both engines
    # stop at the same iteration, so the comparison is as strict. The slow tests use the default.
    assert main(["priors", "build", "--engine", engine, "--edges", str(edges), "--out", str(out), "--json",
                 "--quiet", "--spark-master", "local[1]", "--tol", "1e-4"]) == 0
    return json.loads(capsys.readouterr().out)


def _by_pagerank(store: PriorStore) -> list[str]:
    return sorted(store, key=lambda k: (-float(store[k].raw), k))  # type: ignore[arg-type]


def test_engine_spark_equals_scipy_on_a_small_graph(small_spark: Any, tmp_path: Path, edge_file: Callable[..., Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    del small_spark  # the CLI gets the same session (getOrCreate)
    edges = edge_file(tmp_path / "edges.tsv.gz", 2000, 200, seed=1)
    spark_run = _build("spark", edges, tmp_path / "spark.store", capsys)
    scipy_run = _build("scipy", edges, tmp_path / "scipy.store", capsys)
    for key in ("nodes", "edges", "iterations"):
        assert spark_run[key] == scipy_run[key]
    assert spark_run["iterations"] == 5
    assert spark_run["nodes"] == 202 and spark_run["engine"] == "spark"
    a, b = PriorStore(tmp_path / "spark.store"), PriorStore(tmp_path / "scipy.store")
    keys = sorted(b)
    assert sorted(a) == keys
    raw_a, raw_b = (np.array([float(s[k].raw) for k in keys]) for s in (a, b))  # type: ignore[arg-type]
    assert float(np.max(np.abs(raw_a - raw_b))) <= 1e-6
    assert max(abs(a[k].value - b[k].value) for k in keys) <= 1e-6
    assert _by_pagerank(a)[:20] == _by_pagerank(b)[:20]


URLS = ["https://www.nih.gov/x", "https://tiny-unknown-site.org/a", "someone.blogspot.com",
        "http://example.com/", "https://no-such-domain-zz9.com/p", "not a url"]
COLUMNS = {"authority": "authority", "authority_confidence": "confidence", "authority_tier": "tier",
           "authority_matched": "matched"}


def test_annotate_urls_equals_authorag_score(small_spark: Any, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from authorag.spark.annotate import annotate_urls

    store = write_store(tmp_path / "local.store", ["tiny-unknown-site.org"], [0.3], raw=[900_000], name="tranco")
    assert main(["score", "--json", "--prior-file", f"tranco={store}", *URLS]) == 0
    expected = json.loads(capsys.readouterr().out)
    df = small_spark.createDataFrame(list(enumerate(URLS)), "id long, url string")
    rows = sorted(annotate_urls(df, prior_files={"tranco": str(store)}).collect(), key=lambda r: r["id"])
    for column, field in COLUMNS.items():
        assert [r[column] for r in rows] == [e[field] for e in expected], column
    assert [json.loads(r["authority_sources"]) for r in rows] == [e["sources"] for e in expected]
    assert [r["authority_tier"] for r in rows] == ["table", "table", "hosted", "reserved", "unknown", "unknown"]


def test_annotate_needs_the_url_column_and_no_judge(small_spark: Any) -> None:
    from authorag.spark.annotate import annotate_urls

    df = small_spark.createDataFrame([(1, "nih.gov")], "id long, url string")
    with pytest.raises(ConfigError, match=r"has no column 'link'; its columns are \['id', 'url'\]"):
        annotate_urls(df, "link")
    with pytest.raises(ConfigError, match=r"runs on executors without a judge; got judge='local'"):
        annotate_urls(df, settings=ScorerSettings(judge="local"))
