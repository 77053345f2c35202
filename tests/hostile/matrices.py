"""Hostile suitability-matrix YAML files (>= 41): structure, cells, tags, anchors and aliases,
encodings, nesting, size, several documents, control characters."""
from __future__ import annotations

from hostile import Variant

_ROW = ("{government: 5, academic: 5, professional: 5, news: 3, reference: 4, commercial: 1, forum: 1, social: 1, "
        "blog: 2, docs_code: 1, content_farm: 1, unknown: 2}")
_EXT = "version: 1\nextends: default\nmatrix:\n"

_CASES: list[tuple[str, str, str]] = [
    ("empty", "", "the file is empty"),
    ("only-comment", "# nothing\n", "the file is empty"),
    ("null-root", "~\n", "the file must be a mapping"),
    ("list-root", "- 1\n- 2\n", "the file must be a mapping"),
    ("scalar-root", "matrix\n", "the file must be a mapping"),
    ("no-version", "matrix: {}\n", "version must be one of"),
    ("version-2", "version: 2\nmatrix: {}\n", r":1: version must be one of \(1,\), got '2'"),
    ("version-list", "version: [1]\nmatrix: {}\n", r"version must be one of \(1,\), got .a collection."),
    ("version-string", "version: one\nmatrix: {}\n", "version must be one of"),
    ("unknown-top-key", "version: 1\ncolour: red\n", "unknown key 'colour'"),
    ("duplicate-top-key", "version: 1\nversion: 1\n", "duplicate key 'version'"),
    ("no-matrix", "version: 1\n", "missing 'matrix:'"),
    ("matrix-list", "version: 1\nmatrix: [1, 2]\n", "matrix must be a mapping"),
    ("matrix-scalar", "version: 1\nmatrix: lots\n", "matrix must be a mapping"),
    ("missing-topic", "version: 1\nmatrix:\n  health: " + _ROW + "\n", "matrix lacks topic"),
    ("unknown-topic", _EXT + "  cooking: " + _ROW + "\n", "unknown topic 'cooking'"),
    ("unknown-type", _EXT + "  health: {blogg: 3}\n", "unknown source type 'blogg' under 'health'"),
    ("duplicate-type", _EXT + "  health: {blog: 3, blog: 4}\n", "duplicate key 'blog'"),
    ("duplicate-topic", _EXT + "  health: {blog: 3}\n  health: {blog: 4}\n", "duplicate key 'health'"),
    ("cell-zero", _EXT + "  health: {blog: 0}\n", r"health.blog must be an integer 1..5, got '0'"),
    ("cell-six", _EXT + "  health: {blog: 6}\n", r"health.blog must be an integer 1..5, got '6'"),
    ("cell-float", _EXT + "  health: {blog: 2.5}\n", "health.blog must be an integer 1..5, got '2.5'"),
    ("cell-word", _EXT + "  health: {blog: low}\n", "health.blog must be an integer 1..5, got 'low'"),
    ("cell-null", _EXT + "  health: {blog: ~}\n", "health.blog must be an integer 1..5, got '~'"),
    ("cell-list", _EXT + "  health: {blog: [3]}\n", "health.blog must be an integer 1..5, got 'a collection'"),
    ("cell-hex", _EXT + "  health: {blog: 0x3}\n", "health.blog must be an integer 1..5, got '0x3'"),
    ("row-list", _EXT + "  health: [5, 5]\n", "matrix.health must be a mapping"),
    ("row-incomplete", "version: 1\nmatrix:\n  health: {blog: 2}\n", "topic 'health' lacks source type"),
    ("extends-other", "version: 1\nextends: mine\nmatrix: {}\n", "extends must be 'default'"),
    ("extends-list", "version: 1\nextends: [default]\nmatrix: {}\n", "extends must be 'default'"),
    ("ymyl-string", _EXT + "  health: {blog: 2}\nymyl: health\n", "ymyl must be a list of topics"),
    ("ymyl-unknown", _EXT + "  health: {blog: 2}\nymyl: [cooking]\n", "ymyl: unknown topic 'cooking'"),
    ("ymyl-nested", _EXT + "  health: {blog: 2}\nymyl: [[health]]\n", "ymyl: unknown topic 'a collection'"),
    ("complex-key", "version: 1\n? [a, b]\n: 1\n", "keys must be plain names"),
    ("python-tag", "version: 1\nmatrix: !!python/object/apply:os.system ['echo hacked']\n", "matrix must be a mapping"),
    ("python-name-cell", _EXT + "  health: {blog: !!python/name:os.system ''}\n", "health.blog must be an integer 1..5"),
    ("alias-undefined", _EXT + "  health: *nothing\n", "not valid YAML"),
    ("alias-row", _EXT + "  health: &r {blog: 9}\n  finance: *r\n", "health.blog must be an integer 1..5, got '9'"),
    ("merge-key", _EXT + "  health: {<<: {blog: 3}}\n", "unknown source type '<<' under 'health'"),
    ("laughs", "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{k}: &{k} [{', '.join(['*' + p] * 9)}]\n" for p, k in zip("abcdefgh", "bcdefghi")) + "version: 1\n",
     "unknown key 'a'"),
    ("two-documents", "version: 1\n---\nversion: 1\n", "not valid YAML"),
    ("tab-indent", "version: 1\nmatrix:\n\thealth: {}\n", "not valid YAML"),
    ("unclosed-flow", _EXT + "  health: {blog: 2\n", "not valid YAML"),
    ("control-char", "version: 1\x07\n", "not valid YAML"),
    ("nul", "version: 1\x00\n", "not valid YAML"),
]


def matrix_variants() -> list[Variant]:
    """Every hostile matrix file (the test asserts there are at least 41)."""
    out = [Variant(name, text.encode("utf-8"), expect, ".yaml") for name, text, expect in _CASES]
    out += [
        Variant("latin1", "# caf\xe9\nversion: 1\n".encode("latin-1"), r":1: not UTF-8 text \(byte 0xe9\)", ".yaml"),
        Variant("utf16", "version: 1\n".encode("utf-16"), r":1: not UTF-8 text \(byte 0xff\)", ".yaml"),
        Variant("deep-flow-list", ("version: 1\nx: " + "[" * 20_000 + "]" * 20_000 + "\n").encode(), "nested too deeply",
                ".yaml"),
        Variant("deep-flow-map", ("version: 1\nx: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n").encode(),
                "nested too deeply", ".yaml"),
        Variant("deep-block", ("version: 1\nx:\n" + "".join(" " * i + "- \n" for i in range(1, 1200))).encode(),
                "nested too deeply|not valid YAML", ".yaml"),
        Variant("huge", b"# " + b"x" * (2 << 20) + b"\nversion: 1\n", "larger than 1 MiB", ".yaml"),
    ]
    return out
