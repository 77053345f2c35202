"""Corpus helpers shared by the retrievers: id checks, top-k checks, JSON-lines persistence."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from authorag.errors import ConfigError
from authorag.types import Candidate
from authorag.validation import check_positive_int


class Corpus:
    """An immutable, id-indexed sequence of candidates.

    Example:
        >>> c = Corpus([Candidate.create("https://a.org", id="a")])
        >>> c.positions(["a"])
        [0]
    """

    def __init__(self, candidates: Iterable[Candidate]) -> None:
        self.candidates: tuple[Candidate, ...] = tuple(candidates)
        self._pos: dict[str, int] = {}
        for i, c in enumerate(self.candidates):
            if c.id in self._pos:
                raise ConfigError(f"corpus candidate ids must be unique; {c.id!r} appears at "
                                  f"positions {self._pos[c.id]} and {i}. Pass id= to Candidate.create")
            self._pos[c.id] = i

    def __len__(self) -> int:
        return len(self.candidates)

    def __getitem__(self, position: int) -> Candidate:
        return self.candidates[position]

    def positions(self, ids: Sequence[str]) -> list[int]:
        """Corpus positions of ``ids``; raises ConfigError naming the first unknown id."""
        out: list[int] = []
        for i in ids:
            pos = self._pos.get(i)
            if pos is None:
                raise ConfigError(f"id {i!r} is not in this corpus of {len(self)} candidates")
            out.append(pos)
        return out

    def save(self, path: Path) -> None:
        """Write one JSON object per line: id, url, text, metadata, scores."""
        with path.open("w", encoding="utf-8") as fh:
            for c in self.candidates:
                fh.write(json.dumps(_row(c), ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: Path) -> Corpus:
        """Read a file written by :meth:`save` (host and domain are re-derived from the URL)."""
        rows: list[Candidate] = []
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                r: dict[str, Any] = json.loads(line)
                rows.append(Candidate.create(r["url"], r["text"], id=r["id"],
                                             metadata=r["metadata"], scores=r["scores"]))
        return cls(rows)


def _row(c: Candidate) -> dict[str, Any]:
    row = {"id": c.id, "url": c.url, "text": c.text, "metadata": dict(c.metadata),
           "scores": dict(c.scores)}
    try:
        json.dumps(row)
    except TypeError as exc:
        raise ConfigError(f"candidate {c.id!r} has metadata that is not JSON-serializable ({exc}); "
                          "keep corpus metadata to str/int/float/bool/list/dict") from exc
    return row


def check_top_k(top_k: int) -> int:
    """Return ``top_k`` if it is a positive integer, else raise ConfigError."""
    check_positive_int("top_k", top_k)
    return top_k
