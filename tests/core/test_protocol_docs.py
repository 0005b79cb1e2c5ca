"""docs/protocol.md stays true for bot authors (issue 14): the environment it lists is
the one bots get, it says how to flush in each example language, links the examples,
and its in-page links land on headings."""

from __future__ import annotations

import re
from pathlib import Path

from referee.process.spec import scrubbed_environment

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else None]


def test_environment_table_lists_exactly_what_bots_get() -> None:
    rows = re.findall(r"^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|", section("Environment"), re.M)
    documented = {name.strip("`") for row in rows for name in row.split(", ")}
    assert documented == set(scrubbed_environment("/home", "token"))


def test_flushing_is_explained_for_every_example_language() -> None:
    text = section("Flush every line")
    for language, idiom in [
        ("Python", "flush=True"),
        ("Node", "process.stdout.write"),
        ("C", "fflush(stdout)"),
        ("Java", "System.out.flush()"),
        ("Rust", "flush()"),
    ]:
        assert language in text and idiom in text, language
    assert "PYTHONUNBUFFERED=1" in text


def test_examples_are_linked_and_exist() -> None:
    text = section("Bots in other languages")
    for name in re.findall(r"`(random_bot\.\w+)`", text):
        assert (ROOT / "bots" / "examples" / name).is_file(), name
    assert "](../bots/examples/)" in text


def test_redacted_forms_and_schema_are_documented() -> None:
    text = section("Events, redaction and the schema")
    assert '{"kind":"mortgage"}' in text and "referee schema GAME" in text
    assert "referee_to_bot" in text


def test_in_page_links_land_on_headings() -> None:
    anchors = {
        re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", DOC, re.M)
    }
    for target in re.findall(r"\]\(#([^)]+)\)", DOC):
        assert target in anchors, target
