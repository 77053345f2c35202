"""Spark jobs for web-scale data (extra ``[spark]``): PageRank priors over link graphs too big
for one process, and batch authority annotation of DataFrames of URLs.

Nothing here is imported by the rest of the library; ``pyspark`` is imported only inside
these modules. See docs/scale.md for running them on a cluster.
"""
from __future__ import annotations
