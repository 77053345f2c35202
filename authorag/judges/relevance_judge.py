"""Relevance and utility judges: ListJudge-PointScore over (question, documents).

These are the paper's RAG baselines. :class:`RelevanceJudge` scores how relevant each document
is to the question. :class:`UtilityJudge` first writes a short pseudo-answer from the documents,
then scores how useful each document is for a correct answer. Both implement
:class:`~authorag.relevance.base.RelevanceScorer` (scores 0–1; NaN where ``on_failure="skip"``
left a document unscored — the reranker must treat it as unknown, never as a low score).

Example:
    >>> from authorag.testing import FakeBackend
    >>> judge = RelevanceJudge(FakeBackend(["[0]: 9\\n[1]: 0\\n"]), use_logprobs=False)
    >>> docs = [Candidate.create("https://a.org/x", text="Vaccines do not cause autism."),
    ...         Candidate.create("https://b.org/y", text="A cake recipe.")]
    >>> judge.score("Do vaccines cause autism?", docs)
    [1.0, 0.0]
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import LLMBackend
from authorag.judges.base import ItemScore, JudgeBase, JudgeRun, RunLog
from authorag.judges.items import JudgeItem
from authorag.judges.list_judge import score_lines
from authorag.judges.prompts import prompt_id, render, version_for
from authorag.types import Candidate

logger = logging.getLogger(__name__)


class RelevanceJudge(JudgeBase):
    """Scores each document's relevance to a question (0–9, normalized to 0–1).

    Args:
        backend: any LLMBackend.
        window: most documents per prompt (longer lists are scored in chunks).
        text_budget: characters of each document's text shown.
        on_failure, use_logprobs: see :class:`~authorag.judges.base.JudgeBase`.
    """

    method = "relevance"
    template = "relevance_list_score"

    def __init__(self, backend: LLMBackend, *, window: int = 10, text_budget: int = 600, **kw: Any) -> None:
        if window < 1:
            raise ConfigError(f"window must be >= 1, got {window}")
        kw.pop("with_text", None)  # documents are always shown with their text
        super().__init__(backend, with_text=True, text_budget=text_budget, **kw)
        self.window = window

    def judge_query(self, query: str, candidates: Sequence[Candidate | JudgeItem | str]) -> JudgeRun:
        """Score every document for ``query``; scores in input order."""
        if not query.strip():
            raise ConfigError("a relevance/utility judge needs a non-empty question")
        items = self.items(candidates)
        log = RunLog()
        extra = self.prepare(query, items, log)
        pid = prompt_id(self.prompt_name(self.template))
        scores: list[ItemScore] = []
        for start in range(0, len(items), self.window):
            chunk = items[start : start + self.window]
            scores.extend(self._chunk(query, chunk, extra, log, pid))
        return self.finish(log, items, scores, "score", self.prompt_version())

    def prepare(self, query: str, items: list[JudgeItem], log: RunLog) -> dict[str, str]:
        """Extra template values computed before scoring (the utility judge's pseudo-answer)."""
        del query, items, log
        return {}

    def prompt_version(self) -> str:
        """Template id(s) recorded in results."""
        return prompt_id(self.prompt_name(self.template))

    def _chunk(self, query: str, chunk: list[JudgeItem], extra: dict[str, str], log: RunLog, pid: str) -> list[ItemScore]:
        messages = render(self.prompt_name(self.template), items=chunk, question=query, **extra)
        try:
            lines = score_lines(self, log, messages, len(chunk), pid, base=self.template)
        except JudgeError as exc:
            self.fail(log, f"{len(chunk)} documents: {exc}", exc)
            return [ItemScore(it.key, None, None, None, pid, error=str(exc)) for it in chunk]
        return [
            ItemScore(it.key, raw, None if raw is None else raw / 9.0, mode if raw is not None else None, pid,
                      error=None if raw is not None else "no score for this document in the output")
            for it, (raw, mode) in zip(chunk, lines, strict=True)
        ]

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:  # type: ignore[override]
        """RelevanceScorer: one 0–1 score per candidate (NaN where skipped)."""
        if not candidates:
            return []
        run = self.judge_query(query, list(candidates))
        return [float("nan") if s.score is None else s.score for s in run.scores]


class UtilityJudge(RelevanceJudge):
    """Writes a pseudo-answer from the documents, then scores each document's usefulness.

    The pseudo-answer prompt is neutral (answer from the documents only, no preference for
    authoritative sources, which would make utility a disguised authority filter) and hardened
    against injected page text (``utility_pseudo_answer_v3``; see
    :data:`authorag.judges.prompts.TEXT_VERSIONS`). Under the
    paper prompt set there is one call: a pseudo-answer per document, then its score, in one
    JSON object (after Zhang et al. 2024, as AuthorityBench runs it).

    Example:
        >>> from authorag.testing import FakeBackend
        >>> fake = FakeBackend(["No, they do not.", "[0]: 9\\n[1]: 0\\n"])
        >>> run = UtilityJudge(fake, use_logprobs=False).judge_query("Do vaccines cause autism?",
        ...     [Candidate.create("https://a.org", text="No."), Candidate.create("https://b.org", text="Cake.")])
        >>> [s.raw for s in run.scores], run.stats["pseudo_answer"]
        ([9.0, 0.0], 'No, they do not.')
    """

    method = "utility"
    template = "utility_list_score"
    answer_template = "utility_pseudo_answer"
    answer_version = version_for("utility_pseudo_answer")

    def prepare(self, query: str, items: list[JudgeItem], log: RunLog) -> dict[str, str]:
        """Write the pseudo-answer (one call; empty answer when it fails under ``skip``).
        The paper prompt set writes per-document answers inside the scoring call instead."""
        if self.prompt_set == "paper":
            return {}
        pid = prompt_id(self.answer_template, self.answer_version)
        messages = render(self.answer_template, items=items[: self.window], question=query,
                          version=self.answer_version)
        try:
            completion = self.call(log, messages, pid, max_tokens=160)
        except JudgeError as exc:
            self.fail(log, f"pseudo-answer: {exc}", exc)
            return {"pseudo_answer": "(none)"}
        answer = " ".join(completion.text.split()) or "(none)"
        log.stats["pseudo_answer"] = answer
        return {"pseudo_answer": answer}

    def prompt_version(self) -> str:
        """Both templates used (one under the paper prompt set)."""
        if self.prompt_set == "paper":
            return prompt_id(self.prompt_name(self.template))
        return f"{prompt_id(self.answer_template, self.answer_version)}+{prompt_id(self.template)}"


__all__ = ["RelevanceJudge", "UtilityJudge"]
