"""Dev halves only: the German queries of the v2/v3 hand-written sets whose compounds split
(:func:`authorag.relevance.compounds.split_query`, the pool being the words of the row's pages).
The test halves are never read.

    PYTHONPATH=SRC python -P benchmarks/results/relevance_lang/decompound/dev_splits.py
"""
from __future__ import annotations

import gzip
import json
from functools import partial
from pathlib import Path
from typing import Any

from authorag.relevance.compounds import split_query
from authorag.relevance.language import detect_language, stem_words, stopwords_for
from authorag.relevance.tokens import tokenize

DATA = Path(__file__).resolve().parents[4] / "authorag" / "benchmarks" / "data"


def _texts(row: dict[str, Any]) -> list[str]:
    if "candidates" in row:
        return [c["text"] for c in row["candidates"]]
    return [v["text"] for v in row.values() if isinstance(v, dict) and "text" in v]


def main() -> None:
    stem = partial(stem_words, language="de")
    german = 0
    for path in sorted(DATA.glob("*_v[23].jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as rows:
            for line in rows:
                row = json.loads(line)
                texts = _texts(row) if row.get("split") == "dev" else []
                if not texts or detect_language(row["query"], texts).language != "de":
                    continue
                german += 1
                words = list(dict.fromkeys(t for text in texts for t in tokenize(text)))
                splits = split_query(tokenize(row["query"], stopwords_for("de")), dict(zip(words, stem(words))), stem)
                if splits:
                    print(path.name, row["id"], repr(row["query"]),
                          " ".join(f"{s.modifier.written}|{s.head.written}" for s in splits))
    print(f"German dev rows: {german}")


if __name__ == "__main__":
    main()
