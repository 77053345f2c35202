"""The judge study on DomainAuth-open web, written to docs/results/judges_domainauth_web.{json,md}.

A shim over ``authorag bench judges`` (authorag/benchmarks/judge_study/study.py); the arguments are
the same. About 1 h with the local model on 2 shared cores:
    .venv/bin/python scripts/measure_judges.py --lists 20 --minutes 25 --threads 1
    .venv/bin/python scripts/measure_judges.py --methods prior     # the prior-only row, no LLM
    .venv/bin/python scripts/measure_judges.py --report            # rewrite the Markdown from the JSON
"""
import sys

from authorag.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["bench", "judges", "--out", "docs/results/judges_domainauth_web", *sys.argv[1:]]))
