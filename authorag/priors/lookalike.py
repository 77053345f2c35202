"""Look-alike hosts: names made to pass for a trusted domain, checked against an index built once.

A phishing or clone site borrows the name of a source people trust: ``ftc-gov.net`` and ``irs-gov.tax-refund.net``
put an agency's acronym beside ``gov``; ``whitehuose.gov`` is one edit away; ``nіh.gov`` swaps a Latin ``i`` for a
Cyrillic one, and ``ni\u200dh.gov`` hides a zero-width joiner. None of these is in a domain table, so without this
check they take the unknown level, or a suffix rule's credibility. :class:`LookalikeIndex` holds the domains worth
imitating (``authorag/data/lookalike_targets.csv.gz``, built by ``scripts/vendor_registries.py``:
:mod:`authorag.priors.targets`) in four precomputed maps, so a check is a few dictionary reads, never a scan:

=====================  ====================================================================
check                  fires when
=====================  ====================================================================
zero-width             the name holds a zero-width or invisible joiner (browsers refuse it)
mixed scripts          one label mixes scripts (Latin with Cyrillic or Greek...)
confusable skeleton    the name's UTS #39 skeleton (each character mapped to the character it
                       is confusable with, from the ``confusable-homoglyphs`` data) equals a
                       target's: ``nіh.gov``, ``rnicrosoft.com``, ``paypa1.com``
brand with a claim     a label token is a target's name and another token claims office:
                       ``gov``, ``int``, ``official`` for any target; the target's own
                       country code or a service word (``refund``, ``login``...) for a
                       public body's or a brand's name (words: :mod:`authorag.priors.claims`)
brand and country      a sub-domain label puts a target's name beside a country code, and
                       the name offers a service: ``bbc-uk.energy-rebate.co``,
                       ``bbc.uk-rebate.com``; an ``office-only`` name only beside the code
                       its domain sits directly under: ``bahn-de.fahrgastrechte-erstattung.com``
spelled out            a closed government suffix (``gov-uk``, ``gouv.fr``) or a domain the
                       prior knows (``dwd-de``) written as words of another name
edit distance one      the name differs by one edit from a public body's name of at least
                       :data:`MIN_EDIT_LENGTH` characters, or by one substituted or swapped
                       letter from another target's name of at least
                       :data:`MIN_MEDIA_EDIT_LENGTH` (same suffix; newsrooms' names collide
                       by chance: ``worldpress.org`` is not ``wordpress.org``)
=====================  ====================================================================

A target of kind ``office-only`` (a town's name, or a name that is a common word: ``weather.com``, ``treasury.gov``)
is read only beside an office word, or in a sub-domain label beside the country code it sits directly under when the
name offers a service (``bahn-de.…-erstattung.com``: a firm does not name itself after a railway and its country in
a host that offers refunds): beside a service word alone it cannot be told from a firm's name
(``treasury-payment.com`` reads like ``treasury-payment-solutions.com``). Only names no table knows are checked (a
listed domain is itself, not a look-alike). A hit gives the ``impersonation`` credibility value
:data:`LOOKALIKE_CREDIBILITY`: the trust rule puts it below every unknown source, and the note names the imitated
domain.

Example:
    >>> index = default_index()
    >>> index.check("ftc-gov.net", "ftc-gov.net").imitates
    'ftc.gov'
    >>> index.check("www.example-clinic.org", "example-clinic.org") is None
    True
"""
from __future__ import annotations

import csv
import gzip
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, cast

from authorag.errors import PriorUnavailable
from authorag.priors.brands import impersonated_brands
from authorag.priors.claims import (
    COUNTRY_CODES,
    GENERIC_CODES,
    NOT_BRANDS,
    OFFICE_WORDS,
    SERVICE_WORDS,
    claim_words,
    countries,
)
from authorag.priors.homoglyphs import ZERO_WIDTH, mixed_script, skeleton, unicode_name

LOOKALIKE_CREDIBILITY = 0.05
"""Credibility of a look-alike host (well below the trust rule's low threshold)."""
IMPERSONATION = "impersonation"
"""Name of the credibility value a look-alike or an impersonating account gets."""
MIN_EDIT_LENGTH = 6
"""Public bodies' names shorter than this are not compared by edit distance (short names collide by chance)."""
MIN_MEDIA_EDIT_LENGTH = 9
"""Other targets' names are compared only from this length, and only by a substituted or swapped letter."""
MAX_JOINED = 3
"""The most hyphen-joined words of a target's name a look-alike's tokens are read as (``service-public``)."""
MIN_BRAND_LENGTH = 3
"""A target's name shorter than this is never read as a brand (``go.com``)."""
TARGETS_FILE = "lookalike_targets.csv.gz"
TargetKind = Literal["institution", "brand", "trusted", "office-only"]
"""A public body or a brand phishing imitates (:mod:`authorag.priors.brands`), another trusted name, or a name
claimed only beside an office word (``boston-gov``), no edit distance: a local government's place name or a
common word (both common in firms' names: ``boston-tax-services``, ``fire-safety-uk``)."""
EVERY_CHECK = frozenset({"institution", "brand"})
"""Kinds a service word or their own country code claims, compared by edit distance from :data:`MIN_EDIT_LENGTH`."""
_KINDS = EVERY_CHECK | {"trusted", "office-only"}

