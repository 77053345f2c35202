"""The audit's LLM steps on any judge backend: relevance, stance, confidence, support,
decomposition, SourceBench rubrics, CiteTrace intent–purpose alignment and fidelity.

Every call goes through the backend it is given (wrap it with ``load_backend(..., cache=True)``
for the persistent judge cache) and through a :class:`~authorag.judges.cost.MeteredBackend`
labelled with the step, so calls and tokens are counted per step. Requests are greedy
(temperature 0) with a GBNF grammar that fixes the output format; servers that reject grammars
get the plain request and the text is parsed the same way.

Failure policy (``on_failure``): ``"raise"`` re-raises the backend's
:class:`~authorag.errors.JudgeError` or the parse error; ``"skip"`` logs the reason, records it in
:attr:`AuditJudge.failures` and leaves the value None. A step never invents a verdict.

Progress: every call (answered or failed) reports :data:`PROGRESS_TASK` to
:mod:`authorag.progress` with the calls done and the calls announced by :meth:`AuditJudge.expect`
(the pipeline announces each answer's calls before it asks them).

Example:
    >>> from authorag.testing import FakeBackend
    >>> judge = AuditJudge(FakeBackend(["[0]: yes\\n[1]: no\\n"]))
    >>> judge.relevance("Do flu shots work?", ["They cut risk by half.", "Hello!"])
    [True, False]
    >>> judge.meter.totals().calls
    1
"""
from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template
from typing import Literal, cast, get_args

from authorag.audit.model import AuditSource, Stance
from authorag.audit.rubrics import RUBRICS
from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.judges.base import JudgeCost
from authorag.judges.cost import CostMeter, MeteredBackend
from authorag.progress import report

logger = logging.getLogger(__name__)

FailurePolicy = Literal["raise", "skip"]
PROMPT_VERSION = "v1"
DEFAULT_TEXT_BUDGET = 500
"""Characters of each source's text shown to the model."""
PROGRESS_TASK = "audit LLM calls"
"""The :mod:`authorag.progress` task every audit LLM call reports (done / expected calls)."""


@cache
def _template(name: str) -> tuple[str, str]:
    path = resources.files("authorag.audit.prompts").joinpath(f"{name}_{PROMPT_VERSION}.txt")
    text = path.read_text(encoding="utf-8")
    system, user = text.split("[user]", 1)
    return system.replace("[system]", "", 1).strip(), user.strip()


def render(name: str, **values: str) -> list[dict[str, str]]:
    """Chat messages for prompt ``name`` (``audit_support`` ...) with ``values`` filled in."""
    system, user = _template(name)
    return [{"role": "system", "content": system}, {"role": "user", "content": Template(user).substitute(values)}]


def _list_grammar(n: int, choices: Sequence[str]) -> str:
    value = " | ".join(f'"{c}"' for c in choices)
    lines = " ".join(f'"[{i}]: " v "\\n"' for i in range(n))
    return f"root ::= {lines}\nv ::= {value}\n"


def _word_grammar(choices: Sequence[str]) -> str:
    return "root ::= " + " | ".join(f'"{c}"' for c in choices) + "\n"


_RUBRIC_GRAMMAR = "root ::= " + " ".join(f'"{r}: " d "\\n"' for r in RUBRICS) + '\nd ::= [1-5]\n'
_LINE = re.compile(r"^\s*\[?(\d+)\]?\s*[:.)-]\s*\**\s*([A-Za-z]+|\d)", re.MULTILINE)


def parse_list(text: str, n: int, choices: Sequence[str]) -> list[str | None]:
    """``[i]: word`` lines → one choice per item (None where missing); raises if none parse.

    Example:
        >>> parse_list("[0]: Yes\\n[2]: no", 3, ("yes", "no"))
        ['yes', None, 'no']
    """
    out: list[str | None] = [None] * n
    for m in _LINE.finditer(text):
        i, word = int(m.group(1)), m.group(2).lower()
        if 0 <= i < n and word in choices and out[i] is None:
            out[i] = word
    if n and all(v is None for v in out):
        raise JudgeResponseError(f"no '[i]: {'|'.join(choices)}' line could be read", text)
    return out


