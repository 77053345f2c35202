"""SourceTypeClassifier: what kind of source a candidate is, from its URL and (optionally) its text.

Layers, each adding weighted votes for a type (weights in :mod:`authorag.suitability.cues`):

``suffix``    restricted suffixes (``.gov``, ``.ac.uk``, ``.int``) and telling words in the host name
``list``      known-source lists (hand-made ``known_sources.csv``, then UT1 categories)
``platform``  user content on a hosting platform (blogspot sub-domain, ``/r/`` on Reddit, ``/@user``)
``path``      URL path cues (``/product/``, ``/questions/``, ``/blog/``, ``/docs/``, ``/doi/``)
``text``      page-text cues (prices and buy buttons, citations, medical review notes, replies)
``llm``       optional: an LLM asked about the host + path pattern, only when the rules are unsure

The type with the largest summed weight wins; ``confidence`` = that sum W (capped at 0.99) times
W / (W + ½ · weight of the other types), so agreeing layers raise it and disagreeing ones lower it
(by half their weight: a ``/news/`` section of a ``.gov`` site is weak counter-evidence). ``layer``
names the heaviest vote for the winner. Bad input never raises: the answer is ``unknown`` with
a reason.

Example:
    >>> clf = SourceTypeClassifier()
    >>> r = clf.classify_url("https://www.cdc.gov/flu/prevent/index.html")
    >>> r.source_type, r.layer
    ('government', 'suffix')
    >>> clf.classify_url("https://shop.example.com/product/vitamin-c-1000").source_type
    'commercial'
    >>> clf.classify_url("").reason
    'no URL or host'
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol, get_args

from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.suitability.cues import (
    TEXT_CHARS,
    Vote,
    host_votes,
    looks_like_text,
    path_votes,
    suffix_votes,
    text_votes,
    text_votes_many,
)
from authorag.suitability.lists import KnownSources, load_known_sources
from authorag.suitability.platform import (
    PlatformMatcher,
    content_type_vote,
    default_platform_matcher,
)
from authorag.suitability.taxonomy import SourceType, SourceTypeResult, unknown_source
from authorag.types import Candidate
from authorag.validation import check_positive_int, check_unit

RuleLayer = Literal["suffix", "list", "platform", "path", "text"]
RULE_LAYERS: tuple[RuleLayer, ...] = get_args(RuleLayer)
MIN_WEIGHT = 0.3
"""Below this summed weight the answer is ``unknown`` (a single weak hint is not evidence)."""
MAX_HOSTS = 200_000
"""Hosts whose suffix/list votes are memoized (a few hundred bytes each)."""
DEFAULT_LLM_BELOW = 0.5
"""The LLM layer is asked only when the rule layers' confidence is below this."""


class SourceTypeLLM(Protocol):
    """An LLM layer: one vote (or None) for a URL's host + path pattern."""

    def vote(self, host: str, path: str) -> Vote | None:
        """The model's vote for this host and path; None when it gives no usable answer."""
        ...


def split_url(url: str) -> str:
    """The lower-cased path and query of ``url`` (first 300 characters; '' when there is none).

    Example:
        >>> split_url("https://Example.com/A/b?x=1#frag")
        '/a/b?x=1'
    """
    start = url.find("://")
    rest = url[start + 3:] if start >= 0 else url
    slash = rest.find("/")
    if slash < 0:
        return ""
    path = rest[slash:].split("#", 1)[0]
    return path[:300].lower()


def combine(votes: Iterable[Vote]) -> SourceTypeResult | None:
    """The winning type of ``votes`` with its confidence, or None when the evidence is too weak."""
    totals: dict[SourceType, float] = {}
    best: dict[SourceType, Vote] = {}
    for v in votes:
        totals[v[0]] = totals.get(v[0], 0.0) + v[1]
        if v[0] not in best or v[1] > best[v[0]][1]:
            best[v[0]] = v
    if not totals:
        return None
    winner = max(totals, key=lambda t: (totals[t], best[t][1]))
    weight = totals[winner]
    if weight < MIN_WEIGHT:
        return None
    others = sum(totals.values()) - weight
    confidence = min(0.99, weight) * weight / (weight + 0.5 * others)
    top = best[winner]
    return SourceTypeResult(winner, round(confidence, 4), top[2], top[3])


