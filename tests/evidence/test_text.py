"""The page-evidence text layer: cue words read with or without their accents, the alarm family, Portuguese."""
from __future__ import annotations

import unicodedata

import pytest

from authorag.evidence import PageEvidence
from authorag.evidence.text import read_texts
from authorag.types import UNKNOWN_LEVEL, Candidate
from tests.evidence.neutral_pages import NEUTRAL_PAGES_PT

UNACCENTED_ES = ("Impactante: el escandalo increible que sacude al pueblo. Nadie lo esperaba y ahora todos hablan "
                 "de lo mismo en la plaza, en el mercado y en la radio local desde primera hora de la manana.")
DECOMPOSED_FR = unicodedata.normalize("NFD", "Téléchargez le nettoyeur gratuit : télécharger maintenant, le "
                                      "téléchargement supprime chaque virus de votre ordinateur en une minute.")


def test_accented_cue_words_are_found_in_pages_typed_without_accents_or_decomposed() -> None:
    batch = read_texts([UNACCENTED_ES, DECOMPOSED_FR])
    assert batch.language == ("es", "fr") and batch.words == (35, 17)
    es, fr = batch.cues
    assert [c.reason for c in es] == ["clickbait (impactante, increíble, escándalo)"]
    assert [c.reason for c in fr] == ["download-and-fix spam (télécharger, téléchargement, nettoyeur, virus)"]


ALARM_PAGES = {
    "en": "BREAKING: The government will seize every private savings account above 10,000 dollars on Friday, insiders "
          "say. The plan was leaked by a whistleblower at the Treasury and the banks have been told to keep quiet. "
          "Withdraw your money now and repost this everywhere before it gets deleted.",
    "de": "ACHTUNG: Ab Montag werden alle Abhebungen von Bargeld über 500 Euro verboten. Die Medien haben das "
          "verschwiegen, ein Mitarbeiter einer Bank hat es uns verraten. Bitte sofort weiterleiten und allen "
          "weitersagen, bevor der Beitrag gelöscht wird!",
    "es": "Los bancos congelarán todas las cuentas el lunes y nadie lo cuenta en la televisión. Un empleado lo "
          "confirmó en un audio que ya intentan que eliminen de las redes. ¡Difunde este mensaje y compártelo con "
          "toda tu familia antes de que lo borren!",
    "fr": "ALERTE : le gouvernement va interdire les paiements en espèces dès le mois prochain. Les grands médias se "
          "taisent et nous cachent tout depuis des semaines. Partagez massivement et diffusez ce message à tous vos "
          "contacts avant qu'il ne disparaisse.",
}
"""Fabricated alarm pages written for these tests, one per language."""


def test_alarm_pages_show_the_alarm_family_naming_its_words_in_each_language() -> None:
    batch = read_texts(list(ALARM_PAGES.values()))
    assert batch.language == ("en", "de", "es", "fr")
    alarm = [[c.reason for c in cues if c.family == "alarm"] for cues in batch.cues]
    assert alarm == [["alarm and calls to spread (BREAKING:, deleted, leaked, whistleblower, repost, insiders)"],
                     ["alarm and calls to spread (ACHTUNG:, weitersagen, weiterleiten, gelöscht, verschwiegen)"],
                     ["alarm and calls to spread (compártelo, difunde, borren, eliminen)"],
                     ["alarm and calls to spread (ALERTE :, partagez, diffusez, cachent, taisent)"]]
    assert all(c.low for cues in batch.cues for c in cues if c.family == "alarm")


