"""Prometheus counters for the server, written by hand (text exposition format 0.0.4).

Example:
    >>> m = Metrics()
    >>> m.observe_request("POST", "/v1/rerank", 200, 0.004)
    >>> 'authorag_requests_total{method="POST",route="/v1/rerank",status="200"} 1' in m.render()
    True
"""
from __future__ import annotations

import bisect
import threading
from collections import defaultdict

BUCKETS: tuple[float, ...] = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Latency histogram upper bounds in seconds."""

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _Histogram:
    __slots__ = ("count", "counts", "sum")

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.sum += seconds
        self.count += 1


class Metrics:
    """Request, latency, document and error counters of one server process.

    Each worker process has its own counters (Prometheus sums them across targets).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, str], int] = defaultdict(int)
        self._latency: dict[str, _Histogram] = defaultdict(_Histogram)
        self._errors: dict[str, int] = defaultdict(int)
        self._documents = 0
        self._no_url = 0
        self._truncated = 0
        self._tiers: dict[str, int] = defaultdict(int)

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one finished request and its latency."""
        with self._lock:
            self._requests[(method, route, str(status))] += 1
            self._latency[route].observe(seconds)

    def observe_error(self, code: str) -> None:
        """Count one error response by its stable code."""
        with self._lock:
            self._errors[code] += 1

    def observe_documents(self, total: int, without_url: int, truncated: int, tiers: dict[str, int]) -> None:
        """Count the documents of one rerank request."""
        with self._lock:
            self._documents += total
            self._no_url += without_url
            self._truncated += truncated
            for tier, n in tiers.items():
                self._tiers[tier] += n

    def render(self) -> str:
        """All metrics in the Prometheus text format."""
        with self._lock:
            lines = _counter("authorag_requests_total", "HTTP requests by route and status.",
                             {f'method="{m}",route="{r}",status="{s}"': v for (m, r, s), v in sorted(self._requests.items())})
            lines += _histograms(self._latency)
            lines += _counter("authorag_errors_total", "Error responses by code.",
                              {f'code="{c}"': v for c, v in sorted(self._errors.items())})
            lines += _counter("authorag_documents_total", "Documents reranked.", {"": self._documents})
            lines += _counter("authorag_documents_without_url_total", "Documents with no source URL.",
                              {"": self._no_url})
            lines += _counter("authorag_documents_truncated_total", "Documents cut by the text budget.",
                              {"": self._truncated})
            lines += _counter("authorag_authority_tier_total", "Documents by the tier that scored them.",
                              {f'tier="{t}"': v for t, v in sorted(self._tiers.items())})
        return "\n".join(lines) + "\n"


def _series(name: str, labels: str, value: float) -> str:
    text = str(value) if isinstance(value, int) else repr(float(value))
    return f"{name}{{{labels}}} {text}" if labels else f"{name} {text}"


def _counter(name: str, help_text: str, values: dict[str, int]) -> list[str]:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} counter"]
    return lines + [_series(name, labels, v) for labels, v in values.items()]


def _histograms(latency: dict[str, _Histogram]) -> list[str]:
    name = "authorag_request_duration_seconds"
    lines = [f"# HELP {name} Request latency by route.", f"# TYPE {name} histogram"]
    for route, h in sorted(latency.items()):
        cumulative = 0
        for bound, n in zip((*BUCKETS, float("inf")), h.counts):
            cumulative += n
            le = "+Inf" if bound == float("inf") else f"{bound:g}"
            lines.append(_series(f"{name}_bucket", f'route="{route}",le="{le}"', cumulative))
        lines.append(_series(f"{name}_sum", f'route="{route}"', h.sum))
        lines.append(_series(f"{name}_count", f'route="{route}"', h.count))
    return lines
