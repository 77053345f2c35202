"""PageRank over a registrable-domain link graph, and the prior file it produces.

Two engines give the same numbers: ``networkx`` (``nx.pagerank``, the reference) and
``scipy``, a sparse power iteration with int32 indices and no Python object per edge, for
graphs with millions of edges. Both use networkx's definition: damping ``alpha``, uniform
teleport (no personalization), dangling nodes' rank spread uniformly, start at 1/N, stop when
the L1 change is below ``N * tol``, fail after ``max_iter`` iterations.

Example:
    >>> from authorag.priors.graph import graph_from_pairs
    >>> g = graph_from_pairs([("a.org", "c.org"), ("b.org", "c.org"), ("c.org", "a.org")])
    >>> prior = PageRankPrior.from_graph(g)
    >>> prior.lookup("https://www.c.org/page").authority
    1.0
    >>> {d: round(v, 4) for d, v in zip(prior.domains, prior.pagerank.tolist())}
    {'a.org': 0.4635, 'c.org': 0.4865, 'b.org': 0.05}
"""
from __future__ import annotations

import csv
import gzip
import io
import logging
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from authorag.domains import host_keys, parse_host
from authorag.errors import AuthoragError, ConfigError, PriorUnavailable
from authorag.priors.graph import DomainGraph
from authorag.types import UNKNOWN_DETAIL, AuthorityDetail, Candidate, SourceValue
from authorag.validation import check_choice, check_positive_int

log = logging.getLogger(__name__)

Engine = Literal["auto", "networkx", "scipy"]
FloatArray = NDArray[np.float64]
IterationCallback = Callable[[int], None]

NETWORKX_MAX_EDGES = 100_000
"""``engine="auto"`` uses networkx up to this many edges and the scipy iteration above it."""

DEFAULT_TOL = 1e-10
"""Per-node tolerance (stop when the L1 change < N * tol, networkx's rule). networkx's own default,
1e-6, stops a 1 M-node graph after one iteration (L1 error 0.32 vs the converged vector; measured
in docs/pagerank.md), so the prior builder is stricter. Both engines take the same value."""

DEFAULT_MAX_ITER = 1000
"""An L1 change of at most 2·damping^k bounds the iterations: 0.85 reaches 1e-10 within ~150."""

PRIOR_COLUMNS = ("domain", "pagerank", "score", "in_degree")


class PageRankConvergenceError(AuthoragError):
    """The power iteration did not reach the tolerance within ``max_iter`` iterations."""


def _convergence_error(max_iter: int, tol: float) -> PageRankConvergenceError:
    return PageRankConvergenceError(
        f"PageRank did not converge to tol={tol} within max_iter={max_iter} iterations; "
        "raise max_iter (CLI: --max-iter) or tol (--tol)")


def pagerank_scipy(n: int, src: NDArray[np.int32], dst: NDArray[np.int32], weight: FloatArray, *,
                   damping: float = 0.85, tol: float = DEFAULT_TOL, max_iter: int = DEFAULT_MAX_ITER,
                   on_iteration: IterationCallback | None = None) -> tuple[FloatArray, int]:
    """PageRank by sparse power iteration; returns (scores by node id, iterations).

    The transition matrix is stored transposed (row = target) in CSR with int32 indices, so
    each iteration is one sparse mat-vec. Memory is about 12 bytes per edge plus 40 per node.
    """
    if n == 0:
        return np.zeros(0, dtype=np.float64), 0
    sp = _scipy_sparse()
    out = np.bincount(src, weights=weight, minlength=n)
    inv = np.zeros(n, dtype=np.float64)
    nonzero = out != 0
    inv[nonzero] = 1.0 / out[nonzero]
    m = sp.csr_array((weight * inv[src], (dst, src)), shape=(n, n))
    dangling = np.flatnonzero(~nonzero)
    p = 1.0 / n
    x = np.full(n, p)
    for it in range(1, max_iter + 1):
        last = x
        x = m @ last
        x += float(last[dangling].sum()) * p
        x *= damping
        x += (1.0 - damping) * p
        if on_iteration is not None:
            on_iteration(it)
        if float(np.abs(x - last).sum()) < n * tol:
            return x, it
    raise _convergence_error(max_iter, tol)


def _scipy_sparse() -> Any:
    import scipy.sparse

    return scipy.sparse


