"""The server's work, free of HTTP: request documents -> candidates -> ranking -> response dict.

Kept apart from the routes so that the adapters stay one conversion in, one out.
"""
from __future__ import annotations

import dataclasses
import logging
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pydantic import BaseModel

from authorag import adapters
from authorag.compose import load_scorer
from authorag.deadline import DeadlinePassed, deadline_scope
from authorag.domains import load_suffix_list
from authorag.errors import AuthoragError, LimitExceeded
from authorag.judges.base import public_reason
from authorag.judges.deadline import guard_for
from authorag.policy import RerankPolicy
from authorag.priors.base import AuthorityScorer
from authorag.relevance.base import CountsUnseen
from authorag.relevance.tokens import tokenize
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import FUSED_SCORE
from authorag.server.admission import Admitted, CostGate
from authorag.server.config import ServerConfig
from authorag.server.documents import DocumentColumns, echo, read_documents
from authorag.server.encoding import configure_encoding, limit_arenas, lower_thread_priority, settle_memory
from authorag.server.metrics import Metrics
from authorag.server.schemas import API_VERSION, AuditRequest, AuthorityRequest, RerankRequest
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.trust import trust_rule_for
from authorag.types import Candidate, Ranking

log = logging.getLogger(__name__)


class RerankService:
    """Holds the reranker and turns validated requests into response dicts.

    Example:
        >>> svc = RerankService(ServerConfig(relevance="rank"))
        >>> svc.warm_up()
        >>> body = svc.rerank(RerankRequest(query="flu shots", documents=[
        ...     "url: https://someblog.blogspot.com/x\\ntext: Flu shots.", "url: https://www.nih.gov/y\\ntext: Flu shots."]), "v2")
        >>> [r["index"] for r in body["results"]]  # both on topic: nih.gov's trust outweighs the incoming order
        [1, 0]
    """

    def __init__(self, config: ServerConfig, scorer: AuthorityScorer | None = None,
                 metrics: Metrics | None = None) -> None:
        self.config = config
        self.metrics = Metrics() if metrics is None else metrics
        self._scorer = scorer
        self._reranker: AuthorityReranker | None = None
        self._relevance_source = "rank"
        self._policy = config.policy.to_dict()
        self._types = SourceTypeClassifier(layers=())  # replaced in warm_up(); no list loading here
        self._executor: ThreadPoolExecutor | None = None
        self._cpu_executor: ThreadPoolExecutor | None = None
        self._custom_scorer = scorer is not None
        # Resolved once: cascade-or-bm25 looks for the embeddings extra on disk, and offload is read per request.
        self._dense = config.encodes_pages()
        self.gate = CostGate(config.max_encoding_documents)
        """Pages dense relevance encodes at once in this process (``max_encoding_documents``)."""

    @property
    def cpu_executor(self) -> ThreadPoolExecutor:
        """Threads (``cpu_threads`` of them) for large requests that call no judge: their work is
        bounded by the limits but may take a second, which must not hold the event loop. They run
        at a lower priority than the loop (:func:`~authorag.server.encoding.lower_thread_priority`)."""
        if self._cpu_executor is None:
            self._cpu_executor = ThreadPoolExecutor(self.config.cpu_threads, thread_name_prefix="authorag-cpu",
                                                    initializer=lower_thread_priority)
        return self._cpu_executor

    @property
    def executor(self) -> ThreadPoolExecutor:
        """Threads for requests that may block on a judge (``request_threads`` of them).

        Many threads, because they mostly wait: the judge's own pool and deadline bound the
        work, and a request whose domains are all in the table must never queue behind them.
        """
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.config.request_threads, thread_name_prefix="authorag-request")
        return self._executor

    def close(self) -> None:
        """Stop the request threads (calls in flight finish on their own); used again, the
        service starts new ones."""
        for pool in (self._executor, self._cpu_executor):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._executor = self._cpu_executor = None

    def judge_state(self, full: bool = False) -> dict[str, Any] | None:
        """The judge's circuit-breaker state for ``/readyz`` (None without a judge); the last
        error as :func:`~authorag.judges.base.public_reason` unless ``full``."""
        hybrid = _judging_tier(self._scorer)
        judge = getattr(hybrid, "judge", None)
        if judge is None:
            return None
        state = {"deadline_s": getattr(hybrid, "judge_seconds", None), **guard_for(judge).state()}
        if not full and state.get("last_error") is not None:
            state["last_error"] = public_reason(state["last_error"])
        return state

    def _configure_judge(self, scorer: AuthorityScorer) -> None:
        # The per-request judge deadline and the judge pool size come from the server config.
        hybrid = _judging_tier(scorer)
        judge = getattr(hybrid, "judge", None)
        if judge is None:
            return
        if hasattr(hybrid, "judge_seconds"):
            hybrid.judge_seconds = self.config.judge_deadline_s  # type: ignore[union-attr]
        guard_for(judge, workers=self.config.judge_workers)

    @property
    def ready(self) -> bool:
        """True once :meth:`warm_up` has loaded the scorer and the relevance signal."""
        return self._reranker is not None

    @property
    def reranker(self) -> AuthorityReranker:
        """The configured reranker (loads it on first use)."""
        self.warm_up()
        assert self._reranker is not None
        return self._reranker

    @property
    def dense(self) -> bool:
        """True when this server computes dense relevance (then :attr:`gate` admits requests)."""
        return self._dense

    @property
    def offload(self) -> bool:
        """True when scoring may block for long (judge calls, dense encoding, a scorer given by
        the caller, whose cost the server cannot know): every request then runs in a thread."""
        scorer = self.config.scorer
        return self._custom_scorer or scorer.judge != "none" or scorer.learned or self._dense

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The threads a request runs on when it leaves the event loop: :attr:`executor` when it
        may wait on a judge, the learned prior or a caller's scorer, else :attr:`cpu_executor`
        (dense encoding is CPU work: more threads than cores only make each encode slower)."""
        scorer = self.config.scorer
        waits = self._custom_scorer or scorer.judge != "none" or scorer.learned
        return self.executor if waits else self.cpu_executor

    def warm_up(self) -> None:
        """Load the prior (and the relevance model) once."""
        if self._reranker is not None:
            return
        limit_arenas()
        load_suffix_list()
        scorer = load_scorer(self.config.scorer) if self._scorer is None else self._scorer
        self._configure_judge(scorer)
        matrix = self.config.suitability_matrix
        suit: bool | str = (True if matrix is None else matrix) if self.config.suitability else False
        reranker, self._relevance_source = adapters.build_reranker(
            scorer, self.config.relevance, self.config.policy, suit)
        if self._dense:  # before the first encode: each thread reads torch's setting at its first use
            configure_encoding(reranker.relevance, self.config.encode_threads, self.config.encode_batch)
        reranker.warm_up()  # the dense model loads before /readyz says ready
        settle_memory()  # what loading left behind (the layers a quantized model replaced) goes back
        self._types = SourceTypeClassifier()
        self._reranker = reranker
        self._scorer = scorer
        log.info("authority service ready: scorer=%s relevance=%s", scorer.name, self._relevance_source)

    def _check_limits(self, request: RerankRequest) -> None:
        """The documented request limits, checked before any work (docs/server.md "Limits")."""
        cfg = self.config
        n, cap = len(request.documents), cfg.max_documents
        if n > cap:
            raise LimitExceeded(
                "too_many_documents",
                f"documents has {n} entries, the limit is {cap} per request; split the request into "
                f"batches of at most {cap} (server setting --max-documents)",
            )
        if len(request.query) > cfg.max_query_chars:
            raise LimitExceeded("query_too_long", f"query has {len(request.query)} characters, the limit is "
                                f"{cfg.max_query_chars}; send a shorter query (server setting --max-query-chars)")
        fields = len(request.rank_fields or ())
        if fields > cfg.max_rank_fields:
            raise LimitExceeded("too_many_rank_fields", f"rank_fields has {fields} entries, the limit is "
                                f"{cfg.max_rank_fields}; name fewer fields (server setting --max-rank-fields)")
        if self._relevance_source == "relevance.bm25":
            terms = len(set(tokenize(request.query)))
            if terms > cfg.max_query_terms:
                raise LimitExceeded("too_many_query_terms", f"query has {terms} distinct words, the limit is "
                                    f"{cfg.max_query_terms} for BM25 relevance; send a shorter query (server "
                                    "setting --max-query-terms)")

    def _check_unseen(self, texts: Sequence[str]) -> int:
        """``max_unseen_documents``: the pages dense relevance would encode, counted before it
        encodes any (each costs milliseconds of CPU; pages seen before are remembered); returns
        their number (0 for a relevance that encodes nothing)."""
        assert self._reranker is not None
        relevance = self._reranker.relevance
        if not isinstance(relevance, CountsUnseen):
            return 0
        n, cap = relevance.unseen(texts), self.config.max_unseen_documents
        if n > cap:
            raise LimitExceeded(
                "too_many_unseen_documents",
                f"{n} documents are new to dense relevance, which encodes each (tens of milliseconds of CPU "
                f"a page); the limit is {cap} new documents per request. Send at most {cap} new documents "
                "per request (documents already sent are remembered and cost nothing), or raise the server "
                "setting --max-unseen-documents, or use --relevance bm25")
        return n

    def heavy(self, request: BaseModel) -> bool:
        """True for a request whose work (bounded by the limits) may take more than a few
        milliseconds: it runs on :attr:`cpu_executor`, not on the event loop."""
        if isinstance(request, RerankRequest):
            return len(request.documents) > INLINE_ITEMS or len(request.query) > INLINE_QUERY_CHARS
        if isinstance(request, AuthorityRequest):
            return len(request.urls) > INLINE_ITEMS
        return True  # an audit reads every sentence of the answer

    def rerank(self, request: RerankRequest, api: str, policy: RerankPolicy | None = None,
               deadline: float | None = None) -> dict[str, Any]:
        """Rank the request's documents (:meth:`admit`, then :meth:`Admitted.run`); returns the
        Cohere/Jina-shaped response dict. ``policy`` replaces the server's policy for this request
        (the MCP ``rerank`` tool's ``policy`` argument; ``meta.authorag.policy`` shows the one
        applied). ``deadline`` (``time.monotonic()`` seconds) is checked between the steps.

        Raises:
            LimitExceeded: a request over one of the limits (documents, query, rank_fields, documents
                new to dense relevance).
            Overloaded: its new pages do not fit in ``max_encoding_documents`` beside others'.
            ConfigError: ``urls`` misaligned, or a document object without text.
            DeadlineExceeded: ``deadline`` passed.
        """
        return self.admit(request, deadline).run(api, policy, deadline)

    def admit(self, request: RerankRequest, deadline: float | None = None) -> Admitted:
        """Check the request's limits, read its documents, count the pages dense relevance would
        encode and hold them in :attr:`gate`: everything before the costly step, so the server can
        refuse at once. The pages stay held until :meth:`Admitted.run` ends or :meth:`Admitted.release`.

        Raises:
            LimitExceeded, Overloaded, ConfigError, DeadlineExceeded: as :meth:`rerank`.
        """
        self.warm_up()
        self._check_limits(request)
        self._check_deadline(deadline)
        docs = read_documents(request.documents, request.urls, rank_fields=request.rank_fields,
                              max_chars=self.config.max_doc_chars, max_tokens=request.max_tokens_per_doc)
        unseen = self._check_unseen(docs.texts)
        cands, source = adapters.candidates_of(docs.urls, docs.texts, None, self._relevance_source)
        self._check_deadline(deadline)
        self.gate.take(unseen)
        return Admitted(self, request, docs, cands, source, unseen)

    def finish(self, admitted: Admitted, api: str, policy: RerankPolicy | None,
             deadline: float | None) -> dict[str, Any]:
        """Rank an admitted request and build its answer (the costly step of :meth:`rerank`).

        Raises:
            DeadlineExceeded: ``deadline`` passed.
        """
        assert self._reranker is not None
        request, docs = admitted.request, admitted.docs
        changes = {} if policy is None else _changed_fields(self._reranker.policy, policy)
        try:  # a long step (dense relevance) stops between its batches
            with deadline_scope(deadline):
                ranking = self._reranker.rerank_owned(request.query, admitted.cands, top_k=request.top_n, **changes)
        except DeadlinePassed:
            raise DeadlineExceeded(self.config.request_deadline_s) from None
        self._check_deadline(deadline)
        tiers = Counter([c.authority.tier if c.authority else "unknown" for c in ranking.candidates])
        self.metrics.observe_documents(len(docs.texts), len(docs.without_url), len(docs.truncated), dict(tiers))
        return self._response(request, docs, ranking, api, admitted.source,
                              self._policy if policy is None else policy.to_dict())

    def _response(self, request: RerankRequest, docs: DocumentColumns, ranking: Ranking,
                  api: str, source: str, policy: dict[str, Any]) -> dict[str, Any]:
        echoed = request.return_documents if request.return_documents is not None else api == "jina"
        results: list[dict[str, Any]] = []
        skipped: list[int] = []
        for cand, explanation in zip(ranking.candidates, adapters.breakdowns(ranking, source)):
            index = int(cand.id)
            item: dict[str, Any] = {"index": index, "relevance_score": cand.scores[FUSED_SCORE]}
            if echoed:
                item["document"] = echo(request.documents[index])
            item["authority"] = explanation
            code = cand.authority.skipped if cand.authority is not None else None
            if code is not None:  # the judge was due but skipped: deadline, open circuit, busy pool
                explanation["judge_skipped"] = code
                skipped.append(index)
            results.append(item)
        meta = {
            "api_version": {"version": "2" if api == "v2" else "1"},
            "billed_units": {"search_units": 1},
            "authorag": {"version": API_VERSION, "scorer": None if self._scorer is None else self._scorer.name,
                         "prior_stores": ranking.provenance.get("prior_stores", {}),
                         "relevance": source, "policy": policy,
                         "documents_without_url": docs.without_url, "truncated": docs.truncated,
                         "judge_skipped": sorted(skipped)},
        }
        return {"id": str(uuid.uuid4()), "results": results, "meta": meta,
                "model": request.model or self.config.model_name,
                "usage": {"total_tokens": _token_estimate(request.query, docs.texts)}}

    def authority(self, request: AuthorityRequest, deadline: float | None = None) -> dict[str, Any]:
        """Authority of each URL/host in input order (nothing is fetched).

        Raises:
            LimitExceeded: more URLs than the server allows.
            DeadlineExceeded: ``deadline`` passed before the work began.
        """
        self._check_deadline(deadline)
        n, cap = len(request.urls), self.config.max_urls
        if n > cap:
            raise LimitExceeded("too_many_urls", f"urls has {n} entries, the limit is {cap} per request; "
                                "split the request (server setting --max-urls)")
        self.warm_up()
        assert self._scorer is not None
        cands = [Candidate.create(u.strip(), id=str(i)) for i, u in enumerate(request.urls)]
        details = self._scorer.score(cands)
        types = self._types.classify_many(cands)
        rule = trust_rule_for(self.config.policy.unknown_level)
        results = [{**adapters.source_authority(u, c, d, t.to_dict(), rule),
                    "error": None if c.domain else "no readable host or domain in this input"}
                   for u, c, d, t in zip(request.urls, cands, details, types)]
        return {"version": API_VERSION, "results": results,
                "meta": {"scorer": self._scorer.name, "count": len(results)}}

    def audit(self, request: AuditRequest, deadline: float | None = None) -> dict[str, Any]:
        """Audit one answer with the configured authority scorer (no LLM judge; nothing fetched).

        Raises:
            LimitExceeded: the answer is over one of the audit limits.
            DeadlineExceeded: ``deadline`` passed (the lexical rule stops between statements and
                sources, so the thread is freed soon after).
        """
        from authorag.audit.pipeline import audit

        self.warm_up()
        self._check_deadline(deadline)
        try:
            with deadline_scope(deadline):
                report = audit(request.model_dump(exclude_none=True), scorer=self._scorer,
                               limits=self.config.audit_limits())
        except DeadlinePassed:
            raise DeadlineExceeded(self.config.request_deadline_s) from None
        self._check_deadline(deadline)
        return report.to_dict()

    def _check_deadline(self, deadline: float | None) -> None:
        if deadline is not None and time.monotonic() >= deadline:
            raise DeadlineExceeded(self.config.request_deadline_s)


def _token_estimate(query: str, texts: Sequence[str]) -> int:
    """Jina-style ``usage.total_tokens``: characters of the query and the scored texts / 4.

    An estimate (the usual rule of thumb for subword tokenizers): no tokenizer runs here, and
    counting words would cost more than the rest of the response.

    Example:
        >>> _token_estimate("four", ["twelve chars"])
        4
    """
    return max(1, (len(query) + sum(map(len, texts))) // 4)


def _changed_fields(base: RerankPolicy, policy: RerankPolicy) -> dict[str, Any]:
    """The fields of ``policy`` that differ from ``base`` (the reranker's per-call overrides)."""
    return {f.name: getattr(policy, f.name) for f in dataclasses.fields(RerankPolicy)
            if getattr(policy, f.name) != getattr(base, f.name)}


def _judging_tier(scorer: object) -> object:
    """The scorer that holds the judge: the composition's inner hybrid, or the scorer itself."""
    return scorer if hasattr(scorer, "judge") else getattr(scorer, "inner", None)


class DeadlineExceeded(AuthoragError):
    """A request ran past the server's deadline (HTTP 503 ``deadline_exceeded``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the request did not finish within the server's deadline of {seconds:g} s; retry later, or "
                         "send fewer or shorter documents (server setting --request-deadline)")


INLINE_ITEMS = 256
"""Rerank documents or authority URLs up to which a request runs on the event loop (about a
millisecond of work); larger requests run on the CPU threads."""
INLINE_QUERY_CHARS = 2_000
"""Query length up to which a rerank request may run on the event loop."""
