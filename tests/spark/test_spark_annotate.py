"""Batch annotation: the same answers as ``authorag score``, without Spark and on Spark local mode
(the Spark-vs-CLI comparison itself runs in the default suite: test_spark_local.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from authorag.cli import main
from authorag.compose import ScorerSettings, load_scorer
from authorag.errors import ConfigError, MissingDependencyError
from authorag.priors.store.mapped import write_store
from authorag.spark.annotate import score_frame

URLS = ["https://www.nih.gov/x", "https://tiny-unknown-site.org/a", "someone.blogspot.com", "not a url"]


def _store(tmp_path: Path, file: str = "tr.store") -> Path:
    # Spark's addFile keeps one path per file name and session: each test ships its own name.
    return write_store(tmp_path / file, ["tiny-unknown-site.org"], [0.3], raw=[900_000], name="tranco")


def test_score_frame_equals_authorag_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path)
    assert main(["score", "--json", "--prior-file", f"tranco={store}", *URLS]) == 0
    expected = json.loads(capsys.readouterr().out)
    cols = score_frame([*URLS, None], load_scorer(ScorerSettings(prior_files=(f"tranco={store}",))))
    assert cols["authority"][:4] == [e["authority"] for e in expected]
    assert cols["authority_tier"] == ["table", "table", "hosted", "unknown", "unknown"]
    assert json.loads(cols["authority_sources"][1]) == {"tranco": pytest.approx(0.3)}
    assert (cols["authority"][4], cols["authority_matched"][4]) == (None, None)  # a null URL: unknown


@pytest.mark.slow
def test_cli_spark_score_writes_parquet(spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    del spark
    store = _store(tmp_path, "cli.store")
    src = tmp_path / "urls.txt"
    src.write_text("https://www.nih.gov/x\nhttps://tiny-unknown-site.org/a\n")
    out = tmp_path / "scored.parquet"
    assert main(["spark", "score", "--input", str(src), "--output", str(out), "--prior-file",
                 f"tranco={store}", "--master", "local[2]"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 2
    import pandas as pd

    table = pd.read_parquet(out).sort_values("url")
    assert table["authority_tier"].tolist() == ["table", "table"]
    assert table["authority"].tolist()[0] == pytest.approx(0.3)


def test_missing_pyspark_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from authorag.spark.session import spark_session

    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[spark\]'"):
        spark_session("local[1]")


def test_missing_java_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from authorag.spark.session import check_java

    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError, match=r"Spark needs a Java 17\+ runtime .*apt-get install default-jre-headless"):
        check_java()
