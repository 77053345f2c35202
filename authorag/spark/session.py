"""A SparkSession for authorag's jobs, with a clear error when Spark or Java is missing."""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from typing import Any

from authorag._optional import require
from authorag.errors import ConfigError

LOCAL_DEFAULTS: Mapping[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",  # the default 200 makes every small local shuffle slow
    "spark.sql.execution.arrow.pyspark.enabled": "true",
}


def check_java() -> str:
    """Path of the ``java`` Spark will run; raises ConfigError saying how to install one."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.path.exists(java):
        raise ConfigError("Spark needs a Java 17+ runtime and none was found (no java on PATH, JAVA_HOME "
                          "unset); install one, e.g. 'apt-get install default-jre-headless', or set JAVA_HOME")
    return java


def spark_session(master: str | None = None, *, app_name: str = "authorag",
                  conf: Mapping[str, str] | None = None) -> Any:
    """The active SparkSession, or a new one (``master`` e.g. ``local[2]``; None keeps what
    ``spark-submit`` configured). Local masters get small-job defaults (:data:`LOCAL_DEFAULTS`).

    Raises:
        MissingDependencyError: pyspark is missing (``pip install 'authorag[spark]'``).
        ConfigError: no Java runtime.
    """
    sql = require("pyspark.sql", extra="spark", feature="Spark jobs")
    check_java()
    # Python workers must be this interpreter (the one with authorag), not the first python3 on PATH.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = sql.SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local"):
            for key, value in LOCAL_DEFAULTS.items():
                builder = builder.config(key, value)
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    return builder.getOrCreate()
