"""The window keeps the page a user wants: quotes of the question are not stuffing, the
reference documentation of an error message stays on topic, notes name their candidates once."""
from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from authorag.adapters import breakdowns, build_reranker, candidates
from authorag.relevance.coverage import keyword_stuffed
from authorag.types import Candidate

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from eval_relevance_lang import _IMPORT_PAGES, _IMPORT_Q  # the dev case's own pages

DOCS, SO, REALPY, DISCUSS, SPAM = (u for u, _ in _IMPORT_PAGES)
# docs.python.org 0.736 against the best 0.861, as in the report; the others around them
_IMPORT_COSINES = {DOCS: 0.736, SO: 0.861, REALPY: 0.802, DISCUSS: 0.845, SPAM: 0.548}


class _Cosines:
    """A relevance scorer that judges meaning: fixed cosines by URL."""

    name = "relevance.cosine"
    semantic = True

    def __init__(self, by_url: dict[str, float]) -> None:
        self.by_url = by_url

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return [self.by_url[c.url] for c in candidates]


@pytest.mark.parametrize("reverse", [False, True])
def test_the_reference_page_for_an_error_message_stays_on_topic(reverse: bool) -> None:
    # Three Q&A pages quote the error message; docs.python.org explains it without quoting it
    # (no "ImportError", "attempted", "known"). Before, two Q&A pages were called stuffed and
    # the docs page fell off topic (window relevance 0.54 < 0.55), below every Q&A page.
    # The Stack Overflow question (a user post) is read without the error message it restates
    # (authorag.rerankers.restated): the message's rarer words then occur in fewer pages, BM25 weighs
    # them more, and the docs page, which lacks them, has a smaller share of the best words; it was
    # 0.8512 fused against realpython.com's 0.8509, and is now 0.8468: both on topic, trust and
    # relevance order them. discuss.python.org is a forum sub-domain (authorag.platforms.FORUM_LABELS):
    # a user post too, read without the restatement and with a user page's trust, so the reference
    # documentation now comes first. The two posts are read by their meaning alone (a reply need not
    # repeat the question's words), so Stack Overflow's higher cosine puts it above discuss.python.org.
    pages = _IMPORT_PAGES[::-1] if reverse else _IMPORT_PAGES
    reranker, mode = build_reranker(relevance=_Cosines(_IMPORT_COSINES))
    ranking = reranker.rerank(_IMPORT_Q, candidates([(u, t, None) for u, t in pages], mode)[0])
    assert [c.url for c in ranking] == [DOCS, REALPY, SO, DISCUSS, SPAM]
    fused = {c.url: c.scores["fused"] for c in ranking}
    assert fused[DOCS] >= 0.5 > fused[SPAM]  # on topic; the spam page is not
    # no page is called stuffed; the spam page (lowest relevance: never the reference anyway) is named for its cue
    posts = f"{DISCUSS}, {SO}" if reverse else f"{SO}, {DISCUSS}"  # named in input order
    assert ranking.provenance.get("relevance_note") == (
        f"low-credibility cues (download-and-fix spam), not used as the relevance reference: {SPAM}; "
        f"user posts that restate the question, relevance read without the restatement: {posts}")
    assert keyword_stuffed(_IMPORT_Q, [t for _, t in _IMPORT_PAGES]) == [False] * 5


def test_similarity_scores_keep_the_reference_page_on_topic() -> None:
    # the same cosines handed over by a retriever ("similarity") give the same order
    reranker, mode = build_reranker(relevance="similarity")
    cands, source = candidates([(u, t, _IMPORT_COSINES[u]) for u, t in _IMPORT_PAGES], mode)
    ranking = reranker.rerank(_IMPORT_Q, cands)
    assert [c.url for c in ranking] == [DOCS, REALPY, SO, DISCUSS, SPAM]
    rows = {b["url"]: b for b in breakdowns(ranking, source)}
    assert rows[DOCS]["relevance_norm"] == pytest.approx(0.6393, abs=1e-4)


@pytest.mark.slow
def test_dense_keeps_the_reference_page_above_the_spam_page() -> None:
    reranker, mode = build_reranker(relevance="dense")
    ranking = reranker.rerank(_IMPORT_Q, candidates([(u, t, None) for u, t in _IMPORT_PAGES], mode)[0])
    urls = [c.url for c in ranking]
    assert urls.index(DOCS) < urls.index(SPAM)
    assert ranking.candidates[urls.index(DOCS)].scores["fused"] >= 0.5
    assert ranking.provenance.get("relevance_note") == (
        f"low-credibility cues (download-and-fix spam), not used as the relevance reference: {SPAM}; "
        f"user posts that restate the question, relevance read without the restatement: {SO}, {DISCUSS}")


