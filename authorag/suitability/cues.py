"""Rule layers that need no data file: suffixes, words in the host name, URL path cues, page-text cues.

Each function returns *votes*: ``(source_type, weight, layer, reason)``. The classifier adds the
weights per type; weights are hand-set on the scale "0.9 = a registry rule, 0.5 = a telling path,
0.3 = a weak hint" and were not fitted to the evaluation set.
"""
from __future__ import annotations

import re
import string
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from authorag.priors.rules import DEFAULT_RULES
from authorag.suitability.taxonomy import Layer, SourceType

Vote = tuple[SourceType, float, Layer, str]

_ACADEMIC_LABELS = ("accredited US higher education", "academic network")
SUFFIX_TYPES: dict[str, tuple[SourceType, str]] = {
    r.suffix: ("academic" if r.label in _ACADEMIC_LABELS else "government", r.label) for r in DEFAULT_RULES
}
"""Restricted-registration suffixes (the prior's documented suffix rules) -> source type."""


def suffix_votes(host: str) -> list[Vote]:
    """A vote when ``host`` sits under a restricted suffix (``.gov``, ``.ac.uk``, ``.int`` ...)."""
    parts = host.rsplit(".", 3)
    for n in (3, 2, 1):  # most specific suffix first
        if len(parts) > n:
            suffix = ".".join(parts[-n:])
            hit = SUFFIX_TYPES.get(suffix)
            if hit is not None:
                return [(hit[0], 0.9, "suffix", f"suffix .{suffix} ({hit[1]})")]
    return []


def _rx(words: str) -> re.Pattern[str]:
    return re.compile(words)


# Words inside host labels. Weak on purpose: "news" in a name is a claim, not a registry fact.
_HOST_CUES: tuple[tuple[SourceType, float, re.Pattern[str]], ...] = (
    ("academic", 0.5, _rx(r"(?:^|[.-])(?:univ|university|universit[aeé]|college|institute|journals?)(?:[.-]|$)"
                          r"|^(?:journals?|scholar|research|lib|library)\.")),
    ("forum", 0.5, _rx(r"(?:^|[.-])(?:forums?|boards?|community|discuss|answers)(?:[.-]|$)|forums?\.")),
    ("blog", 0.45, _rx(r"(?:^|[.-])blogs?(?:[.-]|$)|blog\.")),
    ("docs_code", 0.5, _rx(r"^(?:docs|developer|developers|dev|api|devdocs|man|wiki\.\w+lang)\.")),
    ("news", 0.35, _rx(r"news|times|herald|gazette|tribune|journal(?!s)|post\.|daily|chronicle|courier")),
    ("commercial", 0.35, _rx(r"(?:^|[.-])(?:shop|store|buy|deals?|outlet|mart|sale|pharmacy)|shop\.|store\.")),
    ("professional", 0.35, _rx(r"(?:^|[.-])(?:association|society|foundation|clinic|hospital|academy|council)")),
    ("reference", 0.45, _rx(r"pedia\.|(?:^|[.-])(?:dictionary|encyclopedia|wiki)(?:[.-]|$)")),
)


def host_votes(host: str, domain: str) -> list[Vote]:
    """Votes from words in the host name (``forum.`` prefix, ``-university``, ``...pedia``)."""
    name = host[: -len(domain)] + domain.split(".", 1)[0] if host.endswith(domain) else host
    return [(t, w, "suffix", f"host name word {m.group(0).strip('.-')!r}") for t, w, rx in _HOST_CUES
            if (m := rx.search(name)) is not None]