def pagerank_networkx(n: int, src: NDArray[np.int32], dst: NDArray[np.int32], weight: FloatArray, *,
                      damping: float = 0.85, tol: float = DEFAULT_TOL, max_iter: int = DEFAULT_MAX_ITER,
                      on_iteration: IterationCallback | None = None) -> tuple[FloatArray, int]:
    """PageRank with ``networkx.pagerank`` (the reference); iterations are reported as 0."""
    import networkx as nx

    graph: Any = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), weight.tolist(), strict=True))
    try:
        ranks: dict[int, float] = nx.pagerank(graph, alpha=damping, tol=tol, max_iter=max_iter, weight="weight")
    except nx.PowerIterationFailedConvergence as exc:
        raise _convergence_error(max_iter, tol) from exc
    return np.array([ranks[i] for i in range(n)], dtype=np.float64), 0


ENGINES: Mapping[str, Callable[..., tuple[FloatArray, int]]] = MappingProxyType(
    {"networkx": pagerank_networkx, "scipy": pagerank_scipy})
"""The engine registry: name → function ``(n, src, dst, weight, *, damping, tol, max_iter)``."""


def choose_engine(engine: Engine, num_edges: int) -> Literal["networkx", "scipy"]:
    """Resolve ``auto`` by graph size; validate an explicit choice."""
    check_choice("engine", engine, get_args(Engine))
    if engine == "auto":
        return "networkx" if num_edges <= NETWORKX_MAX_EDGES else "scipy"
    return engine


def _validate(damping: float, tol: float, max_iter: int) -> None:
    if isinstance(damping, bool) or not 0.0 < float(damping) < 1.0:
        raise ConfigError(f"damping must be in (0, 1), got {damping!r}; 0.85 is the usual choice")
    if not tol > 0:
        raise ConfigError(f"tol must be > 0, got {tol!r}")
    check_positive_int("max_iter", max_iter)


