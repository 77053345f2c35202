"""authorag export: one policy in each provider's format, within its caps, accepted by the format's parser."""
from __future__ import annotations

import json
import re

import pytest

from authorag.cli import main
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.websearch.export import CompiledPolicy, Entry, compile_policy
from authorag.websearch.formats import FORMATS, LIST_CAPS, write_goggle, write_list, write_searxng
from authorag.websearch.parsers import parse_domain_request, parse_goggle, parse_searxng

SMALL = ["nih.gov", "cdc.gov", "reuters.com", "infowars.com", "naturalnews.com", "example.org"]


@pytest.fixture(scope="module")
def default_policy() -> CompiledPolicy:
    """The default policy over the whole shipped prior table."""
    return compile_policy(RerankPolicy())


@pytest.fixture(scope="module")
def small() -> CompiledPolicy:
    return compile_policy(RerankPolicy(deny=("*.biz", "badsite.net"), allow=("who.int",), min_authority=0.4),
                          domains=SMALL)


def test_bands_from_the_priors(small: CompiledPolicy) -> None:
    assert [e.pattern for e in small.trusted] == ["nih.gov", "cdc.gov", "reuters.com"]
    assert [e.pattern for e in small.low] == ["infowars.com", "naturalnews.com", "example.org"]
    assert [e.trust for e in small.trusted] == sorted((e.trust for e in small.trusted), reverse=True)
    assert small.low[-1].trust == pytest.approx(0.3)  # unknown: under min_authority 0.4


def test_default_goggle_is_accepted(default_policy: CompiledPolicy) -> None:
    export = write_goggle(default_policy)
    meta, instructions = parse_goggle(export.text)
    assert meta == {"name": "authorag trust policy", "public": "false", "author": "authorag",
                    "description": meta["description"]}
    assert len(instructions) == len(default_policy.trusted) + len(default_policy.low)
    boosted = {i.site for i in instructions if i.action == "boost"}
    downranked = {i.site for i in instructions if i.action == "downrank"}
    assert boosted == {e.pattern for e in default_policy.trusted}
    assert downranked == {e.pattern for e in default_policy.low}
    assert export.cut == ()
    assert "! - prior sources: " in export.text


def test_goggle_round_trips_allow_deny(small: CompiledPolicy) -> None:
    _, ins = parse_goggle(write_goggle(small).text)
    rows = [(i.pattern, i.action, i.strength, i.site) for i in ins]
    assert rows[:3] == [(".biz^", "discard", None, None), ("", "discard", None, "badsite.net"),
                        ("", "boost", 5, "who.int")]
    assert ("", "boost", 4, "nih.gov") in rows and ("", "boost", 3, "reuters.com") in rows
    assert ("", "downrank", 5, "infowars.com") in rows


def test_default_searxng_is_accepted(default_policy: CompiledPolicy) -> None:
    tables = parse_searxng(write_searxng(default_policy).text)
    assert len(tables["high_priority"]) == len(default_policy.trusted)
    assert len(tables["low_priority"]) == len(default_policy.low)
    assert tables["remove"] == []
    high = [re.compile(rx) for rx in tables["high_priority"]]
    for entry in default_policy.trusted[:50]:
        assert any(rx.search(f"www.{entry.pattern}") for rx in high)
    assert not any(rx.search("nih.gov.evil.com") for rx in high)


def test_searxng_patterns_match_hosts(small: CompiledPolicy) -> None:
    tables = parse_searxng(write_searxng(small).text)
    assert tables["remove"] == ["\\.biz$", "^(.*\\.)?badsite\\.net$"]
    assert re.search(tables["remove"][0], "tips.example.biz")
    assert not re.search(tables["remove"][1], "notbadsite.net")


@pytest.mark.parametrize("fmt", sorted(LIST_CAPS))
def test_list_formats_respect_caps_and_cut_the_weakest(default_policy: CompiledPolicy, fmt: str) -> None:
    inc_cap, exc_cap = LIST_CAPS[fmt]
    side = "include"
    export = write_list(fmt, default_policy, side)
    lists = parse_domain_request(fmt, export.text)
    assert inc_cap is not None
    assert len(lists["include"]) == min(inc_cap, len(default_policy.trusted))
    kept = {e.pattern: e.trust for e in default_policy.trusted if e.pattern in lists["include"]}
    cut = [c for c in export.cut if c["band"] == "trusted"]
    assert len(cut) == len(default_policy.trusted) - len(kept)
    assert max(c["trust"] for c in cut) <= min(kept.values())
    if exc_cap is not None and fmt not in ("perplexity", "anthropic"):
        assert len(lists["exclude"]) == min(exc_cap, len(default_policy.low))