_PATH_CUES: tuple[tuple[SourceType, float, str, re.Pattern[str]], ...] = (
    ("commercial", 0.6, "shop path", _rx(r"/(?:products?|shop|store|cart|checkout|buy|pricing|dp|gp/product|"
                                         r"item|collections|deals?|coupons?|order)(?:[/.?-]|$)")),
    ("commercial", 0.5, "affiliate review path", _rx(r"/(?:best-[\w-]+|[\w-]+-reviews?|top-\d+[\w-]*)(?:[/.?]|$)")),
    ("forum", 0.65, "forum path", _rx(r"/(?:forums?|questions|threads?|topics?|viewtopic|showthread|"
                                      r"discussions?|community|answers|comments)(?:[/.?-]|$)|/r/\w+/comments/|/t/[\w-]+/\d+")),
    ("blog", 0.55, "blog path", _rx(r"/(?:blogs?|posts?|diary|journal-entry)(?:[/.?-]|$)|/~\w+|/@[\w.-]+/")),
    ("docs_code", 0.6, "docs path", _rx(r"/(?:docs?|documentation|api|reference|manual|man\d?|sdk|library|"
                                        r"javadoc|tutorial|howto|en-us/docs|latest|stable|blob|tree|issues|pulls?)"
                                        r"(?:[/.?-]|$)")),
    ("news", 0.5, "news path", _rx(r"/(?:news|articles?|story|stories|politics|world|business|opinion|"
                                   r"health-news)(?:[/.?-]|$)|/20\d\d/\d\d/\d\d/")),
    ("reference", 0.6, "reference path", _rx(r"/(?:wiki|dictionary|definition|define|encyclopedia|topic/[\w-]+$)"
                                             r"(?:[/.?-]|$)")),
    ("academic", 0.6, "paper path", _rx(r"/(?:doi|abs|pmc/articles|article/pii|journals?|papers?|"
                                        r"pubmed|full-text|fulltext|proceedings)(?:[/.?-]|$)|/10\.\d{4,}/")),
    ("social", 0.6, "social path", _rx(r"/(?:watch|status|reel|shorts|videos?|profile|photos?|hashtag)(?:[/.?-]|$)")),
    ("content_farm", 0.45, "how-to farm path", _rx(r"/(?:how-to-[\w-]+|facts?-about-[\w-]+|what-is-[\w-]+)"
                                                   r"(?:[/.?]|$)")),
)


_ANY_PATH_CUE = re.compile("|".join(f"(?:{rx.pattern})" for _, _, _, rx in _PATH_CUES))
"""All path cues in one pattern: one search rules out the ~80 % of paths no cue matches."""


def path_votes(path: str) -> list[Vote]:
    """Votes from the lower-cased URL path (and query): ``/product/``, ``/questions/``, ``/blog/`` ..."""
    if len(path) <= 1 or _ANY_PATH_CUE.search(path) is None:
        return []
    return [(t, w, "path", f"{why} ({_quote(m.group(0))})") for t, w, why, rx in _PATH_CUES
            if (m := rx.search(path)) is not None]


_QUOTED = 30
"""Characters of a matched path part a reason quotes; a longer one is cut and ends in ``…``."""


def _quote(part: str) -> str:
    """``part`` as a reason quotes it: whole up to :data:`_QUOTED` characters, else cut, with ``…``
    saying it was (``/how-to-revoke-a-leaked-github…``, not a path part the URL does not have)."""
    return part if len(part) <= _QUOTED else f"{part[:_QUOTED]}…"


# Text cues are plain phrases. One regex over page text costs about as much as the whole list of
# substring searches (scripts/bench_suitability_speed.py times the text layer), and those add up
# per page, so each phrase is keyed by its longest word: the page's key words are found
# once (one page: C-speed translate + split; many pages: text_votes_many, one array pass over all
# of them) and a phrase is searched only when its key word is on the page.
_TEXT_PHRASES: tuple[tuple[SourceType, str, tuple[str, ...]], ...] = (
    ("commercial", "prices and buy buttons", ("add to cart", "add to basket", "add to bag", "buy now", "free shipping",
                                             "in stock", "checkout", "order now", "% off", "coupon",
                                             "earn a commission", "affiliate", "$", "€", "£")),
    ("academic", "citations to studies", (" doi", "10.1", " et al", "abstract", "references", "randomized",
                                          "randomised", " cohort", "meta-analysis", "journal of", "peer-reviewed",
                                          "p < 0.", "p<0.")),
    ("professional", "medical review notes", ("medically reviewed", "reviewed by", "board-certified",
                                              "board certified", "clinical guideline", "clinical practice",
                                              "our physicians", "our doctors", "patient care", "accredit")),
    ("news", "bylines and datelines", ("(ap)", "(reuters)", "associated press", "correspondent", "told reporters",
                                       " reporter", "editor's note", "newsroom", "said in a statement")),
    ("forum", "replies and posts", (" reply", " replies", " quote", "joined:", " posts:", "member since", " upvote",
                                    " re: ", " thread", " answered", " asked ")),
    ("blog", "first-person posts", ("posted by", "leave a comment", "leave a reply", "my story", "my journey",
                                    "my blog", "about me", "blogroll", " i think", " i tried", " i was ")),
    ("reference", "encyclopedic text", ("from wikipedia", "encyclop", "etymology", "see also", "pronunciation")),
    ("docs_code", "code and API docs", ("def ", "function(", "import ", "pip install", "npm install", "returns:",
                                        "parameters", "```", "class ", "stack trace")),
    ("content_farm", "listicle filler", ("related articles", "you may also like", "sponsored", "advertisement",
                                         "top 10", "things you need to know", "click here", "read more")),
    ("social", "social counters", (" followers", "retweet", " likes", " follow ", " views", "subscribers")),
    ("government", "official notices", ("official website", "department of", "ministry of", " federal ", " agency",
                                        "public health service", "government")),
)

