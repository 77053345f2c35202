"""Citation markers, footnote lists and the chat-API URL-citation shapes."""
from __future__ import annotations

import pytest

from authorag.audit.markers import (
    parse_answer,
    sentence_spans,
    split_footnotes,
    url_key,
)
from authorag.audit.model import AuditLimits, AuditSource
from authorag.audit.structured import CitationSpan, citation_spans
from authorag.errors import ConfigError, LimitExceeded

SRC = tuple(AuditSource(str(i), f"https://s{i}.org/p") for i in range(1, 5))


def _cites(answer: str, sources: tuple[AuditSource, ...] = SRC) -> list[tuple[str, tuple[str, ...]]]:
    return [(s.text, s.citations) for s in parse_answer(answer, sources).statements]


@pytest.mark.parametrize(("answer", "expected"), [
    ("A holds [1].", [("A holds.", ("1",))]),
    ("A holds [1][2].", [("A holds.", ("1", "2"))]),
    ("A holds [1, 2].", [("A holds.", ("1", "2"))]),
    ("A holds [1; 3].", [("A holds.", ("1", "3"))]),
    ("A holds [1-3].", [("A holds.", ("1", "2", "3"))]),
    ("A holds [2–4].", [("A holds.", ("2", "3", "4"))]),
    ("A holds (1).", [("A holds.", ("1",))]),
    ("A holds (1, 2).", [("A holds.", ("1", "2"))]),
    ("A holds^1.", [("A holds.", ("1",))]),
    ("A holds¹².", [("A holds¹².", ())]),  # "12" names no source: superscripts stay text
    ("A holds². B too.", [("A holds.", ("2",)), ("B too.", ())]),
    ("A holds[^2].", [("A holds.", ("2",))]),
    ("A holds. [1] B holds. [2][3]", [("A holds.", ("1",)), ("B holds.", ("2", "3"))]),
    ("A holds.\n[1]", [("A holds.", ("1",))]),
    ("A holds. [1] states it. [2] agrees.", [("A holds.", ()), ("Source 1 states it.", ("1",)), ("Source 2 agrees.", ("2",))]),
])
def test_marker_forms(answer: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert _cites(answer) == expected


@pytest.mark.parametrize(("answer", "expected"), [
    ("Shown in [1], which says so.", "Shown in source 1, which says so."),
    ("Studies, including [2] and [3].", "Studies, including source 2 and source 3."),
    ("For example, [2] suggests it.", "For example, source 2 suggests it."),
    ("As [1] shows, it holds.", "As source 1 shows, it holds."),
    ("It works [1] and it is safe [2].", "It works and it is safe."),
])
def test_marker_used_as_a_noun_keeps_a_word(answer: str, expected: str) -> None:
    assert _cites(answer)[0][0] == expected


def test_duplicate_markers_count_once() -> None:
    assert _cites("A holds [1][1] and [1, 1] (1).") == [("A holds and.", ("1",))]


def test_prose_numbers_are_not_citations() -> None:
    # (7) and ^9 name no source: lenient forms stay text; [sic] is not an id.
    assert _cites("Step (7) uses x^9 [sic].") == [("Step (7) uses x^9 [sic].", ())]


def test_unknown_bracket_id_names_the_id() -> None:
    with pytest.raises(ConfigError, match=r"citation \[9\] in 'B \[9\]\.' refers to source id '9'.*\['1', '2', '3', '4'\]"):
        parse_answer("A [1]. B [9].", SRC)


def test_long_range_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"citation range \[1-500\]"):
        parse_answer("A [1-500].", SRC)


def test_empty_answer() -> None:
    parsed = parse_answer("", SRC)
    assert parsed.statements == () and parsed.sources == SRC


def test_footnote_list_maps_labels_to_urls() -> None:
    answer = ("Vitamin C does not cure colds [1]. Zinc may shorten them [2].\n\n"
              "Sources:\n[1] https://www.s1.org/p/\n2. Zinc review - https://new.example/zinc")
    parsed = parse_answer(answer, SRC[:1])
    assert [(s.text, s.citations) for s in parsed.statements] == [
        ("Vitamin C does not cure colds.", ("1",)), ("Zinc may shorten them.", ("2",))]
    assert [(s.id, s.url, s.title) for s in parsed.sources] == [
        ("1", "https://s1.org/p", ""), ("2", "https://new.example/zinc", "Zinc review")]
    assert parsed.notes == ["source '2' (https://new.example/zinc) is cited but was not in 'sources'; added"]


