"""The page-evidence study on the TREC HM 2019 pages: :mod:`~authorag.benchmarks.page_evidence.crossfit`
(labelled pages, leave-topic-out models), :mod:`~authorag.benchmarks.page_evidence.eval` (the
ablation and its command), :mod:`~authorag.benchmarks.page_evidence.rows` (AUCs, CIs, RAG rows),
:mod:`~authorag.benchmarks.page_evidence.pool` (the corroboration experiment) and
:mod:`~authorag.benchmarks.page_evidence.report` (its Markdown)."""
