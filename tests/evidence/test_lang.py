"""The language identifier: py3langid's decision, walked for a batch at once."""
from __future__ import annotations

from authorag.evidence.lang import BATCH_FROM, _identifier, _sample, page_language, page_languages  # pyright: ignore[reportPrivateUsage]
from tests.evidence.neutral_pages import NEUTRAL_PAGES

SAMPLES = [text for _, _, text in NEUTRAL_PAGES] + [
    "", "x", "ÉTÉ CHAUD ET SEC", "O governo anunciou hoje um novo programa de habitação para as famílias.",
    "Il governo ha annunciato oggi un nuovo programma per le famiglie.", "Short.", "12345 !!!"]


def test_batched_walk_decides_as_py3langid_does() -> None:
    ident = _identifier()
    expected = [ident.classify(_sample(t))[0] for t in SAMPLES]
    assert len(SAMPLES) >= BATCH_FROM
    assert page_languages(SAMPLES) == expected
    assert [page_language(t) for t in SAMPLES[:3]] == expected[:3]
    assert expected[-5:-2] == ["fr", "pt", "it"] and expected[:10] == ["en"] * 10


def test_neutral_pages_languages() -> None:
    assert page_languages([t for _, _, t in NEUTRAL_PAGES]) == [lang for _, lang, _ in NEUTRAL_PAGES]
    assert page_languages([]) == []
