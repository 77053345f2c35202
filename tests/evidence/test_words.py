"""The key-word counter: accents folded off Latin letters in pages and key words alike."""
from __future__ import annotations

import unicodedata

import pytest

from authorag.errors import ConfigError
from authorag.evidence.words import WordCounter, fold_latin


def test_fold_latin_spells_latin_letters_in_ascii_and_leaves_the_rest() -> None:
    assert fold_latin("Straße, cœur, Æther, Łódź, ÚLTIMA, naïve".encode()) == b"Strasse, coeur, AEther, Lodz, ULTIMA, naive"
    assert fold_latin(unicodedata.normalize("NFD", "vérité").encode()) == b"verite"  # combining marks dropped
    assert fold_latin("Москва — 5 € ×".encode()) == "Москва — 5 € ×".encode()  # no Latin letter: unchanged
    assert fold_latin(b"plain ascii") == b"plain ascii"


def test_accented_key_words_match_accented_unaccented_and_decomposed_pages() -> None:
    counter = WordCounter({"gone": ("gelöscht",), "truth": ("vérité",), "wow": ("increíble",), "uni": ("universität",),
                           "street": ("straße",)}, marks=b"!")
    pages = [unicodedata.normalize("NFD", "¡Increíble! La vérité, gelöscht").encode(),
             "Increible INCREÍBLE increíble verite".encode(),
             "Die UNIVERSITÄT an der Strasse, die Universität in der Straße!".encode(),
             "geloscht ge löscht universitaet".encode()]
    counts, words, marks = counter.count_marked(pages)
    assert counts.tolist() == [[1, 1, 1, 0, 0], [0, 1, 3, 0, 0], [0, 0, 0, 2, 2], [1, 0, 0, 0, 0]]
    assert words.tolist() == [4, 4, 10, 4]  # an accented letter no longer splits a word
    assert marks == [b"!", b"", b"!", b""]


def test_pages_keep_their_own_counts_around_folded_bytes() -> None:
    counter = WordCounter({"cafe": ("café",)})
    pages = ["café " * 3, "", unicodedata.normalize("NFD", "é") * 40, "café", "x café"]
    counts, words = counter.count([p.encode() for p in pages])
    assert counts[:, 0].tolist() == [3, 0, 0, 1, 1]
    assert words.tolist() == [3, 0, 1, 1, 2]


def test_a_key_word_outside_latin_letters_is_refused_with_the_fix() -> None:
    with pytest.raises(ConfigError, match=r"key word 'слово' of group 'g' must be 1-14 lower-case letters or digits "
                                          r"once accents are folded off \(Latin letters only\)"):
        WordCounter({"g": ("слово",)})
    with pytest.raises(ConfigError, match="key word 'desintoxicación'"):
        WordCounter({"g": ("desintoxicación",)})  # 15 letters once folded
