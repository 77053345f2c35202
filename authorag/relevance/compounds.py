"""German compounds and zu-infinitives (and -t verb forms) for lexical relevance: :func:`compound_heads`,
:func:`split_query`, :func:`join_zu`, :func:`verb_stem`.

German writes a compound as one word whose last part, its head, says what it is: an
*Einkommensteuererklärung* is a *Steuererklärung*, a *Kündigungsfrist* a *Frist*. A separable verb
takes its infinitive's "zu" inside: *abzugeben* is *abgeben* with "zu". A query's words then miss a
page that uses them inside compounds or as zu-infinitives ("Muss ich eine Steuererklärung abgeben?"
against "… Einkommensteuererklärung abzugeben"), or that writes a query compound's parts apart
("Genossenschaftswohnung" against "Genossenschaftsanteile … Wohnungsgröße"). Three rules read
them, in German only (:data:`COMPOUND_LANGUAGES`):

1. **Compound heads** (:func:`compound_heads`): a page word holds a query word as its head when the
   query word's stem has at least :data:`MIN_HEAD` letters, it occurs in the page word after at
   least :data:`MIN_MODIFIER` letters, and that end of the page word stems to the query word's
   stem (``einkommensteuererklärungen`` ends with ``steuererklärungen``, stem ``steuererklar``).
   A compound whose head is another word does not match: *Steuererklärung* is not a *Steuer*.
   Words are compared after case folding and with the umlauts read as the stemmer reads them.
2. **Query compounds split** (:func:`split_query`): a query word of :data:`MIN_PART` plus
   :data:`MIN_HEAD` to :data:`MAX_SPLIT_LETTERS` letters is read as a modifier and a head when the
   request's pages evidence both. Each cut leaves a head of at least :data:`MIN_HEAD` letters and
   a modifier of at least :data:`MIN_PART` once a linking element (:data:`LINKS`: -s-, -es-, -n-,
   -en-, -e- or none) is dropped; the cuts are tried longest head first, for each the modifier as
   written first, and the first whose two parts are both evidenced is taken (one split per word,
   not recursive). A part is evidenced when a page word that does not hold the whole query word
   holds it, among the first :data:`MAX_EVIDENCE_WORDS` that hold its stem (the pool of the
   request's words is the dictionary; no word list ships). A page word holds a part
   (:func:`part_holders`) when its stem is the part's stem (*Kündigung* for *Kündigungs-*), when it
   begins with the part as the query writes it (*Wohnungsgröße* for *Wohnung*,
   *Genossenschaftsanteile* for *Genossenschafts-*), or when it ends with the part as its head, as
   rule 1 reads it (*Versandkosten* for *Kosten*). Lexical relevance then reads the
   parts too: each is a BM25 query term of weight :data:`PART_WEIGHT`, its frequency counting every
   page word that holds it (the whole compound holds both), and for coverage a page that does not
   name the compound covers half a word per part it holds. The work is bounded per request: at
   most :data:`MAX_SPLIT_WORDS` query words, each cut a few substring searches (in C) through the
   request's distinct words and at most :data:`MAX_EVIDENCE_WORDS` words read per candidate part,
   the candidate parts stemmed in a few batches.
3. **zu-infinitives** (:func:`join_zu`): a stem made of a separable prefix
   (:data:`SEPARABLE_PREFIXES`, the grammar's short list), "zu" and at least :data:`MIN_VERB`
   more letters loses the "zu" (``abzugeb`` -> ``abgeb``, ``auszubild`` -> ``ausbild``); the
   language's stems (:func:`~authorag.relevance.language.stem_words`) apply it to query and
   page alike.

4. **-t verb forms** (:func:`verb_stem`): the stemmer leaves the "t" of a past participle or a
   third person ("verschlüsselt" -> ``verschlusselt``, "beantragt" -> ``beantragt``) while it
   reduces the infinitive and the noun to the bare stem (``verschlussel``, ``beantrag``); a stem
   of at least :data:`MIN_T_STEM` letters ending in "l", "r", "g" or "n" before a final "t" loses
   the "t" (the few nouns so ending, *Gehalt*, *Konzert*, lose it in every form alike). The
   prefix "ge-" is kept (*Gewalt* is not *Wal*).

A separated verb ("gibt … ab") is not joined: that needs the sentence's syntax. A compound whose
parts the pages evidence only through further compounds (*Einkommensteuererklärung* with
*Einkommen*, *Steuer* and *Erklärung* apart) is not split.

Example:
    >>> from authorag.relevance.language import stem_words
    >>> compound_heads(["einkommensteuererklärungen", "steuererklärung", "frist"], ["steuererklar", "frist"],
    ...                lambda words: stem_words(words, "de"))
    {'einkommensteuererklärungen': 'steuererklar'}
    >>> join_zu("abzugeb"), join_zu("anzug")
    ('abgeb', 'anzug')
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, islice

COMPOUND_LANGUAGES: tuple[str, ...] = ("de",)
"""Languages whose compound heads and zu-infinitives lexical relevance reads."""
MIN_HEAD = 4
"""Letters a query word's stem needs to be read as the head of a longer page word."""
MIN_MODIFIER = 3
"""Letters a page word needs before a query word for that word to be its head."""
MIN_PART = 4
"""Letters a query compound's modifier needs (without its linking element) to be split off."""
LINKS: tuple[str, ...] = ("", "s", "es", "n", "en", "e")
"""German linking elements between a compound's modifier and its head (grammar), in the order tried."""
MAX_SPLIT_WORDS = 8
"""Query words read for a split per request at most (the first long ones)."""
MAX_SPLIT_LETTERS = 40
"""Longest query word read for a split: a longer one stays whole."""
MAX_EVIDENCE_WORDS = 64
"""Page words read per candidate part of a query compound when looking for evidence of it (the first
ones that hold its stem): with :data:`MAX_SPLIT_WORDS` and :data:`MAX_SPLIT_LETTERS`, the bound on a
split's work, whatever the pages."""
PART_WEIGHT = 0.5
"""Weight of each part of a split query compound as a BM25 query term (the compound's own weighs 1)."""
MIN_VERB = 3
"""Letters a stem needs after a separable prefix and "zu" to lose the "zu"."""
MIN_T_STEM = 7
"""Letters a stem needs (its final "t" included) to lose a verb form's final "t" (:func:`verb_stem`)."""
SEPARABLE_PREFIXES: tuple[str, ...] = (
    "ab", "an", "auf", "aus", "bei", "dar", "ein", "fern", "fest", "fort", "frei", "her", "heraus",
    "herein", "herunter", "hin", "hinaus", "hinein", "hinzu", "los", "mit", "nach", "nieder", "vor",
    "voran", "voraus", "vorbei", "weg", "weiter", "wieder", "zu", "zuruck", "zusammen")
