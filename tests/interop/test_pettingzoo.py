"""The PettingZoo binding: PettingZoo's own API and seed tests for every game at two
seat counts, and the same seed giving the same game as ``referee play --seed``."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import msgspec
import numpy as np
import pytest

from referee.games import get_game
from referee.match.record import ChanceLine, MoveLine, ResultLine, read_record
from tests.interop.helpers import need

TWO_COUNTS = [
    ("manila", 3),
    ("manila", 5),
    ("navegador", 2),
    ("navegador", 4),
    ("puerto-rico", 2),
    ("puerto-rico", 4),
    ("roads-and-boats", 1),
    ("roads-and-boats", 3),
]

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("name", "seats"), TWO_COUNTS)
def test_pettingzoo_api_and_seed_tests(name: str, seats: int) -> None:
    need("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from referee.interop.pettingzoo import env

    with warnings.catch_warnings():
        # Dict observations with an action mask, as PettingZoo's own classic games:
        # its checker warns that they are not bare arrays.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, players=seats), num_cycles=60)
        seed_test(lambda: env(name, players=seats), num_cycles=60)


def test_spaces_and_observations() -> None:
    need("pettingzoo")
    from gymnasium import spaces

    from referee.interop.encoding import action_codec, tensor_size
    from referee.interop.pettingzoo import env

    e = env("manila", players=3)
    e.reset(seed=3)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    size, ids = tensor_size(get_game("manila")), action_codec(get_game("manila")).num_actions
    space = e.action_space("player_1")
    assert isinstance(space, spaces.Discrete) and space.n == ids
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == (size,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (ids,) and obs["action_mask"].dtype == np.int8
    assert obs["action_mask"].sum() >= 1
    others = [a for a in e.agents if a != e.agent_selection]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    from referee.interop.encoding import ActionIdError

    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ActionIdError):
        e.step(illegal)


def _play_referee(tmp_path: Path, name: str, seats: int, seed: int) -> Path:
    record = tmp_path / "game.jsonl"
    bots = [a for s in range(seats) for a in ("--bot", f"python3 bots/random_bot.py --seed {s}")]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli.main",
            "play",
            name,
            *bots,
            "--seed",
            str(seed),
            "--record",
            str(record),
            "--sandbox",
            "none",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return record


@pytest.mark.parametrize(("name", "seats"), [("manila", 3), ("puerto-rico", 2)])
def test_same_seed_same_game_as_referee_play(tmp_path: Path, name: str, seats: int) -> None:
    """Replaying the moves of a ``referee play --seed`` game through ``reset(seed)``
    draws every chance outcome the referee drew, and ends with its scores."""
    need("pettingzoo")
    from referee.interop.encoding import action_codec
    from referee.interop.pettingzoo import env

    seed = 20261128
    lines = read_record(_play_referee(tmp_path, name, seats, seed))
    game = get_game(name)
    codec = action_codec(game)
    e = env(name, players=seats)
    e.reset(seed=seed)
    moves = [line for line in lines if isinstance(line, MoveLine)]
    for line in moves:
        assert e.agent_selection == f"player_{line.seat}"
        action = game.decode_action(line.action)
        assert e.episode is not None
        e.step(codec.encode(e.episode.state, action))
    assert e.episode is not None
    drawn = [msgspec.to_builtins(x.outcome) for x in e.episode.lines if isinstance(x, ChanceLine)]
    recorded = [msgspec.to_builtins(x.outcome) for x in lines if isinstance(x, ChanceLine)]
    assert drawn == recorded and recorded
    result = lines[-1]
    assert isinstance(result, ResultLine)
    assert all(e.terminations.values())
    assert [float(s) for s in e.episode.state.scores()] == result.scores


def test_render_ansi_and_html(tmp_path: Path) -> None:
    need("pettingzoo")
    from referee.interop.pettingzoo import env

    text_env = env("puerto-rico", players=2, render_mode="ansi", max_plies=40)
    text_env.reset(seed=1)
    first = text_env.render()
    assert first is not None and "to move: player_" in first
    page = tmp_path / "episode.html"
    html_env = env("manila", players=3, render_mode="html", html_path=str(page))
    html_env.reset(seed=2)
    for _ in range(10):
        mask = html_env.observe(html_env.agent_selection)["action_mask"]
        html_env.step(int(np.flatnonzero(mask)[0]))
    assert html_env.render() == str(page)
    assert "<html" in page.read_text()[:2000].lower()


def test_max_plies_truncates_with_scores() -> None:
    need("pettingzoo")
    from referee.interop.pettingzoo import env

    e = env("navegador", players=2, max_plies=30)
    e.reset(seed=4)
    steps = 0
    for agent in e.agent_iter(500):
        _obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert e.agents == []
    assert 0 < steps <= 30
