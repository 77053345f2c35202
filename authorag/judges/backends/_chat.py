"""OpenAI chat-completion shapes, written once for every backend.

:func:`build_payload` turns a :class:`ChatRequest` into the JSON body an OpenAI-compatible
server (or xllamacpp in-process) takes; :func:`parse_response` turns the JSON answer into a
:class:`Completion`. The OpenAI backend sends the same body through the ``openai`` client
(non-standard keys such as ``grammar`` travel in ``extra_body``).

Example:
    >>> from authorag.judges.backends.base import ChatRequest
    >>> body = build_payload(ChatRequest(messages=[{"role": "user", "content": "hi"}],
    ...                                  grammar="root ::= [0-9]"), model="m")
    >>> body["grammar"], body["max_tokens"]
    ('root ::= [0-9]', 16)
"""
from __future__ import annotations

import logging
import math
from collections.abc import Collection, Mapping
from typing import Any

from authorag.errors import JudgeError, JudgeResponseError
from authorag.judges.backends.base import ChatRequest, Completion, Feature, TokenLogprob

logger = logging.getLogger(__name__)

#: Body keys the ``openai`` client accepts as named arguments; the rest go in ``extra_body``.
OPENAI_ARGS = frozenset(
    {"model", "messages", "max_tokens", "temperature", "seed", "logprobs", "top_logprobs",
     "response_format"}
)


def build_payload(
    request: ChatRequest, *, model: str, drop: Collection[Feature] = ()
) -> dict[str, Any]:
    """Build the chat-completions JSON body, leaving out the features in ``drop``.

    Example:
        >>> req = ChatRequest(messages=[{"role": "user", "content": "x"}], logprobs=True)
        >>> sorted(build_payload(req, model="m", drop=("logprobs",)))
        ['max_tokens', 'messages', 'model', 'seed', 'temperature']
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": [dict(m) for m in request.messages],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "seed": request.seed,
    }
    if request.grammar is not None and "grammar" not in drop:
        body["grammar"] = request.grammar
    if request.json_schema is not None and "json_schema" not in drop:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "answer", "schema": dict(request.json_schema)},
        }
    if request.logprobs and "logprobs" not in drop:
        body["logprobs"] = True
        body["top_logprobs"] = request.top_logprobs
        if request.constrained_probs and "constrained_probs" not in drop:
            body.update(_CONSTRAINED)
    return body


# llama.cpp reports post-sampling probabilities only for tokens the sampler chain keeps:
# temperature 1 with every truncation off keeps the whole grammar-allowed distribution.
_CONSTRAINED: dict[str, Any] = {
    "post_sampling_probs": True, "temperature": 1.0, "top_k": 0, "top_p": 1.0, "min_p": 0.0,
}


def used_features(request: ChatRequest) -> tuple[Feature, ...]:
    """The optional features a request asks for, in the order a fallback drops them.

    Example:
        >>> used_features(ChatRequest(messages=[], grammar="root ::= [0-9]", logprobs=True))
        ('grammar', 'logprobs')
    """
    asked: dict[Feature, bool] = {
        "constrained_probs": request.logprobs and request.constrained_probs,
        "json_schema": request.json_schema is not None,
        "grammar": request.grammar is not None,
        "logprobs": request.logprobs,
    }
    return tuple(f for f, on in asked.items() if on)


def split_openai_args(body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a body into ``openai`` named arguments and ``extra_body``.

    Example:
        >>> split_openai_args({"model": "m", "grammar": "g"})
        ({'model': 'm'}, {'grammar': 'g'})
    """
    named = {k: v for k, v in body.items() if k in OPENAI_ARGS}
    extra = {k: v for k, v in body.items() if k not in OPENAI_ARGS}
    return named, extra


