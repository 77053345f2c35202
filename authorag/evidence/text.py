"""Text evidence: the cues a page's own words show, per language, each with the words found.

The text layer reads the window of the text a candidate carries that
:func:`authorag.text_window.read_window` gives, identifies its language
(:func:`~authorag.evidence.lang.page_languages`) and, in English, German, Spanish, French and Portuguese,
counts the key words of each cue family in that language's list (:data:`CUE_WORDS`, written for
each language, not translated), with or without their accents
(:func:`~authorag.evidence.words.fold_latin`). Two symbols are read in every language: exclamation marks and
words in capitals.

* **Low cues** (:data:`LOW_FAMILIES`, plus ``excl`` and ``caps``) are known to mark
  low-credibility pages: download-and-fix spam, sales language, miracle-cure claims, clickbait,
  distrust of institutions, alarm and calls to spread (breaking-news shouting, "share before it
  is deleted", "they are hiding it"; a label in capitals the page opens with, ``BREAKING:``,
  counts as one of its words), sensational punctuation, shouting capitals. A family is
  *present* when at least :data:`MIN_DISTINCT` of its words occur (inflections of one word, *virus*
  and *viruses*, count once) and its words make at least
  :data:`LOW_RATE` per 100 words.
* **High cues** (:data:`HIGH_FAMILIES`): statements attributed to someone, named studies and
  sources; present when at least :data:`MIN_DISTINCT` of their words occur.

A page in another language, or with fewer than :data:`MIN_WORDS` words, has no text cues, with
the reason (``status``). Every cue names the words that were found.

Example:
    >>> batch = read_texts(["Download our fixer tool now! Fix registry errors, remove every virus, click here "
    ...                     "for an instant scan. Download today!", "", "Un testo in italiano sul governo, le elezioni "
    ...                     "e l'economia del paese, con molti dettagli e numeri."])
    >>> batch.status, [c.family for c in batch.cues[0]], batch.language
    (('read', 'empty', 'language'), ['spam'], ('en', None, 'it'))
    >>> batch.cues[0][0].words
    ('download', 'fixer', 'virus', 'click', 'instant')
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from authorag.evidence.lang import READ_LANGUAGES, page_languages
from authorag.evidence.words import WordCounter, fold_latin
from authorag.relevance.language import stem_words
from authorag.text_window import read_window

MIN_WORDS = 12
"""Fewer words than this: no text evidence."""
MIN_DISTINCT = 2
"""Distinct words of a family that must occur for it to be present."""
LOW_RATE = 3.0
"""Words of a low family per 100 words (counted over at least :data:`RATE_FLOOR` words) for it to be present."""
RATE_FLOOR = 40
EXCL_MIN, EXCL_RATE = 3, 3.0
"""Exclamation marks: at least this many and this many per 100 words."""
CAPS_MIN, CAPS_SHARE = 3, 0.08
"""Words of four or more capital letters: at least this many and this share of the words."""

LOW_FAMILIES = ("spam", "sales", "cure", "clickbait", "conspiracy", "alarm")
HIGH_FAMILIES = ("attribution", "sources")
CUE_NAMES: dict[str, str] = {
    "spam": "download-and-fix spam", "sales": "sales language", "cure": "miracle-cure claims",
    "clickbait": "clickbait", "conspiracy": "distrust of institutions", "alarm": "alarm and calls to spread", "attribution": "attributed statements",
    "sources": "named studies and sources", "excl": "sensational punctuation", "caps": "shouting capitals"}
"""Cue -> what it stands for in the breakdown."""
CUE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "spam": "download downloads fixer cleaner malware virus viruses spyware crack keygen optimizer click "
                "instant",
        "sales": "buy cheap discount discounts coupon coupons bonus bestseller hurry bargain wholesale checkout",
        "cure": "miracle miraculous cure cures cured guaranteed guarantee detox toxins cleanse breakthrough secret "
                "secrets remedy remedies amazing incredible effortless",
        "clickbait": "shocking unbelievable insane viral exposed bombshell outrageous shocked jaw",
        "conspiracy": "pharma conspiracy suppressed mainstream coverup sheeple globalist globalists elites hoax "
                      "plandemic depopulation deepstate censored",
        "attribution": "said says according told reported stated announced spokesperson spokesman spokeswoman "
                       "confirmed interview quoted",
        "sources": "study studies journal researchers university published survey report data statistics census "
                   "court ruling documentation specification",
        "alarm": "breaking urgent deleted banned silenced hiding leaked whistleblower repost retweet insiders msm"},
    "de": {
        "spam": "download herunterladen fixer registry cleaner malware virus viren trojaner crack keygen klicken "
                "optimierer",
        "sales": "kaufen billig rabatt gutschein gutscheine bestseller sonderangebot gratis",
        "cure": "wunder wundermittel heilung heilt geheilt garantiert garantie entgiftung giftstoffe durchbruch "
                "geheimnis geheimtipp sensationell unglaublich",
        "clickbait": "schockierend wahnsinn skandal krass verboten viral",
        "conspiracy": "pharma verschwörung mainstream lügenpresse systemmedien eliten vertuscht vertuschung "
                      "zensiert zensur plandemie schlafschafe",
        "attribution": "sagte sagt laut berichtete erklärte sprecher sprecherin mitteilte zufolge interview",
        "sources": "studie studien forscher forscherin universität veröffentlicht bericht daten statistik umfrage "
                   "gericht urteil zeitschrift dokumentation",
        "alarm": "eilmeldung eilt teilen weitersagen weiterleiten gelöscht verschwiegen verschweigen verheimlicht "
                 "verheimlichen sensation unzensiert"},
    "es": {
        "spam": "descargar descarga descargue reparador virus malware limpiador crack clic optimizador",
        "sales": "comprar compre barato descuento descuentos oferta ofertas gratis rebajas",
        "cure": "milagro milagroso milagrosa cura curar garantizado garantizada desintoxica detox toxinas secreto "
                "secretos remedio asombroso",
        "clickbait": "impactante increíble escándalo viral prohibido revelado",
        "conspiracy": "farmacéuticas conspiración ocultan ocultar censura censurado plandemia élites manipulación",
        "attribution": "dijo dice según afirmó informó declaró explicó portavoz aseguró entrevista",
        "sources": "estudio estudios investigadores universidad publicado publicada datos informe encuesta "
                   "estadísticas tribunal revista documentación",
        "alarm": "urgente comparte compartan compártelo difunde difundan difúndelo reenvía borren eliminen censuren "
                 "silencian ocultándolo"},
    "fr": {
        "spam": "télécharger téléchargement nettoyeur virus malware crack cliquez optimiseur",
        "sales": "acheter achetez promo promotion réduction soldes gratuit gratuite",
        "cure": "miracle miraculeux guérison garanti garantie garantis toxines secret secrets incroyable",
        "clickbait": "choquant scandale hallucinant interdit buzz",
        "conspiracy": "pharma complot complotiste caché cachée censure censuré plandémie élites mainstream "
                      "manipulation merdias",
        "attribution": "selon déclaré indiqué affirmé annoncé expliqué parole entretien",
        "sources": "étude études chercheurs université publié publiée données rapport enquête statistiques "
                   "tribunal revue documentation",
        "alarm": "urgent alerte partagez diffusez relayez retweetez censurent cachent taisent réveillez supprimé "
                 "supprimée supprimés supprimées"},
    "pt": {
        "spam": "baixar baixe descarregar download limpador antivírus malware crack keygen otimizador clique "
                "cliquem",
        "sales": "compre comprar barato desconto descontos cupom cupons frete grátis liquidação imperdível "
                 "aproveite parcelas",
        "cure": "milagre milagroso milagrosa cura curar curou garantido garantida detox desintoxicar toxinas "
                "segredo segredos remédio emagreça",
        "clickbait": "chocante chocantes inacreditável incrível bizarro escândalo escandaloso bomba viralizou "
                     "surreal absurdo",
        "conspiracy": "farmacêuticas conspiração conspirações plandemia globalistas globalismo illuminati maçonaria "
                      "manipulação censura censurado acobertar encobrir globolixo",
        "attribution": "disse diz afirmou segundo declarou informou explicou anunciou confirmou ressaltou destacou "
                       "assessoria entrevista",
        "sources": "estudo estudos pesquisa pesquisadores investigadores universidade publicado publicada dados "
                   "relatório levantamento estatísticas ibge tribunal revista documentação",
        "alarm": "urgente urgentíssimo compartilhe compartilhem partilhe partilhem repasse repassem divulgue "
                 "divulguem espalhe apaguem deletem deletado censurem escondem abafaram silenciam acordem"},
}
"""Language -> cue family -> its key words (written for that language)."""
TextStatus = Literal["read", "language", "empty", "binary", "too_short"]
STATUS_REASONS: dict[TextStatus, str] = {
    "read": "page text read",
    "language": f"page language not read (reads {', '.join(READ_LANGUAGES)})",
    "empty": "no page text",
    "binary": "page text is binary or control characters",
    "too_short": f"page text under {MIN_WORDS} words",
}


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue found in a page.

    Attributes:
        family: the cue (a key of :data:`CUE_NAMES`).
        low: True for a cue known to mark low credibility.
        words: the key words (or symbols) found, in list order.
        rate: its occurrences per 100 words.
    """

    family: str
    low: bool
    words: tuple[str, ...]
    rate: float

    @property
    def reason(self) -> str:
        """What the breakdown says: the cue and what was found."""
        return f"{CUE_NAMES[self.family]} ({', '.join(self.words)})"


