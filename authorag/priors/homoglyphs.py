"""How a host name looks: punycode decoded, confusable skeletons (UTS #39 data from the
``confusable-homoglyphs`` package), mixed scripts and invisible characters. :mod:`authorag.priors.lookalike`
compares names by these.

Example:
    >>> skeleton(unicode_name("xn--nh-hoc.gov")) == skeleton("nih.gov")
    True
"""
from __future__ import annotations

import re
from functools import cache

ZERO_WIDTH = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e"
                         "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]")
"""Zero-width and invisible characters (a browser refuses a host name holding one)."""
_ASCII_FOLD = str.maketrans({"0": "o", "1": "l", "|": "l", "i": "l", "5": "s"})
"""Characters that pass for one another in host names (``i``, ``l``, ``1`` share a class: the
confusables data maps some look-alikes of ``l`` to ``i``)."""


def unicode_name(host: str) -> str:
    """``host`` with its punycode labels decoded (``xn--nh-hoc.gov`` → ``nіh.gov``)."""
    if "xn--" not in host:
        return host
    out: list[str] = []
    for label in host.split("."):
        if label.startswith("xn--"):
            try:
                label = label[4:].encode("ascii").decode("punycode")
            except UnicodeError:
                pass
        out.append(label)
    return ".".join(out)


@cache
def _confusable_map() -> dict[str, str]:
    from confusable_homoglyphs import confusables  # pyright: ignore[reportMissingTypeStubs]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data  # pyright: ignore[reportUnknownMemberType]
    out: dict[str, str] = {}
    for char, glyphs in data.items():
        if len(char) != 1 or char.isascii():
            continue
        for g in glyphs:
            c = g["c"].replace("I", "l").lower()  # capital I reads as l (UTS #39 maps both to l)
            if c.isascii() and c.isalnum():
                out[char] = c
                break
    return out


def skeleton(name: str) -> str:
    """The confusable skeleton of a (Unicode) name: every character replaced by the ASCII character
    it is confusable with (UTS #39 data), digits, ``i``/``l`` and ``rn``/``vv`` folded to the
    letters they mimic.

    Example:
        >>> skeleton("nіh.gov") == skeleton("nih.gov"), skeleton("rnicrosoft") == skeleton("microsoft")
        (True, True)
    """
    if not name.isascii():
        table = _confusable_map()
        name = "".join(table.get(ch, ch) for ch in name.lower())
    return name.lower().translate(_ASCII_FOLD).replace("rn", "m").replace("vv", "w")


def _script(ch: str) -> str | None:
    if ch.isascii():
        return "LATIN" if ch.isalpha() else None
    from confusable_homoglyphs import categories  # pyright: ignore[reportMissingTypeStubs]

    alias = str(categories.alias(ch))  # pyright: ignore[reportUnknownMemberType]
    return None if alias in ("COMMON", "INHERITED") else alias


def mixed_script(label: str) -> bool:
    """True when ``label`` holds letters of more than one script."""
    return not label.isascii() and len({s for ch in label if (s := _script(ch)) is not None}) > 1


__all__ = ["ZERO_WIDTH", "mixed_script", "skeleton", "unicode_name"]