def parse_response(
    data: Any,
    *,
    latency_s: float,
    model: str,
    dropped: tuple[Feature, ...] = (),
    server_model: bool = True,
) -> Completion:
    """Turn a chat-completions JSON answer into a :class:`Completion`.

    ``model`` is reported unless ``server_model`` is set and the answer names its model
    (remote servers give versioned names; the embedded server gives a file path).

    Raises:
        JudgeError: the answer is an error object.
        JudgeResponseError: the answer is not a chat completion (no choices, wrong types).

    Example:
        >>> parse_response({"choices": [{"message": {"content": "7"}, "finish_reason": "stop"}],
        ...                 "usage": {"prompt_tokens": 9, "completion_tokens": 1}},
        ...                latency_s=0.1, model="m").text
        '7'
    """
    if not isinstance(data, Mapping):
        raise JudgeResponseError(f"the model server answered with a JSON {type(data).__name__}, not a chat "
                                 f"completion object: {str(data)[:200]}")
    if "error" in data:
        raise JudgeError(f"the model server answered with an error: {str(data['error'])[:300]}")
    choices = data.get("choices") or []
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise JudgeResponseError(f"the model server answered without a list of choices: {str(dict(data))[:300]}")
    choice: Mapping[str, Any] = choices[0]
    message = choice.get("message") or {}
    content = message.get("content") if isinstance(message, Mapping) else None
    if content is not None and not isinstance(content, str):
        raise JudgeResponseError(f"the model server's message content is a {type(content).__name__}, not text")
    usage = data.get("usage") or {}
    usage = usage if isinstance(usage, Mapping) else {}
    text = content or ""
    finish = str(choice.get("finish_reason") or "")
    if len(text) > MAX_TEXT_CHARS:  # a server that ignores max_tokens; judges need a few characters
        text, finish = text[:MAX_TEXT_CHARS], "length"
    return Completion(
        text=text,
        logprobs=_safe_logprobs(choice.get("logprobs")),
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        latency_s=latency_s,
        model=str(data.get("model") or model)[:200] if server_model else model,
        dropped_features=dropped,
        finish_reason=finish,
    )


MAX_TEXT_CHARS = 65_536
"""Completion text kept at most (longer answers are cut and marked ``finish_reason="length"``)."""


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _safe_logprobs(raw: Any) -> tuple[TokenLogprob, ...] | None:
    # Logprobs of the wrong shape ("logprob": "abc") are dropped, not fatal: judges then read
    # the text, which is still a valid answer.
    if raw is not None and not isinstance(raw, Mapping):
        return None
    try:
        return _parse_logprobs(raw)
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        logger.warning("ignoring malformed logprobs from the model server: %s", exc)
        return None


def _parse_logprobs(raw: Mapping[str, Any] | None) -> tuple[TokenLogprob, ...] | None:
    if not raw:
        return None
    content = raw.get("content")
    if not content:
        return None
    return tuple(
        TokenLogprob(
            token=str(item.get("token", "")),
            logprob=_logprob(item),
            # llama.cpp's post_sampling_probs answers carry "top_probs"/"prob" instead
            top=_top_map(item.get("top_logprobs") or item.get("top_probs") or []),
        )
        for item in content
    )


def _logprob(item: Mapping[str, Any]) -> float:
    if item.get("logprob") is not None:
        value = float(item["logprob"])
    else:
        prob = item.get("prob")
        value = math.log(prob) if prob else float("-inf")
    if math.isnan(value) or value > 1e-3:  # servers round; a clearly positive value is garbage
        raise ValueError(f"logprob {value!r} is not a log-probability")
    return min(value, 0.0)


def _top_map(alternatives: list[Mapping[str, Any]]) -> dict[str, float]:
    # Several token ids can decode to the same string (byte-fallback tokens can collide);
    # keep the most likely one for each string.
    top: dict[str, float] = {}
    for alt in alternatives:
        token = str(alt.get("token", ""))
        logprob = _logprob(alt)
        if token not in top or logprob > top[token]:
            top[token] = logprob
    return top


__all__ = ["build_payload", "parse_response", "split_openai_args", "used_features"]
