"""No observation of either binding reveals what the seat's protocol view hides.

Three checks per game: every observation is the encoding of the seat's redacted view
and nothing else; the information state's events are exactly the events ``referee
replay`` says the seat was shown; and positions that differ only in what the seat
cannot see (the engine's ``determinize`` of its view, several draws) observe alike.
A leak planted in the observer shows that the last check fails when it should.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest

from referee.match.replay import replay
from tests.interop.helpers import need, play_openspiel

GAMES = [("manila", 3), ("navegador", 2), ("puerto-rico", 3), ("roads-and-boats", 2)]

Observe = Callable[[Any, int], tuple[Any, ...]]


def _json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _observe(state: Any, player: int) -> tuple[Any, ...]:
    return (
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
        state.information_state_string(player),
    )


def _positions(name: str, seats: int, count: int) -> list[Any]:
    """``count`` decision states of a random game through the OpenSpiel binding."""
    final, ids = play_openspiel(name, seats, seed=3)
    game = final.get_game()
    state, decisions = game.new_initial_state(), []
    for n, action in enumerate(ids):
        if not state.is_chance_node():
            decisions.append(n)
        state.apply_action(action)
    step = max(1, len(decisions) // count)
    chosen = set(decisions[step // 2 :: step][:count])
    state, out = game.new_initial_state(), []
    for n, action in enumerate(ids):
        if n in chosen:
            out.append(state.clone())
        state.apply_action(action)
    return out


def leaks(states: list[Any], observe: Observe, draws: int = 4) -> list[str]:
    """Where an observation differs between positions that look the same to the seat:
    the state and redraws of its hidden part from the seat's information state."""
    found = []
    rng = random.Random(8)
    for state in states:
        for player in range(state.num_players()):
            seen = observe(state, player)
            for _ in range(draws):
                other = state.resample_from_infostate(player, rng.random)
                if observe(other, player) != seen:
                    found.append(f"player {player} at {state.history_str()[-40:]}")
    return found


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_observations_are_the_redacted_view_and_nothing_else(name: str, seats: int) -> None:
    need("pyspiel")
    from referee.interop.encoding import tensor_size, view_tensor

    for state in _positions(name, seats, 6):
        engine = state.episode.state
        for player in range(seats):
            view = engine.view(player)
            assert state.observation_string(player) == msgspec.json.encode(view).decode()
            expected = view_tensor(view, tensor_size(engine_game(state)))
            assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
            seat, events, shown = msgspec.json.decode(state.information_state_string(player))
            assert seat == player and shown == _json(view)
            assert events == _json(state.episode.events[player])
    assert not leaks(_positions(name, seats, 4), _observe)


def engine_game(state: Any) -> Any:
    return state.get_game().engine


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_information_state_events_are_the_protocol_events(
    tmp_path: Path, name: str, seats: int
) -> None:
    need("pyspiel")
    final, _ids = play_openspiel(name, seats, seed=6)
    record = final.episode.write_record(tmp_path / "game.jsonl")
    for seat in range(seats):
        shown = replay(record, seat=seat, unchecked_chance=True).shown
        told = [event for decision in shown for event in decision.events]
        mine = _json(final.episode.events[seat])
        assert told and mine[: len(told)] == _json(told)


def test_a_planted_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Manila's hands are hidden: an information state that adds the full state is
    caught by the same check."""
    need("pyspiel")
    from referee.interop.episode import Episode

    states = _positions("manila", 4, 4)
    assert not leaks(states, _observe)
    honest = Episode.information

    def leaky(self: Episode, seat: int) -> str:
        return honest(self, seat) + msgspec.json.encode(self.state.debug()).decode()

    monkeypatch.setattr(Episode, "information", leaky)
    assert leaks(states, _observe)


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_pettingzoo_observation_is_the_redacted_view(name: str, seats: int) -> None:
    need("pettingzoo")
    from referee.interop.encoding import tensor_size, view_tensor
    from referee.interop.pettingzoo import env

    e = env(name, players=seats, max_plies=200)
    e.reset(seed=12)
    rng = random.Random(1)
    for _agent in e.agent_iter(200):
        _obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.episode is not None
        engine = e.episode.state
        for seat, agent in enumerate(e.possible_agents):
            expected = view_tensor(engine.view(seat), tensor_size(e.game))
            assert np.array_equal(e.observe(agent)["observation"], expected)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
