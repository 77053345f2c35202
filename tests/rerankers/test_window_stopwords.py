from __future__ import annotations

import pytest

from authorag.adapters import build_reranker, candidates
from authorag.relevance.coverage import query_stems
from authorag.types import Ranking

_JEANNE = "qui était Jeanne d'Arc"
_DOMREMY = ("https://www.histoire-lorraine-amateurs.fr/personnages/jeanne-d-arc",
            "Jeanne d'Arc, née vers 1412 à Domrémy, est une paysanne lorraine qui affirma avoir reçu la "
            "mission de libérer le royaume. Elle fit lever le siège d'Orléans en 1429, conduisit Charles VII "
            "au sacre de Reims, puis fut capturée à Compiègne, jugée par un tribunal d'Église et brûlée à "
            "Rouen en 1431. Réhabilitée en 1456, canonisée en 1920, elle reste l'une des figures les plus "
            "étudiées du Moyen Âge, et sa vie a inspiré des pièces, des opéras et des films.")
_BNF = ("https://www.bnf.fr/fr/agenda/manuscrits-enlumines",
        "Exposition : manuscrits enluminés. Chaque livre était copié à la main, était décoré d'or et "
        "était offert à un prince.")
_JOAN = "who was Joan of Arc"
_ROUEN = ("https://www.medievalwomen-notes.net/people/joan-of-arc",
          "Joan of Arc, born around 1412 in Domremy, was a peasant girl who said she had been given the mission "
          "of freeing the kingdom. She lifted the siege of Orleans in 1429, led Charles VII to his coronation "
          "at Reims, was captured at Compiegne, tried by a church court and burned at Rouen in 1431.")
_LOC = ("https://www.loc.gov/exhibits/illuminated-manuscripts",
        "Exhibition: illuminated manuscripts of the fifteenth century. The kingdom was divided then, and each "
        "book was copied by hand; it was often given to a prince. Guided tours on Saturdays, free entry with "
        "a reservation.")


def _ranked(query: str, rows: list[tuple[str, str]]) -> Ranking:
    reranker, mode = build_reranker(relevance="bm25")
    return reranker.rerank(query, candidates([(u, t, None) for u, t in rows], mode)[0])


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_an_auxiliary_is_no_content_word_the_window_reads_in_french(order: tuple[int, int]) -> None:
    # bnf.fr's exhibition page shares only "était" with the question (no-harm pair nhp2-dev-history-15
    # is of this kind); read as a content word, it put the page in BM25's window and trust above the
    # page about Joan of Arc.
    assert query_stems(_JEANNE, "fr") == ("jeann", "arc")
    ranked = _ranked(_JEANNE, [[_DOMREMY, _BNF][i] for i in order])
    assert [c.domain for c in ranked] == ["histoire-lorraine-amateurs.fr", "bnf.fr"]
    page, bnf = (c.scores for c in ranked.candidates)
    # its coverage is now 0: only BM25's share of the window's mix is left (before: 0.607, in the window)
    assert bnf["relevance.norm"] == pytest.approx(0.3 * bnf["relevance.bm25"] / page["relevance.bm25"])
    assert bnf["relevance.norm"] == pytest.approx(0.257, abs=1e-3)


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_an_auxiliary_is_no_content_word_the_window_reads_in_english(order: tuple[int, int]) -> None:
    assert query_stems(_JOAN, "en") == ("joan", "arc")
    ranked = _ranked(_JOAN, [[_ROUEN, _LOC][i] for i in order])
    assert [c.domain for c in ranked] == ["medievalwomen-notes.net", "loc.gov"]
    assert ranked.candidates[1].scores["relevance.norm"] < 0.55
