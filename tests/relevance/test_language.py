from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.coverage import coverage
from authorag.relevance.language import (
    DEFAULT_LANGUAGE,
    LEXICAL_LANGUAGES,
    PLAIN,
    LanguageGuess,
    detect_language,
    stem_words,
    terms,
)
from authorag.relevance.stopwords import STOPWORDS
from authorag.relevance.tokens import fold
from authorag.types import Candidate


@pytest.mark.parametrize(("language", "text", "want"), [
    ("en", "Do cranberries prevent urinary tract infections?", ["cranberri", "prevent", "urinari", "tract", "infect"]),
    ("de", "Welche Impfungen werden in der Schwangerschaft empfohlen?", ["impfung", "schwangerschaft", "empfohl"]),
    ("de", "Kündigungsfrist für Mietverträge", ["kundigungsfrist", "mietvertrag"]),
    ("es", "¿Es seguro tomar ibuprofeno durante el embarazo?", ["segur", "tom", "ibuprofen", "embaraz"]),
    ("es", "vacunación vacunacion", ["vacun", "vacun"]),
    ("fr", "Peut-on prendre de l'ibuprofène pendant la grossesse ?", ["prendr", "ibuprofen", "grossess"]),
    ("fr", "médicament medicament", ["medic", "medic"]),
    ("fr", "Qui était Jeanne d'Arc et où a-t-elle été jugée ?", ["jeann", "arc", "jug"]),
    ("es", "¿Dónde estaba la Alhambra y quién había construido sus palacios?", ["alhambr", "constru", "palaci"]),
    ("de", "Wer war Karl der Große und wurde er in Aachen gekrönt?", ["karl", "gross", "aach", "gekron"]),
    ("de", "Widerrufsrecht beim Online-Kauf: wann und wie lange?", ["widerrufsrecht", "onlin", "kauf", "lang"]),
    ("es", "¿Cuántos días de vacaciones tengo y cuanto cobro?", ["dias", "vacacion", "teng", "cobr"]),
    ("fr", "Congé paternité : combien de jours, et pour quoi faire ?", ["cong", "patern", "jour", "fair"]),
    (PLAIN, "Le vaccinazioni in gravidanza", ["le", "vaccinazioni", "in", "gravidanza"]),
    ("it", "Le vaccinazioni in gravidanza", ["vaccin", "gravid"]),
    ("it", "Quanto costa il rinnovo della carta d'identità?", ["cost", "rinnov", "cart", "ident"]),
    ("pt", "Quanto tempo demora a renovação do cartão de cidadão?", ["temp", "demor", "renov", "carta", "cidada"]),
    ("nl", "Hoeveel vakantiedagen heb ik recht op bij een fulltime baan?", ["vakantiedaag", "recht", "fulltime",
                                                                          "baan"]),
    ("et", "Mitu puhkusepäeva mul on?", ["mitu", "puhkusepäeva", "mul", "on"]),
    ("sv", "Hur många semesterdagar har jag rätt till?", ["semesterdag", "ratt"]),
    ("cs", "Kolik dní dovolené mi náleží?", ["dni", "dovolen", "nalez"]),
    ("el", "Πόσες μέρες άδεια δικαιούμαι τον χρόνο;", ["μερ", "αδει", "δικαι", "χρον"]),
    ("el", "Ποσες μερες αδεια δικαιουμαι τον χρονο;", ["μερ", "αδει", "δικαι", "χρον"]),
    ("ro", "Câte zile de concediu de odihnă îmi se cuvin?", ["zil", "concediu", "odihn", "cuvin"]),
    ("ro", "Câte zile de concediu de odihnă îmi se cuvin şi cât de repede?", ["zil", "concediu", "odihn", "cuvin", "reped"]),
    ("hu", "Hány nap szabadság jár nekem egy évben?", ["nap", "szabadsag", "jar", "ev"]),
    ("fi", "Kuinka monta lomapäivää minulla on oikeus saada?", ["mon", "lomapaiv", "oikeus", "saada"]),
    ("da", "Hvor mange feriedage har jeg ret til?", ["feriedag", "ret"]),
    ("no", "Hvor mange feriedager har jeg krav på?", ["feriedag", "krav"]),
    # articles and the light verb "do" are not content words (as English "do")
    ("el", "Μέχρι πότε πρέπει να κάνω τη φορολογική δήλωση;", ["φορολογικ", "δηλωσ"]),
    ("sv", "Hur gör jag för att ansöka om ett nytt pass?", ["ansok", "nytt", "pass"]),
    ("ro", "Cum fac declarația unică?", ["declar", "unic"]),
    ("cs", "Jak mám udělat daňové přiznání?", ["dan", "priznan"]),
])
def test_terms_per_language(language: str, text: str, want: list[str]) -> None:
    assert terms(text, language) == want


