"""Exceptions raised by authorag.

The tree is small on purpose::

    AuthoragError
    ├── ConfigError (ValueError)          bad argument or configuration; message says how to fix it
    │   └── LimitExceeded                 an input over a documented size limit; ``code`` names the limit
    ├── InvalidURLError (ValueError)      a URL/host that cannot be turned into a domain
    ├── MissingDependencyError (ImportError)  an optional extra is not installed
    ├── PriorUnavailable                  a prior table/source cannot be loaded
    └── JudgeError                        an LLM judge call failed
        └── JudgeResponseError            the model answered, but the answer could not be parsed
"""
from __future__ import annotations


class AuthoragError(Exception):
    """Base class of every error authorag raises on purpose."""


class ConfigError(AuthoragError, ValueError):
    """A parameter or configuration value is invalid (``weight must be in [0, 1], got 1.5``)."""


class LimitExceeded(ConfigError):
    """An input is over a documented size limit (the server answers 422 with ``code``).

    Attributes:
        code: the stable error code, e.g. ``too_many_documents``.
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class InvalidURLError(AuthoragError, ValueError):
    """A URL or host string cannot be normalized to a registrable domain.

    Attributes:
        input: the string that was received.
        reason: why it was rejected.
    """

    def __init__(self, input: str, reason: str) -> None:
        self.input = input
        self.reason = reason
        super().__init__(f"cannot read a domain from {input!r}: {reason}")


class MissingDependencyError(AuthoragError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""


class PriorUnavailable(AuthoragError):
    """A prior table or one of its sources cannot be loaded or was excluded."""


class JudgeError(AuthoragError):
    """An LLM judge call failed (backend error, timeout, budget exhausted)."""


class JudgeResponseError(JudgeError):
    """The model answered but the output could not be parsed into a score or ranking.

    Attributes:
        raw: the raw model output (truncated to 500 characters in the message).
    """

    def __init__(self, message: str, raw: str = "") -> None:
        self.raw = raw
        shown = raw if len(raw) <= 500 else raw[:500] + "..."
        super().__init__(f"{message}; model output was: {shown!r}" if raw else message)


__all__ = [
    "AuthoragError",
    "ConfigError",
    "InvalidURLError",
    "JudgeError",
    "JudgeResponseError",
    "LimitExceeded",
    "MissingDependencyError",
    "PriorUnavailable",
]
