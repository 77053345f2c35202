"""The judge study on DomainAuth-open (``authorag bench judges``): :mod:`~authorag.benchmarks.judge_study.study`
runs it, :mod:`~authorag.benchmarks.judge_study.report` writes its Markdown report."""
