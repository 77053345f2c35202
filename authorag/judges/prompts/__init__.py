"""Versioned prompt templates (package data) and their rendering.

Each template is a text file ``<name>_v<N>.txt`` with a ``[system]`` and a ``[user]`` section and
``$placeholders`` (:class:`string.Template`). The structure follows the AuthorityBench paper
(role, definition of source authority, the items, a strict output format), in our own words.
Templates carry no concrete numeric score examples: small local models copy them.

Example:
    >>> msgs = render("authority_point", items=[JudgeItem("nih.gov")])
    >>> msgs[0]["role"], "nih.gov" in msgs[1]["content"]
    ('system', True)
    >>> prompt_id("authority_point")
    'authority_point_v1'
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from string import Template

from authorag.errors import ConfigError
from authorag.judges.items import JudgeItem

PROMPT_VERSION = "v1"
"""Version of the shipped templates; part of every cache key and result record."""

TEMPLATES: tuple[str, ...] = (
    "authority_point",
    "authority_pair_rank",
    "authority_pair_score",
    "authority_list_rank",
    "authority_list_score",
    "relevance_list_score",
    "utility_pseudo_answer",
    "utility_list_score",
    "paper_authority_point",
    "paper_authority_pair_rank",
    "paper_authority_pair_score",
    "paper_authority_list_rank",
    "paper_authority_list_score",
    "paper_relevance_list_score",
    "paper_utility_list_score",
)
"""Templates of both prompt sets (``paper_*``: the AuthorityBench protocol, see prompt_sets)."""


def prompt_id(name: str, version: str = PROMPT_VERSION) -> str:
    """The versioned template id recorded in results (``authority_point_v1``)."""
    return f"{name}_{version}"


@lru_cache(maxsize=64)
def load_text(name: str, version: str = PROMPT_VERSION) -> str:
    """Raw text of template ``name`` at ``version``; raises ConfigError for unknown names."""
    filename = f"{prompt_id(name, version)}.txt"
    path = resources.files(__name__).joinpath(filename)
    if not path.is_file():
        raise ConfigError(
            f"unknown prompt template {filename!r}; available: {', '.join(TEMPLATES)} "
            "and the definitions definition_source / definition_entity"
        )
    return path.read_text(encoding="utf-8")


def _split(text: str, name: str) -> tuple[str, str]:
    if "[system]" not in text or "[user]" not in text:
        raise ConfigError(f"prompt template {name!r} needs a [system] and a [user] section")
    system, user = text.split("[user]", 1)
    return system.replace("[system]", "", 1).strip(), user.strip()


def format_item(item: JudgeItem, ident: str | None = None) -> str:
    """One item as shown to the model; ``ident`` is ``[3]`` or ``A`` when there are several."""
    lead = f"{ident} " if ident else ""
    if item.kind == "entity":
        line = f"{lead}{item.entity_type}: {item.label}"
    elif item.kind == "url":
        line = f"{lead}URL: {item.label}"
    else:
        line = f"{lead}Domain: {item.label}"
    if item.text:
        line += f"\n{' ' * len(lead)}Text: {item.text}"
    return line


def format_items(items: Sequence[JudgeItem], idents: Sequence[str] | None = None) -> str:
    """Items as a block, one per line (with identifiers when more than one or when given)."""
    if idents is None:
        idents = [f"[{i}]" for i in range(len(items))] if len(items) > 1 else [""]
    return "\n".join(format_item(it, ident or None) for it, ident in zip(items, idents, strict=True))


def definition_for(items: Sequence[JudgeItem], paper: bool = False) -> tuple[str, str, str]:
    """(definition text, plural subject, singular subject) for a group of items of one kind;
    ``paper`` picks the paper protocol's source definition."""
    kinds = {(it.kind == "entity", it.entity_type) for it in items}
    if len(kinds) > 1:
        raise ConfigError(
            "all items judged together must be of one kind (sources or one entity type), "
            f"got {sorted(str(k) for k in kinds)}"
        )
    if items and items[0].kind == "entity":
        etype = str(items[0].entity_type)
        text = Template(load_text("definition_entity")).substitute(entity_type=etype)
        return text.strip(), f"{etype}s", etype
    return load_text("paper_definition_source" if paper else "definition_source").strip(), "sources", "source"


def render(
    name: str,
    *,
    items: Sequence[JudgeItem],
    idents: Sequence[str] | None = None,
    version: str = PROMPT_VERSION,
    **values: str,
) -> list[dict[str, str]]:
    """Chat messages for template ``name`` with ``items`` filled in.

    Args:
        name: one of :data:`TEMPLATES`.
        items: the items shown (all of one kind).
        idents: item identifiers (``["A", "B"]``); default ``[0]..[n-1]`` for several items.
        values: further placeholders (``question``, ``pseudo_answer``).
    """
    system, user = _split(load_text(name, version), name)
    definition, subject, subject_one = definition_for(items, paper=name.startswith("paper_"))
    fill = {
        "definition": definition,
        "subject": subject,
        "subject_one": subject_one,
        "count": str(len(items)),
        "items": format_items(items, idents),
        **values,
    }
    try:
        return [
            {"role": "system", "content": Template(system).substitute(fill)},
            {"role": "user", "content": Template(user).substitute(fill)},
        ]
    except KeyError as exc:
        raise ConfigError(f"prompt template {name!r} needs a value for {exc.args[0]!r}") from exc


__all__ = ["PROMPT_VERSION", "TEMPLATES", "format_item", "format_items", "load_text", "prompt_id", "render"]
