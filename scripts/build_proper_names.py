"""Build ``authorag/data/proper_names.txt.gz``: the words of the shipped word list that are names.

The shipped word list (``learned_prior_words.txt.gz``) is an uncased vocabulary: it holds
``nasa``, ``medicare`` and ``fbi`` beside ``census`` and ``weather``. This script keeps the
words of that list that the SCOWL American English word list (Debian package ``wamerican``,
``/usr/share/dict/american-english``; licence in
``data/provenance/scowl_proper_names.LICENSE.txt``) spells only with a capital letter: names
and acronyms (``NASA``, ``Medicare``, ``FBI``), never a common word. The look-alike targets
(:mod:`authorag.priors.targets`) read a name on this list as a name, not as a dictionary word.
Run by a maintainer (deterministic output):

    python scripts/build_proper_names.py [/usr/share/dict/american-english]
"""
from __future__ import annotations

import gzip
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "authorag" / "data"
OUT = DATA / "proper_names.txt.gz"
DEFAULT_LIST = Path("/usr/share/dict/american-english")


def proper_names(words: frozenset[str], spelled: list[str]) -> list[str]:
    """The ``words`` that ``spelled`` (a word list, one spelling a line) holds only capitalised."""
    lower = {w for w in spelled if w.islower()}
    capital = {w.lower() for w in spelled if not w.islower() and w.isascii() and w.isalpha()}
    return sorted(w for w in words if w in capital and w not in lower)


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else DEFAULT_LIST
    if not src.is_file():
        print(f"no word list at {src}: install the wamerican package or pass the path of a SCOWL "
              "American English list", file=sys.stderr)
        return 2
    words = frozenset(gzip.decompress((DATA / "learned_prior_words.txt.gz").read_bytes()).decode("ascii").split())
    names = proper_names(words, src.read_text("utf-8").split())
    OUT.write_bytes(gzip.compress(("\n".join(names) + "\n").encode("ascii"), mtime=0))
    print(f"wrote {len(names)} names to {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