@dataclass(frozen=True, slots=True)
class TextBatch:
    """The text layer's reading of a batch of pages.

    Attributes:
        status: per page ``read``, ``language`` (not a read language), ``empty``, ``binary`` or ``too_short``.
        language: the language found (None without text).
        words: words read per page.
        cues: the cues present per page (none unless read).
    """

    status: tuple[TextStatus, ...]
    language: tuple[str | None, ...]
    words: tuple[int, ...]
    cues: tuple[tuple[Cue, ...], ...]

    def reason(self, i: int) -> str:
        """Why page ``i``'s text gave the evidence it did."""
        if self.status[i] == "language":
            return f"page language '{self.language[i]}' not read (reads {', '.join(READ_LANGUAGES)})"
        return STATUS_REASONS[self.status[i]]


def _key(word: str) -> str:
    """The word as the counter reads it: accents folded off (:func:`~authorag.evidence.words.fold_latin`)."""
    return fold_latin(word.encode("utf-8")).decode("ascii")


@cache
def _counter(lang: str) -> tuple[WordCounter, tuple[tuple[str, str], ...]]:
    """The language's counter (one group per key word) and each group's (family, word)."""
    groups: dict[str, list[str]] = {}
    owners: list[tuple[str, str]] = []
    for family, words in CUE_WORDS[lang].items():
        for word in words.split():
            key = _key(word)
            if key not in groups:
                groups[key] = [key]
                owners.append((family, word))
    return WordCounter(groups, marks=b"!"), tuple(owners)