# Lower-casing and punctuation -> space in one bytes.translate pass over the page's ASCII bytes: the
# word set costs one C pass plus the split (non-ASCII pages take the slower str.lower + str.translate).
_PUNCT_B = string.punctuation.encode("ascii")
_FOLD = bytes.maketrans(string.ascii_uppercase.encode("ascii") + _PUNCT_B,
                        string.ascii_lowercase.encode("ascii") + b" " * len(_PUNCT_B))
_ASCII_LOWER_OF = ("\u0130", "\u212a")
"""The only non-ASCII characters whose lower case contains ASCII (İ -> i + dot, Kelvin sign -> k): a page
with one of them is lower-cased as str first, so its words are the same as before this shortcut."""
_WORD = re.compile(r"[a-z0-9]+")
Cue = tuple[str | None, str | None, str]
"""(key word or None, phrase to search or None, label)."""


def _compile_cue(phrase: str) -> Cue:
    words = _WORD.findall(phrase)
    if len(words) == 1 and words[0] == phrase.strip():
        return words[0], None, words[0]  # a whole word: the word set alone decides
    if words:
        return max(words, key=len), phrase, phrase.strip()
    return None, phrase, phrase.strip()  # symbols ($, ```): a substring search, cheap for one char


_BY_KEY: dict[bytes, list[tuple[SourceType, bytes | None, str]]] = {}
_SYMBOLS: list[tuple[SourceType, str, str]] = []
for _t, _why, _phrases in _TEXT_PHRASES:
    for _key, _phrase, _label in map(_compile_cue, _phrases):
        if _key is None:  # case-free symbols ($, ```, €): in the text exactly when in its lower case
            _SYMBOLS.append((_t, _phrase or "", _label))
        else:  # ASCII phrases without "?", searched in the lower-cased text with non-ASCII as "?"
            _BY_KEY.setdefault(_key.encode("ascii"), []).append(
                (_t, None if _phrase is None else _phrase.encode("ascii"), _label))
_KEYS = frozenset(_BY_KEY)
_WHY: dict[SourceType, str] = {t: why for t, why, _ in _TEXT_PHRASES}
_ORDER: dict[SourceType, int] = {t: i for i, (t, _, _) in enumerate(_TEXT_PHRASES)}

# Cue counts per type packed in one int, 8 bits per type (in _TEXT_PHRASES order; no type has 128
# cues): a key word adds the counts of its cues, so the counts of a page's key words are one C-level
# sum, and "no type can reach two cues" (most pages) is one mask test.
_ONE: dict[SourceType, int] = {t: 1 << (8 * i) for t, i in _ORDER.items()}
_KEY_COUNTS: dict[bytes, int] = {k: sum(_ONE[c[0]] for c in cues) for k, cues in _BY_KEY.items()}
_TWO_OR_MORE = sum(0xFE << (8 * i) for i in range(len(_ORDER)))
"""Bits set in a packed count exactly when some type has at least two cues."""
if max(len(ps) for _, _, ps in _TEXT_PHRASES) > 127:  # pragma: no cover
    raise AssertionError("a type with over 127 text cues overflows the packed cue counts")
