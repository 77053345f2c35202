"""Page-evidence data beyond TREC: calibration collections and the held-out evaluation.

* Calibration (:func:`calibration_pages`): RAMDocs documents (``correct`` credible,
  ``misinformation`` not; ``noise`` left out) and the hand-written dev pages
  (:mod:`~authorag.benchmarks.page_evidence.dev_pages`). :func:`fit_calibration` fits the Platt
  scaling of the cue score on the pages where page evidence spoke, each collection weighted
  equally.
* Evaluation only, never fitted on: CoAID (English COVID news, real vs fake) and Fake.br
  (Portuguese, true vs fake), read from ``data_dir`` (skipped when absent). Text alone on an
  unknown domain; AUC true > fake of the trust, with a 95 % bootstrap CI over registrable domains
  (one outlet dominates a label), the share of pages where page evidence spoke, and which text
  cues were present on credible and on other pages (:func:`cue_counts`), and how far length alone
  separates the labels (:func:`length_check`).

Example:
    >>> round(auc_of([0.1, 0.3, 0.3], [0, 1, 0]), 3)
    0.75
"""
from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from authorag.benchmarks.page_evidence.dev_pages import DEV_PAGES
from authorag.benchmarks.page_evidence.rows import auc, topic_bootstrap
from authorag.domains import parse_host
from authorag.evidence.model import PageModel
from authorag.evidence.text import TextBatch, read_texts
from authorag.evidence.tier import PageEvidence
from authorag.types import Candidate

UNKNOWN_URL = "https://zq-unknown-site.example/article"
"""The address every evaluated page is scored under: text alone on a domain no table knows."""
MAX_TEXT_CHARS = 20_000


def auc_of(scores: Sequence[float], labels: Sequence[int]) -> float:
    """AUC of ``scores`` for ``labels`` (0.5 without both labels)."""
    v = auc(np.array(scores, dtype=np.float64), np.array(labels))
    return 0.5 if v is None else v


def calibration_pages(data_dir: Path, limit: int = 300) -> dict[str, list[tuple[str, int]]]:
    """Collection -> (text, credible) pages: RAMDocs (first ``limit`` questions) and the dev pages."""
    out: dict[str, list[tuple[str, int]]] = {"dev_pages": [(t, y) for _, y, t in DEV_PAGES]}
    path = data_dir / "ramdocs" / "RAMDocs_test.jsonl"
    if path.exists():
        rows: list[tuple[str, int]] = []
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f):
                if n >= limit:
                    break
                for doc in json.loads(line)["documents"]:
                    if doc["type"] in ("correct", "misinformation"):
                        rows.append((doc["text"], int(doc["type"] == "correct")))
        out["ramdocs"] = rows
    return out


