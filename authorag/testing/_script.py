"""A fake model that answers every judge prompt in the format the prompt asks for."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from authorag.judges.backends.base import ChatRequest

_ITEM_LINE = re.compile(r"^\[(\w+)\] (.+)$", re.MULTILINE)


def hash_opinion(text: str) -> int:
    """A digit 0-9 from the SHA-256 of ``text``: the same item always gets the same opinion."""
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 10


def judge_script(opinion: Callable[[str], int] = hash_opinion) -> Callable[[ChatRequest], str]:
    """A scripted model for every judge prompt: point, pair, list, RAG yes/no.

    Items shown as ``[id] ...`` lines get ``opinion(line)``; a point prompt shows one item
    without an id (its last line). The answer follows the format the prompt asks for: a digit,
    ``A``/``B``, ``[i] > [j]``, ``[i]: d`` or ``A: d`` lines, or ``yes``/``no`` (odd opinion of
    the whole prompt) for the RAG generator. Use it as ``FakeBackend(judge_script(...))``.

    Example:
        >>> truth = {"nih.gov": 9, "blog.example": 2}
        >>> model = judge_script(lambda line: truth[line.split("Domain: ")[1].split()[0]])
        >>> prompt = "\\n".join(["Answer with a single letter A or B.",
        ...                      "[A] Domain: blog.example", "[B] Domain: nih.gov"])
        >>> model(ChatRequest(messages=[{"role": "user", "content": prompt}]))
        'B'
    """
    def answer(request: ChatRequest) -> str:
        content = request.messages[-1]["content"]
        if content.rstrip().endswith("Answer yes or no."):
            return "yes" if opinion(content) % 2 else "no"
        items = [(m.group(1), opinion(m.group(2))) for m in _ITEM_LINE.finditer(content)]
        if not items:
            return str(opinion(content.strip().splitlines()[-1]))
        if len(items) == 1:
            return str(items[0][1])
        if "single letter A or B" in content or '{"answer": "A"}' in content:
            return "A" if items[0][1] >= items[1][1] else "B"
        if '" > "' in content or '"ranking"' in content:
            return " > ".join(f"[{i}]" for i, _ in sorted(items, key=lambda t: -t[1]))
        bracket = "[i]:" in content
        return "\n".join(f"[{i}]: {d}" if bracket else f"{i}: {d}" for i, d in items)

    return answer


__all__ = ["hash_opinion", "judge_script"]
