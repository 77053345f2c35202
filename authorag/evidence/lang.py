"""The page's language, from a maintained language identifier (py3langid, which ships its model).

Page evidence reads its cue lists in :data:`READ_LANGUAGES` and abstains on any other language,
naming it. The identifier is asked to choose among :data:`CANDIDATE_LANGUAGES` (the read ones and
the languages most often met beside them, so a Portuguese or Italian page is named as such and
not forced into Spanish or French); it reads at most :data:`SAMPLE_CHARS` characters of the
page, taken after its opening (where titles and menus sit) when the page is long enough.

Example:
    >>> page_language("The committee approved the budget on Tuesday after a long debate.")
    'en'
    >>> page_language("O governo anunciou hoje um novo programa de habitação para as famílias.")
    'pt'
"""
from __future__ import annotations

from functools import cache
from typing import Any

READ_LANGUAGES = ("en", "de", "es", "fr")
"""Languages whose cue lists page evidence reads."""
CANDIDATE_LANGUAGES = ("en", "de", "es", "fr", "pt", "it", "nl", "pl", "ru", "zh", "ja", "ar", "tr", "sv", "ca", "ro",
                       "da", "no", "cs", "id")
"""Languages the identifier chooses among."""
SAMPLE_CHARS = 140
"""Characters the identifier reads (a few sentences; cost grows with them)."""
SKIP_CHARS = 200
"""A page longer than this many characters beyond :data:`SAMPLE_CHARS` is sampled after its opening."""


@cache
def _identifier() -> Any:
    """py3langid's identifier restricted to :data:`CANDIDATE_LANGUAGES` (its model loaded once)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=False)
    ident.set_languages(list(CANDIDATE_LANGUAGES))
    return ident


def page_language(text: str) -> str:
    """The ISO 639-1 code of ``text``'s language (among :data:`CANDIDATE_LANGUAGES`)."""
    start = SKIP_CHARS if len(text) > SKIP_CHARS + SAMPLE_CHARS else 0
    code, _ = _identifier().classify(text[start:start + SAMPLE_CHARS])
    return str(code)


__all__ = ["CANDIDATE_LANGUAGES", "READ_LANGUAGES", "SAMPLE_CHARS", "SKIP_CHARS", "page_language"]