@cache
def _roots(lang: str) -> tuple[str, ...]:
    """Each group's word stemmed in ``lang`` (:func:`~authorag.relevance.language.stem_words`):
    the inflections of one word (*virus*, *viruses*; *cure*, *cures*, *cured*) share a root and
    count as one distinct word of their family."""
    _, owners = _counter(lang)
    return tuple(stem_words([_key(word)], lang)[0] for _, word in owners)


_NOT_CONTROL = bytes(b for b in range(256) if not (b < 9 or b in (11, 12) or 14 <= b < 32))
_REPLACEMENT = "\ufffd".encode()


def _is_binary(raw: bytes) -> bool:
    """Binary data read as text: NUL bytes, or over 5 % control characters or replacement characters."""
    sample = raw[:2000]
    bad = len(sample.translate(None, _NOT_CONTROL)) + (3 * sample.count(_REPLACEMENT) if b"\xef" in sample else 0)
    return b"\x00" in sample or bad > 0.05 * len(sample)


_CAPS = re.compile(r"[A-Z][A-Z][A-Z][A-Z]+")
CAPS_CHARS = 1200
"""Characters of the window searched for words in capitals."""


def _caps_words(window: str) -> list[str]:
    """Runs of four or more ASCII capitals, in the window's first :data:`CAPS_CHARS` characters."""
    return _CAPS.findall(window, 0, CAPS_CHARS)


_LABEL = re.compile(r"\W{0,3}([A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’ ]{3,22}[A-ZÀ-ÖØ-Þ]) ?:")


def _shouted_label(window: str) -> str | None:
    """The label in capitals a page opens with, colon included (``BREAKING:``, ``C'EST OFFICIEL :``),
    as fabricated news announces itself: an ``alarm`` word (unless it is one of the family's words)."""
    label = _LABEL.match(window)
    return None if label is None else label.group(0).lstrip(" \t\r\n\"'«“„-–—*#[(")