def _logistic(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], w: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Weighted 1-D logistic regression ``sigmoid(a x + b)`` by Newton steps (a small ridge on a)."""
    a, b = 1.0, 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(a * x + b)))
        g = np.array([np.sum(w * (p - y) * x) + 0.1 * (a - 1.0), np.sum(w * (p - y))])
        s = w * p * (1 - p)
        h = np.array([[np.sum(s * x * x) + 0.1, np.sum(s * x)], [np.sum(s * x), np.sum(s) + 1e-6]])
        step = np.linalg.solve(h, g)
        a, b = a - float(step[0]), b - float(step[1])
        if np.abs(step).max() < 1e-8:
            break
    return a, b


def fit_calibration(base: PageModel, collections: dict[str, list[tuple[str, int]]]) -> PageModel:
    """``base`` with its Platt scaling and base rate fitted on ``collections`` (equal weight each)."""
    tier = PageEvidence(replace(base, platt=(1.0, 0.0), base_rate=0.5))
    xs, ys, ws, rates, meta = [], [], [], [], {}
    for name, pages in collections.items():
        ests = tier.estimate([Candidate.create(UNKNOWN_URL, t[:MAX_TEXT_CHARS]) for t, _ in pages])
        spoke = [(e.score, y) for e, (_, y) in zip(ests, pages) if e.spoke]
        rates.append(sum(y for _, y in pages) / max(1, len(pages)))
        meta[name] = {"pages": len(pages), "spoke": len(spoke)}
        for s, y in spoke:
            xs.append(s)
            ys.append(y)
            ws.append(1.0 / len(spoke))
    a, b = _logistic(np.array(xs), np.array(ys, dtype=np.float64), np.array(ws))
    return replace(base, platt=(round(max(a, 0.05), 6), round(b, 6)), base_rate=round(float(np.mean(rates)), 6),
                   meta={"name": "cue_calibration", "collections": meta,
                         "fit": "Platt scaling of the cue score on pages that spoke, collections weighted equally"})


def _domain(url: str) -> str:
    """The registrable domain of ``url`` (``estadao.com.br``, not ``com.br``); the address itself when it has none."""
    return parse_host(url, strict=False).domain or url


def held_out_pages(data_dir: Path, limit: int) -> dict[str, list[tuple[str, int, str]]]:
    """Collection -> (text, credible, domain): CoAID articles and Fake.br, at most ``limit`` each (seeded sample)."""
    csv.field_size_limit(10**9)
    out: dict[str, list[tuple[str, int, str]]] = {}
    coaid = data_dir / "coaid_covid" / "coaid_news.csv"
    if coaid.exists():
        with coaid.open(encoding="utf-8", errors="replace") as f:
            rows = [(f"{r['title']}. {r['content']}", int(r["label"] == "real"), _domain(r["news_url"]))
                    for r in csv.DictReader(f) if len(r["content"]) >= 200]
        out["coaid"] = rows
    fakebr = data_dir / "fakebr_corpus_pt" / "fakebr.csv"
    if fakebr.exists():
        with fakebr.open(encoding="utf-8", errors="replace") as f:
            out["fakebr"] = [(r["text"], int(r["label"] == "true"), _domain(r["url"])) for r in csv.DictReader(f)]
    rng = np.random.default_rng(0)
    return {k: [v[i] for i in sorted(rng.choice(len(v), min(limit, len(v)), replace=False).tolist())]
            for k, v in out.items()}


def cue_counts(batch: TextBatch, labels: Sequence[int], top: int = 8) -> dict[str, dict[str, Any]]:
    """Per label (``credible``, ``not_credible``) of the pages ``batch`` read: the pages, how many
    showed each text cue (present, whether or not the tier then spoke) and the cue words found on
    most pages (``family:word`` -> pages, at most ``top``).

    Example:
        >>> cue_counts(read_texts(["Download our fixer tool now, click for an instant virus scan and download more.",
        ...                        "x"]), [0, 1], top=2)["not_credible"]
        {'pages': 1, 'cues': {'spam': 1}, 'words': {'spam:download': 1, 'spam:fixer': 1}}
    """
    out: dict[str, dict[str, Any]] = {}
    for name, label in (("credible", 1), ("not_credible", 0)):
        fams: dict[str, int] = {}
        words: dict[str, int] = {}
        for cues, y in zip(batch.cues, labels):
            if y != label:
                continue
            for cue in cues:
                fams[cue.family] = fams.get(cue.family, 0) + 1
                for w in cue.words:
                    words[f"{cue.family}:{w}"] = words.get(f"{cue.family}:{w}", 0) + 1
        ranked = sorted(words.items(), key=lambda kv: (-kv[1], list(words).index(kv[0])))[:top]
        out[name] = {"pages": sum(y == label for y in labels),
                     "cues": dict(sorted(fams.items(), key=lambda kv: (-kv[1], kv[0]))), "words": dict(ranked)}
    return out


LENGTH_BANDS = ((0, 300), (300, 800), (800, None))
"""Bands of words read (from, below) in which the evaluation also reports the AUC: a collection whose
labels differ in length lets any cue that needs enough words ride on length."""


def length_check(trust: Sequence[float], words: Sequence[int], labels: Sequence[int]) -> dict[str, Any]:
    """The AUC of the words read alone (a length baseline) and the AUC of ``trust`` within each of
    :data:`LENGTH_BANDS` (pages, credible pages, AUC; None without both labels).

    Example:
        >>> length_check([0.3, 0.4, 0.3, 0.3], [100, 120, 900, 1000], [0, 1, 1, 1])["auc_words_alone"]
        1.0
    """
    w, t, y = np.array(words), np.array(trust, dtype=np.float64), np.array(labels)
    bands: dict[str, dict[str, Any]] = {}
    for lo, hi in LENGTH_BANDS:
        m = (w >= lo) & (w < (hi if hi is not None else np.inf))
        v = auc(t[m], y[m])
        bands[f"{lo}-{hi}" if hi is not None else f"{lo}+"] = {
            "pages": int(m.sum()), "credible": int(y[m].sum()), "auc": None if v is None else round(v, 4)}
    return {"auc_words_alone": round(auc_of(w.tolist(), y.tolist()), 4), "auc_by_words_read": bands}


def evaluate(tier: PageEvidence, pages: list[tuple[str, int, str]], seed: int = 0) -> dict[str, Any]:
    """Text-alone AUC (true > fake) of the tier's trust, its CI over domains, and the share that spoke."""
    ests = tier.estimate([Candidate.create(UNKNOWN_URL, t[:MAX_TEXT_CHARS]) for t, _, _ in pages])
    trust = np.array([e.trust for e in ests])
    labels = np.array([y for _, y, _ in pages])
    domains = np.array([d for _, _, d in pages])
    batch = read_texts([t[:MAX_TEXT_CHARS] for t, _, _ in pages])

    def stat(idx: np.ndarray[Any, Any]) -> float | None:
        return auc(trust[idx], labels[idx])

    langs: dict[str, int] = {}
    for e in ests:
        langs[e.language or "-"] = langs.get(e.language or "-", 0) + 1
    return {"pages": len(pages), "credible": int(labels.sum()), "domains": len(set(domains.tolist())),
            "spoke": round(sum(e.spoke for e in ests) / max(1, len(ests)), 4),
            "spoke_low": sum(e.spoke and e.trust < 0.3 for e in ests), "auc": round(auc_of(trust.tolist(), labels.tolist()), 4),
            "auc_ci_by_domain": topic_bootstrap(stat, domains, seed), "languages": dict(sorted(langs.items())),
            "cues_by_label": cue_counts(batch, labels.tolist()),
            **length_check(trust.tolist(), list(batch.words), labels.tolist())}


__all__ = ["LENGTH_BANDS", "UNKNOWN_URL", "auc_of", "calibration_pages", "cue_counts", "evaluate", "fit_calibration",
           "held_out_pages", "length_check"]
