"""The page-evidence text layer: cue words read with or without their accents."""
from __future__ import annotations

import unicodedata

from authorag.evidence.text import read_texts

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
