"""Schedules: seat balance, duplicate seeding, secret-derived seeds, gauntlets."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.run import create_run, jobs_for
from referee.tournament.schedule import block_seed, lineups, new_secret, round_robin

ROOT = Path(__file__).resolve().parents[2]


@settings(max_examples=60, deadline=None)
@given(bots=st.integers(1, 6), seats=st.integers(2, 5), rounds=st.integers(1, 3))
def test_round_robin_is_seat_balanced(bots: int, seats: int, rounds: int) -> None:
    schedule = round_robin(bots, seats, rounds)
    assert len({m.id for m in schedule}) == len(schedule)
    # every bot occupies every seat equally often
    per_seat = [Counter(m.lineup[s] for m in schedule) for s in range(seats)]
    for counts in per_seat:
        assert counts == per_seat[0]
    # every block is all rotations of one lineup
    blocks: dict[int, list[tuple[int, ...]]] = {}
    for m in schedule:
        blocks.setdefault(m.block, []).append(m.lineup)
    for lineups_of_block in blocks.values():
        assert len(lineups_of_block) == seats
        assert len({tuple(sorted(x)) for x in lineups_of_block}) == 1
    assert len(blocks) == rounds * len(lineups(bots, seats))


def test_every_combination_meets() -> None:
    groups = lineups(5, 3)
    assert len(groups) == 10 and len(set(groups)) == 10
    assert lineups(2, 4) == [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1)]


def test_gauntlet_always_includes_the_candidate() -> None:
    groups = lineups(4, 3, "gauntlet")
    assert groups == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    with pytest.raises(ValueError):
        lineups(1, 3, "gauntlet")


def test_seeds_come_from_the_secret_and_rotations_share_them(tmp_path: Path) -> None:
    a, b = new_secret(), new_secret()
    assert a != b and len(a) == 64
    assert block_seed(a, 0) == block_seed(a, 0) != block_seed(a, 1)
    assert block_seed(a, 0) != block_seed(b, 0)
    bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    config = TournamentConfig(
        name="t",
        game="manila",
        seats=3,
        rounds=2,
        bots=[BotEntry(f"b{i}", bot) for i in range(4)],
    )
    manifest = create_run(config, ROOT, tmp_path / "run")
    jobs = jobs_for(manifest, tmp_path / "run", set())
    by_block: dict[int, set[int]] = {}
    for job in jobs:
        by_block.setdefault(job.match.block, set()).add(job.settings.seed)
        assert str(job.settings.seed) not in job.match.id
    assert all(len(seeds) == 1 for seeds in by_block.values())
    assert len({next(iter(s)) for s in by_block.values()}) == len(by_block)
    assert (tmp_path / "run" / "manifest.json").stat().st_mode & 0o077 == 0


def test_wrapper_prefix_runs_the_bot_inside_it(tmp_path: Path) -> None:
    from referee.tournament.run import run_tournament

    bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    config = TournamentConfig(
        name="wrapped",
        game="manila",
        seats=3,
        rounds=1,
        bots=[
            BotEntry("plain", bot),
            BotEntry("niced", bot, wrapper="nice -n 5"),
            BotEntry("env", bot, wrapper="env FOO=1"),
        ],
    )
    manifest = create_run(config, ROOT, tmp_path / "run")
    assert manifest.argv[1][:3] == ["nice", "-n", "5"]
    assert manifest.argv[2][:2] == ["env", "FOO=1"]
    rows = run_tournament(tmp_path / "run")
    assert len(rows) == 3 and all(r.verdicts == ["ok"] * 3 for r in rows)
    from referee.process.spec import BotCommandError

    bad = TournamentConfig(
        name="bad",
        game="manila",
        seats=3,
        bots=[BotEntry("x", bot, wrapper="no-such-sandbox-xyz")],
    )
    with pytest.raises(BotCommandError, match="sandbox wrapper not found"):
        create_run(bad, ROOT, tmp_path / "bad")


def test_fixed_number_of_games(tmp_path: Path) -> None:
    bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    config = TournamentConfig(
        name="g", game="manila", seats=3, games=7, bots=[BotEntry(f"b{i}", bot) for i in range(3)]
    )
    manifest = create_run(config, ROOT, tmp_path / "run")
    assert len(manifest.schedule) == 7
    assert [m.block for m in manifest.schedule] == [0, 0, 0, 1, 1, 1, 2]
