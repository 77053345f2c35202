"""Every code example in README.md and docs/*.md runs and prints what the docs show.

The convention and the update command are in scripts/doc_outputs.py. A session that needs the
embedded judge model is a slow test."""
from __future__ import annotations

from pathlib import Path

import pytest
from _scripts import load_script

docs = load_script("doc_outputs")  # scripts/ is not a package: the runner is loaded by path
SESSIONS = docs.sessions(docs.doc_files())


def _param(session: object) -> object:
    marks = [pytest.mark.slow] if "model" in session.needs else []  # type: ignore[attr-defined]
    return pytest.param(session, id=session.id, marks=marks)  # type: ignore[attr-defined]


@pytest.mark.parametrize("session", [_param(s) for s in SESSIONS])
def test_example_prints_what_the_docs_show(session) -> None:
    outputs = docs.run(session)
    wrong = [docs.diff(e, got) for e, got in zip(session.examples, outputs, strict=True)
             if not docs.matches(e.shown, got)]
    assert not wrong, ("docs show other output than the code prints; if the new output is right, run "
                       f"`python scripts/doc_outputs.py --update --only {session.name}`\n" + "\n".join(wrong))


def test_the_docs_have_examples_with_outputs() -> None:
    shown = {e.path.name for s in SESSIONS for e in s.examples if e.shown is not None}
    assert {"README.md", "integrations.md", "priors.md", "relevance.md", "server.md"} <= shown


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    return path


EXAMPLE = """# Title

<!-- example: first session=s -->
```python
x = 6 * 7
print(x)
```

Prints:

```text
41
```

<!-- example: second session=s -->
```bash
echo "x is set in python only" > note.txt && cat note.txt
```

<!-- example: third session=s -->
```python
print(x, open("note.txt").read().strip())
```

```text
42 x is ...
```
"""


def test_a_session_shares_names_and_files_and_compares_each_output(tmp_path: Path) -> None:
    (session,) = docs.sessions([_write(tmp_path, EXAMPLE)])
    assert [e.name for e in session.examples] == ["first", "second", "third"]
    outputs = docs.run(session)
    assert [docs.normalize(o) for o in outputs] == ["42", "x is set in python only", "42 x is set in python only"]
    first, second, third = session.examples
    assert not docs.matches(first.shown, outputs[0])  # the docs say 41
    assert not docs.matches(second.shown, outputs[1])  # prints, shows nothing
    assert docs.matches(third.shown, outputs[2])  # ... matches anything


def test_update_rewrites_wrong_outputs_and_adds_missing_ones(tmp_path: Path) -> None:
    path = _write(tmp_path, EXAMPLE)
    (session,) = docs.sessions([path])
    outputs = docs.run(session)
    assert docs.rewrite(path, {e.name: o for e, o in zip(session.examples, outputs)}) == 2
    text = path.read_text(encoding="utf-8")
    assert "```text\n42\n```" in text
    assert "cat note.txt\n```\n\nPrints:\n\n```text\nx is set in python only\n```" in text
    assert "```text\n42 x is ...\n```" in text  # still matching: its ... is kept
    (again,) = docs.sessions([path])
    assert all(docs.matches(e.shown, o) for e, o in zip(again.examples, docs.run(again)))


def test_a_failing_example_names_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "<!-- example: boom -->\n```python\nprint(1)\nraise SystemExit(3)\n```\n")
    with pytest.raises(docs.DocError, match=r"doc\.md:2 \(example boom\) failed with exit code 3"):
        docs.run(docs.sessions([path])[0])


@pytest.mark.parametrize(("text", "message"), [
    ("```python\nprint(1)\n```\n\n```text\n1\n```\n", r"doc\.md:1: a code block followed by a ```text output block"),
    ("```python\nprint(1)\n```\n", r"doc\.md:1: a python block that prints needs an <!-- example: NAME --> marker"),
    ("<!-- example: a -->\n```json\n{}\n```\n", r"doc\.md:1: an example marker must stand right above"),
    ("<!-- example: a color=red -->\n```bash\ntrue\n```\n", r"unknown marker field 'color=red'"),
    ("<!-- example: a needs=gpu -->\n```bash\ntrue\n```\n", r"needs= takes server, model, got 'gpu'"),
    ("<!-- example: a -->\n```bash\ntrue\n```\n<!-- example: a -->\n```bash\ntrue\n```\n", r"repeated: a"),
])
def test_malformed_docs_are_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(docs.DocError, match=message):
        docs.parse(_write(tmp_path, text))


def test_unmarked_blocks_without_output_are_left_alone(tmp_path: Path) -> None:
    assert docs.parse(_write(tmp_path, "```bash\nauthorag serve --port 8000\n```\n\nThen:\n\n```json\n{}\n```\n")) == []


def test_a_marker_quoted_inside_a_longer_fence_is_not_an_example(tmp_path: Path) -> None:
    text = "````markdown\n<!-- example: quoted -->\n```python\nprint(1)\n```\n\n```text\n1\n```\n````\n"
    assert docs.parse(_write(tmp_path, text)) == []