def format_source(source: AuditSource, budget: int, ident: str = "") -> str:
    """A source as shown to the model: URL, title and the first ``budget`` characters of text."""
    lead = f"{ident} " if ident else ""
    text = " ".join(source.text.split())
    text = text if len(text) <= budget else text[:budget].rsplit(" ", 1)[0] + " ..."
    lines = [f"{lead}URL: {source.url or '(none)'}"]
    if source.title:
        lines.append(f"{' ' * len(lead)}Title: {source.title}")
    lines.append(f"{' ' * len(lead)}Text: {text or '(no text given)'}")
    return "\n".join(lines)


@dataclasses.dataclass(slots=True)
class _CallCount:
    done: int = 0
    expected: int = 0


class AuditJudge:
    """Runs the audit's LLM steps on one backend, with a failure policy and a cost meter.

    Args:
        backend: any LLMBackend (embedded llama.cpp, OpenAI-compatible, the cache wrapper).
        on_failure: ``"raise"`` or ``"skip"`` (see the module docstring).
        text_budget: characters of each source's text shown.
        meter: where calls are recorded (a new meter when None).
    """

    def __init__(self, backend: LLMBackend, *, on_failure: FailurePolicy = "skip",
                 text_budget: int = DEFAULT_TEXT_BUDGET, meter: CostMeter | None = None) -> None:
        if on_failure not in get_args(FailurePolicy):
            raise ConfigError(f"on_failure must be one of {list(get_args(FailurePolicy))}, got {on_failure!r}")
        if text_budget < 1:
            raise ConfigError(f"text_budget must be >= 1, got {text_budget}")
        self.backend = backend
        self.on_failure: FailurePolicy = on_failure
        self.text_budget = text_budget
        self.meter = meter if meter is not None else CostMeter()
        self.failures: list[str] = []
        self.usage = JudgeCost()
        """Calls and tokens of every answered call, cache hits included at their original cost
        (what the audit costs without a cache); the meter counts tokens actually spent."""
        self._calls = _CallCount()

    def fork(self) -> AuditJudge:
        """A judge on the same backend with a fresh meter and failure list (one per answer).

        Forks share one progress count, so a batch shows one bar of calls done / expected.
        """
        child = AuditJudge(self.backend, on_failure=self.on_failure, text_budget=self.text_budget)
        child._calls = self._calls
        return child

    def expect(self, calls: int) -> None:
        """Announce ``calls`` more LLM calls (the total of the :data:`PROGRESS_TASK` progress events)."""
        self._calls.expected += calls

    def _ask(self, step: str, messages: list[dict[str, str]], grammar: str, max_tokens: int) -> str | None:
        request = ChatRequest(messages=messages, max_tokens=max_tokens, grammar=grammar,
                              prompt_version=f"{step}_{PROMPT_VERSION}")
        try:
            completion = MeteredBackend(self.backend, self.meter, label=step).complete(request)
        except JudgeError as exc:
            self._progress()
            self._fail(step, exc)
            return None
        self._progress()
        self.usage = self.usage.add(dataclasses.replace(completion, cached=False))
        return completion.text

    def _progress(self) -> None:
        self._calls.done += 1
        report(PROGRESS_TASK, self._calls.done, max(self._calls.expected, self._calls.done) or None, unit="calls")

    def _fail(self, step: str, exc: JudgeError) -> None:
        if isinstance(exc, JudgeResponseError):
            self.meter.record_parse_failure(step)
        if self.on_failure == "raise":
            raise exc
        logger.warning("audit step %s skipped: %s", step, exc)
        self.failures.append(f"{step}: {exc}")

    def _list_step(self, step: str, items: list[str], choices: Sequence[str], **values: str) -> list[str | None]:
        if not items:
            return []
        block = "\n".join(f"[{i}] {t}" for i, t in enumerate(items))
        text = self._ask(f"audit_{step}", render(f"audit_{step}", items=block, count=str(len(items)), **values),
                         _list_grammar(len(items), choices), 8 * len(items) + 8)
        if text is None:
            return [None] * len(items)
        try:
            return parse_list(text, len(items), choices)
        except JudgeResponseError as exc:
            self._fail(f"audit_{step}", exc)
            return [None] * len(items)

    def _yes_no(self, step: str, **values: str) -> bool | None:
        text = self._ask(f"audit_{step}", render(f"audit_{step}", **values), _word_grammar(("yes", "no")), 4)
        if text is None:
            return None
        word = text.strip().lower().rstrip(".")
        if word not in ("yes", "no"):
            self._fail(f"audit_{step}", JudgeResponseError("expected yes or no", text))
            return None
        return word == "yes"

    def relevance(self, question: str, statements: Sequence[str]) -> list[bool | None]:
        """Is each statement relevant to the question (one call for all statements)."""
        got = self._list_step("relevance", list(statements), ("yes", "no"), question=question)
        return [None if v is None else v == "yes" for v in got]

    def stance(self, question: str, statements: Sequence[str]) -> list[Stance | None]:
        """pro / con / none per statement (one call)."""
        got = self._list_step("stance", list(statements), ("pro", "con", "none"), question=question)
        return [cast(Stance, v) if v is not None else None for v in got]

    def confidence(self, question: str, answer: str) -> int | None:
        """How certain the answer sounds, 1–5 (one call)."""
        text = self._ask("audit_confidence", render("audit_confidence", question=question, answer=answer),
                         "root ::= [1-5]\n", 2)
        if text is None:
            return None
        m = re.search(r"[1-5]", text)
        if m is None:
            self._fail("audit_confidence", JudgeResponseError("expected one digit 1-5", text))
            return None
        return int(m.group(0))

    def support(self, statement: str, sources: Sequence[AuditSource]) -> list[int] | None:
        """One 0/1 per source: does it support the statement (one call; None if skipped)."""
        block = "\n".join(format_source(s, self.text_budget, f"[{j}]") for j, s in enumerate(sources))
        if not sources:
            return []
        text = self._ask("audit_support", render("audit_support", statement=statement, items=block,
                                                 count=str(len(sources))),
                         _list_grammar(len(sources), ("yes", "no")), 8 * len(sources) + 8)
        if text is None:
            return None
        try:
            got = parse_list(text, len(sources), ("yes", "no"))
        except JudgeResponseError as exc:
            self._fail("audit_support", exc)
            return None
        if any(v is None for v in got):
            self._fail("audit_support", JudgeResponseError(f"a verdict is missing for {got.count(None)} sources", text))
            return None
        return [int(v == "yes") for v in got]

    def decompose(self, sentence: str) -> list[str]:
        """Atomic claims of one sentence (the sentence itself when the step fails)."""
        text = self._ask("audit_decompose", render("audit_decompose", statement=sentence),
                         r'root ::= ("- " [^\n]+ "\n"){1,6}' + "\n", 200)
        claims = [ln[2:].strip() for ln in (text or "").splitlines() if ln.startswith("- ") and ln[2:].strip()]
        return claims or [sentence]

    def rubrics(self, question: str, source: AuditSource) -> dict[str, int | None]:
        """The eight SourceBench rubric scores (1–5) of one source (one call)."""
        text = self._ask("audit_rubrics", render("audit_rubrics", question=question,
                                                 items=format_source(source, self.text_budget)),
                         _RUBRIC_GRAMMAR, 120)
        found = dict(re.findall(r"(\w+)\s*:\s*([1-5])", text or ""))
        scores: dict[str, int | None] = {r: int(found[r]) if r in found else None for r in RUBRICS}
        if text is not None and all(v is None for v in scores.values()):
            self._fail("audit_rubrics", JudgeResponseError("no 'rubric: digit' line could be read", text))
        return scores

    def fidelity(self, statement: str, source: AuditSource) -> bool | None:
        """Does the statement represent the cited source faithfully (one call)."""
        return self._yes_no("fidelity", statement=statement, items=format_source(source, self.text_budget))

    def intent(self, question: str, source: AuditSource) -> bool | None:
        """Does the source's purpose fit the question's intent (one call)."""
        return self._yes_no("intent", question=question, items=format_source(source, self.text_budget))


__all__ = ["DEFAULT_TEXT_BUDGET", "PROGRESS_TASK", "PROMPT_VERSION", "AuditJudge", "FailurePolicy", "format_source",
           "parse_list", "render"]
