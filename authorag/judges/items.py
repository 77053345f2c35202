"""What a judge looks at: a :class:`JudgeItem` (a domain, a URL with optional page text, or an entity).

Example:
    >>> item = JudgeItem.from_candidate(Candidate.create("https://www.nih.gov/x", text="About NIH"))
    >>> item.label, item.kind
    ('nih.gov', 'domain')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from authorag.errors import ConfigError
from authorag.types import Candidate
from authorag.validation import check_choice

ItemKind = Literal["domain", "url", "entity"]
EntityType = Literal["basketball player", "movie", "song"]

DEFAULT_TEXT_BUDGET = 800
"""Characters of page text shown to a judge per item (small local models have small windows)."""


@dataclass(frozen=True, slots=True)
class JudgeItem:
    """One thing whose authority is judged.

    Attributes:
        label: what the model sees as the item's name: a registrable domain, a URL or an entity name.
        kind: ``domain`` (site only), ``url`` (page address) or ``entity``.
        text: optional page text or snippet (already truncated to the budget).
        entity_type: for entities, what they are (``"basketball player"``, ``"movie"``, ``"song"``).
        key: stable identity for caches and result records (the domain, URL or entity name).
    """

    label: str
    kind: ItemKind = "domain"
    text: str = ""
    entity_type: str | None = None

    def __post_init__(self) -> None:
        check_choice("item kind", self.kind, get_args(ItemKind))
        if not self.label.strip():
            raise ConfigError("a judge item needs a non-empty label (domain, URL or entity name)")
        if self.kind == "entity" and not self.entity_type:
            raise ConfigError(
                f"entity item {self.label!r} needs entity_type, e.g. one of {get_args(EntityType)}"
            )

    @property
    def key(self) -> str:
        """Identity used in cache keys and results."""
        return self.label if self.kind != "entity" else f"{self.entity_type}:{self.label}"

    @classmethod
    def from_candidate(
        cls, candidate: Candidate, *, with_text: bool = False, text_budget: int = DEFAULT_TEXT_BUDGET
    ) -> JudgeItem:
        """The item for a candidate: its registrable domain, or its URL plus truncated text.

        Without text the site is what is judged (the domain); with text the page is shown as
        ``URL + snippet``. A candidate without a readable domain falls back to its raw URL.
        """
        if with_text:
            label = candidate.url or candidate.domain or candidate.id
            return cls(label=label, kind="url", text=shorten(candidate.text, text_budget))
        label = candidate.domain or candidate.url or candidate.id
        return cls(label=label, kind="domain" if candidate.domain else "url")

    @classmethod
    def entity(cls, name: str, entity_type: str) -> JudgeItem:
        """An EntityAuth item: ``JudgeItem.entity("Michael Jordan", "basketball player")``."""
        return cls(label=name, kind="entity", entity_type=entity_type)


def shorten(text: str, budget: int) -> str:
    """Collapse whitespace and cut ``text`` to about ``budget`` characters at a word boundary,
    marking a cut with `` ...`` (the text shown to a judge; the server's text budget is
    :func:`authorag.server.documents.truncate`).

    Example:
        >>> shorten("a  b\\n c", 100)
        'a b c'
        >>> shorten("one two three four", 9)
        'one two ...'
    """
    if budget < 0:
        raise ConfigError(f"text_budget must be >= 0, got {budget}")
    flat = " ".join(text.split())
    if len(flat) <= budget:
        return flat
    cut = flat[:budget]
    space = cut.rfind(" ")
    return (cut[:space] if space > budget // 2 else cut) + " ..."


def as_items(
    values: object, *, with_text: bool = False, text_budget: int = DEFAULT_TEXT_BUDGET
) -> list[JudgeItem]:
    """Turn a sequence of JudgeItems, Candidates or URL/domain strings into JudgeItems."""
    if not isinstance(values, (list, tuple)):
        raise ConfigError(f"expected a list of items, candidates or URLs, got {type(values).__name__}")
    out: list[JudgeItem] = []
    for value in values:  # pyright: ignore[reportUnknownVariableType]
        if isinstance(value, JudgeItem):
            out.append(value)
        elif isinstance(value, Candidate):
            out.append(JudgeItem.from_candidate(value, with_text=with_text, text_budget=text_budget))
        elif isinstance(value, str):
            out.append(JudgeItem.from_candidate(Candidate.create(value), with_text=with_text, text_budget=text_budget))
        else:
            raise ConfigError(
                f"cannot judge a {type(value).__name__}; pass JudgeItem, Candidate or URL strings"  # pyright: ignore[reportUnknownArgumentType]
            )
    return out

