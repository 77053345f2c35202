"""The paper suite (``authorag bench suite paper``): :mod:`~authorag.benchmarks.paper.suite` runs
every condition of AuthorityBench's tables, :mod:`~authorag.benchmarks.paper.report` lays the
runs out like the paper's tables with the published numbers beside them."""
