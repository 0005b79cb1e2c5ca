"""Helpers shared by the CLI tests that play the toy game: the toy game registered for
a test, the CLI invoked in-process, and the one-error-line rule of bad input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from referee.cli.main import main
from referee.games import all_games
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
"""The bundled random bot, run by the referee's own interpreter."""


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game registered for one test (import this into a test module)."""
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def invoke(*args: str | Path) -> Result:
    """``referee ARGS`` run in-process; its result (exit code, stdout, stderr)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(result: Result, *needles: str) -> str:
    """The command failed with exit 2, no traceback, and exactly one
    ``referee: error:`` line, which contains every needle; that line."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("referee: error:")]
    assert len(errors) == 1, lines
    for needle in needles:
        assert needle in errors[0], errors[0]
    return errors[0]