@pytest.mark.parametrize("fmt", ["perplexity", "anthropic"])
def test_one_list_providers_block_side(small: CompiledPolicy, fmt: str) -> None:
    lists = parse_domain_request(fmt, write_list(fmt, small, "exclude").text)
    assert lists == {"exclude": ["badsite.net", "infowars.com", "naturalnews.com", "example.org"]}


def test_patterns_a_list_cannot_hold_are_reported(small: CompiledPolicy) -> None:
    export = write_list("tavily", small)
    assert [n["pattern"] for n in export.not_expressible] == ["*.biz"]
    assert json.loads(export.text)["include_domains"] == ["who.int", "nih.gov", "cdc.gov", "reuters.com"]


def test_user_lists_over_the_cap_are_refused() -> None:
    many = CompiledPolicy(tuple(Entry(f"site{i}.org", "allow") for i in range(21)), (), (), ())
    with pytest.raises(ConfigError, match="21 allow patterns, over the provider's cap of 20"):
        write_list("perplexity", many)


@pytest.mark.parametrize(("text", "message"), [
    ("! name: n\n! description: d\n! author: a\n$discard,site=x.org\n", "metadata missing: public"),
    ("! name: n\n! description: d\n! public: false\n! author: a\n$boost=11,site=x.org\n", "integer from 1 to 10"),
    ("! name: n\n! description: d\n! public: false\n! author: a\n/a*b*c*$boost\n", "more than 2"),
    ("! name: n\n! description: d\n! public: false\n! author: a\n$boost,downrank,site=x.org\n", "more than one action"),
    ("! name: n\n! description: d\n! public: false\n! author: a\n$frobnicate\n", "unknown option"),
])
def test_goggle_parser_rejects(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_goggle(text)


@pytest.mark.parametrize(("fmt", "body", "message"), [
    ("perplexity", {"search_domain_filter": ["a.org", "-b.org"]}, "mixes allow"),
    ("anthropic", {"type": "web_search_20250305", "name": "web_search", "allowed_domains": ["a.org"],
                   "blocked_domains": ["b.org"]}, "cannot be used together"),
    ("openai", {"type": "web_search", "filters": {"allowed_domains": [f"s{i}.org" for i in range(101)]}},
     "101 domains, over the cap of 100"),
    ("tavily", {"include_domains": ["https://a.org/"]}, "not a bare domain"),
])
def test_list_parser_rejects(fmt: str, body: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_domain_request(fmt, json.dumps(body))


def test_searxng_parser_rejects_bad_regex() -> None:
    with pytest.raises(ConfigError, match="does not compile"):
        parse_searxng("hostnames:\n  remove:\n    - '(unclosed'\n")


def test_every_format_has_a_writer() -> None:
    assert sorted(FORMATS) == ["anthropic", "exa", "goggle", "openai", "perplexity", "searxng", "tavily"]


def test_cli_export_writes_the_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "openai", "--allow", "who.int", "--deny", "*.biz"]) == 0
    out, err = capsys.readouterr()
    lists = parse_domain_request("openai", out)
    assert lists["include"][0] == "who.int"
    assert len(lists["include"]) == 100
    assert "authorag export: cut " in err and "over the provider's cap of 100 allow domains" in err


def test_cli_export_refuses_a_bad_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "goggle", "--trusted-from", "1.5"]) == 1
    assert "trusted_from must be in [0, 1], got 1.5" in capsys.readouterr().err


def test_goggle_over_the_instruction_limit_cuts_the_weakest(small: CompiledPolicy,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from authorag.websearch import formats

    monkeypatch.setattr(formats, "GOGGLE_MAX_INSTRUCTIONS", 6)  # 3 user patterns + 3 of the 6 band domains
    export = write_goggle(small)
    _, ins = parse_goggle(export.text)
    assert len(ins) == 6
    kept = {i.site for i in ins if i.action in ("boost", "downrank")} - {"who.int"}
    assert kept == {"infowars.com", "naturalnews.com", "nih.gov"}  # the strongest signals, either way
    assert sorted(c["pattern"] for c in export.cut) == ["cdc.gov", "example.org", "reuters.com"]
    assert "! - cut 2 trusted-band domains for the cap" in export.text