"""German separable verb prefixes (grammar), as the stemmer writes them (umlauts read as vowels)."""

_ZU = re.compile("^(" + "|".join(sorted(SEPARABLE_PREFIXES, key=len, reverse=True)) + f")zu(?=.{{{MIN_VERB}}})")
_UMLAUTS = str.maketrans("äöü", "aou")


def verb_stem(stem: str) -> str:
    """``stem`` without a verb form's final "t" (see the module doc).

    Example:
        >>> verb_stem("verschlusselt"), verb_stem("beantragt"), verb_stem("welt"), verb_stem("gesicht")
        ('verschlussel', 'beantrag', 'welt', 'gesicht')
    """
    if len(stem) >= MIN_T_STEM and stem[-1] == "t" and stem[-2] in "lrgn":
        return stem[:-1]
    return stem


def join_zu(stem: str) -> str:
    """``stem`` without the "zu" of a separable verb's zu-infinitive (see the module doc).

    Example:
        >>> join_zu("zuruckzugeb"), join_zu("aufzug")
        ('zuruckgeb', 'aufzug')
    """
    if "zu" not in stem:
        return stem
    return _ZU.sub(r"\1", stem, count=1)


def compound_heads(words: Iterable[str], heads: Sequence[str],
                   stem: Callable[[list[str]], list[str]]) -> dict[str, str]:
    """For each of the distinct case-folded ``words`` of some pages that ends with one of the
    query's stems ``heads`` as a compound's head (see the module doc), that stem; the longest
    when several fit. ``stem`` stems a list of word ends as the query's words were stemmed.

    The work is one substring search through the words per query stem (in C), then a few steps
    and one stem per word that holds a query stem after :data:`MIN_MODIFIER` letters.

    Example:
        >>> from authorag.relevance.language import stem_words
        >>> compound_heads(["mehrwertsteuer", "steuer", "steuerberater"], ["steu"], lambda w: stem_words(w, "de"))
        {'mehrwertsteuer': 'steu'}
    """
    return _heads_in(_Joined(list(dict.fromkeys(words))), heads, stem)