# (question, a page quoting it inside prose, a page stuffed with its words)
_QUOTES = {
    "en": ("does article 17 GDPR give a right to erasure",
           "Readers often ask: does article 17 GDPR give a right to erasure? It does, but not without limits. The "
           "controller must erase personal data without undue delay when the data are no longer needed, when "
           "consent is withdrawn or when the processing was unlawful. Exceptions cover freedom of expression, "
           "legal obligations and archiving in the public interest, so a request can be refused.",
           "article 17 GDPR right erasure! GDPR article 17 erasure right, right to erasure GDPR, erasure article 17 "
           "GDPR right, article 17 right erasure GDPR, GDPR erasure right article 17 best guide erasure right GDPR"),
    "de": ("Fehler: Modul nicht gefunden beim Starten des Programms",
           "Viele Nutzer melden die Meldung Fehler: Modul nicht gefunden beim Starten des Programms. Meist liegt es "
           "daran, dass das Programm in einem anderen Ordner gestartet wird als dem, in dem es installiert wurde. "
           "Öffnen Sie die Verknüpfung, prüfen Sie den Pfad und installieren Sie das Paket notfalls neu; danach "
           "startet die Anwendung wieder ohne Probleme.",
           "Fehler Modul gefunden Starten Programm! Modul Fehler Programm Starten gefunden, Programm Modul Fehler, "
           "Starten Programm Modul gefunden Fehler, Modul Programm Fehler Starten, gefunden Modul Programm Fehler"),
    "es": ("artículo 14 de la Constitución igualdad ante la ley",
           "El artículo 14 de la Constitución, igualdad ante la ley, dice que los españoles son iguales sin que "
           "pueda prevalecer discriminación alguna por razón de nacimiento, raza, sexo, religión u opinión. Los "
           "tribunales lo aplican a los actos de los poderes públicos y, con matices, a las relaciones entre "
           "particulares, como el empleo o el acceso a la vivienda.",
           "artículo 14 Constitución igualdad ley, igualdad ley artículo 14 Constitución, Constitución igualdad "
           "artículo 14 ley, ley igualdad Constitución artículo 14, igualdad artículo 14 ley Constitución ley"),
    "fr": ("erreur impossible de se connecter au serveur de messagerie",
           "Le message erreur impossible de se connecter au serveur de messagerie apparaît souvent après un "
           "changement de mot de passe. Vérifiez d'abord votre connexion internet, puis les réglages du compte : "
           "le nom du serveur, le port et le chiffrement doivent correspondre à ceux indiqués par votre "
           "fournisseur. Redémarrez ensuite l'application.",
           "erreur connecter serveur messagerie ! serveur messagerie erreur connecter, messagerie erreur serveur "
           "connecter, connecter serveur erreur messagerie impossible, serveur erreur messagerie connecter erreur"),
}


@pytest.mark.parametrize("language", sorted(_QUOTES))
def test_a_quote_inside_prose_is_not_stuffing(language: str) -> None:
    question, quoting, stuffed = _QUOTES[language]
    assert keyword_stuffed(question, [quoting, stuffed]) == [False, True]
    assert keyword_stuffed(question, [quoting, stuffed], language) == [False, True]


def test_a_text_that_only_repeats_the_question_is_stuffed() -> None:
    question = "does cranberry juice cure infections"
    assert keyword_stuffed(question, [f"{question}? " * 6, f"Many ask {question}; trials say it does not."]) == [
        True, False]


def test_the_note_names_the_stuffed_candidates_once() -> None:
    # With a relevance that judges meaning, the words' window and the meaning both leave the
    # stuffed page out of the reference: one note, naming it (it was printed twice, unnamed).
    question, quoting, stuffed = _QUOTES["en"]
    pages = [("https://gdpr-info.example.eu/art-17", quoting), ("https://gdpr-erasure.example.biz/guide", stuffed),
             ("https://www.cars.com/t", "How to change a flat tyre on a family car, step by step.")]
    reranker, mode = build_reranker(relevance=_Cosines({pages[0][0]: 0.8, pages[1][0]: 0.82, pages[2][0]: 0.1}))
    ranking = reranker.rerank(question, candidates([(u, t, None) for u, t in pages], mode)[0])
    said = "keyword-stuffed, not used as the relevance reference: https://gdpr-erasure.example.biz/guide"
    assert ranking.provenance["relevance_note"] == said
    bm25, mode = build_reranker(relevance="bm25")
    assert bm25.rerank(question, candidates([(u, t, None) for u, t in pages], mode)[0]).provenance[
        "relevance_note"] == said


def test_a_note_names_at_most_five_candidates() -> None:
    import numpy as np

    from authorag.rerankers.calibration import stuffed_note

    names = [f"https://s{i}.example" for i in range(7)]
    assert stuffed_note(np.ones(7, dtype=np.bool_), names) == (
        "keyword-stuffed, not used as the relevance reference: https://s0.example, https://s1.example, "
        "https://s2.example, https://s3.example, https://s4.example and 2 more")


