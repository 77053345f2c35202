"""Page-evidence evaluation: :mod:`~authorag.benchmarks.page_evidence.crossfit` (honest scorers for
the tracks built from labelled pages), :mod:`~authorag.benchmarks.page_evidence.rows` (AUCs, CIs,
RAG rows), :mod:`~authorag.benchmarks.page_evidence.dev_pages` (hand-written calibration pages)
and :mod:`~authorag.benchmarks.page_evidence.collections` (calibration data and the held-out
CoAID / Fake.br evaluation)."""
