"""ListJudge: ListRank permutations (with repairs, sliding windows) and PointScore."""
from __future__ import annotations

import pytest
from judge_fakes import TRUTH, knowing_model

from authorag.errors import ConfigError, JudgeResponseError
from authorag.judges.list_judge import ListJudge, sliding_windows
from authorag.testing import FakeBackend, fake_completion

DOMAINS = ["medium.com", "cheap-pills.biz", "nih.gov", "joes-plumbing.com", "bbc.co.uk", "wikipedia.org"]


def test_list_rank_exact_order() -> None:
    run = ListJudge(FakeBackend(knowing_model), output="rank").judge(DOMAINS)
    assert run.order == (2, 4, 5, 0, 3, 1)
    assert run.scores[2].raw == 9.0 and run.scores[1].raw == 0.0
    assert run.cost.calls == 1 and run.repairs == 0


def test_list_rank_repairs_are_counted() -> None:
    run = ListJudge(FakeBackend(["Sure! [2] > [2] > [0] > [7]"]), output="rank").judge(["a.com", "b.com", "c.com", "d.com"])
    assert run.order == (2, 0, 1, 3)
    assert run.stats["duplicate_ids"] == 1 and run.stats["invalid_ids"] == 1 and run.stats["missing_ids"] == 2
    assert run.repairs == 4


def test_sliding_window_ranks_long_lists() -> None:
    assert sliding_windows(12, 10, 5) == [(2, 12), (0, 7)]
    assert sliding_windows(4, 10, 5) == [(0, 4)]
    truth = {f"s{i}.com": i for i in range(12)}

    def model(request):
        import re

        names = re.findall(r"Domain: (\S+)", request.messages[-1]["content"])
        order = sorted(range(len(names)), key=lambda i: -truth[names[i]])
        return " > ".join(f"[{i}]" for i in order)

    fake = FakeBackend(model)
    run = ListJudge(fake, output="rank", window=10, step=5).judge(list(truth))
    assert run.cost.calls == 2 and run.stats["windows"] == 2
    assert run.order[:5] == (11, 10, 9, 8, 7)  # the top of the list is exact after two windows


def test_point_score_logprobs() -> None:
    text = "[0]: 3\n[1]: 9\n"
    steps: list[dict[str, float]] = [{c: 1.0} for c in text]
    steps[5] = {"3": 0.5, "5": 0.5}
    steps[12] = {"9": 0.75, "5": 0.25}
    fake = FakeBackend([fake_completion(text, steps)])
    run = ListJudge(fake).judge(["a.biz", "nih.gov"])
    assert [s.raw for s in run.scores] == pytest.approx([4.0, 8.0])
    assert [s.mode for s in run.scores] == ["logprob", "logprob"]
    assert fake.requests[0].grammar == 'root ::= "[0]: " [0-9] "\\n" "[1]: " [0-9] "\\n"'


def test_point_score_greedy_chunks_and_missing_item() -> None:
    fake = FakeBackend(["[0]: 9\n[1]: 8\n", "```json\n{\"0\": 5}\n```"])
    run = ListJudge(fake, window=2, step=1, use_logprobs=False, on_failure="skip").judge(["nih.gov", "bbc.co.uk", "medium.com", "x.biz"])
    assert [s.raw for s in run.scores] == [9.0, 8.0, 5.0, None]
    assert run.scores[3].error == "no score for this item in the output"
    assert run.repairs == 1 and run.stats["windows"] == 2


def test_point_score_unparseable_raises() -> None:
    with pytest.raises(JudgeResponseError, match="expected a 0-9 score for each"):
        ListJudge(FakeBackend(["I refuse."]), use_logprobs=False).judge(["a.com", "b.com"])


def test_knowing_model_scores() -> None:
    run = ListJudge(FakeBackend(knowing_model), use_logprobs=False).judge(DOMAINS)
    assert [s.raw for s in run.scores] == [float(TRUTH[d]) for d in DOMAINS]


def test_bad_window() -> None:
    with pytest.raises(ConfigError, match="need window >= 2 and 0 < step < window"):
        ListJudge(FakeBackend([]), window=5, step=5)
