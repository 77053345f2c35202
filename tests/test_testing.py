"""authorag.testing: the scripted FakeBackend and fake_completion."""
from __future__ import annotations

import math

import pytest

from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.testing import FakeBackend, fake_completion

REQ = ChatRequest(messages=[{"role": "user", "content": "Domain: cdc.gov"}])


def test_list_script_in_order_and_exhaustion() -> None:
    fake = FakeBackend(["1", fake_completion("2"), ValueError("bad")])
    assert isinstance(fake, LLMBackend)
    assert [fake.complete(REQ).text, fake.complete(REQ).text] == ["1", "2"]
    with pytest.raises(ValueError, match="bad"):
        fake.complete(REQ)
    with pytest.raises(JudgeError, match="script exhausted after 3 answers"):
        fake.complete(REQ)
    assert len(fake.requests) == 4


async def test_callable_script_async() -> None:
    fake = FakeBackend(lambda r: r.messages[-1]["content"][-3:], model="m")
    completion = await fake.acomplete(REQ)
    assert (completion.text, completion.model) == ("gov", "m")


def test_fake_completion_logprobs() -> None:
    one = fake_completion("7", {"7": 0.5, "8": 0.25, "9": 0.0})
    assert one.logprobs is not None
    assert one.logprobs[0].top == {"7": math.log(0.5), "8": math.log(0.25), "9": -math.inf}
    two = fake_completion("AB", [{"A": 1.0}, {"B": 0.5, "C": 0.5}])
    assert two.logprobs is not None and [t.token for t in two.logprobs] == ["A", "B"]
    with pytest.raises(ConfigError, match="got 2 logprob steps for text 'ABC'"):
        fake_completion("ABC", [{"A": 1.0}, {"B": 1.0}])
