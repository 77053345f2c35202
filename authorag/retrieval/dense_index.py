"""DenseRetriever: embed a corpus with a DenseEncoder and search it with a FaissIndex.

Scores are cosine similarities (``relevance.dense``). A retriever is saved as a directory:
``index.faiss`` + ``index.json`` (the :class:`FaissIndex`), ``corpus.jsonl`` (the candidates)
and ``retriever.json`` (model path and dimension), and reloaded with :meth:`DenseRetriever.load`.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from authorag.errors import ConfigError
from authorag.relevance.dense import DenseEncoder
from authorag.retrieval._corpus import Corpus, check_top_k
from authorag.retrieval.faiss_index import FaissIndex, IndexOptions
from authorag.types import Candidate

logger = logging.getLogger(__name__)

CORPUS_FILE = "corpus.jsonl"
RETRIEVER_FILE = "retriever.json"


class DenseRetriever:
    """Dense (embedding) retrieval over a corpus of candidates (score ``relevance.dense``).

    Args:
        corpus: candidates to index (ids must be unique); their ``text`` is embedded.
        encoder: the :class:`~authorag.relevance.dense.DenseEncoder`; None uses bundled MiniLM.
        options: :class:`~authorag.retrieval.faiss_index.IndexOptions`, or pass its fields as
            keywords (``kind="hnsw"``, ``nprobe=8``...).

    Raises:
        MissingDependencyError: the ``embeddings`` extra is missing.
        ConfigError: duplicate ids or bad index options.

    Example:
        >>> corpus = [Candidate.create("https://a.org", text="cranberry juice and bladder infections", id="a"),
        ...           Candidate.create("https://b.org", text="changing a flat car tyre", id="b")]
        >>> dr = DenseRetriever(corpus)
        >>> [c.id for c in dr.retrieve("Do cranberries help against UTIs?", top_k=1)]
        ['a']
    """

    name: str = "relevance.dense"

    def __init__(self, corpus: Iterable[Candidate], encoder: DenseEncoder | None = None, *,
                 options: IndexOptions | None = None, **option_fields: Any) -> None:
        self.encoder = DenseEncoder() if encoder is None else encoder
        self.corpus = Corpus(corpus)
        opts = options if options is not None else IndexOptions(**option_fields)
        if options is not None and option_fields:
            raise ConfigError("pass either options= or option keywords, not both")
        vectors = self.encoder.encode([c.text for c in self.corpus.candidates])
        if vectors.shape[0] == 0:
            vectors = np.zeros((0, self.encoder.dim), dtype=np.float32)
        self.index = FaissIndex.build(vectors, opts)

    @classmethod
    def from_index(cls, corpus: Corpus, index: FaissIndex, encoder: DenseEncoder) -> DenseRetriever:
        """Wrap an existing index whose positions follow ``corpus`` order (no re-embedding)."""
        if len(index) != len(corpus):
            raise ConfigError(f"index holds {len(index)} vectors but the corpus has {len(corpus)} candidates")
        out = cls.__new__(cls)
        out.encoder, out.corpus, out.index = encoder, corpus, index
        return out

    def __len__(self) -> int:
        return len(self.corpus)

    def retrieve(self, query: str, top_k: int = 10) -> list[Candidate]:
        """The ``top_k`` nearest candidates by cosine, best first, with ``relevance.dense`` set."""
        check_top_k(top_k)
        if len(self.corpus) == 0:
            return []
        q = self.encoder.encode_query(query)
        scores, positions = self.index.search(q[None, :], top_k)
        return [self.corpus[int(p)].with_score(self.name, float(s))
                for s, p in zip(scores[0], positions[0])]

    def score_ids(self, query: str, ids: Sequence[str]) -> list[float]:
        """Cosine of the query with the stored vectors of corpus candidates ``ids``."""
        positions = self.corpus.positions(ids)
        if not positions:
            return []
        q = self.encoder.encode_query(query)
        return [float(s) for s in self.index.reconstruct(positions) @ q]

    def save(self, directory: str | Path) -> Path:
        """Write the index, the corpus and the model reference into ``directory``."""
        path = self.index.save(directory)
        self.corpus.save(path / CORPUS_FILE)
        meta = {"model": self.encoder.model_id, "dim": self.index.dim, "count": len(self.corpus)}
        (path / RETRIEVER_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | Path, encoder: DenseEncoder | None = None) -> DenseRetriever:
        """Reload a retriever written by :meth:`save`.

        ``encoder`` defaults to the bundled MiniLM; a model whose dimension differs from the
        saved index raises ConfigError, a different model path is logged as a warning.
        """
        path = Path(directory)
        if not (path / RETRIEVER_FILE).is_file() or not (path / CORPUS_FILE).is_file():
            raise ConfigError(f"no saved dense retriever in {str(path)!r}: expected {RETRIEVER_FILE} "
                              f"and {CORPUS_FILE}; build one and call .save(directory) first")
        meta: dict[str, Any] = json.loads((path / RETRIEVER_FILE).read_text(encoding="utf-8"))
        enc = DenseEncoder() if encoder is None else encoder
        index = FaissIndex.load(path)
        if enc.dim != index.dim:
            raise ConfigError(f"the index in {str(path)!r} has dimension {index.dim} (model "
                              f"{meta['model']!r}) but the encoder gives {enc.dim}; pass the same model")
        if enc.model_id != meta["model"]:
            logger.warning("index %s was built with %s; querying it with %s", path, meta["model"], enc.model_id)
        return cls.from_index(Corpus.load(path / CORPUS_FILE), index, enc)

    def __repr__(self) -> str:
        return f"DenseRetriever({len(self)} candidates, {self.index!r})"