NEUTRAL_NEWS = {
    "en-breaking": "Breaking news from the county: the council voted on Tuesday evening to extend the opening hours "
                   "of the three public libraries from next month. The change costs about 40,000 dollars a year and is "
                   "paid from the culture budget. Weekend hours stay as they are, and the mobile library keeps its route.",
    "en-share": "The bakery on Mill Street has reopened after a two-month renovation with a larger kitchen and six "
                "more seats. The owners said they want to share the space with local artists, whose pictures now hang "
                "on the walls. Share your photos of the new counter with the neighbourhood newsletter if you like.",
    "de-eilmeldung": "Eilmeldung aus dem Rathaus: Der Stadtrat hat am Dienstagabend beschlossen, die Öffnungszeiten "
                     "der drei Stadtbibliotheken ab dem nächsten Monat zu verlängern. Die Änderung kostet rund 40.000 "
                     "Euro im Jahr und wird aus dem Kulturhaushalt bezahlt. Am Wochenende bleibt alles wie bisher.",
    "de-teilen": "Die Bäckerei in der Mühlenstraße hat nach zwei Monaten Umbau wieder geöffnet, mit einer größeren "
                 "Backstube und sechs zusätzlichen Plätzen. Die Inhaber teilen die Räume künftig mit Künstlerinnen aus "
                 "dem Viertel, deren Bilder nun an den Wänden hängen. Der Eintritt zur Ausstellung ist frei.",
    "es-ultima-hora": "Última hora: el pleno municipal aprobó el martes por la tarde ampliar el horario de las tres "
                      "bibliotecas públicas a partir del próximo mes. El cambio cuesta unos 40.000 euros al año y se paga "
                      "con el presupuesto de cultura. Los fines de semana el horario no cambia.",
    "es-comparte": "La panadería de la calle del Molino ha vuelto a abrir tras dos meses de obras, con un obrador más "
                   "grande y seis asientos más. La dueña comparte el local con artistas del barrio, cuyos cuadros "
                   "cuelgan ahora en las paredes. La exposición es gratuita y se puede visitar por la mañana.",
    "fr-alerte": "Alerte météo : Météo-France a placé le département en vigilance orange pour des orages mardi soir. "
                 "Des rafales de vent et de fortes pluies sont attendues entre 18 heures et minuit. La préfecture "
                 "conseille de limiter les déplacements et de ne pas stationner sous les arbres pendant l'épisode.",
    "fr-partagez": "La boulangerie de la rue du Moulin a rouvert après deux mois de travaux, avec un fournil plus "
                   "grand et six places assises de plus. Les propriétaires partagent le lieu avec des artistes du "
                   "quartier. Partagez vos souvenirs de l'ancienne boutique avec l'association des habitants.",
}
"""Neutral news pages that say "breaking" (or its like) once, or "share" the ordinary way."""


def test_neutral_news_saying_breaking_or_share_once_shows_no_low_cue() -> None:
    batch = read_texts(list(NEUTRAL_NEWS.values()))
    assert batch.status == ("read",) * len(NEUTRAL_NEWS)
    assert [lang[:2] for lang in NEUTRAL_NEWS] == list(batch.language)
    assert [[c.reason for c in cues if c.low] for cues in batch.cues] == [[]] * len(NEUTRAL_NEWS)


def test_a_french_post_saying_deleted_and_retweet_shows_the_alarm_family() -> None:
    # the French list had no word for "deleted" or "retweet" (English, German and Spanish had one)
    post = ("L'incendie du pont c'était un sabotage, point. On a vu des gens sur la pile juste avant, les vidéos ont "
            "été supprimées et la mairie cache tout. Aucun pont de cet âge ne s'effondre comme ça. Retweetez avant "
            "que ce compte saute.")
    news = ("Le conseil municipal a supprimé mardi la taxe sur les terrasses pour l'été. La mesure coûte environ "
            "30 000 euros à la commune et s'applique dès le mois prochain aux cafés et restaurants du centre.")
    cues = read_texts([post, news], "fr").cues
    assert [[c.reason for c in found if c.low] for found in cues] == [
        ["alarm and calls to spread (retweetez, supprimées)"], []]


def test_a_label_in_capitals_alone_or_with_its_own_word_is_no_alarm() -> None:
    pages = ["UPDATE: The museum reopens on Saturday after repairs to the roof, with the same opening hours and prices "
             "as before. Guided tours start again in May, and the café on the ground floor keeps its summer menu.",
             "BREAKING: the regional parliament elected a new president on Thursday with 61 of 110 votes after two "
             "rounds. She takes office next week and has said her first bill will concern the school budget."]
    assert [[c.family for c in cues] for cues in read_texts(pages).cues] == [[], []]


def test_page_evidence_puts_an_alarm_page_below_unknown_naming_the_cue() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-news.example/a", ALARM_PAGES["de"])])[0]
    assert est.spoke and est.trust < UNKNOWN_LEVEL
    assert est.cues == ("alarm and calls to spread (ACHTUNG:, weitersagen, weiterleiten, gelöscht, verschwiegen)",)