def test_fold_drops_diacritics_only() -> None:
    assert [fold(w) for w in ("médic", "kündig", "niño", "straße", "plain")] == ["medic", "kundig", "nino", "straße",
                                                                                 "plain"]


@pytest.mark.parametrize(("query", "texts", "language", "source"), [
    ("Welche Unterlagen brauche ich für eine Hypothek?", [], "de", "query"),
    ("is coffee bad for you", [], "en", "query"),
    # one word is too short to tell ("mortgage" alone reads as Dutch): the candidates decide
    ("mortgage", ["A mortgage is a loan used to buy a home.", "Compare mortgage rates from lenders."], "en",
     "candidates"),
    ("vaccin grippe grossesse", ["La vaccination contre la grippe est recommandée pendant la grossesse."], "fr",
     "candidates"),
    ("vacuna gripe embarazo", ["La vacuna de la gripe se recomienda durante el embarazo."], "es", "candidates"),
    ("Mietvertrag kündigen Frist", [], "de", "query"),  # 0.73 alone: enough without any text
    # with text, a query needs QUERY_CONFIDENCE alone; "is coffee bad for you" reads as English at 0.76
    ("is coffee bad for you", ["Coffee in moderation is fine for most adults."], "en", "candidates"),
    # nothing clear: the default
    ("xq 42", [], DEFAULT_LANGUAGE, "default"),
])
def test_detect_language_on_short_queries(query: str, texts: list[str], language: str, source: str) -> None:
    guess = detect_language(query, texts)
    assert (guess.language, guess.source) == (language, source)
    assert guess.lexical == language and guess.note() is None


def test_a_language_not_read_takes_the_plain_path_and_says_so() -> None:
    guess = detect_language("Mitu puhkusepäeva mul sel aastal seaduse järgi on?")
    assert guess.language == "et" and guess.lexical == PLAIN
    assert guess.note() == ("query language 'et' is not one lexical relevance reads (en, de, es, fr, it, pt, nl, ru, ar, hi, tr, pl, id, fa, "
                            "sv, cs, el, ro, hu, fi, da, no): plain word tokens, no stemming")
    ja = detect_language("1日に何歩歩くのが健康に良いですか")
    assert (ja.language, ja.lexical) == ("ja", PLAIN)
    assert ja.note() == ("query language 'ja' is not one lexical relevance reads (en, de, es, fr, it, pt, nl, ru, ar, hi, tr, pl, id, fa, "
                         "sv, cs, el, ro, hu, fi, da, no): "
                         "Han, Hangul and Thai read as pairs of characters, no stemming")
    it = detect_language("Quali vaccinazioni sono raccomandate in gravidanza?")
    assert (it.language, it.lexical, it.note()) == ("it", "it", None)
    assert LanguageGuess("de", "given", 1.0).note() is None


def test_bm25_reads_the_query_language() -> None:
    cands = [Candidate.create("https://a.de/1", text="Die Impfung gegen Grippe wird Schwangeren empfohlen."),
             Candidate.create("https://b.de/2", text="Der Mietvertrag kann mit drei Monaten Frist gekündigt werden.")]
    query = "Welche Impfungen werden in der Schwangerschaft empfohlen?"
    # stemmed, "Impfungen" matches "Impfung" and "Schwangerschaft" "Schwangeren" does not; BM25 keeps
    # stop words ("der" matches the other page), coverage drops them
    auto = BM25Relevance().score(query, cands)
    plain = BM25Relevance(language="plain").score(query, cands)
    assert auto[0] > auto[1] > 0.0
    assert plain[0] < auto[0] and plain[1] == pytest.approx(auto[1])
    guess = BM25Relevance().language_of(query, cands)
    assert (guess.language, guess.source, guess.probability) == ("de", "query", pytest.approx(0.996, abs=1e-3))


def test_coverage_folds_accents_the_query_lacks() -> None:
    assert coverage("medicament grossesse", ["Un médicament pendant la grossesse"], "fr") == [1.0]
    assert coverage("medicament grossesse", ["Un médicament pendant la grossesse"], PLAIN) == [0.5]


def test_bm25_language_is_checked() -> None:
    assert set(LEXICAL_LANGUAGES) == {"en", "de", "es", "fr", "it", "pt", "nl", "ru", "ar", "hi", "tr", "pl", "id", "fa",
                                      "sv", "cs", "el", "ro", "hu", "fi", "da", "no"}
    with pytest.raises(ConfigError, match=r"language must be one of 'auto', 'plain', 'en', 'de', 'es', 'fr', 'it', "
                                          r"'pt', 'nl', 'ru', 'ar', 'hi', 'tr', 'pl', 'id', 'fa', 'sv', 'cs', 'el', 'ro', 'hu', 'fi', 'da', 'no', "
                                          r"got 'german'; use 'plain'"):
        BM25Relevance(language="german")