_SymbolCue = tuple[SourceType, bytes, str, str, int]
_SYMBOL_CUES: list[_SymbolCue] = [(t, sym.encode("ascii", "ignore"), sym, label, _ONE[t]) for t, sym, label in _SYMBOLS]
"""(type, ASCII bytes of the symbol, symbol, label, packed count): an ASCII symbol is searched in the
page's ASCII bytes (which drop non-ASCII characters, so a multi-character one is confirmed in the
text), a non-ASCII one (empty bytes) in the text of non-ASCII pages only."""

TEXT_CHARS = 1000
"""Page text looked at, from the start: titles, bylines, prices and review notes sit in a page's opening.
The cost is finding the key words among its words (1,000 characters: ~150 words)."""


def _ascii_bytes(chunk: str) -> bytes:
    """``chunk`` lower-cased where that yields ASCII, as ASCII bytes with the other characters dropped.

    Folded with :data:`_FOLD` and split, it gives the same words as lower-casing the str first:
    outside :data:`_ASCII_LOWER_OF`, lower-casing maps ASCII to ASCII and everything else to
    non-ASCII, so it commutes with dropping non-ASCII.
    """
    if "\u0130" in chunk or "\u212a" in chunk:
        return chunk.lower().encode("ascii", "ignore")
    return chunk.encode("ascii", "ignore")


def _lower(chunk: str) -> bytes:
    """``" " + chunk.lower()`` of a non-ASCII chunk as ASCII bytes, each non-ASCII character as ``?``
    (phrases have no ``?``, so a phrase is found here exactly when it is in the lower-cased str)."""
    if "\u0130" in chunk or "\u212a" in chunk:
        return b" " + chunk.lower().encode("ascii", "replace")
    return b" " + chunk.encode("ascii", "replace").lower()


def _chunk_bytes(text: str, chars: int) -> tuple[str, bytes, bool]:
    """The chunk read, its ASCII bytes (see :func:`_ascii_bytes`) and whether it is all ASCII."""
    chunk = text[:chars]
    if chunk.isascii():
        return chunk, chunk.encode("ascii"), True
    return chunk, _ascii_bytes(chunk), False


def text_votes(text: str, chars: int = TEXT_CHARS) -> list[Vote]:
    """Votes from page-text cues; a type needs at least two distinct cues."""
    if not text:
        return []
    chunk, raw, ascii_only = _chunk_bytes(text, chars)
    return _page_votes(chunk, raw, ascii_only, _KEYS.intersection(raw.translate(_FOLD).split()))


BATCH_MIN = 8
"""From this many pages :func:`text_votes_many` finds key words for all pages at once."""
_SPACE_FOLD = bytes(32 if _FOLD[i] in b" \t\n\r\x0b\x0c" else _FOLD[i] for i in range(256))
""":data:`_FOLD` with every separator of ``bytes.split()`` (ASCII whitespace) as a space."""
_KEY_LIST = sorted(_KEYS)
_KEY_SHAPES = np.zeros(1 << 19, dtype=np.bool_)
"""Word shapes of the key words: first, second (a space for one letter) and last byte (5 low bits
each) and length (15 = 15 or more; no key is that long). A word of another shape is no key word."""
for _k in _KEY_LIST:
    _KEY_SHAPES[((_k[0] & 31) << 14) | (((_k + b" ")[1] & 31) << 9) | ((_k[-1] & 31) << 4) | len(_k)] = True
_KEY_CODES = np.frombuffer(b"".join(k.ljust(15, b"\0") + bytes([len(k)]) for k in _KEY_LIST),
                           dtype=np.uint64).reshape(-1, 2)
"""Each key as two 8-byte words: its bytes, zero-padded to 15, then its length."""
_KEY_HASH = _KEY_CODES[:, 0] ^ (_KEY_CODES[:, 1] * np.uint64(0x9E3779B97F4A7C15))
_HASH_ORDER = np.argsort(_KEY_HASH)
_SORTED_HASH = _KEY_HASH[_HASH_ORDER]
if max(map(len, _KEY_LIST)) >= 15 or len(set(_KEY_HASH.tolist())) != len(_KEY_LIST):  # pragma: no cover
    raise AssertionError("key words need 15 letters or fewer and distinct hashes")