def rank_normalize(values: FloatArray, rtol: float = 1e-9) -> FloatArray:
    """Ranks scaled to 0–1 (lowest 0, highest 1); values equal within ``rtol`` share the lowest
    rank of their group, so every domain without in-links scores exactly 0.

    Example:
        >>> rank_normalize(np.array([0.2, 0.05, 0.05, 0.7])).tolist()
        [0.6666666666666666, 0.0, 0.0, 1.0]
    """
    n = values.shape[0]
    if n <= 1:
        return np.zeros(n, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = (ordered[1:] - ordered[:-1]) > rtol * np.abs(ordered[1:])
    start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    out = np.empty(n, dtype=np.float64)
    out[order] = start / (n - 1)
    return out


def _confidence(in_degree: int) -> float:
    """0.5 for a domain nobody links to, 0.75 at 9 linking domains, 1.0 from 99 on."""
    return min(1.0, 0.5 + 0.25 * math.log10(1 + in_degree))


def pagerank(graph: DomainGraph, *, damping: float = 0.85, engine: Engine = "auto", tol: float = DEFAULT_TOL,
             max_iter: int = DEFAULT_MAX_ITER, weighted: bool = True,
             on_iteration: IterationCallback | None = None) -> tuple[FloatArray, dict[str, Any]]:
    """PageRank of every domain in ``graph``; returns (scores by node id, run info).

    Args:
        graph: from :func:`~authorag.priors.graph.read_edges` and friends.
        damping: networkx's ``alpha``. tol, max_iter: networkx's stopping rule.
        engine: ``networkx``, ``scipy``, or ``auto`` (networkx up to ``NETWORKX_MAX_EDGES``).
        weighted: use link counts as edge weights; False counts each domain pair once.

    Raises:
        ConfigError: a parameter out of range. PageRankConvergenceError: no convergence.
    """
    _validate(damping, tol, max_iter)
    chosen = choose_engine(engine, graph.num_edges)
    weight = graph.weight if weighted else np.ones(graph.num_edges, dtype=np.float64)
    kwargs: dict[str, Any] = {"damping": damping, "tol": tol, "max_iter": max_iter}
    if chosen == "scipy":
        kwargs["on_iteration"] = on_iteration
    scores, iterations = ENGINES[chosen](graph.num_nodes, graph.src, graph.dst, weight, **kwargs)
    log.info("PageRank (%s) over %d domains / %d edges: %d iterations", chosen, graph.num_nodes,
             graph.num_edges, iterations)
    info: dict[str, Any] = {"engine": chosen, "iterations": iterations or None, "damping": damping,
                            "tol": tol, "max_iter": max_iter, "weighted": weighted}
    return scores, info


class PageRankPrior:
    """Domain authority from the PageRank of a link graph, as an ``AuthorityScorer``.

    ``authority`` is the rank-normalized PageRank (0–1, see :func:`rank_normalize`); the raw
    PageRank is kept as the source's ``raw`` value. Confidence grows with the number of
    distinct linking domains (0.5 with none, 0.75 with 9, 1.0 from 99). Domains not in the
    graph are unknown. Save it with :meth:`save` and read it back with :meth:`load`, or feed
    the file to a prior table with :func:`load_pagerank_prior`.

    Example:
        >>> from authorag.priors.graph import graph_from_pairs
        >>> prior = PageRankPrior.from_graph(graph_from_pairs([("a.org", "b.org")]))
        >>> prior.lookup("b.org").authority, prior.lookup("a.org").authority
        (1.0, 0.0)
        >>> prior.lookup("elsewhere.org").tier
        'unknown'
    """

    def __init__(self, domains: Sequence[str], pagerank: FloatArray, score: FloatArray,
                 in_degree: NDArray[np.int64], *, name: str = "pagerank",
                 info: Mapping[str, Any] | None = None) -> None:
        if not len(domains) == pagerank.shape[0] == score.shape[0] == in_degree.shape[0]:
            raise ConfigError(f"domains, pagerank, score and in_degree must have one length, got "
                              f"{len(domains)}, {pagerank.shape[0]}, {score.shape[0]}, {in_degree.shape[0]}")
        self.name = name
        self.domains: tuple[str, ...] = tuple(domains)
        self.pagerank = pagerank
        self.scores = score
        self.in_degree = in_degree
        self.info: Mapping[str, Any] = MappingProxyType(dict(info or {}))
        self._index = {d: i for i, d in enumerate(self.domains)}

    @classmethod
    def from_graph(cls, graph: DomainGraph, *, name: str = "pagerank", **options: Any) -> PageRankPrior:
        """Run :func:`pagerank` on ``graph`` (``options`` are its keyword arguments)."""
        scores, info = pagerank(graph, **options)
        in_degree = np.bincount(graph.dst, minlength=graph.num_nodes).astype(np.int64)
        info.update(graph.summary())
        return cls(graph.domains, scores, rank_normalize(scores), in_degree, name=name, info=info)

    def __len__(self) -> int:
        return len(self.domains)

    def lookup(self, url: str) -> AuthorityDetail:
        """Authority detail for a URL or host (most specific matching key wins)."""
        parsed = parse_host(url, strict=False)
        if parsed.kind == "invalid":
            return AuthorityDetail(None, 0.0, "unknown", note=f"invalid URL: {parsed.error}")
        return self.lookup_host(parsed.host, parsed.domain)

    def lookup_host(self, host: str | None, domain: str | None) -> AuthorityDetail:
        """Authority detail for a normalized host and its registrable domain."""
        for key in host_keys(host, domain):
            i = self._index.get(key)
            if i is not None:
                value = float(self.scores[i])
                sv = SourceValue(self.name, value, float(self.pagerank[i]))
                return AuthorityDetail(value, _confidence(int(self.in_degree[i])), "table", (sv,), matched=key)
        return UNKNOWN_DETAIL

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """One detail per candidate (``AuthorityScorer`` protocol)."""
        return [self.lookup_host(c.host, c.domain) for c in candidates]

    def as_source(self) -> dict[str, SourceValue]:
        """Per-domain values as a prior-table source: domain → SourceValue(name, score, pagerank)."""
        return {d: SourceValue(self.name, float(s), float(p))
                for d, s, p in zip(self.domains, self.scores.tolist(), self.pagerank.tolist(), strict=True)}

    def ranking(self) -> list[int]:
        """Node indices by PageRank, highest first (ties by domain name)."""
        return np.lexsort((np.array(self.domains, dtype=object), -self.pagerank)).tolist()

    def save(self, path: str | Path) -> Path:
        """Write the prior file: gzip CSV ``domain,pagerank,score,in_degree``, best first."""
        out = Path(path)
        order = self.ranking()
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(PRIOR_COLUMNS)
        pr, sc, deg = self.pagerank.tolist(), self.scores.tolist(), self.in_degree.tolist()
        writer.writerows((self.domains[i], repr(pr[i]), repr(sc[i]), deg[i]) for i in order)
        out.write_bytes(gzip.compress(buf.getvalue().encode("utf-8"), compresslevel=6, mtime=0))
        return out

    @classmethod
    def load(cls, path: str | Path, *, name: str = "pagerank") -> PageRankPrior:
        """Read a prior file written by :meth:`save` (or ``authorag priors build``).

        Raises:
            PriorUnavailable: the file is missing, not gzip CSV, or lacks the expected columns.
        """
        rows = _read_prior_rows(Path(path))
        domains = [r[0] for r in rows]
        try:
            pr = np.array([float(r[1]) for r in rows], dtype=np.float64)
            sc = np.array([float(r[2]) for r in rows], dtype=np.float64)
            deg = np.array([int(r[3]) for r in rows], dtype=np.int64)
        except (ValueError, OverflowError) as exc:
            raise PriorUnavailable(f"prior file {str(path)!r} has a non-numeric value ({exc})") from exc
        for column, values, unit in (("pagerank", pr, False), ("score", sc, True), ("in_degree", deg, False)):
            ok = np.isfinite(values) & (values >= 0) & (values <= (1 if unit else np.inf))
            if not bool(ok.all()):
                i = int(np.argmin(ok))
                allowed = "a number in [0, 1]" if unit else "a finite number >= 0"
                raise PriorUnavailable(f"PageRank prior file {str(path)!r}: column {column!r} of row {i + 2} "
                                       f"({domains[i]!r}) is {values[i].item()!r}, expected {allowed}; rebuild the file "
                                       "with 'authorag priors build'")
        return cls(domains, pr, sc, deg, name=name, info={"path": str(path)})


MAX_PRIOR_CSV_BYTES = 256 << 20
"""Largest decompressed PageRank prior CSV read (~4 M domains; bigger priors: write a store with
``authorag priors build --out NAME.store``, read in place without this bound)."""


def is_prior_csv(path: str | Path) -> bool:
    """True for a regular file that starts with the gzip magic bytes (a prior CSV of :meth:`PageRankPrior.save`)."""
    p = Path(path)
    try:
        if not p.is_file():
            return False
        with p.open("rb") as f:
            return f.read(2) == b"\x1f\x8b"
    except OSError:
        return False


def _read_prior_rows(path: Path) -> list[list[str]]:
    fix = "expected a gzip CSV written by 'authorag priors build'"
    if path.exists() and not path.is_file():
        raise PriorUnavailable(f"PageRank prior file {str(path)!r} is not a regular file (a folder, device or pipe); {fix}")
    try:
        with gzip.open(path, "rb") as f:
            data = f.read(MAX_PRIOR_CSV_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:
        raise PriorUnavailable(f"cannot read PageRank prior file {str(path)!r} ({exc}); {fix}") from exc
    if len(data) > MAX_PRIOR_CSV_BYTES:
        raise PriorUnavailable(f"PageRank prior file {str(path)!r} decompresses to more than "
                               f"{MAX_PRIOR_CSV_BYTES >> 20} MiB; write big priors as a store "
                               "('authorag priors build --out NAME.store') or check the file")
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, [])
        if tuple(header) != PRIOR_COLUMNS:
            raise PriorUnavailable(f"PageRank prior file {str(path)!r} has columns {header[:8]}; expected "
                                   f"{list(PRIOR_COLUMNS)}")
        rows = [r for r in reader if r]
    except csv.Error as exc:
        raise PriorUnavailable(f"PageRank prior file {str(path)!r} line {reader.line_num}: {exc}; {fix}") from exc
    bad = next((r for r in rows if len(r) != len(PRIOR_COLUMNS)), None)
    if bad is not None:
        raise PriorUnavailable(f"PageRank prior file {str(path)!r} has a row with {len(bad)} fields: {bad}")
    return rows


def load_pagerank_prior(path: str | Path, name: str = "pagerank") -> dict[str, SourceValue]:
    """A prior file as a prior-table source: domain → ``SourceValue(name, score, raw=pagerank)``.

    Example:
        >>> source = load_pagerank_prior("prior.csv.gz")  # doctest: +SKIP
        >>> source["nih.gov"].value  # doctest: +SKIP
        0.98
    """
    return PageRankPrior.load(path, name=name).as_source()
