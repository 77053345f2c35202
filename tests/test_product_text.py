"""Product text (code, CLI help, docs, scripts, benchmark files) never names an issue number."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ISSUE = re.compile(r"\bissues?[ _-]?#?\d+\b", re.IGNORECASE)
PRODUCT = ("authorag", "docs", "scripts", "benchmarks", "data", "README.md", "CHANGELOG.md", "DATA_LICENSES.md")


def _text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *PRODUCT],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if not name.endswith((".gz", ".png", ".bin", ".npz", ".store"))]


def test_no_issue_numbers_in_product_text() -> None:
    found = []
    for path in _text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                  for m in ISSUE.finditer(text)]
    assert not found, "say what the work is instead of its issue number:\n" + "\n".join(found)


def test_the_pattern_catches_the_usual_spellings() -> None:
    hits = [s for s in ("issue 11", "issue-16 target", "Issue 12's", "issues 13", "issue #4", "issue_9")
            if ISSUE.search(s)]
    assert len(hits) == 6 and not ISSUE.search("tissue 3") and not ISSUE.search("an issue of 2 kinds")


# A measured figure: a correlation value (ρ 0.52, rho 0.52), a duration (40 µs or 40 us, 12 ms; in
# seconds or minutes when approximate: ~5 s, about 2 min), a speed-up (10x faster), a latency
# percentile with a value (p99 30) or an accuracy/AUC value (accuracy 0.58). A setting in seconds
# ("a timeout of 5 s") is not a measurement and passes.
FIGURE = re.compile(r"(?:(?:[ρτ]|\b(?i:rho|tau))\s*(?:=\s*)?[−-]?\d?\.\d|\d(?:\.\d+)?\s*(?:µs|μs|us|ms|ns)\b(?!-)"
                    r"|(?:~|\b(?i:about)\s+)\d[\d.,]*(?:\s*[–-]\s*\d[\d.,]*)?\s*(?:s|sec|seconds|min|minutes)\b"
                    r"|\d(?:\.\d+)?\s*[x×]\s*(?:faster|slower)|~\d+(?:\.\d+)?x\b|\bp(?:50|90|95|99)\s*[=:]?\s*~?\d"
                    r"|accuracy\s+(?:of\s+)?[01]?\.\d\d|\bAUC\s+[01]?\.\d\d)")


def _docstrings_and_comments(source: str) -> list[tuple[int, str]]:
    import ast
    import io
    import tokenize

    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out += [(node.lineno + i, line) for i, line in enumerate(node.value.value.splitlines())]
    out += [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type == tokenize.COMMENT]
    return out


def test_figure_pattern() -> None:
    hits = ["LE ρ 0.519 vs 0.497", "costs ~50 µs", "12-40 ms here", "about 10x faster", "p99 30", "accuracy 0.58",
            "regexes cost 100-700 us each", "~250 us", "Spearman rho 0.52", "tau = -0.1", "parses them (~5 s)",
            "about 0.2–3 s of MiniLM", "took about 2 min"]
    misses = ["Spearman ρ per list", "ρ / τ", "Python's default is 5 milliseconds", "p99 spikes", "10 levels",
              "3 items at level 9", "a timeout of 5 s", "retry after 60 s", "Kendall tau-b per list", "rho / tau",
              "status 500s", "4 us-east hosts", "the thesaurus 2.0", "the 50 US states"]
    assert [bool(FIGURE.search(s)) for s in hits + misses] == [True] * len(hits) + [False] * len(misses)


def test_no_benchmark_figures_in_code_text() -> None:
    """Numbers that a measurement produced live in result files and the docs that quote them;
    a docstring or comment names the file or the script instead."""
    found = []
    for path in sorted((ROOT / "authorag").rglob("*.py")):
        for line_no, text in _docstrings_and_comments(path.read_text(encoding="utf-8")):
            if FIGURE.search(text):
                found.append(f"{path.relative_to(ROOT)}:{line_no}: {text.strip()[:120]}")
    assert not found, "point to the result file or the bench script instead of the figure:\n" + "\n".join(found)