_SPAN = np.arange(16)
_KEEP = (_SPAN[None, :] < _SPAN[:, None]).astype(np.uint8) * np.uint8(255)
"""Row n: 0xFF on the first n bytes of a 16-byte window (n < 15), zero after."""
_LENGTH_BYTE = np.zeros((16, 16), dtype=np.uint8)
_LENGTH_BYTE[:, 15] = np.arange(16, dtype=np.uint8)
"""Row n: n in the window's last byte."""


def _found_many(raws: Sequence[bytes]) -> list[set[bytes]]:
    """``_KEYS.intersection(raw.translate(_FOLD).split())`` for each of ``raws``, in a few array passes.

    The pages are folded as one byte string (a space between pages and 16 after the last); word
    starts and ends are where spaces end and begin. Words of a key word's shape (most are not) are
    compared with the keys exactly: bytes and length as two 8-byte integers.
    """
    folded = b" ".join([*raws, b" " * 15]).translate(_SPACE_FOLD)
    a = np.frombuffer(folded, dtype=np.uint8)
    space = np.empty(len(a) + 1, dtype=np.bool_)
    space[0] = True
    np.equal(a, 32, out=space[1:])
    edges = np.flatnonzero(space[1:] != space[:-1])  # word start, word end, start, end ...
    starts, ends = edges[0::2], edges[1::2]
    lengths = ends - starts
    shape = ((a[starts].astype(np.intp) & 31) << 14) | ((a[starts + 1].astype(np.intp) & 31) << 9) \
        | ((a[ends - 1].astype(np.intp) & 31) << 4) | np.minimum(lengths, 15)
    maybe = np.flatnonzero(_KEY_SHAPES[shape])
    starts, lengths = starts[maybe], lengths[maybe]  # all shorter than 15
    window = a[starts[:, None] + _SPAN]
    window &= _KEEP[lengths]
    window |= _LENGTH_BYTE[lengths]
    codes = window.view(np.uint64)
    where = np.searchsorted(_SORTED_HASH, codes[:, 0] ^ (codes[:, 1] * np.uint64(0x9E3779B97F4A7C15)))
    key = _HASH_ORDER[np.minimum(where, len(_KEY_LIST) - 1)]
    exact = (_KEY_CODES[key] == codes).all(axis=1)
    page = np.searchsorted(np.cumsum([len(r) + 1 for r in raws]), starts[exact], side="right")
    found: list[set[bytes]] = [set() for _ in raws]
    for p, k in zip(page.tolist(), key[exact].tolist()):
        found[p].add(_KEY_LIST[k])
    return found


def text_votes_many(texts: Sequence[str], chars: int = TEXT_CHARS) -> list[list[Vote]]:
    """:func:`text_votes` of each text, in order (the same votes; faster per page for many pages)."""
    if len(texts) < BATCH_MIN:
        return [text_votes(t, chars) for t in texts]
    pages = [_chunk_bytes(t, chars) for t in texts]
    found = _found_many([p[1] for p in pages])
    return [_page_votes(*p, f) if t else [] for t, p, f in zip(texts, pages, found)]


_Cue = tuple[int, int, SourceType, bytes | None, str]
"""(rank, two-cue mask of its type, type, phrase or None, label): ranks sort cues by type, whole words
and symbols before phrases, and are distinct (sorting never compares the other fields)."""


def _cue(t: SourceType, phrase: bytes | None, label: str, i: int) -> _Cue:
    return (_ORDER[t] * 4096 + (phrase is not None) * 2048 + i, _ONE[t] * 0xFE, t, phrase, label)


_CUES_OF: dict[bytes, list[_Cue]] = {k: [_cue(t, ph, label, i * 8 + j) for j, (t, ph, label) in enumerate(cs)]
                                     for i, (k, cs) in enumerate(_BY_KEY.items())}
