"""First-stage retrieval over a corpus of candidates: BM25, dense (FAISS) and hybrid with authority.

``BM25Retriever`` needs only the core install; ``DenseRetriever``, ``FaissIndex`` and
``HybridRetriever`` need the ``embeddings`` extra when constructed (importing is free).
"""
from __future__ import annotations

from authorag.retrieval.base import Retriever
from authorag.retrieval.bm25_index import BM25Retriever
from authorag.retrieval.dense_index import DenseRetriever
from authorag.retrieval.faiss_index import FaissIndex, IndexKind, IndexOptions
from authorag.retrieval.hybrid_index import HybridRetriever, RelevanceFusion

__all__ = [
    "BM25Retriever",
    "DenseRetriever",
    "FaissIndex",
    "HybridRetriever",
    "IndexKind",
    "IndexOptions",
    "RelevanceFusion",
    "Retriever",
]
