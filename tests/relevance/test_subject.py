"""What a page says it is about: its lead, its site's name and its address's path."""
from __future__ import annotations

import pytest

from authorag.relevance.subject import LEAD_CHARS, lead, site_words, subject_coverage


@pytest.mark.parametrize(("text", "expected"), [
    ("Building an emergency fund. Start small.", "Building an emergency fund."),
    ("  Kettle care\nFill it halfway.", "Kettle care"),
    ("Wie funktioniert das? Ganz einfach.", "Wie funktioniert das?"),
    ("Version 3.12 is out. More soon.", "Version 3.12 is out."),
    ("", ""),
])
def test_lead_is_the_first_sentence_or_title(text: str, expected: str) -> None:
    assert lead(text) == expected


def test_a_lead_without_an_end_stops_at_its_limit() -> None:
    assert lead("word " * 100) == ("word " * 100)[:LEAD_CHARS]


@pytest.mark.parametrize(("url", "expected"), [
    ("https://www.quedlinburg.de/de/advent-in-den-hoefen.html", "quedlinburg"),
    ("https://docs.python.org/3/library/", "docs python"),
    ("http://[::1", ""),
    ("", ""),
])
def test_site_words_name_the_site_not_its_top_level_domain(url: str, expected: str) -> None:
    assert site_words(url) == expected


def test_subject_coverage_reads_the_lead_the_site_and_the_path_in_the_querys_language() -> None:
    texts = ["Le livret A. C'est un compte d'épargne réglementé.",
             "Le prélèvement à la source. Comment fonctionne le calcul : il repose sur votre déclaration.",
             "Rien ici.", "Rien ici non plus."]
    urls = ["https://banque.example/epargne", "https://www.economie.gouv.fr/particuliers/prelevement-a-la-source",
            "https://www.livret.example/", "https://banque.example/comment-fonctionne-le-livret-a"]
    # the tax page's body says "fonctionne", its lead and address do not
    assert subject_coverage("comment fonctionne le livret A", texts, urls, "fr") == pytest.approx([0.5, 0.0, 0.5, 1.0])


def test_a_query_without_content_words_names_no_subject() -> None:
    assert subject_coverage("how is it", ["How is it.", "It is."], ["https://a.example/how", ""], "en") == [0.0, 0.0]
