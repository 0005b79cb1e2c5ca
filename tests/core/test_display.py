"""Escaping for each kind of output (referee.display) and the caps on bot text
(referee.process.protocol), on the hostile battery of tests/core/forger_bot.py."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from referee.cli.output import render
from referee.display import (
    csv_cell,
    html_text,
    markdown_cell,
    script_json,
    terminal,
    terminal_json,
)
from referee.process.protocol import MAX_DETAIL_BYTES, MAX_NAME_CHARS, cap_bytes, cap_name
from tests.core.forger_bot import BATTERY, HUGE_TYPE, NAMES, STRAY

HOSTILE = [*BATTERY, *NAMES.values(), STRAY, HUGE_TYPE[:300]]

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What must never reach a terminal raw (newlines between lines aside)."""


def raw_controls(text: str) -> list[str]:
    """Unsafe characters of ``text``, its line breaks between lines excepted."""
    return [m.group() for m in UNSAFE.finditer(text) if m.group() != "\n"]


@pytest.mark.parametrize("text", HOSTILE)
def test_terminal_shows_every_control_visibly(text: str) -> None:
    shown = terminal(text)
    assert UNSAFE.search(shown) is None
    # Nothing is lost: every unsafe character is named, everything else kept in order.
    assert "\\" not in text
    assert unescape(shown) == text


def unescape(shown: str) -> str:
    short = {"n": "\n", "r": "\r", "t": "\t"}
    return re.sub(
        r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])",
        lambda m: short.get(m.group(1)) or chr(int(m.group(1)[1:], 16)),
        shown,
    )


def test_terminal_exact_forms() -> None:
    assert terminal("a\x1b[2Jb\x07\r\n\t\x9b\u2028\u202e") == (
        "a\\x1b[2Jb\\x07\\r\\n\\t\\x9b\\u2028\\u202e"
    )
    assert terminal("plain text, é, 漢字, C:\\path") == "plain text, é, 漢字, C:\\path"


@pytest.mark.parametrize("text", HOSTILE)
def test_csv_cell_never_starts_a_formula(text: str) -> None:
    cell = csv_cell(text)
    assert UNSAFE.search(cell) is None
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(["x", cell, 1.5])
    (row,) = list(csv.reader(io.StringIO(buffer.getvalue())))
    assert row == ["x", cell, "1.5"]


def test_csv_cell_exact_forms() -> None:
    assert csv_cell('=HYPERLINK("http://x","y")') == '\'=HYPERLINK("http://x","y")'
    assert [csv_cell(t) for t in ("+1", "-1", "@SUM(1)", "\tx", "\rx")] == [
        "'+1",
        "'-1",
        "'@SUM(1)",
        "'\\tx",
        "'\\rx",
    ]
    # Numbers stay numbers, the placeholder stays itself, other text is untouched.
    assert csv_cell(-1) == -1 and csv_cell(2.5) == 2.5 and csv_cell(None) is None
    assert csv_cell("-") == "-" and csv_cell("random") == "random"


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_cell_adds_no_column_row_or_tag(text: str) -> None:
    cell = markdown_cell(text)
    assert UNSAFE.search(cell) is None
    assert "\n" not in cell and "<" not in cell.replace("<br>", "")
    # Every pipe is escaped by an odd run of backslashes (GFM splits cells elsewhere).
    for m in re.finditer(r"(\\*)\|", cell):
        assert len(m.group(1)) % 2 == 1


def test_markdown_cell_exact_forms() -> None:
    assert markdown_cell("|a|b|") == "\\|a\\|b\\|"
    assert markdown_cell("a\\|b") == "a\\\\\\|b"
    assert markdown_cell("two\nlines\r\nthree\u2028") == "two<br>lines<br>three<br>"
    assert markdown_cell("<b>&") == "&lt;b&gt;&amp;"


@pytest.mark.parametrize("fmt", ["github", "markdown"])
def test_markdown_tables_keep_their_shape(fmt: str) -> None:
    rows = [{"bot": text, "score": i} for i, text in enumerate(HOSTILE)]
    table = render(rows, fmt)
    lines = table.splitlines()
    assert len(lines) == len(rows) + 2
    unescaped = re.compile(r"(?<!\\)((?:\\\\)*)\|")
    assert {len(unescaped.findall(line)) for line in lines} == {3}
    assert raw_controls(table) == []


@pytest.mark.parametrize("fmt", ["plain", "grid"])
def test_terminal_tables_have_one_line_per_row(fmt: str) -> None:
    rows = [{"bot": text, "score": i} for i, text in enumerate(HOSTILE)]
    table = render(rows, fmt)
    assert raw_controls(table) == []
    if fmt == "plain":
        assert len(table.splitlines()) == len(rows) + 1
    for i, text in enumerate(HOSTILE):
        assert terminal(text) in table, i


def test_text_columns_are_not_read_as_numbers() -> None:
    table = render([{"bot": "1e3", "n": 7}, {"bot": "-0", "n": 8}], "plain")
    assert "1e3" in table and "-0" in table and "1000" not in table


def test_csv_and_json_tables() -> None:
    rows = [{"bot": text, "score": -1.0} for text in HOSTILE]
    parsed = list(csv.DictReader(io.StringIO(render(rows, "csv"))))
    assert [r["bot"] for r in parsed] == [csv_cell(t) for t in HOSTILE]
    assert all(r["score"] == "-1.0" for r in parsed)
    text = render(rows, "json")
    assert raw_controls(text) == []
    assert json.loads(text) == rows  # the same data, exactly


@pytest.mark.parametrize("text", HOSTILE)
def test_script_json_cannot_leave_the_script(text: str) -> None:
    data = {"name": text, "nested": [text, {"k": text}]}
    embedded = script_json(data)
    assert not re.search(r"[<>&\u2028\u2029]", embedded)
    assert json.loads(embedded) == data


def test_terminal_json_is_the_same_data() -> None:
    text = terminal_json(HOSTILE)
    assert raw_controls(text) == []
    assert json.loads(text) == HOSTILE


def test_html_text() -> None:
    assert html_text("</script><!--\"'&") == "&lt;/script&gt;&lt;!--&quot;&#x27;&amp;"


def test_cap_bytes_marks_the_cut() -> None:
    assert cap_bytes("short") == "short"
    exact = "x" * MAX_DETAIL_BYTES
    assert cap_bytes(exact) == exact
    capped = cap_bytes(HUGE_TYPE)
    assert len(capped.encode()) <= MAX_DETAIL_BYTES
    kept, _, mark = capped.partition("… ")
    assert HUGE_TYPE.startswith(kept)
    cut = len(HUGE_TYPE.encode()) - len(kept.encode())
    assert mark == f"{cut:,} more bytes" and cut > 890_000
    assert cap_bytes(capped) == capped  # capping twice changes nothing
    # Multi-byte characters are never split.
    wide = cap_bytes("é" * 5000)
    assert len(wide.encode()) <= MAX_DETAIL_BYTES and wide.startswith("é" * 1000)


def test_cap_name_marks_the_cut() -> None:
    assert cap_name(None) is None and cap_name("random") == "random"
    long = NAMES["plain"]
    capped = cap_name(long)
    assert capped is not None and len(capped) <= MAX_NAME_CHARS
    kept, _, mark = capped.partition("… ")
    assert long.startswith(kept) and mark == f"{len(long) - len(kept)} more characters"