_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Lookalike:
    """A look-alike finding.

    Attributes:
        kind: ``zero-width``, ``mixed scripts``, ``confusable``, ``brand claim`` or ``edit distance``.
        imitates: the imitated domain (None for a zero-width or mixed-script name that imitates no target).
        detail: what in the name gave it away.
    """

    kind: str
    imitates: str | None
    detail: str

    @property
    def reason(self) -> str:
        """One line for a note: ``look-alike of nih.gov (confusable: ...)``."""
        what = f"look-alike of {self.imitates}" if self.imitates else "deceptive host name"
        return f"{what} ({self.kind}: {self.detail})"


def _label(domain: str, suffix: str) -> str:
    return domain[: -len(suffix) - 1] if suffix and domain.endswith("." + suffix) else domain.split(".", 1)[0]


def _deletions(word: str) -> Iterator[str]:
    for i in range(len(word)):
        yield word[:i] + word[i + 1:]


def _key(label: str, suffix: str) -> str:
    """One string for a (label, suffix) pair (no space in either): less memory than a tuple (one key per letter)."""
    return f"{label} {suffix}"


def _within_one(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one insertion, deletion, substitution or swap."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                   and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(short == d for d in _deletions(long_))


class LookalikeIndex:
    """The precomputed look-alike maps over a set of target domains.

    Args:
        targets: ``(domain, suffix, kind)`` triples: a registrable domain, its public suffix, and
            :data:`TargetKind` (``institution`` when a government, treaty or health-service suffix
            or registry vouches for a national body).
    """

    def __init__(self, targets: Iterable[tuple[str, str, TargetKind]], known: Iterable[str] = (),
                 closed: Iterable[str] = ()) -> None:
        self.known: frozenset[str] = frozenset(known)
        self.closed: frozenset[str] = frozenset(c for c in closed if "." in c)
        self.targets: dict[str, bool] = {}
        self._skeletons: dict[str, str] = {}
        self._brands: dict[str, tuple[str, TargetKind]] = {}
        self._labels: dict[str, str] = {}  # _key(label, suffix) -> target
        self._deleted: dict[str, str] = {}  # _key(label less one letter, suffix) -> target
        for domain, suffix, kind in targets:
            self.add(domain, suffix, kind)

    def add(self, domain: str, suffix: str, kind: TargetKind, names: Iterable[str] = ()) -> None:
        """Add one target (a domain already added keeps its first kind); ``names`` are other
        names of its brand a host may carry (``canadapost`` for ``canadapost-postescanada.ca``)."""
        if domain in self.targets:
            return
        self.targets[domain] = institution = kind in EVERY_CHECK
        skel = skeleton(domain)
        self._skeletons.setdefault(domain if skel == domain else skel, domain)  # one string when they agree
        label = _label(domain, suffix)
        for name, of in ((label, kind), *((n, "brand") for n in names)):  # a hand-listed other name: every check
            if len(name) >= MIN_BRAND_LENGTH and "." not in name and name not in NOT_BRANDS:
                old = self._brands.get(name)
                if old is None or (of in EVERY_CHECK and old[1] not in EVERY_CHECK):
                    self._brands[name] = (domain, cast(TargetKind, of))
        if kind != "office-only" and len(label) >= (MIN_EDIT_LENGTH if institution else MIN_MEDIA_EDIT_LENGTH):
            self._labels.setdefault(_key(label, suffix), domain)
            for d in _deletions(label):
                self._deleted.setdefault(_key(d, suffix), domain)

    def check(self, host: str | None, domain: str | None, suffix: str | None = None) -> Lookalike | None:
        """The look-alike finding for a host no table knows, or None.

        ``suffix`` is the domain's public suffix (read from ``domain`` when omitted).
        """
        if not host or not domain or domain in self.targets:
            return None
        if suffix is None:
            from authorag.domains import parse_host

            suffix = parse_host(domain, strict=False).suffix or domain.rsplit(".", 1)[-1]
        name = unicode_name(host)
        if not name.isascii():
            found = self._unicode(name, unicode_name(domain))
            if found is not None:
                return found
        skel = self._skeletons.get(skeleton(unicode_name(domain)))
        if skel is not None and skel != domain:
            return Lookalike("confusable", skel, f"{unicode_name(domain)} reads as {skel}")
        text = name[: -len(suffix) - 1] if name.endswith("." + suffix) else name
        label = _label(domain, suffix)
        return (self.brand_claim(text) or self.country_claim(name, domain, label) or self.spelled(text, domain)
                or self.country_claim(name, domain, label, common=True) or self._edit(label, suffix, domain))

    def country_claim(self, name: str, domain: str, label: str, common: bool = False) -> Lookalike | None:
        """A target's name beside a country code in a sub-domain of a name that offers a service
        (``bbc-uk.energy-rebate.co``, ``correos-es.envio-pendiente.com``, ``bbc.uk-rebate.com``);
        ``label`` is the registrable domain's own label (``energy-rebate``). ``common``: read only
        the names that are common words (``office-only`` targets), each only when the target sits
        directly under a country's code and that code is beside it in its own label:
        ``bahn-de.fahrgastrechte-erstattung.com`` claims ``bahn.de``; ``bahn-at.…``,
        ``blog-uk.…`` (``blog.gov.uk``) and ``app-de.…`` claim nothing."""
        tokens = _TOKEN.findall(name.lower())
        if not name.endswith("." + domain) or not any(t in SERVICE_WORDS for t in tokens):
            return None
        subs = [_TOKEN.findall(s) for s in name[: -len(domain) - 1].lower().split(".")] + [_TOKEN.findall(label)]
        for words, after in zip(subs, subs[1:]):
            for t in words:
                hit = self._brands.get(t)
                if (hit is None or (hit[1] == "office-only") != common or t in SERVICE_WORDS
                        or not any(w in SERVICE_WORDS for w in tokens if w != t)):
                    continue
                if common:  # the code of the suffix the target sits directly under, in the same label
                    code = hit[0].split(".", 1)[1]
                    if code in COUNTRY_CODES and code in words[words.index(t) + 1:]:
                        return Lookalike("brand and country", hit[0],
                                         f"{t!r} beside {code!r} in a sub-domain of {domain}")
                    continue
                near = [w for w in words if w != t] + (after[:1] if words == [t] else [])
                home = frozenset() if hit[0].rsplit(".", 1)[-1] in GENERIC_CODES else countries(hit[0])
                # a national site's name beside another country's code claims nothing
                cc = next((w for w in near if w in home or not home and w in COUNTRY_CODES), None)
                if cc is not None:
                    return Lookalike("brand and country", hit[0], f"{t!r} beside {cc!r} in a sub-domain of {domain}")
        return None

    def spelled(self, text: str, domain: str) -> Lookalike | None:
        """A closed government suffix or a known domain spelled out as words of another name
        (``hmrc-gov-uk.refund-portal.co``, ``amendes-gouv.fr-paiement.com``, ``dwd-de.warnung.info``)."""
        tokens = _TOKEN.findall(text.lower())
        for i in range(len(tokens) - 1):
            pair = f"{tokens[i]}.{tokens[i + 1]}"
            if pair == domain or domain.endswith("." + pair):
                continue  # the name is under that suffix or is that domain
            if pair in self.closed:
                owner = f"{tokens[i - 1]}.{pair}" if i > 0 else pair
                return Lookalike("suffix spelled", owner, f"{pair!r} spelled inside {domain}")
            if pair in self.known and pair != domain:
                return Lookalike("domain spelled", pair, f"{pair!r} spelled inside {domain}")
        return None

    def _unicode(self, name: str, domain: str) -> Lookalike | None:
        hidden = ZERO_WIDTH.search(name)
        target = self._skeletons.get(skeleton(ZERO_WIDTH.sub("", domain)))
        if hidden is not None:
            return Lookalike("zero-width", target, f"invisible character U+{ord(hidden.group()):04X} in the name")
        mixed = next((lbl for lbl in name.split(".") if mixed_script(lbl)), None)
        if mixed is not None:
            return Lookalike("mixed scripts", target, f"label {mixed!r} mixes scripts")
        return None

    def brand_claim(self, text: str, glued: bool = True) -> Lookalike | None:
        """A trusted name beside a claim of office (``ftc-gov``, ``who-official``, ``hmrc-uk-refund``)
        in ``text`` (host labels before the suffix, or an account's handle), or None.
        What claims which kind of target: :func:`authorag.priors.claims.claim_words`.

        ``glued=False`` reads only separate tokens (``cdc-gov``, not ``cdcgov``, which is how
        institutions name their own accounts).
        """
        tokens = _TOKEN.findall(text.lower())
        if len(tokens) < 2 and not (glued and any(self._glued(t) for t in tokens)):
            return None
        for t in tokens:
            glued_hit = self._glued(t) if glued else None
            if glued_hit is not None:
                return Lookalike("brand claim", glued_hit[0], f"{t!r} glues a name to an office word")
            hit = self._brands.get(t)
            if hit is None:
                continue
            office = [w for w in tokens if w != t and w in OFFICE_WORDS]
            claims = claim_words(t, hit[0], hit[1])
            weak = [w for w in tokens if w != t and w in claims]
            if office or weak:
                return Lookalike("brand claim", hit[0], f"{t!r} beside {(office or weak)[0]!r}")
        return self._joined_claim(tokens)

    def _joined_claim(self, tokens: list[str]) -> Lookalike | None:
        """A target whose name joins words with hyphens (``service-public.fr``,
        ``deutsche-rentenversicherung.de``) beside a claim among the other tokens
        (``deutsche-rentenversicherung-antrag.de``): the name is read as up to :data:`MAX_JOINED`
        consecutive tokens. A name joined from common words only (``supreme-court.gov``,
        ``service-public.fr``) is claimed only by an office word, as a common word's name is:
        ``supreme-court-services.com`` reads as a firm's name, ``service-public-gouv.fr`` does not."""
        from authorag.priors.targets import dictionary_words

        for size in range(2, min(MAX_JOINED, len(tokens) - 1) + 1):
            for i in range(len(tokens) - size + 1):
                name = "-".join(tokens[i:i + size])
                hit = self._brands.get(name)
                if hit is None:
                    continue
                rest = tokens[:i] + tokens[i + size:]
                common = all(w in dictionary_words() for w in tokens[i:i + size])
                claims = frozenset() if common else claim_words(name, hit[0], hit[1])
                said = [w for w in rest if w in OFFICE_WORDS or w in claims]
                if said:
                    return Lookalike("brand claim", hit[0], f"{name!r} beside {said[0]!r}")
        return None

    def _glued(self, token: str) -> tuple[str, TargetKind] | None:
        # 'irsgov', 'govirs', 'nihgov': a brand glued to an office word
        for word in ("gov", "govt", "official"):
            for rest in (token.removesuffix(word), token.removeprefix(word)):
                if rest != token and len(rest) >= MIN_BRAND_LENGTH and rest in self._brands:
                    return self._brands[rest]
        return None

    def _edit(self, label: str, suffix: str, domain: str) -> Lookalike | None:
        if len(label) < MIN_EDIT_LENGTH - 1 or not label.isascii():
            return None
        keys = [_key(label, suffix)] + [_key(d, suffix) for d in _deletions(label)]
        for key in keys:
            for table in (self._labels, self._deleted):
                target = table.get(key)
                name = "" if target is None else _label(target, suffix)
                if (target is not None and target != domain and _within_one(label, name)
                        and (self.targets[target] or len(name) == len(label))):
                    return Lookalike("edit distance", target, f"{label!r} is one edit from {name!r}")
        return None


def _read_targets() -> Iterator[tuple[str, str, str]]:
    """The shipped target rows, read line by line (the whole text and its rows are never held at once)."""
    try:
        with resources.files("authorag.data").joinpath(TARGETS_FILE).open("rb") as raw, \
                gzip.open(raw, "rt", encoding="utf-8", newline="") as text:
            rows = csv.reader(text)
            next(rows, None)  # domain,suffix,trust,kind
            for domain, suffix, _trust, kind in rows:
                yield domain, suffix, kind
    except OSError as exc:
        raise PriorUnavailable(f"cannot read {TARGETS_FILE} ({exc}); reinstall authorag") from exc


def index_from_rows(rows: Iterable[tuple[str, str, str]]) -> LookalikeIndex:
    """The index over ``(domain, suffix, kind)`` rows of a target list (:mod:`authorag.priors.targets`), in one pass."""
    from authorag.priors.rules import DEFAULT_RULES
    from authorag.priors.targets import public_bodies

    known: list[str] = []
    index = LookalikeIndex((), closed=(r.suffix for r in DEFAULT_RULES))
    names = impersonated_brands()
    bodies = public_bodies()
    for domain, suffix, kind in rows:
        if kind in _KINDS:
            index.add(domain, suffix, cast(TargetKind, kind), names.get(domain, ()))
        if kind not in ("common", "office-only") or domain in bodies:  # a regional government spelled out
            known.append(domain)
    index.known = frozenset(known)
    return index


@cache
def default_index() -> LookalikeIndex:
    """The index over the shipped target list (built once per process)."""
    return index_from_rows(_read_targets())


__all__ = ["EVERY_CHECK", "IMPERSONATION", "LOOKALIKE_CREDIBILITY", "MAX_JOINED", "Lookalike", "LookalikeIndex", "default_index", "index_from_rows"]
