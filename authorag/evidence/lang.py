"""The page's language, from a maintained language identifier (py3langid, which ships its model).

Page evidence reads its cue lists in :data:`READ_LANGUAGES` and abstains on any other language,
naming it. The identifier is asked to choose among :data:`CANDIDATE_LANGUAGES` (the read ones and
the languages most often met beside them, so an Italian or Catalan page is named as such and
not forced into Spanish, French or Portuguese); it reads at most :data:`SAMPLE_CHARS` characters of the
page, taken after its opening (where titles and menus sit) when the page is long enough.

Example:
    >>> page_language("The committee approved the budget on Tuesday after a long debate.")
    'en'
    >>> page_language("O governo anunciou hoje um novo programa de habitação para as famílias.")
    'pt'
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

READ_LANGUAGES = ("en", "de", "es", "fr", "pt")
"""Languages whose cue lists page evidence reads."""
CANDIDATE_LANGUAGES = ("en", "de", "es", "fr", "pt", "it", "nl", "pl", "ru", "zh", "ja", "ar", "tr", "sv", "ca", "ro",
                       "da", "no", "cs", "id")
"""Languages the identifier chooses among."""
SAMPLE_CHARS = 100
"""Characters the identifier reads (a few sentences; cost grows with them)."""
SKIP_CHARS = 200
"""A page longer than this many characters beyond :data:`SAMPLE_CHARS` is sampled after its opening."""
BATCH_FROM = 8
"""From this many texts on, the automaton is walked for all at once (fewer: one by one, as py3langid does)."""


@cache
def _identifier() -> Any:
    """py3langid's identifier restricted to :data:`CANDIDATE_LANGUAGES` (its model loaded once)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=False)
    ident.set_languages(list(CANDIDATE_LANGUAGES))
    return ident


@cache
def _tables() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float32],
                       NDArray[np.float32], tuple[str, ...]]:
    """The identifier's byte automaton and naive-Bayes tables as arrays (next state, row offsets,
    feature per state, per-feature and prior log-probabilities, languages)."""
    ident = _identifier()
    return (np.frombuffer(ident.tk_nextmove, dtype=np.dtype(ident.tk_nextmove.typecode)).astype(np.int64),
            np.array(ident._rowbase, dtype=np.int64), np.array(ident.tk_output, dtype=np.int64),
            np.asarray(ident.nb_ptc, dtype=np.float32), np.asarray(ident.nb_pc, dtype=np.float32),
            tuple(ident.nb_classes))


def _sample(text: str) -> bytes:
    """The bytes the identifier reads of ``text``, encoded as py3langid encodes them."""
    start = SKIP_CHARS if len(text) > SKIP_CHARS + SAMPLE_CHARS else 0
    part = text[start:start + SAMPLE_CHARS]
    if part.isupper():
        part = part.lower()
    return unicodedata.normalize("NFC", part).encode("utf-8", "surrogatepass")


def page_languages(texts: Sequence[str]) -> list[str]:
    """The ISO 639-1 code of each text's language (among :data:`CANDIDATE_LANGUAGES`), in order.

    The same decision as py3langid's ``classify`` on each sample, with its byte automaton walked
    for all texts at once (one array step per byte position instead of one Python step per byte).
    """
    if not texts:
        return []
    raws = [_sample(t) for t in texts]
    if len(raws) < BATCH_FROM:
        ident = _identifier()
        return [str(ident.classify(r)[0]) for r in raws]
    nextmove, rowbase, output, ptc, prior, langs = _tables()
    n, width = len(raws), max(len(r) for r in raws)
    grid = np.zeros((n, width), dtype=np.int64)
    for i, r in enumerate(raws):
        grid[i, :len(r)] = np.frombuffer(r, dtype=np.uint8)
    lengths = np.array([len(r) for r in raws])
    state = np.zeros(n, dtype=np.int64)
    pages: list[NDArray[np.intp]] = []
    feats: list[NDArray[np.int64]] = []
    for pos in range(width):
        live = np.flatnonzero(lengths > pos)
        state[live] = nextmove[rowbase[state[live]] + grid[live, pos]]
        f = output[state[live]]
        hit = f >= 0
        pages.append(live[hit])
        feats.append(f[hit])
    page, feat = np.concatenate(pages), np.concatenate(feats)
    scores = np.full((n, len(langs)), np.float32(_RAW_FLOOR), dtype=np.float32)
    if len(page):
        keys, counts = np.unique(page * len(output) + feat, return_counts=True)  # sorted by page
        rows, cols = keys // len(output), keys % len(output)
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        contrib = np.log1p(counts.astype(np.float32))[:, None] * ptc[cols].astype(np.float32)
        scores[rows[starts]] = np.add.reduceat(contrib, starts, axis=0) + prior
    return [langs[int(j)] for j in scores.argmax(axis=1)]


_RAW_FLOOR = -3.4028234663852886e38


def page_language(text: str) -> str:
    """The ISO 639-1 code of ``text``'s language (among :data:`CANDIDATE_LANGUAGES`)."""
    return page_languages([text])[0]


__all__ = ["CANDIDATE_LANGUAGES", "READ_LANGUAGES", "BATCH_FROM", "SAMPLE_CHARS", "SKIP_CHARS", "page_language", "page_languages"]
