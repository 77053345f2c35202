"""Write the bundled demo example: one TREC HM 2019 question with 10 pages of mixed credibility.

Reads the vendored ``authorag/benchmarks/data/trec_hm2019.csv.gz``; picks topic 6 (laetrile),
5 pages NIST judged credible and 5 not, in a seeded random order; keeps, of each page's
whitespace-collapsed text cut into 700-character passages, the passage that covers most of the
question's words (the first such passage on a tie): what a RAG system retrieves from a page is its
best-matching chunk, not its opening navigation. Output: ``authorag/data/examples/trec_hm2019_topic6.jsonl``.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import random
import re
from pathlib import Path

from authorag.relevance.coverage import coverage

ROOT = Path(__file__).resolve().parent.parent
PASSAGE = 700


def best_passage(question: str, text: str) -> str:
    """The 700-character passage (cut at word boundaries) of ``text`` that covers most of ``question``."""
    words, passages, cur = text.split(" "), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > PASSAGE:
            passages.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    passages.append(cur)
    scores = coverage(question, passages)
    return passages[max(range(len(passages)), key=lambda i: (scores[i], -i))][:PASSAGE]


csv.field_size_limit(10**9)
raw = gzip.decompress((ROOT / "authorag/benchmarks/data/trec_hm2019.csv.gz").read_bytes()).decode()
rows = [r for r in csv.DictReader(io.StringIO(raw)) if r["topic_id"] == "6"]
rng = random.Random(6)
cred = [r for r in rows if r["credibility"] == "1"]
non = [r for r in rows if r["credibility"] == "0"]
picked = rng.sample(cred, 5) + rng.sample(non, 5)
rng.shuffle(picked)
out = ROOT / "authorag/data/examples/trec_hm2019_topic6.jsonl"
with out.open("w", encoding="utf-8") as f:
    header = {"query": picked[0]["description"], "gold_answer": "no" if picked[0]["correct_stance"] == "unhelpful" else "yes"}
    f.write(json.dumps({"_example": header}) + "\n")
    for r in picked:
        text = best_passage(header["query"], re.sub(r"\s+", " ", r["text"]).strip())
        f.write(json.dumps({"id": r["doc_id"], "url": r["url"], "text": text,
                            "nist_credibility": int(r["credibility"]),
                            "stance": "yes" if r["stance"] == "1" else "no"}) + "\n")
print(out)
