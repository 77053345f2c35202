"""Prompt templates: versioned, complete, free of numeric score examples."""
from __future__ import annotations

import re

import pytest

from authorag.errors import ConfigError
from authorag.judges.items import JudgeItem
from authorag.judges.prompts import PROMPT_VERSION, TEMPLATES, load_text, prompt_id, render


@pytest.mark.parametrize("name", TEMPLATES)
def test_templates_have_no_numeric_examples(name: str) -> None:
    text = load_text(name)
    # The only numbers allowed are the scale ends 0 and 9 (no "7" or {"0": 5}-style examples).
    assert set(re.findall(r"\d+", text)) <= {"0", "9"}
    assert "[system]" in text and "[user]" in text


@pytest.mark.parametrize("name", TEMPLATES)
def test_templates_render_with_items_last(name: str) -> None:
    items = [JudgeItem("nih.gov"), JudgeItem("x.biz")]
    messages = render(name, items=items, question="Q?", pseudo_answer="A.")
    user = messages[1]["content"]
    assert "$" not in user and "nih.gov" in user
    if name != "utility_pseudo_answer":
        assert user.rstrip().endswith("x.biz")  # the varying part last: prefix caching


def test_versions_and_errors() -> None:
    assert prompt_id("authority_point") == f"authority_point_{PROMPT_VERSION}"
    with pytest.raises(ConfigError, match="unknown prompt template 'nope_v1.txt'"):
        load_text("nope")
    with pytest.raises(ConfigError, match="needs a value for 'question'"):
        render("relevance_list_score", items=[JudgeItem("a.com")])
    with pytest.raises(ConfigError, match="must be of one kind"):
        render("authority_list_score", items=[JudgeItem("a.com"), JudgeItem.entity("Up", "movie")])


def test_entity_definition() -> None:
    user = render("authority_point", items=[JudgeItem.entity("Thriller", "song")])[1]["content"]
    assert "song: Thriller" in user and "widely recognized" in user and "Source authority" not in user
