"""Hostile answer files for ``authorag audit`` (>= 23): JSON and JSONL that is damaged, deep,
mis-encoded or of the wrong shape, and citation offsets that point nowhere."""
from __future__ import annotations

import json

from hostile import Variant

_SOURCES = [{"id": "1", "url": "https://www.cdc.gov/flu"}]


def _answer(**fields: object) -> bytes:
    obj: dict[str, object] = {"question": "Do flu shots work?", "answer": "Yes [1].", "sources": _SOURCES}
    obj.update(fields)
    return json.dumps({k: v for k, v in obj.items() if v is not None}).encode()


def _grounding(segment: object, indices: object = (0,)) -> bytes:
    meta = {"groundingChunks": [{"web": {"uri": "https://www.cdc.gov/flu"}}],
            "groundingSupports": [{"segment": segment, "groundingChunkIndices": list(indices)
                                   if isinstance(indices, tuple) else indices}]}
    return json.dumps({"question": "q", "answer": "Flu shots work.", "groundingMetadata": meta}).encode()


def audit_variants() -> list[Variant]:
    """Every hostile audit file (the test asserts there are at least 23)."""
    cases: list[tuple[str, bytes, str, str]] = [
        ("empty", b"", "not valid JSON", ".json"),
        ("garbage", b"{question: q}", "not valid JSON", ".json"),
        ("trailing", _answer() + b" extra", "not valid JSON", ".json"),
        ("scalar", b"42", "expected an object with 'question', 'answer' and 'sources'", ".json"),
        ("latin1", '{"question": "caf\xe9", "answer": "x"}'.encode("latin-1"), r":1: not UTF-8 text \(byte 0xe9\)",
         ".json"),
        ("utf16", _answer().decode().encode("utf-16"), r":1: not UTF-8 text \(byte 0xff\)", ".json"),
        ("deep-list", b"[" * 100_000 + b"]" * 100_000, "JSON nested too deeply", ".json"),
        ("deep-object", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "JSON nested too deeply", ".json"),
        ("huge-int", b'{"question": "q", "answer": "a", "confidence": ' + b"9" * 5000 + b"}", "not valid JSON", ".json"),
        ("list-of-scalars", b"[1, 2]", "expected a JSON object", ".json"),
        ("no-question", _answer(question=None), "missing 'question'", ".json"),
        ("question-list", _answer(question=["q"]), "'question' must be a string, got list", ".json"),
        ("answer-object", _answer(answer={"text": "x"}), "'answer' must be a string", ".json"),
        ("sources-string", _answer(sources="https://cdc.gov"), "'sources' must be a list of objects", ".json"),
        ("source-id-list", _answer(sources=[{"id": [1], "url": "https://cdc.gov"}]), "'id' must be a string", ".json"),
        ("duplicate-ids", _answer(sources=_SOURCES * 2), "source id '1' appears twice", ".json"),
        ("unknown-citation", _answer(statements=[{"text": "Yes", "citations": ["9"]}]), "cites source id '9'", ".json"),
        ("citations-string", _answer(statements=[{"text": "Yes", "citations": "1"}]),
         r"'citations' must be a list of source ids", ".json"),
        ("support-shape", _answer(statements=[{"text": "Yes", "citations": ["1"]}], support=[[2]]),
         r"support\[0\] must be a list of 1 values 0 or 1", ".json"),
        ("confidence-7", _answer(confidence=7), "'confidence' must be an integer 1-5, got 7", ".json"),
        ("debate-string", _answer(debate="yes"), "'debate' must be true or false", ".json"),
        ("annotation-offsets", json.dumps({"question": "q", "answer": "Short.", "annotations": [
            {"type": "url_citation", "url_citation": {"start_index": 0, "end_index": 999, "url": "https://cdc.gov"}}]}
         ).encode(), r"annotations\[0\]: start_index/end_index must be integers", ".json"),
        ("grounding-string-offset", _grounding({"startIndex": "abc", "endIndex": 5}),
         r"segment\.startIndex must be .*an integer >= 0", ".json"),
        ("grounding-infinite-offset", _grounding({"startIndex": 0, "endIndex": 1e400}),
         r"segment\.endIndex must be .*an integer >= 0.*, got inf", ".json"),
        ("grounding-negative-offset", _grounding({"startIndex": -5, "endIndex": 5}), r"startIndex must be .*an integer >= 0",
         ".json"),
        ("grounding-bad-chunk", _grounding({"startIndex": 0, "endIndex": 5}, (7,)), "cites chunk 7", ".json"),
        ("jsonl-bad-line", _answer() + b"\n{broken\n", r":2: not valid JSON", ".jsonl"),
        ("jsonl-scalar-line", _answer() + b"\n[1]\n", r":2: expected a JSON object", ".jsonl"),
        ("jsonl-latin1", _answer() + b'\n{"question": "caf\xe9"}\n', r":2: not UTF-8 text", ".jsonl"),
        ("jsonl-deep", b"[" * 100_000 + b"]" * 100_000 + b"\n", r":1: JSON nested too deeply", ".jsonl"),
    ]
    return [Variant(name, data, expect, suffix) for name, data, expect, suffix in cases]
