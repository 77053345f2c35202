"""The comparison and rerank tracks (``authorag bench compare``, the trust and no-harm checks).

Tracks as tasks: :mod:`~authorag.benchmarks.tracks.tasks` (the tail population and hosted
content), :mod:`~authorag.benchmarks.tracks.trust_data` (the hand-written trust and no-harm
cases), :mod:`~authorag.benchmarks.tracks.rerank` (those cases through the product's reranker),
:mod:`~authorag.benchmarks.tracks.graded` (graded nDCG and RAGAuth rerank rows on TREC HM 2019).
Their protocols: :mod:`~authorag.benchmarks.tracks.protocols`. Their methods:
:mod:`~authorag.benchmarks.tracks.methods` (table-const, table-learned, default) and
:mod:`~authorag.benchmarks.tracks.rerank_methods` (compositions ``NAME[:key=value,...]``).
Relevance scorers of your own through every dev track: :mod:`~authorag.benchmarks.tracks.scorer_study`.
"""
