"""A page that restates the question keeps its place in the window but gets no lead on relevance
over an on-topic page that answers in its own words: between them, trust decides."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.relevance.bm25 import BM25Relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.fusion import WindowText
from authorag.rerankers.leads import ANSWER_WORDS, NO_LEAD_MARGIN, RESTATED_NOTE, restated_no_lead
from authorag.rerankers.restated import restating
from authorag.scores import FUSED_SCORE, RELEVANCE_NORM_SCORE
from authorag.types import Candidate
from tests.rerankers.dict_scorer import KnownOrUnknown


def mask(*v: bool) -> np.ndarray:
    return np.asarray(v, dtype=np.bool_)


def window(restates: np.ndarray, stuffed: np.ndarray | None = None) -> WindowText:
    n = restates.size
    return WindowText([1.0] * n, np.zeros(n, dtype=np.bool_) if stuffed is None else stuffed, restates=restates)


def test_a_restatement_is_four_words_in_the_question_s_order_in_its_language() -> None:
    query = "¿cómo se poda un olivo joven?"
    texts = ["¿Cómo se poda un olivo joven? Mucha gente se lo pregunta.",
             "Poda de formación: deje tres ramas principales abiertas hacia fuera y quite los chupones.",
             ""]
    assert restating(query, texts, "es").tolist() == [True, False, False]
    # four words in the question's order are a restatement; three are not
    assert restating(query, ["En invierno se poda un olivo.", "En invierno se poda cada olivo."], "es").tolist() == [
        True, False]


def test_a_question_that_is_an_error_message_marks_no_page() -> None:
    query = "ImportError: attempted relative import with no known parent package"
    text = "ImportError: attempted relative import with no known parent package. Run the module with -m."
    assert restating(query, [text], "en").tolist() == [False]  # a Q&A page about an error quotes it


def test_restating_pages_fall_just_below_the_least_relevant_on_topic_answer() -> None:
    cal, note = restated_no_lead(np.array([1.0, 0.7, 0.9, 0.3]), window(mask(True, False, False, True)), 0.55)
    assert cal.tolist() == pytest.approx([0.7 - NO_LEAD_MARGIN, 0.7, 0.9, 0.3])  # 0.3: off topic, left
    assert note == RESTATED_NOTE


def test_stuffed_pages_are_no_answer_to_measure_against() -> None:
    cal, note = restated_no_lead(np.array([1.0, 0.8, 0.6]), window(mask(True, False, False), mask(False, False, True)),
                                 0.55)
    assert cal.tolist() == pytest.approx([0.8 - NO_LEAD_MARGIN, 0.8, 0.6])
    assert note == RESTATED_NOTE


def test_a_page_with_at_most_half_the_question_s_words_is_no_answer_to_measure_against() -> None:
    # the off-topic page (0.8) that shares a few of the question's words in passing sets no floor
    text = WindowText([1.0, 0.5, 1.0], np.zeros(3, dtype=np.bool_), restates=mask(True, False, False))
    cal, note = restated_no_lead(np.array([1.0, 0.8, 0.9]), text, 0.55)
    assert cal.tolist() == pytest.approx([0.9 - NO_LEAD_MARGIN, 0.8, 0.9]) and note == RESTATED_NOTE
    text = WindowText([1.0, 0.5], np.zeros(2, dtype=np.bool_), restates=mask(True, False))
    assert restated_no_lead(np.array([1.0, 0.8]), text, 0.55) == (pytest.approx([1.0, 0.8]), None)
    assert ANSWER_WORDS == 0.5


@pytest.mark.parametrize("restates", [mask(False, False), mask(True, True)])
def test_nothing_changes_when_no_page_or_every_page_restates(restates: np.ndarray) -> None:
    cal, note = restated_no_lead(np.array([1.0, 0.7]), window(restates), 0.55)
    assert cal.tolist() == [1.0, 0.7] and note is None


FARM = "https://www.recetas-trucos-hogar-hoy.example.com/como-quitar-la-cal-del-hervidor"
SHOP = "https://www.ferreteria-ejemplo.example.es/consejos/hervidor"
TEXTS = {
    FARM: "¿Cómo quitar la cal del hervidor? Es una duda muy frecuente en muchas casas. En este artículo te contamos "
          "todo sobre el hervidor y la cal. ¡Descubre también nuestras ofertas en pequeños electrodomésticos!",
    SHOP: "Llene el hervidor hasta la mitad con agua y vinagre blanco a partes iguales, hiérvalo, deje reposar una hora "
          "y aclare dos veces con agua limpia. Para la cal más dura, use ácido cítrico en lugar del vinagre.",
}


@pytest.mark.parametrize("order", [(FARM, SHOP), (SHOP, FARM)])
def test_between_equally_trusted_pages_the_one_that_answers_comes_first(order: tuple[str, str]) -> None:
    rr = AuthorityReranker(KnownOrUnknown({}), relevance=BM25Relevance(language="es"))
    ranking = rr.rerank("¿cómo quitar la cal del hervidor?", [Candidate.create(u, TEXTS[u], id=u) for u in order])
    assert [c.url for c in ranking.candidates] == [SHOP, FARM]
    by_url = {c.url: c.scores for c in ranking.candidates}
    assert by_url[FARM][RELEVANCE_NORM_SCORE] == pytest.approx(by_url[SHOP][RELEVANCE_NORM_SCORE] - NO_LEAD_MARGIN)
    assert by_url[FARM][FUSED_SCORE] >= 0.5  # still on topic
    assert f"{RESTATED_NOTE}: {FARM}" in ranking.provenance["relevance_note"]


def test_the_note_names_the_pages_it_lowered() -> None:
    # the note is about the lowered pages only: not the answer, not the off-topic one that also restates
    text = WindowText([1.0] * 4, mask(False, False, False, False), names=["https://a.example/q", "https://b.example/a",
                                                                          "https://c.example/q2", "https://d.example/o"],
                      restates=mask(True, False, True, True))
    cal, note = restated_no_lead(np.array([1.0, 0.7, 0.9, 0.3]), text, 0.55)
    assert cal[1] == 0.7 and cal[3] == 0.3
    assert note == f"{RESTATED_NOTE}: https://a.example/q, https://c.example/q2"


def test_nothing_changes_when_no_on_topic_page_answers_without_restating() -> None:
    # the third page restates nothing but is off topic: nothing to measure the others against
    cal, note = restated_no_lead(np.array([1.0, 0.8, 0.2]), window(mask(True, True, False)), 0.55)
    assert cal.tolist() == [1.0, 0.8, 0.2] and note is None


def test_lowered_pages_keep_their_relevance_order() -> None:
    cal, note = restated_no_lead(np.array([0.9, 1.0, 0.6]), window(mask(True, True, False)), 0.55)
    assert 0.6 - 2 * NO_LEAD_MARGIN < cal[0] < cal[1] == pytest.approx(0.6 - NO_LEAD_MARGIN)
    assert note == RESTATED_NOTE
