"""``benchmarks.floor``: the minimal referee plays whole matches to the end with the
real bots and leaves none behind, and the three figures it compares are measured."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from benchmarks import floor
from referee.api.engine import TERMINAL
from referee.games import get_game

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def test_the_floor_plays_whole_matches_and_ends_its_bots(tmp_path: Path) -> None:
    bot = str(floor.build_bot(tmp_path))

    async def main() -> floor.Floor:
        referee = floor.Floor(get_game("manila"), 4, bot)
        await referee.start()
        for seed in range(2):
            await referee.play(seed)
            assert referee.state.to_move() == TERMINAL  # the match was played out
        await referee.close()
        return referee

    referee = asyncio.run(main())
    assert referee.decisions > 50
    assert all(proc.poll() is not None for proc in referee._procs)


@pytest.mark.parametrize("kind", floor.KINDS)
def test_each_figure_is_measured(tmp_path: Path, kind: str) -> None:
    bot = str(floor.build_bot(tmp_path))
    assert floor.run(kind, "manila", bot, 100) > 0