def test_markdown_footnotes_without_sources() -> None:
    body, notes = split_footnotes("Use it[^a].\n\n[^a]: [Guide](https://g.org/x)")
    assert body == "Use it[^a]." and notes == {"a": ("https://g.org/x", "Guide")}
    parsed = parse_answer("Use it[^a].\n\n[^a]: [Guide](https://g.org/x)", ())
    assert parsed.statements[0].citations == ("a",) and parsed.sources[0].url == "https://g.org/x"


def test_inline_link_is_a_citation() -> None:
    parsed = parse_answer("See the [CDC page](https://s2.org/p?utm_source=openai).", SRC)
    assert [(s.text, s.citations) for s in parsed.statements] == [("See the CDC page.", ("2",))]


def test_sentences_lists_and_headings() -> None:
    text = "## Answer\nYes, e.g. the 2019 trial. It works.\n- First item\n1. Second item\n---"
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Yes, e.g. the 2019 trial.", "It works.", "First item", "Second item"]


def test_url_key() -> None:
    assert url_key("HTTPS://www.Example.org/a/?utm_medium=x&id=3#frag") == "example.org/a?id=3"


def test_openai_chat_annotations() -> None:
    answer = "Flu shots cut risk ([cdc.gov](https://www.cdc.gov/flu?utm_source=openai)). Masks help."
    obj = {"choices": [{"message": {"content": answer, "annotations": [
        {"type": "url_citation", "url_citation": {"start_index": 19, "end_index": 73,
                                                   "url": "https://www.cdc.gov/flu?utm_source=openai",
                                                   "title": "Flu"}}]}}]}
    text, spans = citation_spans(obj)
    parsed = parse_answer(text, (AuditSource("cdc", "https://cdc.gov/flu"),), spans)
    assert [(s.text, s.citations) for s in parsed.statements] == [
        ("Flu shots cut risk (cdc.gov).", ("cdc",)), ("Masks help.", ())]


def test_responses_output_offsets_are_shifted_per_part() -> None:
    obj = {"output": [{"type": "message", "content": [
        {"type": "output_text", "text": "One. ", "annotations": []},
        {"type": "output_text", "text": "Two.", "annotations": [
            {"type": "url_citation", "start_index": 0, "end_index": 4, "url": "https://t.org", "title": "T"}]}]}]}
    text, spans = citation_spans(obj)
    assert text == "One. Two." and (spans[0].start, spans[0].end) == (5, 9)
    assert [s.citations for s in parse_answer(text, (), spans).statements] == [(), ("1",)]


def test_grounding_metadata_byte_offsets() -> None:
    text = "Café é bom. Outro fato."
    first = len("Café é bom. ".encode())
    obj = {"answer": text, "groundingMetadata": {
        "groundingChunks": [{"web": {"uri": "https://x.org", "title": "x"}}],
        "groundingSupports": [{"segment": {"startIndex": first, "endIndex": len(text.encode())},
                               "groundingChunkIndices": [0]}]}}
    t, spans = citation_spans(obj)
    assert (spans[0].start, spans[0].end) == (12, 23)
    assert [s.citations for s in parse_answer(t, (), spans).statements] == [(), ("1",)]


def test_grounding_bad_chunk_index() -> None:
    obj = {"answer": "A.", "groundingMetadata": {"groundingChunks": [], "groundingSupports": [
        {"segment": {"startIndex": 0, "endIndex": 2}, "groundingChunkIndices": [3]}]}}
    with pytest.raises(ConfigError, match="cites chunk 3, but there are 0 groundingChunks"):
        citation_spans(obj)


def test_content_blocks_with_citations() -> None:
    obj = {"answer": [{"type": "text", "text": "Intro. "},
                      {"type": "text", "text": "It works.", "citations": [{"url": "https://w.org", "title": "W"}]}]}
    text, spans = citation_spans(obj)
    assert [s.citations for s in parse_answer(text, (), spans).statements] == [(), ("1",)]


def test_bad_annotation_offsets() -> None:
    with pytest.raises(ConfigError, match=r"annotations\[0\]: start_index/end_index"):
        citation_spans({"answer": "short", "annotations": [{"type": "url_citation", "url_citation": {
            "start_index": 0, "end_index": 99, "url": "https://x.org"}}]})


# --- hostile answers: linear work, documented limits --------------------------------------

