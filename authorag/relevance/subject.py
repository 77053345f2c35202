"""What a page says it is about: the question's content words in its address and its lead.

A page names its subject where a reader looks first: its title, usually its first sentence in
the text a retriever hands over, and its address (``/building-an-emergency-fund``,
``/frage/was-hilft-schnell-gegen-sodbrennen``). A very trusted page that answers another question
can share one or two of the question's words in its body ("Build an emergency kit" for "how do
I build an emergency fund"; "Comment fonctionne le calcul" on a tax page for "comment fonctionne
le livret A"); with two or three candidates BM25's IDF cannot tell that word from the subject's,
so the words alone put it on topic and trust lifts it. Its lead and its address name another
subject ("Preparedness for individuals", ``/prelevement-a-la-source``).

:func:`subject_coverage` gives, per page, the share of the question's distinct content words
(stemmed in the query's language, stop words dropped: :func:`~authorag.relevance.coverage.query_stems`)
its subject names: the words of its address (the site's name, :func:`site_words`, its path and
query string, :func:`~authorag.relevance.coverage.address_words`) and of its lead, the text up to
the first sentence's end (at most :data:`LEAD_CHARS` characters). The host counts here, unlike in
coverage: the subject only keeps a page out of the window, and a page on a site named for the
question's subject (``www.quedlinburg.de`` for its Christmas market) is not a passing mention; a
look-alike that copies a host gains nothing it did not have. The
window (:func:`~authorag.rerankers.fusion.subject_off_topic`) reads it. Languages: those
:func:`~authorag.relevance.language.terms` reads (en, de, es, fr, it, pt, nl, ru, ar, hi, tr, pl, id, fa, sv, cs, el, ro, hu, fi, da, no) are stemmed; any other matches
on exact tokens, as coverage does.

Example:
    >>> subject_coverage("how do I build an emergency fund",
    ...                  ["Building an emergency fund. Start small.", "Preparedness for individuals. Build an emergency kit."],
    ...                  ["https://cu.example/building-an-emergency-fund", "https://www.fema.gov/preparedness"], "en")
    [1.0, 0.0]
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from authorag.relevance.coverage import MAX_FIELD_CHARS, address_words, query_stems
from authorag.relevance.language import stem_words
from authorag.relevance.tokens import tokenize

LEAD_CHARS = 160
"""Characters of a page's text read at most as its lead (a title or a first sentence)."""

_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")
"""The end of a lead: a full stop, question or exclamation mark before a space, or a line break (not
a colon: "Campos electromagnéticos y salud pública: teléfonos móviles." is one title)."""


def lead(text: str) -> str:
    """The first sentence or title of ``text`` (up to its end mark, at most :data:`LEAD_CHARS`
    characters).

    Example:
        >>> lead("Le livret A. C'est un compte d'épargne réglementé."), lead("Apollo 11\\nLe 21 juillet 1969")
        ('Le livret A.', 'Apollo 11')
    """
    head = text.lstrip()[:LEAD_CHARS]
    end = _SENTENCE_END.search(head)
    return head[:end.end()].strip() if end else head


def site_words(url: str) -> str:
    """The labels of ``url``'s host but its last (the top-level domain) and ``www``: a site named
    for a subject (``www.quedlinburg.de``, ``docs.python.org``) names it for every page it holds.
    Empty for an address that does not parse.

    Example:
        >>> site_words("https://www.quedlinburg.de/de/advent"), site_words("not a url")
        ('quedlinburg', '')
    """
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    return " ".join(label for label in host.split(".")[:-1] if label != "www")


def subject_coverage(query: str, texts: Sequence[str], urls: Sequence[str], language: str) -> list[float]:
    """Per page, the share of ``query``'s distinct content words its subject names: the words of
    its address (``urls``, in the order of ``texts``; at most
    :data:`~authorag.relevance.coverage.MAX_FIELD_CHARS` characters of them) and of its
    :func:`lead`. A query with no content word gives 0 for every page.
    """
    stems = query_stems(query, language)
    if not stems:
        return [0.0] * len(texts)
    wanted = set(stems)
    out: list[float] = []
    for text, url in zip(texts, urls):
        words = tokenize(lead(text)) + tokenize(f"{site_words(url)} {address_words(url)}"[:MAX_FIELD_CHARS])
        out.append(len(wanted.intersection(stem_words(words, language))) / len(stems))
    return out


__all__ = ["LEAD_CHARS", "lead", "site_words", "subject_coverage"]
