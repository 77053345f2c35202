"""Admission by cost: the pages dense relevance encodes at once in one server process.

Encoding a page the model has not seen costs milliseconds of CPU; everything else a rerank does
costs microseconds. A process that took every request would run them all at once, each slower,
past their deadlines, holding the memory of every batch in flight. :class:`CostGate` holds the
count of pages being encoded; a request whose new pages would take it past the budget is refused
at once (HTTP 503 ``overloaded`` with ``Retry-After``) instead of queued, so the requests admitted
finish in time, memory stays bounded and ``/healthz`` keeps answering.
"""
from __future__ import annotations

import threading
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from authorag.policy import RerankPolicy
    from authorag.server.documents import DocumentColumns
    from authorag.server.schemas import RerankRequest
    from authorag.types import Candidate

from authorag.errors import AuthoragError
from authorag.server.encoding import release_memory

RETRY_AFTER_S = 1
"""Seconds a refused client is asked to wait (``Retry-After``): about what a full budget of
encoding takes to drain on a CPU core with the bundled model."""

TRIM_PAGES = 8
"""Pages of an encode (the cascade's most per request) after which a process with nothing left
in flight returns its free memory to the system (:func:`~authorag.server.encoding.release_memory`); smaller encodes leave little."""


class Overloaded(AuthoragError):
    """The process is encoding as many pages as its budget allows (HTTP 503 ``overloaded``).

    Attributes:
        retry_after: seconds the client should wait before sending again.
    """

    def __init__(self, message: str, retry_after: int = RETRY_AFTER_S) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class CostGate:
    """Counts the pages in flight against ``budget``; :meth:`admit` refuses instead of waiting.

    A request larger than the budget is admitted when nothing else is in flight, so every
    request the per-request limits accept can run on an idle server.

    Example:
        >>> gate = CostGate(10)
        >>> with gate.admit(8):
        ...     gate.in_flight
        8
        >>> gate.in_flight
        0
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.in_flight = 0
        self._lock = threading.Lock()

    def full(self) -> bool:
        """True when no more pages fit (checked before a request's body is read, and again before
        it is parsed)."""
        return self.in_flight >= self.budget

    def take(self, pages: int) -> None:
        """Hold ``pages`` of the budget until :meth:`release` (0 pages: nothing held, never refused).

        Raises:
            Overloaded: ``pages`` does not fit beside the pages already in flight.
        """
        if pages <= 0:
            return
        with self._lock:
            busy = self.in_flight
            if busy and busy + pages > self.budget:
                raise Overloaded(refusal(pages, busy, self.budget))
            self.in_flight = busy + pages

    def release(self, pages: int) -> None:
        """Give back ``pages`` taken by :meth:`take`; when none are left in flight after a large
        encode, the allocator's free memory goes back to the system."""
        if pages <= 0:
            return
        with self._lock:
            self.in_flight -= pages
            idle = self.in_flight == 0
        if idle and pages >= TRIM_PAGES:
            release_memory()

    @contextmanager
    def admit(self, pages: int) -> Generator[None]:
        """:meth:`take` ``pages`` for the ``with`` block, then :meth:`release` them.

        Raises:
            Overloaded: ``pages`` does not fit beside the pages already in flight.
        """
        self.take(pages)
        try:
            yield
        finally:
            self.release(pages)


class Finisher(Protocol):
    """What an admitted request needs of the service that admitted it
    (:class:`~authorag.server.service.RerankService`): its gate and its costly step."""

    gate: CostGate

    def finish(self, admitted: Admitted, api: str, policy: RerankPolicy | None,
               deadline: float | None) -> dict[str, Any]: ...


@dataclass(eq=False)
class Admitted:
    """A rerank request read, checked and holding its new pages in the gate (:meth:`RerankService.admit`)."""

    service: Finisher
    request: RerankRequest
    docs: DocumentColumns
    cands: list[Candidate]
    source: str
    pages: int
    """New pages held in :attr:`RerankService.gate` until :meth:`release`."""
    released: bool = False

    def run(self, api: str, policy: RerankPolicy | None = None, deadline: float | None = None) -> dict[str, Any]:
        """Rank and answer (see :meth:`RerankService.rerank`), then :meth:`release` the pages."""
        try:
            return self.service.finish(self, api, policy, deadline)
        finally:
            self.release()

    def release(self) -> None:
        """Give the pages back to the gate (once; later calls do nothing)."""
        if not self.released:
            self.released = True
            self.service.gate.release(self.pages)


def refusal(pages: int | None, busy: int, budget: int) -> str:
    """The 503 message: which limit, what was in flight, and how to change it (``pages`` None:
    refused before the request was read)."""
    what = "no request's new pages fit" if pages is None else f"this request's {pages} new pages would pass it"
    return (f"the server is encoding {busy} pages for other requests and {what}: the budget is "
            f"{budget} pages in flight per worker process (server setting --max-encoding-documents); "
            f"retry after {RETRY_AFTER_S} s, send fewer new pages per request, or run more workers")