PT_PAGES = {
    "alarm-br": "URGENTE: A partir de segunda-feira o governo vai confiscar a poupança de quem tiver mais de cinco mil "
                "reais no banco. A televisão não fala nada e os jornais escondem tudo, mas um funcionário de uma "
                "agência contou a verdade. Compartilhe com todos os seus contatos e repasse para os grupos da família "
                "antes que apaguem esta mensagem!",
    "alarm-pt": "Partilhe antes que apaguem! O Ministério da Saúde quer obrigar todas as crianças a tomar uma nova vacina "
                "a partir de setembro e os jornais silenciam o assunto. Uma enfermeira de um hospital de Lisboa já "
                "avisou os pais. Divulguem por todos os grupos e acordem enquanto é tempo.",
    "clickbait": "Chocante! Você não vai acreditar no que aconteceu com a atriz depois do casamento. As fotos são de "
                 "cair o queixo e o caso virou escândalo nas redes: o vídeo viralizou em poucas horas e o final é "
                 "simplesmente bizarro. Veja até o fim, porque o que ela disse depois é ainda mais incrível.",
}
"""Fabricated Portuguese pages written for these tests (Brazilian and European alarm, clickbait)."""


def test_portuguese_alarm_and_clickbait_pages_show_the_cues_naming_their_words() -> None:
    batch = read_texts(list(PT_PAGES.values()))
    assert batch.language == ("pt", "pt", "pt") and batch.status == ("read",) * 3
    assert [[c.reason for c in cues] for cues in batch.cues] == [
        ["alarm and calls to spread (URGENTE:, compartilhe, repasse, apaguem, escondem)"],
        ["alarm and calls to spread (partilhe, divulguem, apaguem, silenciam, acordem)"],
        ["clickbait (chocante, incrível, bizarro, escândalo, viralizou)"]]
    ests = PageEvidence().estimate([Candidate.create(f"https://zq-noticias-{i}.example/a", t)
                                    for i, t in enumerate(PT_PAGES.values())])
    assert all(e.spoke and e.trust < UNKNOWN_LEVEL for e in ests)


def test_neutral_portuguese_pages_show_no_low_cue_and_stay_at_unknown() -> None:
    texts = [text for _, _, text in NEUTRAL_PAGES_PT]
    assert len(texts) == 8
    batch = read_texts(texts)
    assert batch.language == ("pt",) * 8 and batch.status == ("read",) * 8
    assert [[c.reason for c in cues] for cues in batch.cues] == [
        ["attributed statements (segundo, informou, anunciou)"], [], [], [], [], [], [], []]
    ests = PageEvidence().estimate([Candidate.create(f"https://zq-{topic}-{i}.example/page", text)
                                    for i, (topic, _, text) in enumerate(NEUTRAL_PAGES_PT)])
    assert [e.spoke for e in ests] == [True] + [False] * 7
    assert ests[0].trust == pytest.approx(0.36) and [e.trust for e in ests[1:]] == [UNKNOWN_LEVEL] * 7


COVID_NEWS = ("The new coronavirus variant spreads faster, researchers say. The virus binds more tightly to cells, "
              "and like other viruses it mutates as it spreads; the virus was first sequenced in November. Vaccines "
              "still protect against severe disease from the virus, and scientists track how such viruses evolve.")


def test_inflections_of_one_word_count_once_toward_a_family() -> None:
    # "virus" and "viruses" are one word of the spam family: news about a virus is not download-and-fix spam
    news, spam = read_texts([COVID_NEWS, "Download our fixer now and remove every virus: viruses gone, click for an "
                                         "instant scan, download today and stay clean."], "en").cues
    assert news == ()
    assert [c.reason for c in spam] == ["download-and-fix spam (download, fixer, virus, viruses, click, instant)"]
    # two forms of "cure" alone are one distinct word: no miracle-cure claim
    (cures,) = read_texts(["There is no cure yet. Doctors say the disease cures itself in most people, and no drug "
                           "has cured it faster in trials; rest and fluids help while it runs its course over weeks."],
                          "en").cues
    assert cures == ()
