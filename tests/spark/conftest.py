"""A local Spark session shared by the Spark tests (all marked slow: the JVM alone takes
10-30 s to start on this 2-core machine)."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("no Java runtime (scripts/setup.sh installs default-jre-headless)")
    from authorag.spark.session import spark_session

    session = spark_session("local[2]", app_name="authorag-tests")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
