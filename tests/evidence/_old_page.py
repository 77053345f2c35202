"""Test oracle: the page-evidence layers and tier as they were before the speed work.

Frozen copies (commit 15e54fa) of ``words.WordCounter``, ``text.text_features`` (with
``read_window``, ``_is_binary``, ``_symbol_counts``), ``url.url_features`` (with ``split_path``),
``features.page_features`` and ``PageEvidence.estimate`` / ``_one`` / ``detail`` / ``score`` /
``fill``; the equivalence tests compare the current code with them. The tables they read (cue
families, URL cue patterns, feature names, the model's parameters) are data the speed work does
not change, so those are imported, not copied. Not imported by the library.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from authorag.evidence.features import FEATURES, LAYER_OF, LAYERS, TYPE_FEATURES, default_type_classifier
from authorag.evidence.model import PageModel, page_trust
from authorag.evidence.text import (
    ENGLISH_WORDS,
    FAMILIES,
    LANGUAGE_FREE_WORDS,
    MIN_STOPWORD_SHARE,
    MIN_WORDS,
    PRIOR_WORDS,
    STATUS_REASONS,
    SYMBOLS,
    TEXT_FEATURES,
)
from authorag.evidence.tier import FULL_WORDS, MAX_CONFIDENCE, URL_ONLY_CONFIDENCE, LayerEvidence, PageEstimate
from authorag.evidence.url import CUE_REASONS, HOSTED_CUE, MAX_URL_CHARS, SHOP_PLATFORMS, STUFFED_CUE, URL_CUES, URL_FEATURES
from authorag.platforms import default_platforms
from authorag.suitability.classifier import SourceTypeClassifier, combine, split_url
from authorag.suitability.taxonomy import SOURCE_TYPES, SourceTypeResult, unknown_source
from authorag.text_window import HEAD_CHARS, READ_CHARS, SAMPLE_CHARS, SAMPLES
from authorag.types import UNKNOWN_DETAIL, UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue

# ---- words.py ---------------------------------------------------------------------------------
_SEP = 32
_FOLD = bytes(b + 32 if 65 <= b <= 90 else b if (97 <= b <= 122 or 48 <= b <= 57) else _SEP for b in range(256))
_SPAN = np.arange(16)
_KEEP = (_SPAN[None, :] < _SPAN[:, None]).astype(np.uint8) * np.uint8(255)
_LENGTH_BYTE = np.zeros((16, 16), dtype=np.uint8)
_LENGTH_BYTE[:, 15] = np.arange(16, dtype=np.uint8)
_MIX = np.uint64(0x9E3779B97F4A7C15)


def _shape(first: NDArray[np.uint8], last: NDArray[np.uint8], length: NDArray[np.intp]) -> NDArray[np.intp]:
    return ((first & 31).astype(np.intp) << 9) | ((last & 31).astype(np.intp) << 4) | np.minimum(length, 15)


class OldWordCounter:
    def __init__(self, groups: Mapping[str, Iterable[str]]) -> None:
        self.groups = tuple(groups)
        owner: dict[bytes, int] = {}
        for g, name in enumerate(self.groups):
            for word in groups[name]:
                owner.setdefault(word.encode("ascii", "replace"), g)
        keys = sorted(owner)
        self._group_of = np.array([owner[k] for k in keys], dtype=np.intp)
        codes = np.frombuffer(b"".join(k.ljust(15, b"\0") + bytes([len(k)]) for k in keys),
                              dtype=np.uint64).reshape(-1, 2)
        hashes = codes[:, 0] ^ (codes[:, 1] * _MIX)
        order = np.argsort(hashes)
        self._codes, self._hashes, self._order = codes, hashes[order], order
        self._shapes = np.zeros(1 << 14, dtype=np.bool_)
        for k in keys:
            self._shapes[((k[0] & 31) << 9) | ((k[-1] & 31) << 4) | len(k)] = True

    def count(self, raws: Sequence[bytes]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        n, g = len(raws), len(self.groups)
        if n == 0:
            return np.zeros((0, g), dtype=np.int64), np.zeros(0, dtype=np.int64)
        a = np.frombuffer(b" ".join([*raws, b" " * 16]).translate(_FOLD), dtype=np.uint8)
        space = np.empty(len(a) + 1, dtype=np.bool_)
        space[0] = True
        np.equal(a, _SEP, out=space[1:])
        edges = np.flatnonzero(space[1:] != space[:-1])
        starts, ends = edges[0::2], edges[1::2]
        bounds = np.cumsum([len(r) + 1 for r in raws])
        words = np.diff(np.searchsorted(starts, bounds), prepend=0).astype(np.int64)
        lengths = ends - starts
        maybe = np.flatnonzero(self._shapes[_shape(a[starts], a[ends - 1], lengths)])
        counts = np.zeros(n * g, dtype=np.int64)
        if len(maybe):
            s, ln = starts[maybe], lengths[maybe]
            page = np.searchsorted(bounds, s, side="right")
            window = a[s[:, None] + _SPAN]
            window &= _KEEP[ln]
            window |= _LENGTH_BYTE[ln]
            codes = window.view(np.uint64)
            where = np.searchsorted(self._hashes, codes[:, 0] ^ (codes[:, 1] * _MIX))
            key = self._order[np.minimum(where, len(self._order) - 1)]
            exact = (self._codes[key] == codes).all(axis=1)
            counts += np.bincount(page[exact] * g + self._group_of[key[exact]], minlength=n * g)
        return counts.reshape(n, g), words


# ---- text.py ----------------------------------------------------------------------------------
COUNTER = OldWordCounter({**{f: words.split() for f, (_, words) in FAMILIES.items()}, "ids": LANGUAGE_FREE_WORDS,
                           "english": ENGLISH_WORDS})
_ENGLISH = len(FAMILIES) + 1
_TYPICAL_RATE = 5.0
_NOT_CONTROL = bytes(b for b in range(256) if not (b < 9 or b in (11, 12) or 14 <= b < 32))
_REPLACEMENT = "\ufffd".encode()
_PRIOR_COUNT = PRIOR_WORDS * _TYPICAL_RATE / 1000.0
_FAMILY = len(FAMILIES)
_SYMBOL_BYTES = tuple(symbols for _, symbols in SYMBOLS.values())
_SYMBOL_SET = {b for group in _SYMBOL_BYTES for seq in group for b in seq}
_NOT_SYMBOL = bytes(b for b in range(256) if b not in _SYMBOL_SET)


def read_window(text: str) -> str:
    if len(text) <= READ_CHARS:
        return text
    rest = len(text) - HEAD_CHARS
    step = rest // SAMPLES
    parts = [text[:HEAD_CHARS]]
    parts += [text[HEAD_CHARS + i * step: HEAD_CHARS + i * step + SAMPLE_CHARS] for i in range(SAMPLES)]
    return " ".join(parts)


def _is_binary(raw: bytes) -> bool:
    sample = raw[:2000]
    bad = len(sample.translate(None, _NOT_CONTROL)) + (3 * sample.count(_REPLACEMENT) if b"\xef" in sample else 0)
    return b"\x00" in sample or bad > 0.05 * len(sample)


def _symbol_counts(raw: bytes) -> list[int]:
    kept = raw.translate(None, _NOT_SYMBOL)
    return [sum(kept.count(seq) for seq in group) for group in _SYMBOL_BYTES]


def text_features(texts: Sequence[str]) -> tuple[NDArray[np.float64], tuple[str, ...], NDArray[np.int64],
                                                  NDArray[np.int64]]:
    """(values, status, words, counts), the fields of the old ``TextBatch``."""
    n = len(texts)
    status: list[str] = ["read"] * n
    windows = [read_window(t) if t else "" for t in texts]
    todo: list[int] = []
    raws: list[bytes] = []
    for i, w in enumerate(windows):
        raw = w.encode("utf-8", "ignore") if w else b""
        if not raw or raw.isspace():
            status[i] = "empty"
        elif _is_binary(raw):
            status[i] = "binary"
        else:
            todo.append(i)
            raws.append(raw)
    counts, words = COUNTER.count(raws)
    values = np.full((n, len(TEXT_FEATURES)), np.nan)
    all_words = np.zeros(n, dtype=np.int64)
    all_counts = np.zeros((n, _FAMILY), dtype=np.int64)
    if todo:
        rows = np.array(todo)
        symbols = np.array([_symbol_counts(raw) for raw in raws])
        hits = np.hstack([counts[:, :_ENGLISH], symbols]).astype(np.float64)
        rates = np.log1p(1000.0 * (hits + _PRIOR_COUNT) / (words[:, None] + PRIOR_WORDS))
        english = counts[:, _ENGLISH] >= MIN_STOPWORD_SHARE * np.maximum(words, 1)
        rates[~english, :_FAMILY] = np.nan
        lengths = np.log10(np.maximum([len(texts[i]) for i in todo], 10))
        short = words < MIN_WORDS
        block = np.hstack([rates, lengths[:, None]])
        block[short] = np.nan
        values[rows] = block
        all_words[rows] = words
        all_counts[rows] = np.where(english[:, None] & ~short[:, None], counts[:, :_FAMILY], 0)
        for j, i in enumerate(todo):
            status[i] = "too_short" if short[j] else "read" if english[j] else "not_english"
    return values, tuple(status), all_words, all_counts


# ---- url.py -----------------------------------------------------------------------------------
_STUFFED = re.compile(r"cure|miracle|remed(?:y|ies)|detox|secret|alkaliz|holistic|natural|heal(?:ing)?|herbal")
_STATIC = frozenset({"htm", "html", "shtml", "xhtml"})
_SCRIPT = frozenset({"php", "asp", "aspx", "cfm", "jsp", "cgi", "pl"})
_ANY_CUE = re.compile("|".join(f"(?:{rx.pattern})" for _, rx in URL_CUES.values()))
_INDEX = {name: i for i, name in enumerate(URL_FEATURES)}
_SHAPE_AT = _INDEX["u.depth"]


def split_path(url: str) -> tuple[str, str]:
    start = url.find("://")
    rest = url[start + 3:] if start >= 0 else url
    slash = rest.find("/")
    qmark = rest.find("?")
    cut = min(i for i in (slash, qmark, len(rest)) if i >= 0)
    tail = rest[cut:MAX_URL_CHARS].split("#", 1)[0].lower()
    path, _, query = tail.partition("?")
    return path, query


def _shop_site(host: str, domain: str) -> bool:
    owner, _, platform = domain.partition(".")
    return (domain in SHOP_PLATFORMS and host not in (domain, f"www.{domain}")) or bool(owner and platform in SHOP_PLATFORMS)


def _hosted(url: str, host: str, domain: str) -> bool:
    hit = default_platforms().match(url, host, domain)
    return hit is not None and not hit.official


def url_features(url: str, host: str | None, domain: str | None,
                 hosted: bool | None = None) -> tuple[tuple[float, ...], tuple[tuple[str, str], ...], bool]:
    """(values, cues, has_path), the fields of the old ``UrlFeatures``."""
    path, query = split_path(url) if url else ("", "")
    full = f"{path}?{query}" if query else path
    cues = [(name, why) for name, (why, rx) in URL_CUES.items() if rx.search(full)] \
        if full and _ANY_CUE.search(full) else []
    if host and domain and (hosted or _shop_site(host, domain) or (hosted is None and _hosted(url, host, domain))):
        cues.append((HOSTED_CUE, CUE_REASONS[HOSTED_CUE]))
    name, _, suffix = (domain or "").partition(".")
    if name and _STUFFED.search(name):
        cues.append((STUFFED_CUE, f"{CUE_REASONS[STUFFED_CUE]} ({name})"))
    values = [0.0] * _SHAPE_AT
    for cue, _ in cues:
        values[_INDEX[cue]] = 1.0
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    ext = last.rsplit(".", 1)[1] if "." in last else ""
    values += (min(len(segments), 6) / 6.0, float(bool(query)),
               float(not segments or last.startswith(("index.", "default.", "home."))),
               float(ext in _STATIC), float(ext in _SCRIPT), float(ext == "pdf"), float(bool(segments) and not ext),
               float(suffix == "org"), float(len(suffix.rsplit(".", 1)[-1]) == 2))
    return tuple(values), tuple(cues), bool(segments or query)


# ---- features.py ------------------------------------------------------------------------------
_TYPE_COLUMN = {t: len(URL_FEATURES) + i for i, t in enumerate(t for t in SOURCE_TYPES if t != "unknown")}
_TEXT_START = len(URL_FEATURES) + len(TYPE_FEATURES)
_NO_HOST = unknown_source("no readable host in the URL")
_NO_TYPE = unknown_source("no layer matched the host or path")


def _source_type(clf: SourceTypeClassifier, c: Candidate) -> SourceTypeResult:
    if c.host is None:
        return _NO_HOST
    return combine(clf.rule_votes(c.host, c.domain, split_url(c.url), "")) or _NO_TYPE


OldBatch = tuple[NDArray[np.float64], tuple[tuple[tuple[float, ...], tuple[tuple[str, str], ...], bool], ...],
                 tuple[SourceTypeResult, ...], tuple[NDArray[np.float64], tuple[str, ...], NDArray[np.int64],
                                                     NDArray[np.int64]]]


def page_features(candidates: Sequence[Candidate], classifier: SourceTypeClassifier | None = None,
                  hosted: Sequence[bool] | None = None) -> OldBatch:
    """(matrix, url, source_type, text), the fields of the old ``FeatureBatch``."""
    clf = default_type_classifier() if classifier is None else classifier
    urls = tuple(url_features(c.url, c.host, c.domain, None if hosted is None else hosted[i])
                 for i, c in enumerate(candidates))
    types = tuple(_source_type(clf, c) for c in candidates)
    texts = text_features([c.text for c in candidates])
    matrix = np.zeros((len(candidates), len(FEATURES)))
    if candidates:
        matrix[:, :len(URL_FEATURES)] = [u[0] for u in urls]
        matrix[:, _TEXT_START:] = texts[0]
    for i, s in enumerate(types):
        if s.source_type != "unknown":
            matrix[i, _TYPE_COLUMN[s.source_type]] = s.confidence
    return matrix, urls, types, texts


# ---- tier.py ----------------------------------------------------------------------------------
_LAYER_COLUMNS = {layer: np.array([LAYER_OF[f] == layer for f in FEATURES]) for layer in LAYERS}
_TEXT_COLUMNS = np.array([j for j, f in enumerate(FEATURES) if LAYER_OF[f] == "text"])
_CUE_NAMES = {f"t.{f}": why for f, (why, _) in FAMILIES.items()} | {f"t.{s}": why for s, (why, _) in SYMBOLS.items()} \
    | {"t.ids": "DOI or PubMed words", "t.len": "page length"}
FILLS_TIERS = frozenset({"unknown", "hosted", "learned", "judge"})


def _text_reason(status: str, words: int, top: list[tuple[int, float]]) -> str:
    cues = ", ".join(f"{_CUE_NAMES[FEATURES[j]]} {v:+.2f}" for j, v in top if abs(v) >= 0.01)
    head = f"{words} words read" if status == "read" else STATUS_REASONS["not_english"]  # type: ignore[index]
    return f"{head}; {cues}" if cues else head


def _one(model: PageModel, batch: OldBatch, i: int, logit: float, prob: float, parts: list[float],
         top_text: list[tuple[int, float]]) -> PageEstimate:
    url, stype, status = batch[1][i], batch[2][i], batch[3][1][i]
    words = int(batch[3][2][i])
    text_reason = STATUS_REASONS[status]  # type: ignore[index]
    reasons = {
        "url": "; ".join(why for _, why in url[1]) or ("URL shape only" if url[2] else "bare domain"),
        "type": (f"{stype.source_type} ({stype.reason})" if stype.source_type != "unknown" else "type unknown"),
        "text": _text_reason(status, words, top_text) if status in ("read", "not_english") else text_reason,
    }
    layers = (LayerEvidence("url", round(parts[0], 4), reasons["url"]),
              LayerEvidence("type", round(parts[1], 4), reasons["type"]),
              LayerEvidence("text", round(parts[2], 4), reasons["text"]))
    if status != "read" and not url[1]:
        why = "no page text" if status == "empty" else text_reason
        return PageEstimate(None, UNKNOWN_LEVEL, 0.0, 0.0, layers, f"thin evidence: {why} and no URL cue")
    share = min(1.0, words / FULL_WORDS) if status == "read" else 0.0
    confidence = MAX_CONFIDENCE * max(share, URL_ONLY_CONFIDENCE if url[1] else 0.0)
    trust = page_trust(prob, model.base_rate)
    top = max(layers, key=lambda le: abs(le.contribution))
    reason = f"page evidence: credible with p={prob:.2f} (trust {trust:.3f}); strongest layer {top.layer} " \
             f"({top.contribution:+.2f}: {top.reason})"
    return PageEstimate(prob, trust, round(confidence, 4), logit, layers, reason)


def estimate(model: PageModel, candidates: Sequence[Candidate], classifier: SourceTypeClassifier | None = None,
             hosted: Sequence[bool] | None = None) -> list[PageEstimate]:
    if not candidates:
        return []
    batch = page_features(candidates, classifier, hosted)
    z = (batch[0] - model.means) / model.scales
    per = np.nan_to_num(z * model.weights, nan=0.0)
    parts = np.stack([per[:, _LAYER_COLUMNS[layer]].sum(axis=1) for layer in LAYERS], axis=1)
    logits = model.bias + parts.sum(axis=1)
    a, b = model.platt
    probs = 1.0 / (1.0 + np.exp(-np.clip(a * logits + b, -30.0, 30.0)))
    top_text = np.argsort(-np.abs(per[:, _TEXT_COLUMNS]), axis=1)[:, :3]
    return [_one(model, batch, i, float(logits[i]), float(probs[i]), parts[i].tolist(),
                 [(int(_TEXT_COLUMNS[j]), float(per[i, _TEXT_COLUMNS[j]])) for j in top_text[i]])
            for i in range(len(candidates))]


def detail(estimate: PageEstimate, base: AuthorityDetail = UNKNOWN_DETAIL) -> AuthorityDetail:
    note = f"{base.note}; {estimate.reason}" if base.note else estimate.reason
    if estimate.credibility is None:
        return dataclasses.replace(base, note=note)
    url, stype, text = estimate.layers
    sources = (SourceValue("page", estimate.trust, round(estimate.credibility, 4)),
               SourceValue("page.url", url.contribution, url.reason),
               SourceValue("page.type", stype.contribution, stype.reason),
               SourceValue("page.text", text.contribution, text.reason))
    unknown = base.tier == "unknown"
    return AuthorityDetail(base.authority, estimate.confidence if unknown else base.confidence,
                           "page" if unknown else base.tier, base.sources, estimate.trust,
                           (*base.credibility_sources, *sources), base.matched, note)


def score(model: PageModel, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
    return [detail(e) for e in estimate(model, candidates)]


def fill(model: PageModel, candidates: Sequence[Candidate], details: Sequence[AuthorityDetail],
         classifier: SourceTypeClassifier | None = None) -> list[AuthorityDetail]:
    todo = [i for i, d in enumerate(details) if d.tier in FILLS_TIERS and d.credibility is None]
    out = list(details)
    hosted = [details[i].tier == "hosted" for i in todo]
    for i, est in zip(todo, estimate(model, [candidates[i] for i in todo], classifier, hosted)):
        out[i] = detail(est, details[i])
    return out
