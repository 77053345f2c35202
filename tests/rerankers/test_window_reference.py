"""The window's relevance reference: a page with a present low-credibility finding, or whose text shows
low-credibility cues, never is one."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.relevance.bm25 import BM25Relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.calibration import calibrate
from authorag.rerankers.leads import NO_LEAD_MARGIN, NO_LEAD_NOTE, no_lead
from authorag.rerankers.window_text import low_cues
from authorag.scores import FUSED_SCORE, RELEVANCE_NORM_SCORE, TRUST_SCORE
from authorag.trust import TrustRule
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue
from tests.rerankers.dict_scorer import KnownOrUnknown

REAL = "https://www.amendes.gouv.fr/tai"
LOOKALIKE = "https://amendes-gouv.fr-paiement-securise.com/"
TEXTS = {
    REAL: "Paiement des contraventions. Munissez-vous de votre avis : vous y trouverez le numéro de "
          "télépaiement et la clé. Le paiement s'effectue sur ce site officiel, par l'application "
          "Amendes.gouv ou par téléphone.",
    LOOKALIKE: "Avis de contravention impayée. Vous avez une amende de 35 euros non réglée. Pour payer votre "
               "amende en ligne et éviter sa majoration, renseignez votre numéro de carte bancaire avant ce soir.",
}


SCORER = KnownOrUnknown({"amendes.gouv.fr": (0.8, 0.9), "fr-paiement-securise.com": (0.2, 0.05)})


def mask(*v: bool) -> np.ndarray:
    return np.asarray(v, dtype=np.bool_)


def test_a_low_credibility_page_is_never_the_reference() -> None:
    got, note = calibrate(np.array([2.6, 0.47, 0.2]), low=mask(True, False, False), names=["https://x.com/", "b", "c"])
    assert got.tolist() == pytest.approx([1.0, 1.0, 0.2 / 0.47])
    assert note == "low credibility, not used as the relevance reference: https://x.com/"


def test_stuffed_and_low_credibility_pages_are_both_named() -> None:
    got, note = calibrate(np.array([3.0, 2.0, 1.0]), mask(True, False, False), ["s", "l", "ok"], mask(False, True, False))
    assert got.tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert note == ("keyword-stuffed, not used as the relevance reference: s; "
                    "low credibility, not used as the relevance reference: l")


def test_when_every_page_is_low_credibility_the_best_is_the_reference() -> None:
    got, note = calibrate(np.array([2.0, 1.0]), low=mask(True, True))
    assert got.tolist() == pytest.approx([1.0, 0.5])
    assert note is None


def test_only_low_credibility_pages_with_relevance_leave_trust_to_order() -> None:
    got, note = calibrate(np.array([2.0, 0.0]), low=mask(True, False))
    assert got.tolist() == [1.0, 1.0]
    assert note is not None and note.startswith("no candidate but keyword-stuffed or low-credibility ones")


@pytest.mark.parametrize("order", [(REAL, LOOKALIKE), (LOOKALIKE, REAL)])
def test_a_look_alike_with_the_query_s_words_does_not_push_the_real_page_off_topic(order: tuple[str, str]) -> None:
    cands = [Candidate.create(u, TEXTS[u], id=u) for u in order]
    rr = AuthorityReranker(SCORER, relevance=BM25Relevance(language="fr"))
    ranking = rr.rerank("comment payer une amende en ligne", cands)
    assert [c.url for c in ranking.candidates] == [REAL, LOOKALIKE]
    by_url = {c.url: c.scores for c in ranking.candidates}
    assert by_url[REAL][RELEVANCE_NORM_SCORE] == pytest.approx(1.0)  # the reference now
    assert by_url[LOOKALIKE][RELEVANCE_NORM_SCORE] == pytest.approx(1.0)  # capped at the reference
    assert by_url[REAL][FUSED_SCORE] > by_url[LOOKALIKE][FUSED_SCORE] >= 0.5  # both on topic: trust orders
    assert f"low credibility, not used as the relevance reference: {LOOKALIKE}" in ranking.provenance["relevance_note"]


def test_low_credibility_is_the_rule_s_low_branch_or_page_evidence_below_its_ceiling() -> None:
    rule = TrustRule()
    assert rule.low_credibility(rule.of(AuthorityDetail(0.95, 1.0, "table", credibility=0.0)))
    assert not rule.low_credibility(rule.of(AuthorityDetail(None, 0.0, "unknown")))
    assert not rule.low_credibility(rule.of(AuthorityDetail(0.05, 1.0, "table")))  # little recognition is no finding
    page = AuthorityDetail(None, 0.5, "page", credibility=0.2, page_trust=0.2,
                           credibility_sources=(SourceValue("page.spam", -0.1, "spam words"),))
    assert rule.low_credibility(rule.of(page))
    assert not rule.low_credibility(rule.of(AuthorityDetail(None, 0.5, "page", credibility=0.3, page_trust=0.3)))


def test_address_words_are_the_path_and_query_decoded() -> None:
    from authorag.relevance.coverage import address_words

    assert address_words("https://www.gutefrage.net/frage/darf-arbeitgeber-%C3%BCberstunden-anordnen") == \
        "/frage/darf-arbeitgeber-überstunden-anordnen"
    assert address_words("https://www.cocorahs.org/Content.aspx?page=measuringrain#top") == \
        "/Content.aspx page=measuringrain"
    assert address_words("https://nih.gov") == ""
    assert address_words("http://[::1") == ""  # does not parse: no words


def test_address_words_count_for_coverage_not_for_stuffing() -> None:
    from authorag.relevance.coverage import coverage_and_stuffing

    texts = ["Press Esc, then type :q and Enter to quit; :wq saves first.",
             "exit vim exit vim exit vim " * 5]
    fields = ["/questions/11828270/how-do-i-exit-vim", "/exit-vim"]
    assert coverage_and_stuffing("how do I exit vim", texts, "en") == ([0.0, 1.0], [False, True])
    assert coverage_and_stuffing("how do I exit vim", texts, "en", fields) == ([1.0, 1.0], [False, True])
    # the German stemmer reads the transliterated umlaut of an address as the umlaut
    got = coverage_and_stuffing("Darf mein Arbeitgeber mir Überstunden anordnen", ["Nur laut Vertrag."], "de",
                                ["/frage/darf-arbeitgeber-ueberstunden-anordnen"])
    assert got == ([1.0], [False])


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_an_answer_in_other_words_keeps_the_address_s_evidence_that_it_is_on_topic(order: tuple[int, int]) -> None:
    pages = [("https://www.askforum.org/questions/11828270/how-do-i-exit-vim",
              "Answer: press Esc to make sure you are in normal mode, then type :q and Enter to quit. If you have "
              "unsaved changes, use :wq to save and quit or :q! to quit without saving."),
             ("https://docs.gitdocs.net/en/associating-text-editors-with-git",
              "Associating text editors with Git. Set the editor Git opens for commit messages with git config. "
              "For example, use vim for Vim. The editor must wait until you close the file.")]
    scorer = KnownOrUnknown({"askforum.org": (0.3, 0.5), "gitdocs.net": (0.9, 0.95)})
    cands = [Candidate.create(pages[i][0], pages[i][1], id=str(i)) for i in order]
    ranking = AuthorityReranker(scorer, relevance=BM25Relevance(language="en")).rerank("how do I exit vim", cands)
    by_id = {c.id: c.scores for c in ranking.candidates}
    assert by_id["0"]["relevance.on_topic"] == pytest.approx(1.0)  # from its address
    assert by_id["1"]["relevance.on_topic"] == pytest.approx(0.5)
    assert by_id["0"][RELEVANCE_NORM_SCORE] == pytest.approx(1.0)  # the reference: coverage outweighs BM25


TAGESSCHAU = "https://www.tagesschau.de/inland/grundsicherung-reform"
FAKE = "https://www.eilmeldung-aktuell.info/buergergeld-abgeschafft"
GRUNDSICHERUNG = ("Die Koalition plant, das Bürgergeld für Arbeitsuchende in eine neue Grundsicherung "
                  "umzubauen. Wer Termine beim Amt versäumt, muss künftig mit schnelleren Kürzungen rechnen. Der "
                  "Entwurf muss noch durch Bundestag und Bundesrat, bis dahin gelten die heutigen Regeln weiter.")
ABGESCHAFFT = ("EILMELDUNG: Das Bürgergeld wird abgeschafft! Ab dem ersten Januar gibt es kein Bürgergeld mehr, alle "
               "Zahlungen werden gestoppt, so ein Insider aus dem Ministerium. Die Medien haben das bisher "
               "verschwiegen. Teilen Sie diese Nachricht mit allen, bevor sie gelöscht wird.")
CALM = ABGESCHAFFT.replace("EILMELDUNG: ", "").replace(" Die Medien haben das bisher verschwiegen. Teilen Sie diese "
                                                      "Nachricht mit allen, bevor sie gelöscht wird.", "")


def test_a_page_showing_low_credibility_cues_is_never_the_reference() -> None:
    got, note = calibrate(np.array([3.0, 1.2, 0.6]), names=["f", "t", "o"],
                          cues=[("alarm and calls to spread", "clickbait"), (), ()])
    assert got.tolist() == pytest.approx([1.0, 1.0, 0.5])
    assert note == "low-credibility cues (alarm and calls to spread, clickbait), not used as the relevance reference: f"
    got, note = calibrate(np.array([3.0, 1.2]), cues=[("clickbait",), ()])
    assert note == "1 low-credibility-cue candidate(s) not used as the relevance reference"


def test_a_candidate_is_named_once_for_the_first_reason() -> None:
    _, note = calibrate(np.array([3.0, 2.0, 1.0]), mask(False, True, False), ["a", "b", "c"], mask(True, False, False),
                        [("clickbait",), ("clickbait",), ()])
    assert note == ("keyword-stuffed, not used as the relevance reference: b; "
                    "low credibility, not used as the relevance reference: a")


def test_a_stuffed_look_alike_is_named_once_as_stuffed() -> None:
    # b is both keyword-stuffed and of low credibility (a look-alike repeating the question): named once
    _, note = calibrate(np.array([3.0, 2.0, 1.0]), mask(False, True, False), ["a", "b", "c"], mask(True, True, False),
                        [(), ("clickbait",), ()])
    assert note == ("keyword-stuffed, not used as the relevance reference: b; "
                    "low credibility, not used as the relevance reference: a")


@pytest.mark.parametrize("order", [(TAGESSCHAU, FAKE), (FAKE, TAGESSCHAU)])
def test_a_fabricated_alarm_page_does_not_push_the_paraphrasing_trusted_page_off_topic(order: tuple[str, str]) -> None:
    rr = AuthorityReranker(KnownOrUnknown({"tagesschau.de": (0.8, 0.9)}), relevance=BM25Relevance(language="de"))
    query = "Wird das Bürgergeld abgeschafft?"
    texts = {TAGESSCHAU: GRUNDSICHERUNG, FAKE: ABGESCHAFFT}
    ranking = rr.rerank(query, [Candidate.create(u, texts[u], id=u) for u in order])
    assert [c.url for c in ranking.candidates] == [TAGESSCHAU, FAKE]
    by_url = {c.url: c.scores for c in ranking.candidates}
    assert by_url[TAGESSCHAU][RELEVANCE_NORM_SCORE] == pytest.approx(1.0)  # the reference now
    assert by_url[FAKE][RELEVANCE_NORM_SCORE] == pytest.approx(1.0)  # capped at the reference
    assert by_url[FAKE][TRUST_SCORE] == pytest.approx(UNKNOWN_LEVEL)  # trust is unchanged: the window decides
    assert ranking.provenance["relevance_note"] == ("low-credibility cues (alarm and calls to spread), not used as "
                                                    f"the relevance reference: {FAKE}")
    # the same story told calmly shows no cue: it stays the reference and the trusted page falls off topic
    calm = rr.rerank(query, [Candidate.create(u, CALM if u == FAKE else texts[u], id=u) for u in order])
    assert [c.url for c in calm.candidates] == [FAKE, TAGESSCHAU]
    assert calm.provenance.get("relevance_note") is None


def test_cues_are_read_in_the_ranking_s_language_and_not_outside_the_read_ones() -> None:
    assert low_cues([ABGESCHAFFT, GRUNDSICHERUNG], "de") == [("alarm and calls to spread",), ()]
    assert low_cues([ABGESCHAFFT], "it") == [()]  # not a language the cue lists read
    assert low_cues(["URGENTE: a partir de segunda-feira o governo vai confiscar a poupança de todos e os jornais "
                     "escondem tudo. Compartilhe e repasse para os grupos da família antes que apaguem!"], "pt") == [
        ("alarm and calls to spread",)]


FARM, LAB = "https://www.weathertips-daily.example.net/rain-gauge", "https://www.rainnet.example.org/measuring"
FARM_TEXT = ("How to measure rainfall with a homemade rain gauge. Rainfall is rain that falls. A homemade rain "
             "gauge is a gauge you make at home. In this article we explain how to measure rainfall with a "
             "homemade rain gauge.")
LAB_TEXT = ("Use a straight-sided clear container, set it level and away from trees and roofs, and read the "
            "water depth in millimetres each morning at the same time; empty it after each reading. This is "
            "how to measure rainfall with a rain gauge.")


@pytest.mark.parametrize("order", [(FARM, LAB), (LAB, FARM)])
def test_a_stuffed_page_ranks_below_an_equally_trusted_page_that_answers(order: tuple[str, str]) -> None:
    # both unknown (trust 0.30): the page that repeats the question keeps its place in the window but
    # no lead on relevance, so the page that answers in its own words comes first in either order
    # (before, both were at the reference's relevance: a tie the input order decided)
    texts = {FARM: FARM_TEXT, LAB: LAB_TEXT}
    rr = AuthorityReranker(KnownOrUnknown({}), relevance=BM25Relevance(language="en"))
    ranking = rr.rerank("how do I measure rainfall with a homemade rain gauge",
                        [Candidate.create(u, texts[u], id=u) for u in order])
    assert [c.url for c in ranking.candidates] == [LAB, FARM]
    by_url = {c.url: c.scores for c in ranking.candidates}
    assert by_url[FARM][RELEVANCE_NORM_SCORE] == pytest.approx(1.0 - NO_LEAD_MARGIN)  # just below the lab page
    assert by_url[FARM][FUSED_SCORE] >= 0.5  # still on topic
    assert ranking.provenance["relevance_note"] == (
        f"keyword-stuffed, not used as the relevance reference: {FARM}; {NO_LEAD_NOTE}")


def test_no_lead_lowers_marked_pages_to_just_below_the_least_relevant_answer() -> None:
    cal, lowered = no_lead(np.array([1.0, 0.4, 0.8, 0.6]), mask(True, True, False, False), 0.55)
    assert cal.tolist() == pytest.approx([0.6 - NO_LEAD_MARGIN, 0.4, 0.8, 0.6]) and lowered  # 0.4: off topic, left
    cal, lowered = no_lead(np.array([1.0, 0.9]), mask(True, False), 0.95)  # no other page on topic: the share
    assert cal.tolist() == [0.95, 0.9] and lowered
    cal, lowered = no_lead(np.array([1.0, 0.4]), mask(False, True), 0.55)
    assert cal.tolist() == [1.0, 0.4] and not lowered
    cal, lowered = no_lead(np.array([1.0, 0.4]), None, 0.55)
    assert cal.tolist() == [1.0, 0.4] and not lowered
