"""Prompt sets: authorag's own (digits under a grammar, logprobs) or the paper's protocol (JSON).

``"authorag"`` asks for bare digits / ``[i]: d`` lines under a GBNF grammar and reads the
expected score from the logprobs (what works on small local models, see docs/judges.md).
``"paper"`` follows the AuthorityBench protocol in our own words: every judge answers with a
JSON object (constrained by a JSON schema where the server supports it), decoding is greedy
(no logprobs), scores are integers 0–9, and domains are shown by name only. Templates of the
paper set live beside the others as ``paper_<name>_v1.txt``.

Example:
    >>> template_name("authority_point", "paper")
    'paper_authority_point'
    >>> json_schema("authority_pair_rank", [])["properties"]["answer"]["enum"]
    ['A', 'B']
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

PromptSet = Literal["authorag", "paper"]
PROMPT_SETS: tuple[PromptSet, ...] = ("authorag", "paper")

_DIGIT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 9}


def template_name(name: str, prompt_set: str) -> str:
    """The template a judge of ``prompt_set`` renders for the base template ``name``."""
    return f"paper_{name}" if prompt_set == "paper" else name


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def json_schema(name: str, ids: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of the paper-protocol answer to base template ``name`` for items ``ids``.

    Point: ``{"score": d}``; pair rank: ``{"answer": "A"|"B"}``; pair score: ``{"A": d, "B": d}``;
    list rank: ``{"ranking": [ids...]}``; list, relevance score: ``{"<id>": d, ...}``; utility:
    ``{"pseudo_answers": {"<id>": text}, "scores": {"<id>": d}}`` (answer first, then score).
    """
    if name == "authority_point":
        return _object({"score": _DIGIT})
    if name == "authority_pair_rank":
        return _object({"answer": {"type": "string", "enum": ["A", "B"]}})
    if name == "authority_pair_score":
        return _object({"A": _DIGIT, "B": _DIGIT})
    if name == "authority_list_rank":
        return _object({"ranking": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                               "maximum": max(0, len(ids) - 1)}}})
    if name == "utility_list_score":
        return _object({"pseudo_answers": _object({i: {"type": "string", "maxLength": 300} for i in ids}),
                        "scores": _object({i: _DIGIT for i in ids})})
    return _object({i: _DIGIT for i in ids})


__all__ = ["PROMPT_SETS", "PromptSet", "json_schema", "template_name"]