def test_the_plain_path_is_noted_in_the_ranking() -> None:
    reranker, mode = build_reranker(relevance="bm25")
    cands = candidates([("https://a.ee/1", "Raseduse ajal soovitatakse gripi- ja läkaköhavaktsiini.",
                         None), ("https://b.ee/2", "Kuidas vahetada autol katkist rehvi.", None)], mode)[0]
    ranking = reranker.rerank("Milliseid vaktsiine soovitatakse raseduse ajal?", cands)
    assert [c.domain for c in ranking] == ["a.ee", "b.ee"]
    assert ranking.provenance["relevance_note"] == ("query language 'et' is not one lexical relevance reads "
                                                    "(en, de, es, fr, it, pt, nl, ru, ar, hi, tr, pl, id, fa, sv, cs, el, ro, hu, fi, da, no): "
                                                    "plain word tokens, no stemming")


_ESPRESSO = "how do I descale my espresso machine"
_FARM = ("How do I descale my espresso machine? Descaling is important. Many readers ask how do I descale my "
         "espresso machine, and in this guide we explain how to descale my espresso machine step by step. "
         "Don't miss our list of the best espresso machines of the year.")
_MAKER = ("Descaling your espresso machine. Fill the tank with water and the descaler, run half of it through the "
          "group head and the steam wand, wait twenty minutes, then run the rest and rinse twice with fresh water. "
          "How do I descale my espresso machine less often? Use filtered water.")


def test_a_page_that_says_the_question_three_times_is_stuffed_even_inside_prose() -> None:
    # three quotes of the question among ordinary prose: the farm page written around the phrase;
    # the maker's page quotes it once and answers in its own words
    assert keyword_stuffed(_ESPRESSO, [_FARM, _MAKER]) == [True, False]


def test_a_long_page_that_names_the_question_three_times_among_much_prose_is_not() -> None:
    prose = ("Scale builds up from the minerals in hard water and slows the flow through the boiler, so the "
             "manual lists a schedule by water hardness and a procedure for each model in the range. ") * 6
    page = f"{_ESPRESSO}. {prose} {_ESPRESSO}? {prose} Again: {_ESPRESSO}."
    assert keyword_stuffed(_ESPRESSO, [page, _MAKER]) == [False, False]


def test_documentation_dense_with_an_error_messages_words_is_not_stuffed() -> None:
    # The reference page explains relative imports in their own words ("relative import" four
    # times, "package" three): as dense with the message's words as a farm, but it never repeats
    # the message. The farm repeats it. (Both were called stuffed: found using the product.)
    docs = ("The import system. Python code in one module gains access to the code in another module by the "
            "process of importing it. Relative imports use leading dots. A single leading dot indicates a "
            "relative import, starting with the current package. Relative imports can only be used within a "
            "package: a module run as a script has no parent package, so __package__ is None and a relative "
            "import fails.")
    farm = ("ImportError attempted relative import with no known parent package fix. Fix ImportError attempted "
            "relative import with no known parent package fast. Download our Python error fixer tool to fix "
            "ImportError attempted relative import with no known parent package.")
    assert keyword_stuffed(_IMPORT_Q, [docs, farm]) == [False, True]


def test_a_greek_tax_office_answer_in_its_own_words_stays_on_topic() -> None:
    # found as a newcomer: with the article "τη" and "κάνω" ("do") read as content words, the tax
    # authority's page (which names neither) fell below the window, under a forum post and a farm
    reranker, mode = build_reranker(relevance="bm25")
    pages = [("https://www.aade.gr/polites/forologia-eisodimatos/prothesmies",
              "Η προθεσμία υποβολής της δήλωσης φορολογίας εισοδήματος φυσικών προσώπων ορίζεται κάθε χρόνο με "
              "απόφαση του Διοικητή της ΑΑΔΕ. Η υποβολή γίνεται ηλεκτρονικά μέσω της πλατφόρμας myAADE."),
             ("https://www.insomnia.gr/forums/topic/799123-dilosi/",
              "Τη δήλωση την κάνεις μόνος σου στο Taxisnet, δεν χρειάζεσαι λογιστή αν έχεις μόνο μισθό. Η προθεσμία "
              "συνήθως λήγει στα μέσα Ιουλίου."),
             ("https://foros-dilosi-express.gr/prothesmia-dilosis",
              "Προθεσμία φορολογικής δήλωσης! Φορολογική δήλωση προθεσμία, φορολογική δήλωση 2026, φορολογική δήλωση "
              "βοήθεια. Κάντε τη φορολογική δήλωση μαζί μας με 30 ευρώ."),
             ("https://www.bankofgreece.gr/enimerosi-katanaloti/stegastika",
              "Πριν πάρετε στεγαστικό δάνειο συγκρίνετε το συνολικό κόστος και το επιτόκιο των τραπεζών.")]
    cands = candidates([(u, t, None) for u, t in pages], mode)[0]
    ranking = reranker.rerank("Μέχρι πότε πρέπει να κάνω τη φορολογική δήλωση;", cands)
    assert [c.domain for c in ranking] == ["aade.gr", "insomnia.gr", "foros-dilosi-express.gr", "bankofgreece.gr"]
    assert ranking.provenance["relevance_note"].startswith(
        "keyword-stuffed, not used as the relevance reference: https://foros-dilosi-express.gr/prothesmia-dilosis")