def _family_cues(lang: str, hits_of: list[tuple[int, int]], words: int, marks: bytes, window: str) -> tuple[Cue, ...]:
    """The cues present in one page (``hits_of``: (key word's group, count) of the words found, in group order)."""
    _, owners = _counter(lang)
    found: dict[str, list[tuple[str, int]]] = {}
    label = _shouted_label(window)
    said = ""  # the label's word, as a key word reads: not counted twice
    if label is not None:
        found["alarm"] = [(label, 1)]
        said = fold_latin(label.rstrip(" :").lower().encode("utf-8")).decode("utf-8")
    roots = _roots(lang)
    distinct: dict[str, set[str]] = {"alarm": {said}} if label is not None else {}
    for g, n in hits_of:
        family, word = owners[g]
        if not (family == "alarm" and _key(word) == said):
            found.setdefault(family, []).append((word, n))
            distinct.setdefault(family, set()).add(roots[g])
    denom = max(words, RATE_FLOOR) / 100.0
    cues: list[Cue] = []
    for family, hits in found.items():
        rate = sum(n for _, n in hits) / denom
        low = family in LOW_FAMILIES
        if len(distinct[family]) >= MIN_DISTINCT and (not low or rate >= LOW_RATE):
            cues.append(Cue(family, low, tuple(w for w, _ in hits), round(rate, 2)))
    excl = len(marks)
    if excl >= EXCL_MIN and excl / denom >= EXCL_RATE:
        cues.append(Cue("excl", True, (f"{excl} '!'",), round(excl / denom, 2)))
    caps = _caps_words(window)
    if len(caps) >= CAPS_MIN and len(caps) >= CAPS_SHARE * words:
        cues.append(Cue("caps", True, tuple(dict.fromkeys(caps))[:5], round(len(caps) / denom, 2)))
    return tuple(cues)


def read_texts(texts: Sequence[str], language: str | None = None) -> TextBatch:
    """The text layer's reading of each page, in order (one counting pass per language).

    ``language``: the language every page is read in, when the caller already knows it (the
    relevance window reads the pages in the query's language); None: each page's own
    (:func:`~authorag.evidence.lang.page_languages`). Outside :data:`READ_LANGUAGES` no page is read."""
    n = len(texts)
    status: list[TextStatus] = ["read"] * n
    langs_of: list[str | None] = [None] * n
    words = [0] * n
    cues: list[tuple[Cue, ...]] = [()] * n
    by_lang: dict[str, list[tuple[int, str, bytes]]] = {}
    readable: list[tuple[int, str, bytes]] = []
    for i, text in enumerate(texts):
        window = read_window(text) if text else ""
        raw = window.encode("utf-8", "ignore")
        if not raw or raw.isspace():
            status[i] = "empty"
        elif _is_binary(raw):
            status[i] = "binary"
        else:
            readable.append((i, window, raw))
    langs = page_languages([w for _, w, _ in readable]) if language is None else [language] * len(readable)
    for page, lang in zip(readable, langs):
        langs_of[page[0]] = lang
        if lang not in READ_LANGUAGES:
            status[page[0]] = "language"
        else:
            by_lang.setdefault(lang, []).append(page)
    for lang, pages in by_lang.items():
        counter, _ = _counter(lang)
        counts, nwords, marks = counter.count_marked([raw for _, _, raw in pages])
        found: list[list[tuple[int, int]]] = [[] for _ in pages]
        rows, cols = np.nonzero(counts)  # row-major: each page's words in group order
        for r, g, n in zip(rows.tolist(), cols.tolist(), counts[rows, cols].tolist()):
            found[r].append((g, n))
        for (i, window, _), hits_of, w, m in zip(pages, found, nwords.tolist(), marks):
            words[i] = w
            if w < MIN_WORDS:
                status[i] = "too_short"
            else:
                cues[i] = _family_cues(lang, hits_of, w, m, window)
    return TextBatch(tuple(status), tuple(langs_of), tuple(words), tuple(cues))


__all__ = ["CUE_NAMES", "CUE_WORDS", "HIGH_FAMILIES", "LOW_FAMILIES", "MIN_WORDS", "STATUS_REASONS", "Cue",
           "TextBatch", "TextStatus", "read_texts"]
