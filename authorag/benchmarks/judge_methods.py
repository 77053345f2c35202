"""LLM-judge entries of the method registry: every judge × output mode × with/without text.

Names are ``judge-<point|pair|list>-<score|rank>[-bubble][-greedy][-text]`` (``-bubble``: PairRank
preferences sorted by BubbleSort instead of AverageScore). ``judge-pair-rank`` sends PairRank (A or
B) prompts, ``judge-pair-score`` PairJudge-PointScore prompts. The run's protocol
(``MethodContext.protocol``: ``authorag`` or ``paper``) picks the judges' prompt set; the paper
protocol decodes greedily, so ``-greedy`` names only matter under ``authorag``. Documents
without text are shown by their full URL (RAGAuth's authority filter: the URL list only). A judge
class that is not installed in this build simply has no entries. Backends: ``local`` (a GGUF model
in-process via the judges' local backend), ``openai`` (any OpenAI-compatible server; ``--option base_url=...``)
and ``fake`` (a scripted, deterministic backend from :mod:`authorag.testing` for smoke runs).

Example:
    >>> "judge-point-score" in {s.name for s in judge_specs()}
    True
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from authorag.benchmarks.methods import BenchMethod, MethodContext, MethodSpec, make_backend
from authorag.benchmarks.tasks import BenchItem, ItemKind

log = logging.getLogger(__name__)

# judge form -> output modes (the judges' own registry builds them: authorag.judges.registry)
_FORMS: dict[str, tuple[str, ...]] = {"point": ("score",), "pair": ("score", "rank"), "list": ("score", "rank")}
_BUBBLE = ("pair", "rank")  # the one form × output with a BubbleSort aggregate
_TEXT_BUDGET = 600


def to_judge_item(item: BenchItem, with_text: bool, full_url: bool = False) -> Any:
    """BenchItem → JudgeItem: entity, bare domain, URL (``full_url``) or URL + truncated page text."""
    from authorag.judges.items import JudgeItem, shorten

    if "kind" in item.meta and not item.url:
        return JudgeItem.entity(item.text, str(item.meta["kind"]))
    if with_text:
        return JudgeItem(label=item.url, kind="url", text=shorten(item.text, _TEXT_BUDGET))
    if full_url:
        return JudgeItem(label=item.url, kind="url")
    from authorag.benchmarks.tasks import normalize_key

    return JudgeItem(label=normalize_key(item.url) or item.url, kind="domain")


class JudgeMethod:
    """Adapts a judge to the benchmark: pointwise judges are cached per item, group judges
    (pair, list) see each LE list or PE pair as one call. Rank output → score = n − position."""

    def __init__(self, name: str, judge: Any, *, pointwise: bool, with_text: bool, full_url: bool = False) -> None:
        self.name = name
        self.judge = judge
        self.pointwise = pointwise
        self.with_text = with_text
        self.full_url = full_url
        self._cache: dict[str, float | None] = {}
        self._totals: dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0,
                                          "cache_hits": 0, "attempts": 0, "parse_failures": 0, "latency_s": 0.0}
        self._backend = f"{judge.backend.name}:{judge.backend.model}"
        self._prompt_version: str | None = None

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """Judge scores for ``items`` (None where the judge skipped an item)."""
        if not self.pointwise:
            return self._run(items)
        todo = list({i.key: i for i in items if i.key not in self._cache}.values())
        if todo:
            for item, value in zip(todo, self._run(todo)):
                self._cache[item.key] = value
        return [self._cache[i.key] for i in items]

    def _run(self, items: Sequence[BenchItem]) -> list[float | None]:
        run = self.judge.judge([to_judge_item(i, self.with_text, self.full_url) for i in items])
        for key, value in run.cost.to_dict().items():
            self._totals[key] = self._totals.get(key, 0) + value
        self._totals["attempts"] += run.attempts
        self._totals["parse_failures"] += run.parse_failures
        self._prompt_version = run.prompt_version
        if run.output == "rank" and run.order is not None:
            out: list[float | None] = [None] * len(items)
            for pos, idx in enumerate(run.order):
                out[idx] = float(len(items) - pos)
            return out
        return [s.score for s in run.scores]

    def info(self) -> dict[str, Any]:
        """Backend, prompt set, calls, tokens, cache hits, parse failures."""
        return {"backend": self._backend, "with_text": self.with_text, "prompt_set": self.judge.prompt_set,
                "prompt_version": self._prompt_version, **self._totals}


def _factory(form: str, output: str, greedy: bool, with_text: bool, bubble: bool = False) -> Any:
    def build(ctx: MethodContext) -> BenchMethod:
        from authorag.judges.registry import load_judge

        kwargs: dict[str, Any] = {"with_text": with_text, "on_failure": "skip", "use_logprobs": not greedy,
                                  "prompt_set": ctx.protocol}
        if form != "point":
            kwargs["output"] = output
        if bubble:
            kwargs["aggregate"] = "bubble"
        if with_text:
            kwargs["text_budget"] = _TEXT_BUDGET
        judge = load_judge(form, make_backend(ctx), **kwargs)
        name = _name(form, output, greedy, with_text, bubble)
        return JudgeMethod(name, judge, pointwise=form == "point", with_text=with_text,
                           full_url=ctx.item_kind == "document")

    return build


def _name(form: str, output: str, greedy: bool, with_text: bool, bubble: bool = False) -> str:
    return (f"judge-{form}-{output}{'-bubble' if bubble else ''}{'-greedy' if greedy else ''}"
            f"{'-text' if with_text else ''}")


def judge_specs() -> list[MethodSpec]:
    """Registry entries for every judge form × output (× BubbleSort for PairRank) × logprob/greedy
    × with/without text."""
    specs: list[MethodSpec] = []
    for form, outputs in _FORMS.items():
        for output in outputs:
            for bubble in (False, True) if (form, output) == _BUBBLE else (False,):
                for greedy in (False, True):
                    for with_text in (False, True):
                        kinds: tuple[ItemKind, ...] = ("document",) if with_text else ("domain", "entity", "document")
                        desc = (f"{form} judge, {output} output{' (BubbleSort)' if bubble else ''}, "
                                f"{'greedy digits' if greedy else 'logprob expectation'}, "
                                f"{'URL + page text' if with_text else 'name only'}")
                        specs.append(MethodSpec(_name(form, output, greedy, with_text, bubble),
                                                _factory(form, output, greedy, with_text, bubble), kinds, True, desc))
    return specs
