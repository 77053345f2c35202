"""authorag.settings: the one type check (text and typed values, every annotation kind), the TOML
reader's bounds, and 49 hostile settings files (tests/hostile/settings_files.py) through
ScorerSettings."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Literal

import pytest
from hostile.settings_files import settings_variants

from authorag.compose import ScorerSettings
from authorag.errors import ConfigError
from authorag.policy import make_policy, policy_from_env
from authorag.settings import check_setting, describe, field_kinds, read_toml

VARIANTS = settings_variants()


@pytest.mark.parametrize(("raw", "kind", "want"), [
    ("yes", bool, True), ("OFF", bool, False), (" 1 ", bool, True), ("12", int, 12), ("-3", int, -3),
    ("1_000", int, 1000), ("0.25", float, 0.25), ("3", float, 3.0), ("x", str, "x"),
    ("inherit", Literal["inherit", "discount"], "inherit"), ("a, b,,c", tuple[str, ...], ("a", "b", "c")),
    ("", tuple[str, ...], ()), ("5", int | None, 5),
])
def test_text_values(raw: str, kind: object, want: object) -> None:
    assert check_setting("X", raw, kind, text=True) == want


@pytest.mark.parametrize(("raw", "kind", "message"), [
    ("maybe", bool, "X must be true or false, got 'maybe'"), ("1.5", int, "X must be an integer, got '1.5'"),
    ("true", int, "X must be an integer, got 'true'"), ("nan", float, "X must be a finite number, got 'nan'"),
    ("inf", float, "X must be a finite number, got 'inf'"), ("9" * 5000, int, "X must be an integer, got '999"),
    ("drop", Literal["inherit", "discount"], "X must be one of 'inherit', 'discount', got 'drop'"),
])
def test_text_errors(raw: str, kind: object, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_setting("X", raw, kind, text=True)


@pytest.mark.parametrize(("value", "kind", "want"), [
    (True, bool, True), (3, int, 3), (3, float, 3.0), (0.5, float, 0.5), (["a"], tuple[str, ...], ("a",)),
    (("a",), tuple[str, ...], ("a",)), (None, str | None, None), ("openai", Literal["none", "openai"], "openai"),
])
def test_typed_values(value: object, kind: object, want: object) -> None:
    got = check_setting("x", value, kind)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize(("value", "kind", "message"), [
    ("false", bool, "x must be true or false, got 'false'"), (1, bool, "x must be true or false, got 1"),
    (1.5, int, "x must be an integer, got 1.5"), (True, int, "x must be an integer, got True"),
    (True, float, "x must be a finite number, got True"), (float("nan"), float, "x must be a finite number, got nan"),
    ("abc", tuple[str, ...], "x must be a list of strings, got 'abc'"), ([1], tuple[str, ...], "x[0] must be a string, got 1"),
    (None, str, "x must be a string, got None"), (5, str | None, "x must be a string (or unset), got 5"),
    (1, Literal[True, "a"], "x must be one of True, 'a', got 1"),
])
def test_typed_errors(value: object, kind: object, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_setting("x", value, kind)


def test_unknown_annotations_are_a_programming_error() -> None:
    with pytest.raises(TypeError, match="cannot check the annotation"):
        check_setting("x", {}, dict[str, int])
    with pytest.raises(TypeError, match="cannot check the annotation"):
        check_setting("x", 1, int | str)
    assert describe(int | str | None) == "an integer or a string (or unset)"


def test_a_new_field_needs_no_edit() -> None:
    """The checker follows the annotations: a dataclass it has never seen works."""
    @dataclasses.dataclass(frozen=True)
    class Later:
        mode: Literal["a", "b"] = "a"
        limit: int | None = None
        names: tuple[str, ...] = ()

    kinds = field_kinds(Later)
    assert [check_setting(k, v, kinds[k], text=True) for k, v in (("mode", "b"), ("limit", "7"), ("names", "x,y"))] \
        == ["b", 7, ("x", "y")]


def test_a_field_of_an_unknown_kind_names_itself() -> None:
    from authorag.settings import check_fields

    @dataclasses.dataclass(frozen=True)
    class Odd:
        weights: dict[str, float] = dataclasses.field(default_factory=dict)

        def __post_init__(self) -> None:
            check_fields(self)

    with pytest.raises(TypeError, match=r"Odd.weights: check_setting cannot check the annotation dict\[str, float\]"):
        Odd()


def test_scorer_settings_are_checked_however_they_are_built() -> None:
    with pytest.raises(ConfigError, match="learned must be true or false, got 'false'"):
        ScorerSettings(learned="false")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="max_judge_calls must be an integer, got 1.5"):
        ScorerSettings(max_judge_calls=1.5)  # type: ignore[arg-type]
    assert ScorerSettings(exclude_sources=["moz"]).exclude_sources == ("moz",)  # type: ignore[arg-type]
    assert ScorerSettings(hosted_authority=1).hosted_authority == 1.0 and \
        isinstance(ScorerSettings(hosted_authority=1).hosted_authority, float)
    with pytest.raises(ConfigError, match="AUTHORAG_MAX_JUDGE_CALLS must be an integer, got '1.5'"):
        ScorerSettings.from_env({"AUTHORAG_MAX_JUDGE_CALLS": "1.5"})


def test_policy_fields_are_checked_the_same_way() -> None:
    """Was: a string where a list is expected was split into characters."""
    with pytest.raises(ConfigError, match="allow must be a list of strings, got '\\*.gov'"):
        make_policy({"allow": "*.gov"})
    with pytest.raises(ConfigError, match="top_k must be an integer \\(or unset\\), got 2.5"):
        make_policy({"top_k": 2.5})
    with pytest.raises(ConfigError, match="AUTHORAG_TOP_K must be an integer \\(or unset\\), got 'all'"):
        policy_from_env({"AUTHORAG_TOP_K": "all"})
    assert make_policy({"allow": ["*.gov"], "weight": 1}).allow == ("*.gov",)


def test_read_toml_strips_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufefflearned = true\n".encode())
    assert read_toml(path) == {"learned": True}


def test_dots_and_brackets_inside_strings_do_not_count(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    text = ('judge_base_url = "' + "a." * 100 + '"\n' + "judge_model = '" + "[" * 100 + "'\n"
            + 'judge_cache = """\n' + "{" * 100 + '\n"""\n# ' + "." * 100 + "\n")
    path.write_text(text)
    assert read_toml(path)["judge_base_url"] == "a." * 100


def test_there_are_enough_variants() -> None:
    assert len(VARIANTS) >= 38 and len({v.name for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_hostile_settings_file(tmp_path: Path, variant) -> None:
    path = tmp_path / f"{variant.name}.toml"
    path.write_bytes(variant.data)
    with pytest.raises(ConfigError, match=variant.expect) as info:
        ScorerSettings.from_env({"AUTHORAG_CONFIG": str(path)})
    assert str(path) in str(info.value)
