"""Writing pydantic model instances without validation: the adapters' hot path.

An adapter returns one new framework document per result: a shallow copy of the caller's with
new metadata, as ``model.model_copy(update=...)`` makes it. Building (validating) a document, or
copying it through pydantic's ``__copy__`` (three containers through ``copy.copy``), costs more
than the reranking itself, so the adapters write the instance dict and pydantic's three instance
slots (``BaseModel.__slots__``) directly with these setters, in their own loops (a call per
document would cost as much again).

Example:
    >>> from pydantic import BaseModel
    >>> class Doc(BaseModel):
    ...     text: str
    >>> d = object.__new__(Doc)
    >>> set_dict(d, {"text": "t"}); set_fields_set(d, {"text"}); set_extra(d, None); set_private(d, None)
    >>> d, d.model_dump(exclude_unset=True)
    (Doc(text='t'), {'text': 't'})
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

# ``__dict__`` through BaseModel's own descriptor (what object.__setattr__ finds, without the lookup).
set_dict: Callable[[Any, dict[str, Any]], None] = BaseModel.__dict__["__dict__"].__set__
set_fields_set: Callable[[Any, set[str]], None] = BaseModel.__dict__["__pydantic_fields_set__"].__set__
set_extra: Callable[[Any, dict[str, Any] | None], None] = BaseModel.__dict__["__pydantic_extra__"].__set__
set_private: Callable[[Any, dict[str, Any] | None], None] = BaseModel.__dict__["__pydantic_private__"].__set__

__all__ = ["set_dict", "set_extra", "set_fields_set", "set_private"]
