"""Try the German compound splitter `split-words` (CharSplit's n-gram model) without installing it:
load time, the process's peak memory and its splits of a few query compounds.

    pip download split-words==0.1.3 --no-deps -d /tmp/sw && unzip -q -o /tmp/sw/*.whl -d /tmp/sw/unpacked
    python benchmarks/results/relevance_lang/decompound/split_words_probe.py /tmp/sw/unpacked
"""
from __future__ import annotations

import resource
import sys
import time
from pathlib import Path
from typing import Any

WORDS = ("Genossenschaftswohnung", "Rücksendekosten", "Kündigungsfrist", "Mietminderung", "Elternzeitantrag",
         "Einkommensteuererklärung", "Weihnachtsmarkt", "Teilchenbeschleuniger")


def main(unpacked: str) -> None:
    sys.path.insert(0, unpacked)
    model = Path(unpacked) / "split_words" / "ngram_probs.json"
    print(f"model file: {model.stat().st_size / 1e6:.1f} MB")
    start = time.perf_counter()
    from split_words import Splitter  # pyright: ignore[reportMissingImports]

    splitter: Any = Splitter()
    splitter.split_compound("Haus")  # the model loads on first use
    print(f"load: {time.perf_counter() - start:.2f} s, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    for word in WORDS:
        score, modifier, head = splitter.split_compound(word)[0]
        print(f"{word}: {modifier} | {head} ({score:.3f})")


if __name__ == "__main__":
    main(sys.argv[1])