_SYMBOLS_OF = {cue[3]: _cue(cue[0], None, cue[3], 1024 + i) for i, cue in enumerate(_SYMBOL_CUES)}
_ASCII_PAGE_SYMBOLS = [(c[1][:1], c[1], _SYMBOLS_OF[c[3]]) for c in _SYMBOL_CUES if c[1]]
"""(first byte, ASCII bytes to find in an ASCII page's bytes, cue): the one-byte search (memchr) rules
out most pages before the longer one (a code fence search costs about three one-byte searches)."""
_PAGE_SYMBOLS = [(c[1] or None, c[2] if not c[1] or len(c[1]) > 1 else None, _SYMBOLS_OF[c[3]]) for c in _SYMBOL_CUES]
"""(bytes to find in a non-ASCII page's ASCII bytes or None, str to find in its text or None, cue):
non-ASCII symbols are looked for in the text only, and a multi-character ASCII one is confirmed
there (dropping non-ASCII characters can join one)."""
SHIFT: dict[SourceType, int] = {t: 8 * i for t, i in _ORDER.items()}


def _page_votes(chunk: str, raw: bytes, ascii_only: bool, found: AbstractSet[bytes]) -> list[Vote]:
    """The votes of one page from its key words ``found``: symbols, then the two-cue gate."""
    counts = sum(map(_KEY_COUNTS.__getitem__, found))
    if ascii_only:
        symbols = [cue for first, sym, cue in _ASCII_PAGE_SYMBOLS if first in raw and sym in raw]
    else:
        symbols = [cue for sym, text_sym, cue in _PAGE_SYMBOLS
                   if (sym is None or sym in raw) and (text_sym is None or text_sym in chunk)]
    for cue in symbols:
        counts += cue[1] // 0xFE  # one cue of its type (the two-cue mask is 0xFE times that)
    if not counts & _TWO_OR_MORE:  # most pages: no type can reach two cues
        return []
    cues = sorted([c for w in found for c in _CUES_OF[w] if counts & c[1]] + [c for c in symbols if counts & c[1]])
    return _hits(chunk, raw, ascii_only, cues, counts)


def _hits(chunk: str, raw: bytes, ascii_only: bool, cues: list[_Cue], counts: int) -> list[Vote]:
    """The votes from the sorted cue candidates of the types that have two or more. A phrase is searched
    only while its type can still reach two cues, first in the page's ASCII bytes lower-cased (it is
    in there when it is in the text; for a non-ASCII page the converse needs a second search)."""
    votes: list[Vote] = []
    low = low_raw = b""
    hits: list[str] = []
    kind: SourceType | None = None
    left = 0
    for _, _, t, phrase, label in cues:
        if t != kind:
            if kind is not None and len(hits) >= 2:
                votes.append(_text_vote(kind, hits))
            kind, hits, left = t, [], (counts >> SHIFT[t]) & 0xFF
        left -= 1  # candidates of this type after this one
        if phrase is not None:
            if len(hits) + 1 + left < 2:
                continue
            low_raw = low_raw or b" " + raw.lower()
            if phrase not in low_raw:
                continue
            if not ascii_only:
                low = low or _lower(chunk)
                if phrase not in low:
                    continue
        hits.append(label)
    if kind is not None and len(hits) >= 2:
        votes.append(_text_vote(kind, hits))
    return votes


def _text_vote(t: SourceType, hits: list[str]) -> Vote:
    return (t, min(0.5, 0.15 * len(hits)), "text", f"{_WHY[t]}: {', '.join(sorted(hits)[:3])}")


def looks_like_text(text: str, sample: int = 400) -> bool:
    """False for text that is mostly non-Latin (over 30 % non-ASCII characters): the cues are English."""
    chunk = text[:sample]
    if chunk.isascii():  # the common case, at C speed
        return not chunk.isspace() and bool(chunk)
    non_ascii = len(chunk) - len(chunk.encode("ascii", "ignore"))
    return non_ascii <= 0.3 * len(chunk.replace(" ", ""))


def strongest(votes: Sequence[Vote]) -> Vote | None:
    """The single heaviest vote (first one on ties), or None."""
    return max(votes, key=lambda v: v[1], default=None)
