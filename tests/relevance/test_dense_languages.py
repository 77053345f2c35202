"""Dense relevance says which languages it reads and stands aside for BM25 outside them."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.priors import load_prior
from authorag.relevance.base import ReadsLanguages
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.dense import DenseRelevance
from authorag.relevance.encoders import lexical_stand_in
from authorag.rerankers.authority import AuthorityReranker
from authorag.types import Candidate

PAGES_DE = [
    ("https://www.verbraucherzentrale.de/hypothek",
     "Hypothek beantragen: Diese Unterlagen brauchen Sie. Gehaltsnachweise der letzten drei Monate, "
     "Kontoauszüge, Personalausweis und ein aktueller Grundbuchauszug."),
    ("https://www.bundesregierung.de/wohngeld",
     "Wohngeld beantragen: Nachweise zum Einkommen und zur Miete reichen Sie bei der Wohngeldstelle ein."),
]
QUERY_DE = "Welche Unterlagen brauche ich für eine Hypothek?"
QUERY_EN = "what documents do I need to apply for a mortgage"


@pytest.fixture(scope="module")
def dense() -> DenseRelevance:
    return DenseRelevance()


def _cands() -> list[Candidate]:
    return [Candidate.create(url, text=text) for url, text in PAGES_DE]


def test_minilm_reads_english_only(dense: DenseRelevance) -> None:
    assert isinstance(dense, ReadsLanguages)
    assert dense.languages == ("en",)
    assert "languages=['en']" in repr(dense)


def test_german_query_gets_german_bm25_and_a_note(dense: DenseRelevance) -> None:
    reranker = AuthorityReranker(load_prior(), relevance=dense)
    ranking = reranker.rerank(QUERY_DE, _cands())
    expected = dict(zip([u for u, _ in PAGES_DE], BM25Relevance(language="de").score(QUERY_DE, _cands())))
    assert {c.url: c.scores["relevance.bm25"] for c in ranking} == pytest.approx(expected)
    assert expected["https://www.verbraucherzentrale.de/hypothek"] > 0  # stemmed German matched "Unterlagen"
    assert all("relevance.dense" not in c.scores for c in ranking)
    assert ranking.provenance["relevance_note"] == (
        "dense relevance reads en, not the query's language 'de': BM25 relevance in 'de' instead")


def test_english_query_gets_dense_scores(dense: DenseRelevance) -> None:
    cands = [Candidate.create("https://lender.example.com/checklist",
                              text="Mortgage application checklist: pay stubs, tax returns and bank statements."),
             Candidate.create("https://www.hud.gov/rental", text="Rental assistance for low-income families.")]
    ranking = AuthorityReranker(load_prior(), relevance=dense).rerank(QUERY_EN, cands)
    expected = dict(zip([c.url for c in cands], dense.score(QUERY_EN, cands)))
    assert {c.url: c.scores["relevance.dense"] for c in ranking} == pytest.approx(expected)
    assert all("relevance.bm25" not in c.scores for c in ranking)
    assert "relevance_note" not in ranking.provenance


def test_a_language_lexical_relevance_does_not_stem_reads_plain_words() -> None:
    found = lexical_stand_in("Milliseid dokumente on vaja eluasemelaenu jaoks?", [], ("en",))
    assert found is not None
    scorer, note = found
    assert scorer.language == "plain"
    assert note == "dense relevance reads en, not the query's language 'et': BM25 relevance on plain word tokens instead"
    italian = lexical_stand_in("Quali documenti servono per chiedere un mutuo per la casa?", [], ("en",))
    assert italian is not None and italian[0].language == "it"
    assert italian[1] == "dense relevance reads en, not the query's language 'it': BM25 relevance in 'it' instead"


def test_declared_languages_widen_what_dense_reads() -> None:
    assert lexical_stand_in(QUERY_DE, [], ("en", "de")) is None
    assert lexical_stand_in(QUERY_EN, [], ("en",)) is None


@pytest.mark.parametrize("bad", ["en", [], ["english"], ["EN"], [1]])
def test_bad_languages_are_refused(bad: object) -> None:
    with pytest.raises(ConfigError, match=r"languages must be a non-empty list of two-letter ISO 639-1 codes"):
        DenseRelevance(languages=bad)  # type: ignore[arg-type]


def test_breakdowns_name_the_relevance_that_stood_in() -> None:
    from authorag.adapters import breakdowns, build_reranker, candidates

    reranker, mode = build_reranker(relevance="dense")
    cands, source = candidates([(url, text, None) for url, text in PAGES_DE], mode)
    ranking = reranker.rerank(QUERY_DE, cands)
    assert source == "relevance.dense"
    assert ranking.provenance["relevance_stand_in"] == "relevance.bm25"
    rows = breakdowns(ranking, source)
    expected = dict(zip([u for u, _ in PAGES_DE], BM25Relevance(language="de").score(QUERY_DE, _cands())))
    assert [(r["url"], r["relevance_source"]) for r in rows] == [
        ("https://www.verbraucherzentrale.de/hypothek", "relevance.bm25"), ("https://www.bundesregierung.de/wohngeld", "relevance.bm25")]
    assert {r["url"]: r["relevance"] for r in rows} == pytest.approx(expected)
    assert rows[0]["relevance_note"].startswith("dense relevance reads en, not the query's language 'de'")
    english = reranker.rerank("what documents do I need for a mortgage", cands)
    assert "relevance_stand_in" not in english.provenance
    assert breakdowns(english, source)[0]["relevance_source"] == "relevance.dense"


def test_the_cascade_stands_aside_as_its_encoder_does() -> None:
    """With MiniLM alone (no multilingual-e5-small: tests/relevance/test_cascade_multilingual.py)."""
    from authorag.relevance.cascade import CascadeRelevance

    cascade = CascadeRelevance(multilingual=False)
    assert isinstance(cascade, ReadsLanguages)
    assert cascade.languages == ("en",)
    ranking = AuthorityReranker(load_prior(), relevance=cascade).rerank(QUERY_DE, _cands())
    expected = dict(zip([u for u, _ in PAGES_DE], BM25Relevance(language="de").score(QUERY_DE, _cands())))
    assert {c.url: c.scores["relevance.bm25"] for c in ranking} == pytest.approx(expected)
    assert all("relevance.cascade" not in c.scores and "relevance.encoded" not in c.scores for c in ranking)
    assert ranking.provenance["relevance_note"] == (
        "the cascade's encoder reads en, not the query's language 'de': BM25 relevance in 'de' instead")
