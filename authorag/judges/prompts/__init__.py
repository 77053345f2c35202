"""Versioned prompt templates (package data) and their rendering.

Each template is a text file ``<name>_v<N>.txt`` with a ``[system]`` and a ``[user]`` section and
``$placeholders`` (:class:`string.Template`). The structure follows the AuthorityBench paper
(role, definition of source authority, the items, a strict output format), in our own words.
Templates carry no concrete numeric score examples: small local models copy them.

Two versions are shipped. ``v1`` templates judge bare domains and entities (names, nothing a
page author writes freely); the shipped judge calibration was fitted on ``authority_point_v1``.
``v2`` templates are used whenever an item carries page text or a raw URL, and always for the
relevance and utility judges: the items sit in a delimited DATA block *before* the instruction,
the prompt says that the block is untrusted data, and instruction-like sentences in it are
replaced (see :mod:`authorag.judges.prompts._untrusted`). Both prompt sets follow this rule:
the ``paper_*`` templates (see :mod:`authorag.judges.prompt_sets`) have a hardened ``v2`` too.
A template whose hardened wording changed again gets a new version (:data:`TEXT_VERSIONS`):
the pseudo-answer prompt is ``v3``, the neutral prompt (answer from the documents only, no
preference for "authoritative" sources) in the hardened layout; ``v2`` is the earlier
authority-preferring wording, hardened, kept so old records can be reproduced. The version is
part of every prompt id and cache key, so answers to different prompts never mix.

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
from authorag.judges.prompts._untrusted import data_block, neutralise

PROMPT_VERSION = "v1"
"""Version of the templates for bare domains and entities; part of every cache key and result record."""
TEXT_PROMPT_VERSION = "v2"
"""Version of the injection-hardened templates for items with page text or raw URLs."""
TEXT_TEMPLATES = frozenset({"relevance_list_score", "utility_pseudo_answer", "utility_list_score",
                            "paper_relevance_list_score", "paper_utility_list_score"})
"""Templates that always show page text (so always use their hardened version)."""
TEXT_VERSIONS: dict[str, str] = {"utility_pseudo_answer": "v3"}
"""Hardened versions other than :data:`TEXT_PROMPT_VERSION` (``v3``: the neutral pseudo-answer prompt)."""

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


def version_for(name: str, items: Sequence[JudgeItem] = (), *, with_text: bool = False) -> str:
    """The template version for ``items``: the hardened one (``v2``, or :data:`TEXT_VERSIONS`)
    when untrusted text is shown, else ``v1``.

    Example:
        >>> version_for("authority_point", [JudgeItem("nih.gov")]), version_for("relevance_list_score")
        ('v1', 'v2')
        >>> version_for("paper_utility_list_score"), version_for("utility_pseudo_answer")
        ('v2', 'v3')
    """
    untrusted = with_text or name in TEXT_TEMPLATES or any(it.text or it.kind == "url" for it in items)
    return TEXT_VERSIONS.get(name, TEXT_PROMPT_VERSION) if untrusted else PROMPT_VERSION


def prompt_id(name: str, version: str | None = None, *, items: Sequence[JudgeItem] = (),
              with_text: bool = False) -> str:
    """The versioned template id recorded in results (``authority_point_v1``).

    Without ``version`` it is :func:`version_for` the items (or ``with_text``).
    """
    return f"{name}_{version_for(name, items, with_text=with_text) if version is None else version}"


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


def format_item(item: JudgeItem, ident: str | None = None, *, untrusted: bool = False) -> str:
    """One item as shown to the model; ``ident`` is ``[3]`` or ``A`` when there are several.

    With ``untrusted`` the label and text are neutralised (see :func:`neutralise`).
    """
    lead = f"{ident} " if ident else ""
    label = neutralise(item.label) if untrusted and item.kind == "url" else item.label
    if item.kind == "entity":
        line = f"{lead}{item.entity_type}: {label}"
    elif item.kind == "url":
        line = f"{lead}URL: {label}"
    else:
        line = f"{lead}Domain: {label}"
    if item.text:
        line += f"\n{' ' * len(lead)}Text: {neutralise(item.text) if untrusted else item.text}"
    return line


def format_items(items: Sequence[JudgeItem], idents: Sequence[str] | None = None, *,
                 untrusted: bool = False) -> str:
    """Items as a block, one per line (with identifiers when more than one or when given)."""
    if idents is None:
        idents = [f"[{i}]" for i in range(len(items))] if len(items) > 1 else [""]
    return "\n".join(format_item(it, ident or None, untrusted=untrusted)
                     for it, ident in zip(items, idents, strict=True))


def _definition_for(items: Sequence[JudgeItem], paper: bool = False) -> tuple[str, str, str]:
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
    version: str | None = None,
    **values: str,
) -> list[dict[str, str]]:
    """Chat messages for template ``name`` with ``items`` filled in.

    Args:
        name: one of :data:`TEMPLATES`.
        items: the items shown (all of one kind).
        idents: item identifiers (``["A", "B"]``); default ``[0]..[n-1]`` for several items.
        version: template version; default :func:`version_for` the items.
        values: further placeholders (``question``, ``pseudo_answer``).
    """
    version = version_for(name, items) if version is None else version
    system, user = _split(load_text(name, version), name)
    definition, subject, subject_one = _definition_for(items, paper=name.startswith("paper_"))
    hardened = version != PROMPT_VERSION
    block = format_items(items, idents, untrusted=hardened)
    if hardened:
        block = data_block(block)
        if "pseudo_answer" in values:
            values = {**values, "pseudo_answer": data_block("Draft answer: " + neutralise(values["pseudo_answer"]))}
    fill = {
        "definition": definition,
        "subject": subject,
        "subject_one": subject_one,
        "count": str(len(items)),
        "items": block,
        **values,
    }
    try:
        return [
            {"role": "system", "content": Template(system).substitute(fill)},
            {"role": "user", "content": Template(user).substitute(fill)},
        ]
    except KeyError as exc:
        raise ConfigError(f"prompt template {name!r} needs a value for {exc.args[0]!r}") from exc


__all__ = ["PROMPT_VERSION", "TEMPLATES", "TEXT_PROMPT_VERSION", "TEXT_TEMPLATES", "TEXT_VERSIONS", "format_item",
           "format_items", "load_text", "prompt_id", "render", "version_for"]
