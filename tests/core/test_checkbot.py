"""`referee check-bot` passes clean bots and names the mistakes of faulty ones."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import all_games
from referee.process.isolation.cgroups import memory_problem
from tests.core.toygame import GAME as TOY

ROOT = Path(__file__).resolve().parents[2]
ZOO = f"{sys.executable} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"


def check(command: str, *extra: str, game: str = "manila") -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check-bot", game, command, *extra])
    return result.exit_code, result.stdout


def test_random_bot_is_clean() -> None:
    code, out = check(f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}")
    assert code == 0, out
    assert out.splitlines()[-1].startswith("clean: 3 matches"), out
    assert "problem:" not in out


def test_the_bots_peak_memory_is_shown_where_it_is_measured() -> None:
    """With a memory cgroup per bot (the referee as root) the summary gives the peak of
    the bot's processes together; without one it says nothing about memory."""
    code, out = check(f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}")
    assert code == 0, out
    summary = out.splitlines()[-1]
    if memory_problem() is None:
        peak = re.search(r"; peak memory (\d+) MiB \(its processes together", summary)
        assert peak is not None, summary
        assert 0 < int(peak.group(1)) < 200
    else:
        assert "peak memory" not in summary


def test_illegal_bot_is_reported_in_plain_words() -> None:
    code, out = check(f"{ZOO} not_legal")
    assert code == 1
    assert "chose an action that is not in 'legal'" in out
    assert out.count("problem:") == 3


def test_slow_bot_is_noted_not_faulted(monkeypatch: pytest.MonkeyPatch) -> None:
    # The toy game has few moves, so a bot sleeping 0.6 s a move stays quick to check.
    # Slow but within the clock: a note against the move time, and still clean.
    monkeypatch.setitem(all_games(), TOY.name, TOY)
    slow = f"{sys.executable} {ROOT / 'tests' / 'core' / 'slow_bot.py'} 0.6"
    code, out = check(slow, "--move-ms", "2000", "--slow-ms", "300", game=TOY.name)
    assert code == 0, out
    assert out.count("note: ") == 3 and out.count("slowest move took") == 2
    assert "does not offer reuse" in out  # slow_bot.py exits after end
    assert "of the 2000 ms move time" in out and "problem:" not in out


def test_chatty_bot_is_reported() -> None:
    code, out = check(f"{ZOO} unsolicited")
    assert code == 1
    assert "while no answer was due" in out or "not a valid protocol message" in out


def test_a_bot_offering_reuse_is_checked_in_reused_processes() -> None:
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} ok"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 0, out
    assert "2 of 3 matches were played by a process reused" in out


def test_a_bot_that_breaks_when_reused_is_told_so() -> None:
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} die_on_reuse"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 1
    assert out.count("problem:") == 2 and out.count("did not answer this match's start") == 2


def test_a_faulting_bot_is_never_reused_in_the_check() -> None:
    # Illegal at its first decision in every match: never handed a second match.
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} illegal"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 1
    assert out.count("problem:") == 3 and "reused from an earlier match" not in out


def test_a_bot_offering_reuse_that_faults_every_match_is_not_told_it_offers_none() -> None:
    """Issue 33, item 5: the note says the bot offered reuse and why no process was
    kept (every match faulted), not that it does not offer reuse."""
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} illegal"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 1
    assert "does not offer reuse" not in out
    assert "the bot offered reuse in 3 of 3 matches, but no match was played by a reused" in out
    assert "it faulted in 3 of 3 matches" in out


def test_a_bot_whose_reused_process_never_answers_is_told_why() -> None:
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} die_on_reuse"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 1 and "does not offer reuse" not in out
    assert "2 time(s) its process from an earlier match did not answer the next start" in out


def test_a_bot_without_reuse_is_told_it_offers_none() -> None:
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'} no_reuse"
    code, out = check(reuse_bot, "--seats", "3")
    assert code == 0, out
    assert 'note: the bot does not offer reuse ("reuse": true in ready)' in out
