"""Rule layers that need no data file: suffixes, words in the host name, URL path cues, page-text cues.

Each function returns *votes*: ``(source_type, weight, layer, reason)``. The classifier adds the
weights per type; weights are hand-set on the scale "0.9 = a registry rule, 0.5 = a telling path,
0.3 = a weak hint" and were not fitted to the evaluation set.
"""
from __future__ import annotations

import re
import string
from collections.abc import Sequence

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
    return [(t, w, "path", f"{why} ({m.group(0)[:30]})") for t, w, why, rx in _PATH_CUES
            if (m := rx.search(path)) is not None]


# Text cues are plain phrases. Regexes over page text cost 100-700 us each, and 120 substring
# searches ~250 us, so each phrase is keyed by its longest word: the page's word set is built once
# (C-speed translate + split) and a phrase is searched only when its key word is on the page.
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
# word set costs one C pass plus the split (str.lower + str.translate on non-ASCII pages cost ~60 us).
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
_ASCII_SYMBOLS = [s for s in _SYMBOLS if s[1].isascii()]
_KEYS = frozenset(_BY_KEY)
_WHY: dict[SourceType, str] = {t: why for t, why, _ in _TEXT_PHRASES}
_ORDER: dict[SourceType, int] = {t: i for i, (t, _, _) in enumerate(_TEXT_PHRASES)}

TEXT_CHARS = 1000
"""Page text looked at, from the start: titles, bylines, prices and review notes sit in a page's opening.
The cost is splitting it into words (1,000 characters: ~150 words)."""


def _words(chunk: str, ascii_only: bool) -> list[bytes]:
    """The lower-cased ASCII words of ``chunk`` (punctuation splits words, other characters are dropped).

    The same words as lower-casing the str first: outside :data:`_ASCII_LOWER_OF`, lower-casing maps
    ASCII to ASCII and everything else to non-ASCII, so it commutes with dropping non-ASCII.
    """
    if ascii_only:
        return chunk.encode("ascii").translate(_FOLD).split()
    if any(c in chunk for c in _ASCII_LOWER_OF):
        return chunk.lower().encode("ascii", "ignore").translate(_FOLD).split()
    return chunk.encode("ascii", "ignore").translate(_FOLD).split()


def _lower(chunk: str, ascii_only: bool) -> bytes:
    """``" " + chunk.lower()`` as ASCII bytes, each non-ASCII character as ``?`` (phrases have no ``?``,
    so a phrase is found here exactly when it is in the lower-cased str)."""
    if ascii_only:
        return b" " + chunk.encode("ascii").lower()
    if any(c in chunk for c in _ASCII_LOWER_OF):
        return b" " + chunk.lower().encode("ascii", "replace")
    return b" " + chunk.encode("ascii", "replace").lower()


def text_votes(text: str, chars: int = TEXT_CHARS) -> list[Vote]:
    """Votes from page-text cues; a type needs at least two distinct cues."""
    if not text:
        return []
    chunk = text[:chars]
    ascii_only = chunk.isascii()
    cues: list[tuple[SourceType, bytes | None, str]] = []
    for word in _KEYS.intersection(_words(chunk, ascii_only)):
        cues += _BY_KEY[word]
    for t, symbol, label in _ASCII_SYMBOLS if ascii_only else _SYMBOLS:
        if symbol in chunk:
            cues.append((t, None, label))
    possible: dict[SourceType, int] = {}
    for c in cues:
        possible[c[0]] = possible.get(c[0], 0) + 1
    if len(cues) < 2 or max(possible.values()) < 2:  # most pages: no type can reach two cues
        return []
    hits: dict[SourceType, list[str]] = {}
    low = b""
    for t, phrase, label in cues:
        if possible[t] < 2:
            continue
        if phrase is not None:  # a phrase is searched only when its type can still reach two cues
            low = low or _lower(chunk, ascii_only)
            if phrase not in low:
                continue
        hits.setdefault(t, []).append(label)
    return [(t, min(0.5, 0.15 * len(h)), "text", f"{_WHY[t]}: {', '.join(sorted(h)[:3])}")
            for t, h in sorted(hits.items(), key=lambda kv: _ORDER[kv[0]]) if len(h) >= 2]


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
