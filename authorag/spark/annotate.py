"""Batch authority annotation of a Spark DataFrame of URLs (``mapInPandas``).

Every executor opens the prior stores (memory-mapped, shipped with ``SparkContext.addFile``)
once per Python worker and scores its partitions with the same :class:`PriorTable` lookup as
``authorag score``: the shipped table, your stores, suffix rules, explicit unknowns.

Example (needs ``authorag[spark]`` and Java)::

    from authorag.spark.session import spark_session
    from authorag.spark.annotate import annotate_urls
    spark = spark_session("local[2]")
    df = spark.createDataFrame([("https://www.nih.gov/x",), ("someone.blogspot.com",)], ["url"])
    annotate_urls(df, prior_files={"tranco": "tranco.store"}).show()
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from authorag.errors import ConfigError

OUTPUT_FIELDS = (("authority", "double"), ("authority_confidence", "double"), ("authority_tier", "string"),
                 ("authority_matched", "string"), ("authority_sources", "string"))
"""Columns added to the DataFrame; ``authority_sources`` is JSON ``{source: value}``."""


@dataclass(frozen=True, slots=True)
class AnnotateConfig:
    """What every worker needs to rebuild the same prior table (picklable, small)."""

    stores: tuple[tuple[str, str], ...]  # (source name, file name shipped with addFile)
    exclude: tuple[str, ...] = ()
    optin: tuple[str, ...] = ()


_TABLES: dict[AnnotateConfig, Any] = {}


def _table(config: AnnotateConfig) -> Any:
    """The prior table for ``config``, built once per Python worker process."""
    table = _TABLES.get(config)
    if table is None:
        from pyspark import SparkFiles

        from authorag.priors import load_prior
        from authorag.priors.store import store_source

        extra = [store_source(SparkFiles.get(file), name) for name, file in config.stores]
        table = _TABLES[config] = load_prior(exclude=config.exclude, optin=config.optin, extra=extra)
    return table


def score_frame(urls: Sequence[str | None], table: Any) -> dict[str, list[Any]]:
    """The output columns for a list of URLs (plain Python: unit-testable without Spark).

    Example:
        >>> from authorag.priors import load_prior
        >>> score_frame(["https://www.nih.gov/x"], load_prior())["authority_tier"]
        ['table']
    """
    cols: dict[str, list[Any]] = {name: [] for name, _ in OUTPUT_FIELDS}
    for url in urls:
        d = table.lookup(url or "")  # a null URL gets the explicit invalid-URL unknown
        cols["authority"].append(d.authority)
        cols["authority_confidence"].append(d.confidence)
        cols["authority_tier"].append(d.tier)
        cols["authority_matched"].append(d.matched)
        cols["authority_sources"].append(json.dumps({s.name: s.value for s in d.sources}, sort_keys=True))
    return cols


def _annotate_batches(config: AnnotateConfig, url_col: str) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        table = _table(config)
        for batch in batches:
            yield batch.assign(**score_frame(batch[url_col].tolist(), table))

    return run


def annotate_urls(df: Any, url_col: str = "url", *, prior_files: Mapping[str, str] | None = None,
                  exclude: Sequence[str] = (), optin: Sequence[str] = ()) -> Any:
    """``df`` with the :data:`OUTPUT_FIELDS` columns added, scored by the prior table.

    Args:
        df: a Spark DataFrame with a string column ``url_col``.
        prior_files: source name → prior store path (local, or any path ``addFile`` accepts).
        exclude, optin: shipped sources to leave out / add, as in ``authorag score``.

    Raises:
        ConfigError: ``url_col`` is missing, or an output column already exists.
    """
    from pyspark.sql.types import StructType

    if url_col not in df.columns:
        raise ConfigError(f"the DataFrame has no column {url_col!r}; its columns are {df.columns}")
    clash = [name for name, _ in OUTPUT_FIELDS if name in df.columns]
    if clash:
        raise ConfigError(f"the DataFrame already has the output column(s) {clash}; rename them first")
    stores = []
    for name, path in (prior_files or {}).items():
        df.sparkSession.sparkContext.addFile(path)
        stores.append((name, os.path.basename(path)))
    config = AnnotateConfig(tuple(stores), tuple(exclude), tuple(optin))
    extra = ", ".join(f"{name} {kind}" for name, kind in OUTPUT_FIELDS)
    added: Any = StructType.fromDDL(extra)
    schema = StructType(df.schema.fields + added.fields)
    return df.mapInPandas(_annotate_batches(config, url_col), schema)