def _heads_in(joined: _Joined, heads: Sequence[str], stem: Callable[[list[str]], list[str]]) -> dict[str, str]:
    """:func:`compound_heads` of the distinct words ``joined``."""
    usable = sorted({h for h in heads if len(h) >= MIN_HEAD}, key=len, reverse=True)
    if not usable:
        return {}
    found: dict[str, tuple[str, str]] = {}  # word -> (its end from the query stem on, the query stem)
    for head in usable:
        for word, _, last in joined.holding(head):
            if last >= MIN_MODIFIER and word not in found:
                found[word] = (word.translate(_UMLAUTS)[last:], head)
    if not found:
        return {}
    ends = stem([end for end, _ in found.values()])
    return {word: head for (word, (_, head)), end in zip(found.items(), ends) if end == head}


class _Joined:
    """Distinct words joined by spaces, umlauts read as vowels, for substring searches in C."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.text = " " + " ".join(words).translate(_UMLAUTS)  # same length: offsets map back to the words
        self.starts = list(accumulate((len(w) + 1 for w in words[:-1]), initial=1))

    def holding(self, needle: str) -> Iterator[tuple[str, int, int]]:
        """Each word that holds ``needle`` (no space in it), with where the word starts in :attr:`text`
        and where the needle's last occurrence in the word starts."""
        text, starts = self.text, self.starts
        pos = text.find(needle)
        while pos != -1:
            i = bisect_right(starts, pos) - 1
            start, word = starts[i], self.words[i]
            stop = start + len(word)
            yield word, start, text.rfind(needle, start, stop) - start
            pos = text.find(needle, stop)

    def starting(self, prefix: str) -> Iterator[str]:
        """Each word that begins with ``prefix`` (no space in it)."""
        pos = self.text.find(" " + prefix)
        while pos != -1:
            yield self.words[bisect_right(self.starts, pos + 1) - 1]
            pos = self.text.find(" " + prefix, pos + 1)


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a query compound.

    Attributes:
        written: the part as the query writes it (case-folded; a modifier without its linking element).
        stem: its stem, as the query's words are stemmed.
    """

    written: str
    stem: str


@dataclass(frozen=True, slots=True)
class QuerySplit:
    """A query compound read as its modifier and its head (:func:`split_query`).

    Attributes:
        word: the query word's stem (``genossenschaftswohn``).
        modifier: its first part (``genossenschaft``).
        head: its last part, which says what it is (``wohnung``).
    """

    word: str
    modifier: Part
    head: Part


def split_query(words: Sequence[str], stems: Mapping[str, str],
                stem: Callable[[list[str]], list[str]]) -> tuple[QuerySplit, ...]:
    """The splits of the query's content ``words`` (case-folded) that the pages evidence (see the
    module doc). ``stems``: each distinct word of the pages (and addresses) read, with its stem;
    ``stem`` stems a list of words as the query's words were stemmed.

    Example:
        >>> from authorag.relevance.language import stem_words
        >>> pool = ["genossenschaftsanteile", "wohnungen", "miete"]
        >>> split = split_query(["genossenschaftswohnung"], dict(zip(pool, stem_words(pool, "de"))),
        ...                     lambda w: stem_words(w, "de"))[0]
        >>> split.modifier.written, split.head.written
        ('genossenschafts', 'wohnung')
    """
    long = [w for w in dict.fromkeys(words) if MIN_PART + MIN_HEAD <= len(w) <= MAX_SPLIT_LETTERS][:MAX_SPLIT_WORDS]
    if not long:
        return ()
    wholes = stem(long)
    evidence = _Evidence(stems, wholes, stem)
    found: list[QuerySplit] = []
    for word, whole in zip(long, wholes):
        pair = evidence.split(word)
        if pair is not None:
            found.append(QuerySplit(whole, *pair))
    return tuple(found)


class _Evidence:
    """The request's words as the dictionary that evidences the parts of query compounds
    (:func:`split_query`), less the words that hold a whole query word (stem ``wholes``)."""

    def __init__(self, stems: Mapping[str, str], wholes: list[str], stem: Callable[[list[str]], list[str]]) -> None:
        self.stems = stems
        self.stem = stem
        self.pool = _Joined(list(stems))
        self.holding = {w for whole in wholes if len(whole) >= MIN_HEAD for w, _, _ in self.pool.holding(whole)}

    def split(self, word: str) -> tuple[Part, Part] | None:
        """``word``'s modifier and head: the first cut, longest head first, whose head and modifier
        (as written, then without each linking element it ends with) are both evidenced."""
        cuts = range(MIN_PART, len(word) - MIN_HEAD + 1)
        heads = self.evidenced([word[i:] for i in cuts])
        for i in cuts:
            if word[i:] not in heads:
                continue
            modifiers = [word[:i - len(link)] for link in LINKS if word[:i].endswith(link) and i - len(link) >= MIN_PART]
            found = self.evidenced(modifiers)
            modifier = next((found[m] for m in modifiers if m in found), None)
            if modifier is not None:
                return modifier, heads[word[i:]]
        return None

    def evidenced(self, written: list[str]) -> dict[str, Part]:
        """The parts, as the query writes them, that a word of the pool holds (see the module doc)."""
        parts = [Part(w, s) for w, s in zip(written, self.stem(written))]
        found: dict[str, Part] = {}
        ends: list[tuple[str, Part]] = []  # ends of words that hold a part's stem after a modifier
        for part in parts:
            if self._begins(part, ends):
                found[part.written] = part
        for (_, part), end in zip(ends, self.stem([e for e, _ in ends])):
            if end == part.stem:
                found.setdefault(part.written, part)
        return found

    def _begins(self, part: Part, ends: list[tuple[str, Part]]) -> bool:
        """Whether a word of the pool begins with ``part`` as written or stems to it; on the way, the
        ends of the words that hold its stem after :data:`MIN_MODIFIER` letters go to ``ends`` (one
        substring search through the pool for the stem, one more when it does not begin the part)."""
        text, lead = self.pool.text, part.written.translate(_UMLAUTS)
        for word, start, last in islice(self.pool.holding(part.stem), MAX_EVIDENCE_WORDS):
            if word in self.holding:
                continue
            if text.startswith(lead, start) or self.stems[word] == part.stem:
                return True
            if last >= MIN_MODIFIER and len(part.stem) >= MIN_HEAD:
                ends.append((word.translate(_UMLAUTS)[last:], part))
        return not lead.startswith(part.stem) and any(
            w not in self.holding for w in islice(self.pool.starting(lead), MAX_EVIDENCE_WORDS))


def part_holders(splits: Sequence[QuerySplit], stems: Mapping[str, str],
                 stem: Callable[[list[str]], list[str]]) -> dict[str, tuple[str, ...]]:
    """For each of the pages' distinct words (``stems``: each word with its stem) that holds a part
    of a split query compound (see the module doc), the stems of the parts it holds, sorted.

    Example:
        >>> from authorag.relevance.language import stem_words
        >>> split = QuerySplit("genossenschaftswohn", Part("genossenschafts", "genossenschaft"), Part("wohnung", "wohnung"))
        >>> words = ["genossenschaftsanteile", "mietwohnungen", "wohnen"]
        >>> part_holders([split], dict(zip(words, stem_words(words, "de"))), lambda w: stem_words(w, "de"))
        {'genossenschaftsanteile': ('genossenschaft',), 'mietwohnungen': ('wohnung',)}
    """
    parts = {p for s in splits for p in (s.modifier, s.head)}
    if not parts:
        return {}
    by_stem = {p.stem for p in parts}
    held: dict[str, set[str]] = {w: {s} for w, s in stems.items() if s in by_stem}
    joined = _Joined(list(stems))
    for part in parts:
        for word in joined.starting(part.written.translate(_UMLAUTS)):
            held.setdefault(word, set()).add(part.stem)
    for word, head in _heads_in(joined, sorted(by_stem), stem).items():
        held.setdefault(word, set()).add(head)
    return {w: tuple(sorted(held[w])) for w in stems if w in held}


__all__ = ["COMPOUND_LANGUAGES", "LINKS", "MAX_EVIDENCE_WORDS", "MAX_SPLIT_LETTERS", "MAX_SPLIT_WORDS", "MIN_HEAD", "MIN_MODIFIER", "MIN_PART",
           "MIN_T_STEM", "MIN_VERB", "PART_WEIGHT", "SEPARABLE_PREFIXES", "Part", "QuerySplit", "compound_heads", "join_zu",
           "part_holders", "split_query", "verb_stem"]
