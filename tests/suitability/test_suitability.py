"""Source-type classifier, topic classifier, matrix loading and the reranker hook (issue 12)."""
from __future__ import annotations

from pathlib import Path

import pytest

from authorag import AuthorityReranker, Candidate, load_prior
from authorag.errors import ConfigError
from authorag.suitability import (
    MatrixSuitability,
    SourceTypeClassifier,
    TopicClassifier,
    load_matrix,
)
from authorag.suitability.classifier import combine
from authorag.suitability.llm import LLMSourceTypeLayer, path_pattern
from authorag.suitability.taxonomy import Topic
from authorag.testing import FakeBackend


@pytest.mark.parametrize(("url", "stype", "layer"), [
    ("https://www.cdc.gov/flu/index.html", "government", "suffix"),
    ("https://www.ox.ac.uk/research", "academic", "suffix"),
    ("https://en.wikipedia.org/wiki/Zinc", "reference", "list"),
    ("https://someone.blogspot.com/2020/01/x.html", "blog", "platform"),
    ("https://www.reddit.com/r/AskDocs/comments/abc/x", "forum", "platform"),
    ("https://unknown-vendor.com/product/vitamin-c", "commercial", "path"),
    ("https://talk.example.org/questions/12/how", "forum", "path"),
])
def test_url_layers(url: str, stype: str, layer: str) -> None:
    r = SourceTypeClassifier().classify_url(url)
    assert (r.source_type, r.layer) == (stype, layer)
    assert 0.3 <= r.confidence <= 0.99


@pytest.mark.parametrize(("url", "text", "reason"), [
    ("", "", "no URL or host"),
    ("http://192.168.0.1/x", "", "host '192.168.0.1' is an IP address or local name: it says nothing about the publisher"),
    ("https://plain-site.com/", "", "no layer matched the host, path or text"),
    ("https://plain-site.com/", "Это страница на русском языке без подсказок",
     "no URL rule matched and the page text is not in a Latin script (text cues are English)"),
    ("not a url at all ::", "", "no readable host in the URL"),
])
def test_bad_input_is_unknown_with_reason(url: str, text: str, reason: str) -> None:
    r = SourceTypeClassifier().classify_url(url, text)
    assert (r.source_type, r.confidence, r.layer, r.reason) == ("unknown", 0.0, "none", reason)


def test_text_layer_decides_when_url_is_silent() -> None:
    r = SourceTypeClassifier().classify_url("https://plain-site.com/", "Add to cart. Buy now for $19.99, free shipping.")
    assert (r.source_type, r.layer) == ("commercial", "text")
    assert r.reason.startswith("prices and buy buttons: ")


def test_combine_confidence_by_hand() -> None:
    # winner 0.9, other 0.5: min(0.99, 0.9) * 0.9 / (0.9 + 0.25)
    r = combine([("government", 0.9, "suffix", "a"), ("news", 0.5, "path", "b")])
    assert r is not None and r.source_type == "government"
    assert r.confidence == pytest.approx(round(0.81 / 1.15, 4))
    assert combine([("news", 0.2, "path", "weak")]) is None


def test_unknown_layer_name_rejected() -> None:
    with pytest.raises(ConfigError, match=r"unknown source-type layer\(s\) \['html'\]"):
        SourceTypeClassifier(layers=("html",))  # type: ignore[arg-type]


def test_llm_layer_cached_per_host_and_path_pattern() -> None:
    fake = FakeBackend(["forum", "blog"])
    layer = LLMSourceTypeLayer(fake)
    clf = SourceTypeClassifier(llm=layer)
    a = clf.classify_url("https://talkbox.net/t/123/first")
    b = clf.classify_url("https://talkbox.net/t/456/second")
    assert (a.source_type, a.layer, b.source_type) == ("forum", "llm", "forum")
    assert layer.calls == 1
    assert path_pattern("/t/456/second") == "/t/{id}"


def test_llm_unreadable_answer_gives_no_vote() -> None:
    clf = SourceTypeClassifier(llm=LLMSourceTypeLayer(FakeBackend(["I am not sure"])))
    assert clf.classify_url("https://plain-site.com/").source_type == "unknown"


@pytest.mark.parametrize(("query", "topic", "ymyl"), [
    ("Can vitamin C cure the common cold?", "health", True),
    ("How do I reverse a list in Python?", "technology", False),
    ("Is a Roth IRA better than a 401k for retirement?", "finance", True),
    ("", "other", False),
    ("Hmm?", "other", False),
])
def test_topic_keywords(query: str, topic: str, ymyl: bool) -> None:
    r = TopicClassifier().classify(query)
    assert (r.topic, r.ymyl) == (topic, ymyl)


def test_topic_of_a_query_in_another_language_is_left_to_the_llm_or_other() -> None:
    class Topics:  # an LLM topic layer that reads any language
        def __init__(self) -> None:
            self.asked: list[str] = []

        def topic(self, query: str) -> Topic | None:
            self.asked.append(query)
            return "legal"

    # 'Visa' and 'Gesetz'-like words must not be read as English topic words
    r = TopicClassifier().classify("Brauche ich ein Visa für die Einreise nach Kanada?")
    assert (r.topic, r.ymyl, r.layer) == ("other", False, "none")
    assert r.reason == "query language 'de' not read (topic words and example questions: en)"
    llm = Topics()
    r = TopicClassifier(llm=llm).classify("¿Puede mi casero subir el alquiler sin avisar?")
    assert (r.topic, r.ymyl, r.layer, llm.asked) == ("legal", True, "llm", ["¿Puede mi casero subir el alquiler sin avisar?"])
    assert r.reason == "LLM topic; query language 'es' not read (topic words and example questions: en)"