def test_remembered_stems_are_the_stemmers_and_memory_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import snowballstemmer  # pyright: ignore[reportMissingTypeStubs]

    from authorag.relevance import language

    words = ["kündigungsfristen", "abzugeben", "häuser", "kündigungsfristen", "häuser"]
    fresh = snowballstemmer.stemmer("german").stemWords(words)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    assert stem_words(words, "de") == ["kundigungsfrist", "abgeb", "haus", "kundigungsfrist", "haus"]
    assert stem_words(words, "de") == [language.join_zu(fold(s)) for s in fresh]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    monkeypatch.setattr(language, "STEMS_REMEMBERED", 3)
    stems = language._Stems("en")  # pyright: ignore[reportPrivateUsage]
    assert stems(["running", "runs", "ran", "running"]) == ["run", "run", "ran", "run"]
    assert len(stems._known) == 3  # pyright: ignore[reportPrivateUsage]
    assert stems(["jumped"]) == ["jump"]
    assert len(stems._known) == 1  # full: forgot the rest and started again  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize("query_word,page_words", [
    ("verschlüsselt", "Verschlüsselung verschlüsseln"),
    ("beantragt", "Antrag beantragen"),
    ("kündigt", "Kündigung kündigen"),
])
def test_a_german_verb_form_in_t_meets_its_infinitive_and_noun(query_word: str, page_words: str) -> None:
    """The stemmer keeps a participle's "t" ("verschlüsselt" -> verschlusselt) and reduces the
    infinitive and the noun to the bare stem; the final "t" of a long stem goes."""
    [q] = terms(query_word, "de")
    assert q in terms(page_words, "de")


def test_a_short_word_in_t_keeps_it() -> None:
    assert terms("Welt Gesicht Gehalt", "de") == ["welt", "gesicht", "gehalt"]


@pytest.mark.parametrize(("language", "query", "page", "shared"), [
    # Russian: the question's "загранпаспорт" and "продлить" meet the page's inflected forms; "как" is a stop word
    ("ru", "Как продлить загранпаспорт?", "Срок действия загранпаспорта истёк: продлить паспорт нельзя, оформляется новый.",
     ["продл", "загранпаспорт"]),
    # Arabic: "السفر" and "جوازات" lose the article and the plural; "كيف" is a stop word
    ("ar", "كيف أجدد جواز السفر؟", "تجديد جوازات السفر للمواطنين عبر المنصة الإلكترونية", ["سفر"]),
    # Hindi: the oblique plural "पासपोर्टों" meets "पासपोर्ट"; "का", "कैसे", "करें" are stop words
    ("hi", "पासपोर्ट का नवीनीकरण कैसे करें?", "पासपोर्टों के नवीनीकरण के लिए ऑनलाइन आवेदन", ["पासपोरट", "नवीनीकरण"]),
    # Turkish: the possessive accusative "pasaportumu" meets "pasaport"; "nasıl" is a stop word
    ("tr", "Pasaportumu nasıl yenilerim?", "Pasaport yenileme başvurusu e-Devlet üzerinden yapılır.", ["pasaport"]),
    # Polish: "paszportu" meets "paszport"; "jak" is a stop word
    ("pl", "Jak przedłużyć ważność paszportu?", "Paszport nie może być przedłużony: trzeba złożyć wniosek o nowy.",
     ["paszport"]),
    # Indonesian: "memperpanjang" meets the passive "diperpanjang" and "memperpanjangnya"; "bagaimana" is a stop word
    ("id", "Bagaimana cara memperpanjang paspor?", "Paspor dapat diperpanjang melalui aplikasinya. Cara memperpanjangnya mudah.",
     ["cara", "perpanjang", "paspor"]),
    # Persian: the verb "می‌بینیم" loses its prefix (a word of its own after the zero-width non-joiner) and ending
    ("fa", "چرا همیشه فقط یک طرف ماه را از زمین می\u200cبینیم؟", "ما از زمین همیشه یک طرف ماه را می\u200cبینیم.",
     ["همیشه", "طرف", "ماه", "زمین", "بین"]),
])
def test_languages_added_later_are_stemmed_without_their_stop_words(language: str, query: str, page: str,
                                                                       shared: list[str]) -> None:
    assert detect_language(query, [page]).language == language
    q, d = terms(query, language), terms(page, language)
    assert [w for w in q if w in d] == shared
    assert not set(q) & STOPWORDS[language]
    assert coverage(query, [page], language) == [pytest.approx(len(shared) / len(q))]
