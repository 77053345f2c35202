"""Hostile TOML settings files (>= 38): wrong types, strings for booleans and lists, ranges,
unknown keys and tables, encodings, syntax, nesting that costs the parser memory, size."""
from __future__ import annotations

from hostile import Variant

_CASES: list[tuple[str, str, str]] = [
    ("bool-string-false", 'learned = "false"', "learned must be true or false, got 'false'"),
    ("bool-string-no", '[scorer]\nreserved = "no"', "reserved must be true or false, got 'no'"),
    ("bool-int", "hosted = 1", "hosted must be true or false, got 1"),
    ("bool-list", "source_type_adjust = [true]", r"source_type_adjust must be true or false, got \[True\]"),
    ("int-float", "max_judge_calls = 1.5", "max_judge_calls must be an integer, got 1.5"),
    ("int-bool", "max_judge_calls = true", "max_judge_calls must be an integer, got True"),
    ("int-string", 'max_judge_calls = "20"', "max_judge_calls must be an integer, got '20'"),
    ("int-negative", "max_judge_calls = -1", "judge budgets must be >= 0, got max_judge_calls=-1"),
    ("int-date", "max_judge_calls = 1979-05-27", "max_judge_calls must be an integer, got datetime.date"),
    ("choice-unknown", 'judge = "gpt"', "judge must be one of 'none', 'local', 'openai', got 'gpt'"),
    ("choice-number", "subdomains = 3", "subdomains must be one of 'inherit', 'discount', got 3"),
    ("choice-bool", "judge = false", "judge must be one of 'none', 'local', 'openai', got False"),
    ("list-string", 'exclude_sources = "moz"', "exclude_sources must be a list of strings, got 'moz'"),
    ("list-numbers", "exclude_sources = [1, 2]", r"exclude_sources\[0\] must be a string, got 1"),
    ("list-nested", 'exclude_sources = [["moz"]]', r"exclude_sources\[0\] must be a string, got \['moz'\]"),
    ("list-table", "optin_sources = {a = 1}", r"optin_sources must be a list of strings, got \{'a': 1\}"),
    ("list-prior-string", 'prior_files = "x=y.store"', "prior_files must be a list of strings, got 'x=y.store'"),
    ("tail-unknown", 'learned_tail = ["nope"]', "nope"),
    ("tail-string", 'learned_tail = "ut1"', "learned_tail must be a list of strings, got 'ut1'"),
    ("float-string", 'hosted_authority = "0.4"', "hosted_authority must be a finite number, got '0.4'"),
    ("float-range", "hosted_authority = 1.5", r"hosted_authority must be in \[0, 1\], got 1.5"),
    ("float-nan", "hosted_authority = nan", "hosted_authority must be a finite number, got nan"),
    ("float-inf", "min_confidence = inf", "min_confidence must be a finite number, got inf"),
    ("float-bool", "min_confidence = true", "min_confidence must be a finite number, got True"),
    ("float-neg-inf", "judge_seconds = -inf", "judge_seconds must be a finite number, got -inf"),
    ("float-negative", "judge_seconds = -3.0", "judge budgets must be >= 0"),
    ("str-number", "judge_model = 5", r"judge_model must be a string \(or unset\), got 5"),
    ("str-bool", "judge_cache = false", r"judge_cache must be a string \(or unset\), got False"),
    ("str-list", 'judge_base_url = ["http://a"]', r"judge_base_url must be a string \(or unset\)"),
    ("entries-zero", "judge_cache_max_entries = 0", "judge_cache_max_entries must be a positive integer"),
    ("entries-float", "judge_cache_max_entries = 1e5", "judge_cache_max_entries must be an integer"),
    ("openai-without-url", 'judge = "openai"', "judge 'openai' needs judge_base_url"),
    ("unknown-key", "hostd = false", r"unknown scorer setting\(s\) \['hostd'\]"),
    ("unknown-in-scorer", "[scorer]\nlerned = true", r"unknown scorer setting\(s\) \['lerned'\]"),
    ("scorer-not-table", "scorer = 5", r"'scorer' must be a table \(\[scorer\]\), got int"),
    ("outside-scorer", "learned = true\n[scorer]\nhosted = false", r"\['learned'\] outside the \[scorer\] table"),
    ("unknown-table", "[scorer]\nlearned = true\n[rerank]\nweight = 0.8",
     r"unknown table\(s\) \['rerank'\]; known: \[scorer\], \[reranker\], \[server\]"),
    ("server-not-table", "server = 5", r"'server' must be a table \(\[server\]\), got int"),
    ("policy-at-top", "weight = 0.8", r"unknown scorer setting\(s\) \['weight'\].*policy settings go in \[reranker\]"),
    ("syntax-missing-value", "learned = ", "not valid TOML"),
    ("syntax-duplicate", "learned = true\nlearned = false", "not valid TOML"),
    ("syntax-nul", "learned = true\x00", "not valid TOML"),
    ("syntax-unclosed", 'judge_model = "abc', "not valid TOML"),
]


def settings_variants() -> list[Variant]:
    """Every hostile settings file (the test asserts there are at least 38)."""
    out = [Variant(name, text.encode("utf-8"), expect, ".toml") for name, text, expect in _CASES]
    out += [
        Variant("latin1", "# caf\xe9\nlearned = true\n".encode("latin-1"), r":1: not UTF-8 text \(byte 0xe9\)", ".toml"),
        Variant("utf16", "learned = true\n".encode("utf-16"), r":1: not UTF-8 text \(byte 0xff\)", ".toml"),
        Variant("binary", bytes(range(256)) * 4, "not UTF-8 text", ".toml"),
        Variant("deep-array", ("a = " + "[" * 100_000 + "]" * 100_000).encode(), r":1: nested deeper than 32", ".toml"),
        Variant("deep-inline", ("a = " + "{b = " * 5000 + "1" + "}" * 5000).encode(), "nested deeper than 32", ".toml"),
        Variant("dotted-key", (".".join(["k"] * 100_000) + " = 1").encode(), "nested deeper than 32", ".toml"),
        Variant("deep-tables", "".join(f"[{'.'.join(['t'] * n)}]\n" for n in (40, 41)).encode(),
                r":1: nested deeper than 32", ".toml"),
        Variant("huge", b"# " + b"x" * (2 << 20) + b"\nlearned = true\n", "larger than 1 MiB", ".toml"),
    ]
    return out
