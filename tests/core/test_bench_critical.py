"""``benchmarks.critical`` times the referee's pieces by wrapping them for the length
of its matches: it must measure every piece it names and leave the code as it found
it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import critical
from referee.games.manila.state import ManilaState
from referee.process import lines
from referee.process.bot import BotProcess

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def test_one_run_times_every_piece_and_puts_the_code_back(tmp_path: Path) -> None:
    originals = (
        ManilaState.view,
        ManilaState.apply_action,
        BotProcess._write,
        lines._Lines.data_received,
    )
    bot = critical.build_bot(tmp_path)
    run = critical.one_run("manila", bot, decisions=100, sandbox="none")
    assert (
        ManilaState.view,
        ManilaState.apply_action,
        BotProcess._write,
        lines._Lines.data_received,
    ) == originals
    for piece in critical.PIECES:
        calls, in_match, warm, per_decision = run[piece]
        assert calls > 0.5 and in_match > 0 and warm > 0 and per_decision > 0, piece
    # a view and a list of legal actions per act, each counted once: the to_move
    # a view asks and the legal list apply_action checks against are theirs, not
    # pieces of their own; every seat observes each move
    assert 0.95 < run["view"][0] <= 1.0
    assert 0.95 < run["legal_actions"][0] <= 1.0
    assert run["to_move"][0] < 1.5
    assert run["observe_action"][0] > 3.5
    wall_mean, wall_median, cpu_mean, decisions = run["path"]
    assert decisions > 50 and wall_mean > 0 and wall_median > 0 and cpu_mean > 0
