"""Measure the probability mass on the answer tokens at the score position of real judge answers.

A judge reads its score from the logprobs at the answer position: the expected digit over 0–9
(PointJudge) or p(A) vs p(B) (PairJudge-PairRank). ``authorag.judges.scoring.MIN_ANSWER_MASS``
is the share of probability below which those logprobs are not an answer (a failed judgement).
This script records what real models put there: for each local model it judges 40 domains with
the PointJudge and 6 with the PairJudge (``pair_rank``, 30 comparisons), and reads the mass on
the digits / on A and B at the first answer position; and the same for the faulty judge's
``wrong_ids`` answer (authorag.testing). Minutes on the 1.5B model on 2 cores.

    .venv/bin/python scripts/measure_answer_mass.py --models smollm2-135m qwen2.5-coder-1.5b \
        --out docs/results/judge_answer_mass.json
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from authorag.judges import PairJudge, PointJudge
from authorag.judges.backends.base import ChatRequest, Completion, LLMBackend
from authorag.judges.scoring import DIGITS, MIN_ANSWER_MASS, answer_mass, first_position

DOMAINS = ["nih.gov", "cdc.gov", "bbc.co.uk", "nytimes.com", "wikipedia.org", "reuters.com", "nature.com",
           "harvard.edu", "who.int", "mayoclinic.org", "webmd.com", "foxnews.com", "breitbart.com",
           "infowars.com", "naturalnews.com", "free-cash-prizes-4u.biz", "cheap-pills-online.ru",
           "riverside-family-clinic.net", "johns-garden-blog.info", "zq-unknown-site.biz", "quantum-healing-now.com",
           "stackoverflow.com", "github.com", "medium.com", "reddit.com", "quora.com", "healthline.com",
           "drweil.com", "mercola.com", "theonion.com", "arxiv.org", "springer.com", "sciencedirect.com",
           "local-news-daily.com", "best-crypto-signals.io", "gov.uk", "europa.eu", "un.org", "imdb.com", "amazon.com"]
PAIR_DOMAINS = ["nih.gov", "bbc.co.uk", "infowars.com", "free-cash-4u.biz", "nature.com", "medium.com"]


class _Recorder:
    """Passes requests to a backend and records the answer-token mass of each answer."""

    def __init__(self, backend: LLMBackend, wanted: tuple[str, ...]) -> None:
        self.backend, self.wanted, self.masses = backend, wanted, list[float]()
        self.name, self.model = backend.name, backend.model

    def complete(self, request: ChatRequest) -> Completion:
        completion = self.backend.complete(request)
        top = first_position(completion.logprobs)
        if top is not None:
            self.masses.append(answer_mass(top, self.wanted))
        return completion

    async def acomplete(self, request: ChatRequest) -> Completion:
        return self.complete(request)


def _summary(masses: list[float]) -> dict[str, Any]:
    ms = sorted(masses)
    return {"answers": len(ms), "min": ms[0], "median": ms[len(ms) // 2], "max": ms[-1],
            "below_minimum": sum(m < MIN_ANSWER_MASS for m in ms)}


def measure(model: str) -> dict[str, Any]:
    from authorag.judges.backends.local import LocalBackend

    backend = LocalBackend(model)
    start = time.perf_counter()
    point = _Recorder(backend, DIGITS)
    PointJudge(point, on_failure="skip").judge(DOMAINS)
    pair = _Recorder(backend, ("A", "B"))
    PairJudge(pair, variant="pair_rank", on_failure="skip").judge(PAIR_DOMAINS)
    return {"model": model, "point_digits": _summary(point.masses), "pair_choice": _summary(pair.masses),
            "seconds": round(time.perf_counter() - start, 1)}


def faulty_wrong_ids() -> dict[str, Any]:
    from authorag.judges.backends.openai_compat import OpenAIBackend
    from authorag.testing import serve_faulty_openai

    with serve_faulty_openai("wrong_ids") as server:
        point = _Recorder(OpenAIBackend(server.base_url, model="fault"), DIGITS)
        PointJudge(point, on_failure="skip").judge(DOMAINS[:3])
    return {"model": "faulty judge, mode wrong_ids", "point_digits": _summary(point.masses)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", nargs="+", default=["smollm2-135m", "qwen2.5-coder-1.5b"])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    rows = [measure(m) for m in args.models] + [faulty_wrong_ids()]
    for row in rows:
        print(json.dumps(row))
    if args.out:
        result = {"command": "scripts/measure_answer_mass.py --models " + " ".join(args.models),
                  "min_answer_mass": MIN_ANSWER_MASS, "rows": rows}
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
