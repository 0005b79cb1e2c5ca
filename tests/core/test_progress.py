"""Progress of long commands (issue 33, item 13): a bar on a terminal, plain lines
at most once a second elsewhere; ``play`` and ``check-bot`` show it on stderr."""

from __future__ import annotations

import io
import re
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import all_games
from referee.progress import Progress
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
SLOW = f"{sys.executable} {ROOT / 'tests' / 'core' / 'slow_bot.py'}"
LINE = re.compile(r"^(?P<label>[\w -]+): (?P<done>\d+)( of (?P<total>\d+))? (?P<unit>\w+)")


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_a_line_at_most_every_second_and_the_last_count() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress("demo", 50, "plies", file=out, clock=clock) as progress:
        for done in range(1, 51):
            clock.now += 0.25  # four updates a second
            progress.update(done)
    lines = out.getvalue().splitlines()
    # 12.5 s of work: a line every 4 updates, then the last count once.
    assert lines[:3] == ["demo: 4 of 50 plies", "demo: 8 of 50 plies", "demo: 12 of 50 plies"]
    assert len(lines) == 13 and lines[-1] == "demo: 50 of 50 plies"


def test_a_quick_run_prints_nothing_off_a_terminal() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress("demo", None, "plies", file=out, clock=clock) as progress:
        for done in range(300):
            clock.now += 0.001
            progress.update(done)
    assert out.getvalue() == ""


def test_on_a_terminal_a_bar_with_position_when_the_total_is_known() -> None:
    clock, out = Clock(), Terminal()
    with Progress("check-bot manila", 3, "matches", file=out, clock=clock) as progress:
        for done in range(1, 4):
            clock.now += 1.0
            progress.update(done, "ply 7")
    text = out.getvalue()
    assert "check-bot manila" in text and "[" in text and "3/3" in text and "\n" not in text[:-1]
    assert text.endswith("\n")


def test_on_a_terminal_an_unknown_total_is_a_count_rewritten_in_place_then_erased() -> None:
    clock, out = Clock(), Terminal()
    with Progress("manila", None, "plies", file=out, clock=clock) as progress:
        for done in range(1, 6):
            clock.now += 0.0625  # redrawn at most every 0.1 s: at 2 and 4
            progress.update(done)
    text = out.getvalue()
    assert text.count("\r") == 2 + 2  # two redraws, then erased between two returns
    assert "manila: 2 plies" in text and "manila: 4 plies" in text and "\n" not in text
    assert text.endswith("\r") and text.rsplit("\r", 2)[1].strip() == ""


def plain_lines(err: str) -> list[tuple[str, int, str]]:
    found = []
    for line in err.splitlines():
        if m := LINE.match(line):
            found.append((m["label"], int(m["done"]), m["unit"]))
    return found


def test_check_bot_prints_progress_lines_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two matches of a bot sleeping 0.2 s a move take more than a second: progress
    lines come, never more than one a second, and the last says 2 of 2."""
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    began = time.monotonic()
    result = CliRunner().invoke(main, ["check-bot", GAME.name, f"{SLOW} 0.2"])
    elapsed = time.monotonic() - began
    assert result.exit_code == 0, result.stdout
    lines = plain_lines(result.stderr)
    assert lines, result.stderr
    assert all(label == f"check-bot {GAME.name}" and unit == "matches" for label, _, unit in lines)
    assert len(lines) <= elapsed + 1  # at most one a second (and the last count)
    assert GAME.min_seats == 2 and lines[-1][1] == 2 and "2 of 2 matches" in result.stderr
    assert f"check-bot {GAME.name}:" not in result.stdout  # stdout: the report only


def test_play_prints_progress_lines_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    began = time.monotonic()
    result = CliRunner().invoke(
        main, ["play", GAME.name, "--bot", f"{SLOW} 0.2", "--bot", f"{SLOW} 0.2"]
    )
    elapsed = time.monotonic() - began
    assert result.exit_code == 0, result.stdout
    lines = plain_lines(result.stderr)
    assert lines and all(label == GAME.name and unit == "plies" for label, _, unit in lines)
    assert len(lines) <= elapsed + 1
    plies = int(re.search(r"(\d+) plies", result.stdout.splitlines()[-1])[1])  # type: ignore[index]
    assert lines[-1][1] <= plies
    assert [done for _, done, _ in lines] == sorted(done for _, done, _ in lines)
