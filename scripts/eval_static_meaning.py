"""Can a torch-free meaning signal cap the relevance window as dense relevance does?

An experiment, not a product component. Dense relevance (MiniLM) takes BM25's no-harm failures
to 1.00 but costs seconds per 100 new pages on a CPU (docs/results/perf/bench_dense_cache.json),
so BM25 stays the CLI's and the server's default. This script asks whether a *static* distillation of the same model (one vector
per word piece, averaged over a page's words: no model, no torch at query time) carries enough
meaning to do the same job cheaply.

The table: every ASCII word piece of MiniLM's vocabulary run through the model alone
(``[CLS] piece [SEP]``, mean-pooled), centred, projected on its top principal components and
weighted by a smooth inverse frequency read off the vocabulary's order (BERT's word ids are
roughly by frequency): ``a / (a + p)``, ``p`` Zipf by rank. A text's vector is the mean over the
pieces of its first ``--lead`` content words' pieces (stopwords out); relevance is the cosine.
It is declared to judge meaning (``semantic = True``), so the reranker caps the words' window by
it exactly as it caps it by dense cosines.

Methods, each through ``adapters.build_reranker`` as the rerank tracks build them (dev halves,
graded-trec2019, the RAG stand-in): relevance alone (authority weight 0) and the default, with the
static cosines at the default meaning share and stricter ones. BM25 relevance is the reference
row. Needs the ``embeddings`` extra (to build the table once; torch only there).

Run by ``bash benchmarks/results/trust/reproduce_static.sh``; writes ``compare.md`` and
``compare.json`` to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from authorag.relevance.tokens import ENGLISH_STOPWORDS
from authorag.types import Candidate

FIRST_WORD_ID = 1996
"""BERT's first whole-word id after the special, unused and single-character entries ("the")."""
SIF_A = 1e-3
DIMS = 256
SHARES = (None, 0.88, 0.92)
"""Meaning shares of the window compared (None: the default, the square root of on_topic)."""
LEADS = (24, 0)
"""Word pieces of each page read (0: the whole page, cut at MAX_CHARS)."""
MAX_CHARS = 8000


def build_table(path: Path) -> None:
    """Distil the bundled MiniLM into ``path`` (npz: ``vectors`` float16, ``tokens``)."""
    import torch
    from sentence_transformers import SentenceTransformer

    from authorag.relevance.dense import default_model_path

    model = SentenceTransformer(str(default_model_path()), device="cpu", local_files_only=True)
    tok = model.tokenizer
    bert: Any = model[0].auto_model
    bert.eval()
    by_id = {i: t for t, i in tok.vocab.items()}
    keep = [i for i in sorted(by_id) if _plain_piece(by_id[i])]
    outs = []
    with torch.no_grad():
        for start in range(0, len(keep), 1024):
            ids = torch.tensor([[tok.cls_token_id, i, tok.sep_token_id] for i in keep[start:start + 1024]])
            outs.append(bert(input_ids=ids, attention_mask=torch.ones_like(ids)).last_hidden_state.mean(1).numpy())
    emb = np.concatenate(outs).astype(np.float64)
    emb -= emb.mean(0)
    _, _, vt = np.linalg.svd(emb, full_matrices=False)
    proj = emb @ vt[:DIMS].T
    rank = np.array([max(i - FIRST_WORD_ID, 0) for i in keep], dtype=np.float64)
    p = 1.0 / (rank + 10.0)
    p /= p.sum()
    proj *= (SIF_A / (SIF_A + p))[:, None]
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, vectors=proj.astype(np.float16), tokens=np.array([by_id[i] for i in keep]))


def _plain_piece(token: str) -> bool:
    body = token.removeprefix("##")
    return not token.startswith("[") and bool(body) and body.isascii() and body.isalnum()


class StaticMeaning:
    """Cosine of SIF-weighted mean static vectors (score ``relevance.static``); judges meaning."""

    semantic: bool = True

    def __init__(self, table: Path, lead: int) -> None:
        data = np.load(table)
        self.vectors = data["vectors"].astype(np.float32)
        self.index = {t: i for i, t in enumerate(data["tokens"].tolist())}
        self.lead = lead
        self.name = "relevance.static"
        self._pieces: dict[str, list[int]] = {}

    def _word(self, word: str) -> list[int]:
        found = self._pieces.get(word)
        if found is None:
            found = self._wordpiece(word)
            self._pieces[word] = found
        return found

    def _wordpiece(self, word: str) -> list[int]:
        """Greedy longest-match word pieces, as BERT's tokenizer splits a word; [] if one is missing."""
        if word in self.index:
            return [self.index[word]]
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.index:
                    out.append(self.index[piece])
                    break
                end -= 1
            else:
                return []
            start = end
        return out

    def embed(self, text: str, lead: int) -> np.ndarray:
        folded = unicodedata.normalize("NFD", text[:MAX_CHARS].lower())
        folded = "".join(ch for ch in folded if unicodedata.category(ch) != "Mn")
        ids: list[int] = []
        for word in re.findall(r"[a-z0-9]+", folded):
            if word not in ENGLISH_STOPWORDS:
                ids.extend(self._word(word))
                if lead and len(ids) >= lead:
                    break
        if lead:
            ids = ids[:lead]
        if not ids:
            return np.zeros(self.vectors.shape[1], dtype=np.float32)
        v = self.vectors[ids].mean(0)
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        q = self.embed(query, 0)
        return [float(self.embed(c.text, self.lead) @ q) for c in candidates]


def _methods(shares: Sequence[float | None]) -> list[str]:
    return ["relevance-only", *("default" if s is None else f"default:meaning_on_topic={s}" for s in shares)]


def run(table: Path, seed: int) -> dict[str, Any]:
    from authorag.benchmarks.tracks.scorer_study import dev_rows

    static = {f"static-{lead or 'page'}": StaticMeaning(table, lead) for lead in LEADS}  # one load, every method
    return dev_rows(_methods(SHARES), static, ["bm25", *static], seed)


def markdown(results: dict[str, Any]) -> str:
    from authorag.benchmarks.tracks.scorer_study import rows_markdown

    return rows_markdown(
        results, "Static meaning (MiniLM distilled to word-piece vectors) as the window's meaning cap",
        ("Made by `bash benchmarks/results/trust/reproduce_static.sh` (scripts/eval_static_meaning.py, "
         "seed 0, dev halves). Cells: value [bootstrap 95 % CI]. `static-24`: the first 24 content word "
         "pieces of a page; `static-page`: the whole page. `bm25` is the reference (the CLI's and "
         "the server's default relevance)."))


def main() -> None:
    parser = argparse.ArgumentParser(description="Static MiniLM meaning as the window's meaning cap (dev tracks).")
    parser.add_argument("--out", type=Path, required=True, help="folder for compare.md, compare.json, table.npz")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = args.out / "table.npz"
    if not table.is_file():
        build_table(table)
    results = run(table, args.seed)
    (args.out / "compare.json").write_text(json.dumps({"seed": args.seed, "dims": DIMS, "sif_a": SIF_A,
                                                       "leads": list(LEADS), "results": results}, indent=1) + "\n")
    (args.out / "compare.md").write_text(markdown(results))
    print(f"wrote {args.out / 'compare.md'}")


if __name__ == "__main__":
    main()
