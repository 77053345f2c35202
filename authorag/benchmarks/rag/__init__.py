"""RAGAuth-open, the RAG study: :mod:`~authorag.benchmarks.rag.tasks` (TREC 2019 Health
Misinformation questions as 10-document instances), :mod:`~authorag.benchmarks.rag.protocol`
(filters × top-k, generator-free and optionally LLM-scored) and
:mod:`~authorag.benchmarks.rag.rerank_eval` (top-k of the fused order over a policy grid)."""
