"""Scripted answers shared by the judge tests (a fake model that knows a fixed authority order)."""
from __future__ import annotations

import re

from authorag.judges.backends.base import ChatRequest, Completion
from authorag.testing import fake_completion

#: The "true" authority on the 0-9 scale the fake model believes in.
TRUTH = {"nih.gov": 9, "bbc.co.uk": 8, "wikipedia.org": 7, "medium.com": 5, "joes-plumbing.com": 2, "cheap-pills.biz": 0}

_ITEM = re.compile(r"^(\[\w+\] )?Domain: (\S+)", re.MULTILINE)


def shown(request: ChatRequest) -> list[str]:
    """Domains shown in the request, in order."""
    return [m.group(2) for m in _ITEM.finditer(request.messages[-1]["content"])]


def knowing_model(request: ChatRequest) -> str | Completion:
    """Answers every judge prompt consistently with TRUTH (greedy text, no logprobs)."""
    content = request.messages[-1]["content"]
    items = shown(request)
    if "single letter A or B" in content:
        return "A" if TRUTH[items[0]] >= TRUTH[items[1]] else "B"
    if "A: <digit>" in content:
        return f"A: {TRUTH[items[0]]}\nB: {TRUTH[items[1]]}"
    if "from highest to lowest" in content:
        order = sorted(range(len(items)), key=lambda i: -TRUTH[items[i]])
        return " > ".join(f"[{i}]" for i in order)
    if "[i]: <digit>" in content:
        return "".join(f"[{i}]: {TRUTH[d]}\n" for i, d in enumerate(items))
    return str(TRUTH[items[0]])


def logprob_model(request: ChatRequest) -> Completion:
    """One-digit answers with a 50/50 split between TRUTH and TRUTH-2 (expected value TRUTH-1)."""
    truth = TRUTH[shown(request)[0]]
    low = max(truth - 2, 0)
    top = {str(truth): 0.5, str(low): 0.5} if low != truth else {str(truth): 1.0}
    return fake_completion(str(truth), top)
