"""`referee check-bot` passes clean bots and names the mistakes of faulty ones."""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
ZOO = f"{sys.executable} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"


def check(command: str, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check-bot", "manila", command, *extra])
    return result.exit_code, result.stdout


def test_random_bot_is_clean() -> None:
    code, out = check(f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}")
    assert code == 0, out
    assert out.startswith("clean: 3 matches")


def test_illegal_bot_is_reported_in_plain_words() -> None:
    code, out = check(f"{ZOO} not_legal")
    assert code == 1
    assert "chose an action that is not in 'legal'" in out
    assert out.count("problem:") == 3


def test_slow_bot_is_reported() -> None:
    code, out = check(f"{ZOO} late", "--move-ms", "2000", "--slow-ms", "300")
    assert code == 1
    assert "slowest move took" in out


def test_chatty_bot_is_reported() -> None:
    code, out = check(f"{ZOO} unsolicited")
    assert code == 1
    assert "while no answer was due" in out or "not a valid protocol message" in out