def test_matrix_default_cells() -> None:
    m = load_matrix()
    assert (m.cell("health", "forum"), m.cell("technology", "forum"), m.cell("health", "government")) == (1, 5, 5)
    assert m.value("health", "forum", confidence=0.5) == pytest.approx(0.25 + 0.5 * (0.0 - 0.25))


@pytest.mark.parametrize(("text", "message"), [
    ("version: 1\nextends: default\nmatrix:\n  health: {forum: 9}\n",
     r"m\.yaml:4: health\.forum must be an integer 1\.\.5, got '9'"),
    ("version: 1\nextends: default\nmatrix:\n  health:\n    forum: 2\n    forum: 3\n",
     r"m\.yaml:6: matrix\.health: duplicate key 'forum'"),
    ("version: 1\nextends: default\nmatrix:\n  helth: {forum: 2}\n", r"m\.yaml:4: unknown topic 'helth'"),
    ("version: 1\nextends: default\nmatrix:\n  health: {fourm: 2}\n", r"m\.yaml:4: unknown source type 'fourm'"),
    ("version: 1\nmatrix: [\n", r"m\.yaml:3: not valid YAML"),
    ("version: 2\nmatrix: {}\n", r"m\.yaml:1: version must be one of \(1,\), got '2'"),
    ("version: 1\nmatrix:\n  health: {forum: 2}\n", r"m\.yaml:3: topic 'health' lacks source type\(s\) government"),
    ("", r"m\.yaml: the file is empty"),
])
def test_matrix_errors_name_file_line_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_matrix(path)


def test_user_matrix_extends_default(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("version: 1\nextends: default\nmatrix:\n  health: {forum: 4}\n")
    m = load_matrix(path)
    assert (m.cell("health", "forum"), m.cell("health", "blog"), m.source) == (4, 2, str(path))


def test_missing_matrix_file() -> None:
    with pytest.raises(ConfigError, match=r"cannot read suitability matrix '/nonexistent/x.yaml'"):
        load_matrix("/nonexistent/x.yaml")


def test_reranker_hook_orders_and_breakdown() -> None:
    cands = [Candidate.create("https://www.quora.com/Does-vitamin-C-cure-colds", id="forum", scores={"relevance": 0.95}),
             Candidate.create("https://www.nih.gov/health/vitamin-c", id="gov", scores={"relevance": 0.6})]
    plain = AuthorityReranker(load_prior(), weight=0.5, normalize="none")
    suit = AuthorityReranker(load_prior(), weight=0.5, normalize="none", suitability=MatrixSuitability())
    q = "Can vitamin C cure the common cold?"
    r0, r1 = plain.rerank(q, cands), suit.rerank(q, cands)
    assert "suitability" not in r0.provenance and "suitability" not in r0.candidates[0].scores
    assert (r0.ids, r1.ids) == (["forum", "gov"], ["gov", "forum"])
    by_id = {c.id: c for c in r1}
    assert by_id["forum"].scores["suitability"] == pytest.approx(0.0025)
    assert by_id["gov"].scores["suitability"] == pytest.approx(0.925)
    info = r1.provenance["suitability"]
    assert (info["query"]["topic"], info["query"]["ymyl"], info["weight"]) == ("health", True, 0.5)
    assert info["candidates"]["forum"]["source_type"] == "forum"
    assert cands[0].scores == {"relevance": 0.95}  # input untouched


def test_suitability_weight_validated() -> None:
    with pytest.raises(ConfigError, match=r"suitability_weight must be in \[0, 1\], got 1.5"):
        AuthorityReranker(load_prior(), suitability_weight=1.5)


def test_reranker_with_no_candidates() -> None:
    rr = AuthorityReranker(load_prior(), suitability=MatrixSuitability())
    assert rr.rerank("q", []).ids == []


def test_title_metadata_counts_as_text() -> None:
    cand = Candidate.create("https://plain-site.com/", "", metadata={"title": "Buy now: $19.99, free shipping"})
    r = SourceTypeClassifier().classify(cand)
    assert (r.source_type, r.layer) == ("commercial", "text")


def test_official_platform_page_gives_no_platform_vote() -> None:
    clf = SourceTypeClassifier(layers=("platform",))
    r = clf.classify_url("https://www.youtube.com/about")
    assert (r.source_type, r.reason) == ("unknown", "no layer matched the host, path or text")
    assert clf.classify_url("https://www.youtube.com/watch?v=abc").source_type == "social"


@pytest.mark.parametrize("chars", [0, -5, 2.5, True])
def test_text_chars_validated(chars: object) -> None:
    with pytest.raises(ConfigError, match=r"text_chars must be a positive integer, got "):
        SourceTypeClassifier(text_chars=chars)  # type: ignore[arg-type]


def test_text_chars_limits_what_is_read() -> None:
    text = "x" * 1200 + " Add to cart. Buy now for $19.99, free shipping."
    assert SourceTypeClassifier().classify_url("https://plain-site.com/", text).source_type == "unknown"
    assert SourceTypeClassifier(text_chars=2000).classify_url("https://plain-site.com/", text).source_type == "commercial"