class SourceTypeClassifier:
    """Classifies candidates into the source types of :mod:`authorag.suitability.taxonomy`.

    Args:
        layers: rule layers to use (default all five); the evaluation runs them one at a time.
        known: known-source lists (default: the shipped ones).
        platforms: a platform matcher (default :func:`~authorag.suitability.platform.default_platform_matcher`).
        llm: optional LLM layer (:class:`~authorag.suitability.llm.LLMSourceTypeLayer`).
        llm_below: ask the LLM only when the rules' confidence is below this, in [0, 1].
        text_chars: characters of page text the text layer reads (cost grows with it; at the default
            1,000 see benchmarks/results/suitability/speed.json: the text layer is the difference
            between its two suitability rows, for candidates classified with :meth:`classify_many`).

    Raises:
        ConfigError: an unknown layer name, ``llm_below`` outside [0, 1] or ``text_chars < 1``.
    """

    def __init__(self, *, layers: Sequence[RuleLayer] = RULE_LAYERS, known: KnownSources | None = None,
                 platforms: PlatformMatcher | None = None, llm: SourceTypeLLM | None = None,
                 llm_below: float = DEFAULT_LLM_BELOW, text_chars: int = TEXT_CHARS) -> None:
        bad = [name for name in layers if name not in RULE_LAYERS]
        if bad:
            raise ConfigError(f"unknown source-type layer(s) {bad}; allowed: {', '.join(RULE_LAYERS)}")
        check_unit("llm_below", llm_below)
        check_positive_int("text_chars", text_chars)
        self.layers = frozenset(layers)
        self.known = load_known_sources() if known is None and "list" in self.layers else known
        self.platforms = default_platform_matcher() if platforms is None else platforms
        self.llm = llm
        self.llm_below = llm_below
        self.text_chars = text_chars
        self._host_votes: dict[str, list[Vote]] = {}
        self._text_on = "text" in self.layers
        self._path_on = "path" in self.layers
        self._platform_on = "platform" in self.layers

    def classify(self, candidate: Candidate) -> SourceTypeResult:
        """The source type of one candidate (its ``metadata["title"]`` counts as text when present)."""
        return self.classify_many([candidate])[0]

    def classify_many(self, candidates: Sequence[Candidate]) -> list[SourceTypeResult]:
        """:meth:`classify` for each candidate, in order (the text layer reads all pages in one pass)."""
        texts = [_text_of(c) for c in candidates]
        readable = [self._text_on and bool(t) and looks_like_text(t) for t in texts]
        found = iter(text_votes_many([t for t, r in zip(texts, readable) if r], self.text_chars))
        return [self._classify(c.url, c.host, c.domain, t, next(found) if r else None)
                for c, t, r in zip(candidates, texts, readable)]

    def classify_url(self, url: str, text: str = "") -> SourceTypeResult:
        """The source type of a bare URL (or host) with optional page text."""
        parsed = parse_host(url, strict=False) if url else None
        host = None if parsed is None else parsed.host
        domain = None if parsed is None else parsed.domain
        return self._classify(url, host, domain, text, self._text_layer(text))

    def _classify(self, url: str, host: str | None, domain: str | None, text: str,
                  text_layer: list[Vote] | None) -> SourceTypeResult:
        """``text_layer``: the text layer's votes, None when it is off or the text does not read as Latin script."""
        if not url and not text:
            return unknown_source("no URL or host")
        path = split_url(url) if url else ""
        votes = self._url_votes(host, domain, path)
        if text_layer:
            votes += text_layer
        result = combine(votes)
        if self.llm is not None and host and (result is None or result.confidence < self.llm_below):
            llm_vote = self.llm.vote(host, path)
            if llm_vote is not None:
                result = combine([*votes, llm_vote])
        if result is not None:
            return result
        why = _why_unknown(host, domain, self._text_on and bool(text) and text_layer is None)
        return _NO_MATCH if why == _NO_MATCH.reason else unknown_source(why)

    def rule_votes(self, host: str | None, domain: str | None, path: str, text: str) -> list[Vote]:
        """Every enabled rule layer's votes for one page."""
        return self._url_votes(host, domain, path) + (self._text_layer(text) or [])

    def _text_layer(self, text: str) -> list[Vote] | None:
        """One page's text-layer votes; None when the layer is off or the text does not read as Latin script."""
        return text_votes(text, self.text_chars) if self._text_on and text and looks_like_text(text) else None

    def _url_votes(self, host: str | None, domain: str | None, path: str) -> list[Vote]:
        """The suffix, list, platform and path layers' votes (a new list)."""
        votes: list[Vote] = []
        if host is not None and domain is not None and "." in host:
            votes += self._per_host(host, domain)
            if self._platform_on:
                match = self.platforms(host, domain, path)
                pv = None if match is None else content_type_vote(match)
                if pv is not None:
                    votes.append(pv)
        if path and self._path_on:
            votes += path_votes(path)
        return votes

    def _per_host(self, host: str, domain: str) -> list[Vote]:
        """Suffix, host-word and list votes, memoized per host (hosts repeat far more than URLs)."""
        cached = self._host_votes.get(host)
        if cached is not None:
            return cached
        votes: list[Vote] = []
        if "suffix" in self.layers:
            votes += suffix_votes(host)
            votes += host_votes(host, domain)
        if "list" in self.layers and self.known is not None:
            hit = self.known.lookup(host, domain)
            if hit is not None:
                votes.append((hit[0], hit[3], "list", hit[2]))
        if len(self._host_votes) < MAX_HOSTS:
            self._host_votes[host] = votes
        return votes

    def __repr__(self) -> str:
        return f"SourceTypeClassifier(layers={sorted(self.layers)}, llm={self.llm!r})"


def _text_of(candidate: Candidate) -> str:
    """The candidate's page text, after its ``metadata["title"]`` when that is a non-empty str."""
    title = candidate.metadata.get("title") if candidate.metadata else None
    return f"{title}\n{candidate.text}" if isinstance(title, str) and title else candidate.text


_NO_MATCH = unknown_source("no layer matched the host, path or text")
"""The common unknown answer, built once (results are frozen)."""


def _why_unknown(host: str | None, domain: str | None, unreadable_text: bool) -> str:
    if host is None or domain is None:
        return "no readable host in the URL"
    if "." not in host or host.replace(".", "").isdigit() or ":" in host:
        return f"host {host!r} is an IP address or local name: it says nothing about the publisher"
    if unreadable_text:
        return "no URL rule matched and the page text is not in a Latin script (text cues are English)"
    return _NO_MATCH.reason


__all__ = ["DEFAULT_LLM_BELOW", "RULE_LAYERS", "RuleLayer", "SourceTypeClassifier", "SourceTypeLLM", "combine",
           "split_url"]
