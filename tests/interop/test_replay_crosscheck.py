"""A game played through each binding from a recorded list of action ids gives
exactly the scores that ``referee replay`` finds in a record of that game."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import get_game
from referee.interop.encoding import action_codec
from referee.match.replay import replay
from tests.interop.helpers import need, play_openspiel

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("manila", 4), ("navegador", 2), ("puerto-rico", 3), ("roads-and-boats", 2)]


def _referee_replay(record: Path, *flags: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli.main", "replay", str(record), *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_openspiel_game_matches_referee_replay(tmp_path: Path, name: str, seats: int) -> None:
    need("pyspiel")
    state, ids = play_openspiel(name, seats, seed=11)
    record = state.episode.write_record(tmp_path / "game.jsonl")
    assert record == tmp_path / "game.jsonl"  # finished: published with its result
    # The same ids from a fresh state give the same game...
    again = state.get_game().new_initial_state()
    for action in ids:
        again.apply_action(action)
    assert again.returns() == state.returns()
    # ...and the referee's own replay of its record agrees with the binding's scores.
    _referee_replay(record, "--unchecked-chance")
    checked = replay(record, unchecked_chance=True)
    assert checked.result.scores == [float(s) for s in state.episode.state.scores()]
    assert [float(s) for s in checked.state.scores()] == checked.result.scores
    assert checked.state.ranks() == state.episode.state.ranks()


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_pettingzoo_game_matches_referee_replay(tmp_path: Path, name: str, seats: int) -> None:
    need("pettingzoo")
    from referee.interop.pettingzoo import env

    codec = action_codec(get_game(name))
    rng = random.Random(5)
    first = env(name, players=seats)
    first.reset(seed=99)
    ids: list[int] = []
    for _agent in first.agent_iter():
        _obs, _reward, terminated, truncated, _info = first.last()
        if terminated or truncated:
            first.step(None)
            continue
        assert first.episode is not None
        choice = rng.choice(codec.legal_ids(first.episode.state))
        ids.append(choice)
        first.step(choice)
    assert first.episode is not None
    record = first.episode.write_record(tmp_path / "game.jsonl", seed=99)
    # With the seed in the record, replay re-draws every chance outcome from the
    # referee's keyed generator and checks it against the record.
    _referee_replay(record)
    checked = replay(record)
    assert checked.chance_checked
    second = env(name, players=seats)
    second.reset(seed=99)
    for choice in ids:
        second.step(choice)
    assert second.episode is not None
    scores = [float(s) for s in second.episode.state.scores()]
    assert checked.result.scores == scores == [float(s) for s in checked.state.scores()]
