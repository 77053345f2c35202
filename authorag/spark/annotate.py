"""Batch authority annotation of a Spark DataFrame of URLs (``mapInPandas``).

Every executor opens the prior stores (memory-mapped, shipped with ``SparkContext.addFile``)
once per Python worker and scores its partitions with the same composed scorer as
``authorag score`` (:func:`authorag.compose.load_scorer`: reserved names, hosted user pages,
the shipped table plus your stores, suffix rules, explicit unknowns), so a URL gets the same
values on Spark as on the command line.

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

from authorag.compose import ScorerSettings, load_scorer, split_prior_file
from authorag.errors import ConfigError
from authorag.types import Candidate

OUTPUT_FIELDS = (("authority", "double"), ("authority_confidence", "double"), ("authority_tier", "string"),
                 ("authority_matched", "string"), ("authority_sources", "string"))
"""Columns added to the DataFrame; ``authority_sources`` is JSON ``{source: value}``."""


@dataclass(frozen=True, slots=True)
class AnnotateConfig:
    """What every worker needs to rebuild the same scorer (picklable, small)."""

    settings: ScorerSettings  # without prior_files: those are the stores below
    stores: tuple[tuple[str, str], ...] = ()  # (source name, file name shipped with addFile)


def _scorer(config: AnnotateConfig) -> Any:
    """The scorer for ``config`` (``load_scorer`` caches it per Python worker process)."""
    from pyspark import SparkFiles

    files = tuple(f"{name}={SparkFiles.get(file)}" for name, file in config.stores)
    return load_scorer(config.settings.replace(prior_files=files) if files else config.settings)


def score_frame(urls: Sequence[str | None], scorer: Any) -> dict[str, list[Any]]:
    """The output columns for a list of URLs (plain Python: unit-testable without Spark).

    ``scorer`` is any ``AuthorityScorer`` (``load_scorer(...)`` for the values of ``authorag score``).

    Example:
        >>> score_frame(["https://www.nih.gov/x"], load_scorer(ScorerSettings()))["authority_tier"]
        ['table']
    """
    cands = [Candidate.create(url or "") for url in urls]  # a null URL gets the explicit unknown
    cols: dict[str, list[Any]] = {name: [] for name, _ in OUTPUT_FIELDS}
    for d in scorer.score(cands):
        cols["authority"].append(d.authority)
        cols["authority_confidence"].append(d.confidence)
        cols["authority_tier"].append(d.tier)
        cols["authority_matched"].append(d.matched)
        cols["authority_sources"].append(json.dumps({s.name: s.value for s in d.sources}, sort_keys=True))
    return cols


def _annotate_batches(config: AnnotateConfig, url_col: str) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        scorer = _scorer(config)
        for batch in batches:
            yield batch.assign(**score_frame(batch[url_col].tolist(), scorer))

    return run


def annotate_urls(df: Any, url_col: str = "url", *, prior_files: Mapping[str, str] | None = None,
                  exclude: Sequence[str] = (), optin: Sequence[str] = (),
                  settings: ScorerSettings | None = None) -> Any:
    """``df`` with the :data:`OUTPUT_FIELDS` columns added, scored as ``authorag score`` scores.

    Args:
        df: a Spark DataFrame with a string column ``url_col``.
        prior_files: source name → prior store path (local, or any path ``addFile`` accepts).
        exclude, optin: shipped sources to leave out / add, as in ``authorag score``.
        settings: the scorer's other settings (default ``ScorerSettings()``: reserved and hosted
            tiers on, no learned prior); a judge is not allowed on executors.

    Raises:
        ConfigError: ``url_col`` is missing, an output column already exists, or ``settings``
            asks for a judge.
    """
    from pyspark.sql.types import StructType

    if url_col not in df.columns:
        raise ConfigError(f"the DataFrame has no column {url_col!r}; its columns are {df.columns}")
    clash = [name for name, _ in OUTPUT_FIELDS if name in df.columns]
    if clash:
        raise ConfigError(f"the DataFrame already has the output column(s) {clash}; rename them first")
    base = ScorerSettings() if settings is None else settings
    if base.judge != "none":
        raise ConfigError(f"annotate_urls runs on executors without a judge; got judge={base.judge!r}: "
                          "annotate with the prior tiers, then judge the unknown domains you need")
    files = dict(split_prior_file(spec) for spec in base.prior_files)
    stores = []
    for name, path in (files | dict(prior_files or {})).items():
        df.sparkSession.sparkContext.addFile(path)
        stores.append((name, os.path.basename(path)))
    chosen = base.replace(exclude_sources=tuple(exclude) or None, optin_sources=tuple(optin) or None)
    config = AnnotateConfig(chosen.replace(prior_files=()), tuple(stores))
    extra = ", ".join(f"{name} {kind}" for name, kind in OUTPUT_FIELDS)
    added: Any = StructType.fromDDL(extra)
    schema = StructType(df.schema.fields + added.fields)
    return df.mapInPandas(_annotate_batches(config, url_col), schema)