def _parses_within(answer: str, seconds: float = 60.0) -> str:
    """Parse ``answer`` (a Python expression) in a child process killed after ``seconds``; its
    output. The quadratic parser took hours on these inputs, inside single regex calls that hold
    the interpreter lock (a thread could not be timed out); the linear one takes under a second.
    """
    import subprocess
    import sys

    code = ("from authorag.audit.markers import parse_answer\n"
            "from authorag.audit.model import AuditSource\n"
            f"parsed = parse_answer({answer}, (AuditSource('1', 'https://a.org'),))\n"
            "print(len(parsed.statements), len(parsed.sources))")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds,
                              check=True)
    except subprocess.TimeoutExpired:
        pytest.fail(f"parsing {answer} did not finish within {seconds} s")
    return done.stdout.strip()


@pytest.mark.parametrize(("answer", "parsed"), [
    ('"a [1]. " * 100_000', "1 1"),     # one sentence ("a." is no sentence end), 100,000 markers: 7 s at 12,000 before
    ('"[a " * 200_000', "1 1"),         # unclosed brackets: every "[" was scanned to the end of the line
    ('"[](https://a" * 50_000', "1 1"),  # unclosed link URLs
    ('"x [1]\\n" * 100_000', "100000 1"),  # many lines: each used to copy the text before it
    # white space in a footnote line and a heading-like line: the patterns backtracked polynomially
    ('"Yes [1].\\n\\nSources" + " " * 50_000 + "x\\n[1] https://a.org/x" + " " * 50_000', "2 1"),
])
def test_hostile_answers_parse_in_linear_time(answer: str, parsed: str) -> None:
    assert _parses_within(answer) == parsed


@pytest.mark.parametrize(("answer", "expected"), [
    ("Article 6(1) of the GDPR applies [2].", [("Article 6(1) of the GDPR applies.", ("2",))]),
    ("Call alert(1) to test it.", [("Call alert(1) to test it.", ())]),
    ("Fines follow Article 83(4) and 83(3).", [("Fines follow Article 83(4) and 83(3).", ())]),
    ("Fines apply (3).", [("Fines apply.", ("3",))]),  # detached: still a citation
])
def test_a_parenthesis_attached_to_a_word_or_number_is_text(answer: str,
                                                            expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert _cites(answer) == expected


def test_year_range_in_parentheses_is_prose() -> None:
    """Was: 'citation range [1900-2020] is not a range of at most 50 ids' for ordinary prose."""
    assert _cites("Cases rose (1900-2020) in every decade [1].") == [("Cases rose (1900-2020) in every decade.", ("1",))]


def test_unclosed_ipv6_url_is_a_source_not_an_error() -> None:
    """Was: ValueError('Invalid IPv6 URL') from urlsplit: an HTTP 500 and a CLI traceback."""
    assert url_key("https://[") == "https://["
    parsed = parse_answer("See [x](https://a.org/p) and https://[ too [1].", (AuditSource("1", "https://["),))
    assert [s.url for s in parsed.sources] == ["https://[", "https://a.org/p"]


@pytest.mark.parametrize(("limits", "answer", "code", "message"), [
    (AuditLimits(max_answer_chars=10), "A holds [1]. B holds.", "answer_too_long",
     "the answer has 21 characters, the limit is 10 per audit"),
    (AuditLimits(max_statements=1), "A holds [1]. B holds.", "too_many_statements",
     "the answer has 2 statements, the limit is 1 per audit"),
    (AuditLimits(max_citations=3), "A holds [1][2]. B holds [3, 4].", "too_many_citations",
     "the answer has 4 citations, the limit is 3 per audit"),
    (AuditLimits(max_sources=4), "See [x](https://new.org/p).", "too_many_sources",
     "the answer has 5 sources, the limit is 4 per audit"),
])
def test_limits_name_the_limit(limits: AuditLimits, answer: str, code: str, message: str) -> None:
    with pytest.raises(LimitExceeded, match=message) as err:
        parse_answer(answer, SRC, limits=limits)
    assert err.value.code == code


def test_citation_spans_count_towards_the_citation_limit() -> None:
    text = "A holds. B holds. C holds."
    spans = [CitationSpan(0, len(text), f"https://n{i}.org") for i in range(2)]  # each covers 3 statements
    assert [s.citations for s in parse_answer(text, (), spans).statements] == [("1", "2")] * 3
    with pytest.raises(LimitExceeded, match="the answer has 6 citations, the limit is 5"):
        parse_answer(text, (), spans, limits=AuditLimits(max_citations=5))
