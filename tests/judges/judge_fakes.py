"""Scripted answers shared by the judge tests (a fake model that knows a fixed authority order)."""
from __future__ import annotations

import re

from authorag.judges.backends.base import ChatRequest, Completion
from authorag.testing import fake_completion, judge_script

#: The "true" authority on the 0-9 scale the fake model believes in.
TRUTH = {"nih.gov": 9, "bbc.co.uk": 8, "wikipedia.org": 7, "medium.com": 5, "joes-plumbing.com": 2, "cheap-pills.biz": 0}

_ITEM = re.compile(r"^(\[\w+\] )?Domain: (\S+)", re.MULTILINE)


def shown(request: ChatRequest) -> list[str]:
    """Domains shown in the request, in order."""
    return [m.group(2) for m in _ITEM.finditer(request.messages[-1]["content"])]


def _truth(line: str) -> int:
    match = _ITEM.search(line)
    assert match is not None, f"no 'Domain:' in the item line {line!r}"
    return TRUTH[match.group(2)]


knowing_model = judge_script(_truth)
"""Answers every judge prompt consistently with TRUTH (greedy text, no logprobs)."""


def logprob_model(request: ChatRequest) -> Completion:
    """One-digit answers with a 50/50 split between TRUTH and TRUTH-2 (expected value TRUTH-1)."""
    truth = TRUTH[shown(request)[0]]
    low = max(truth - 2, 0)
    top = {str(truth): 0.5, str(low): 0.5} if low != truth else {str(truth): 1.0}
    return fake_completion(str(truth), top)
