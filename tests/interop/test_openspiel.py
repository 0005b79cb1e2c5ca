"""The OpenSpiel binding: OpenSpiel's own consistency test for every game at every
seat count, the action-id tables, chance pieces, returns and ISMCTS resampling."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game
from tests.interop.helpers import SEAT_COUNTS, need, play_openspiel

FULL_GAMES = {("manila", 3), ("manila", 4), ("manila", 5), ("puerto-rico", 2)}
"""Simulated to the end; the others are cut by ``max_plies`` (OpenSpiel's test checks
every node of a simulation, and Navegador's random games run to ~3,000 plies)."""

CUT_PLIES = 60


def _load(name: str, seats: int, **params: int) -> tuple[Any, Any]:
    pyspiel = need("pyspiel")
    from referee.interop import openspiel as binding

    return pyspiel, pyspiel.load_game(
        binding.short_name(get_game(name)), {"players": seats, **params}
    )


@pytest.mark.parametrize(
    ("name", "seats"), [(g, n) for g, counts in SEAT_COUNTS.items() for n in counts]
)
def test_random_sim_test(name: str, seats: int) -> None:
    cut = 0 if (name, seats) in FULL_GAMES else CUT_PLIES
    pyspiel, game = _load(name, seats, max_plies=cut)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_registered_names_and_parameters() -> None:
    pyspiel, game = _load("roads-and-boats", 2, map_seed=7, solo_turns=9)
    names = set(pyspiel.registered_names())
    for short in ("referee_manila", "referee_navegador", "referee_puerto_rico"):
        assert short in names
    assert game.num_players() == 2
    assert game.options.map_seed == 7
    assert game.options.solo_turns == 9
    default = pyspiel.load_game("referee_roads_and_boats", {"players": 2})
    assert default.options.map_seed is None  # -1 stands for None
    with pytest.raises(Exception, match="seats"):
        pyspiel.load_game("referee_manila", {"players": 2})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize("name", ["manila", "navegador", "puerto-rico", "roads-and-boats"])
def test_every_offered_action_has_an_id_and_back(name: str) -> None:
    from referee.interop.encoding import action_codec

    game = get_game(name)
    codec = action_codec(game)
    for seats in SEAT_COUNTS[name]:
        rng = random.Random(seats)
        state = game.new_game(seats)
        for _ply in range(1500):
            if state.to_move() == TERMINAL:
                break
            if state.to_move() == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            ids = codec.legal_ids(state)
            assert len(set(ids)) == len(legal) and max(ids) < codec.num_actions
            assert sorted(codec.encode(state, a) for a in legal) == ids
            assert [codec.decode(state, i) for i in ids] == sorted(
                legal, key=lambda a: codec.encode(state, a)
            )
            state.apply_action(legal[rng.randrange(len(legal))])


def test_an_id_that_is_not_legal_is_refused() -> None:
    from referee.interop.encoding import ActionIdError, action_codec

    game = get_game("manila")
    state = game.new_game(3)
    state.apply_chance(state.sample_chance(random.Random(1)))
    codec = action_codec(game)
    illegal = next(i for i in range(codec.num_actions) if i not in codec.legal_ids(state))
    with pytest.raises(ActionIdError, match="not legal"):
        codec.decode(state, illegal)
    with pytest.raises(ActionIdError, match="out of range"):
        codec.decode(state, codec.num_actions)


def test_manila_deal_is_dealt_share_by_share_with_the_engine_odds() -> None:
    _pyspiel, game = _load("manila", 3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(g, 0.25) for g in range(4)]
    state.apply_action(0)  # a nutmeg share: 2 of 11 left
    odds = dict(state.chance_outcomes())
    assert odds[0] == pytest.approx(2 / 11) and odds[1] == pytest.approx(3 / 11)
    for piece in (0, 0, 1, 1, 2):  # the rest of the six shares of three hands
        state.apply_action(piece)
    assert not state.is_chance_node()
    hands = [state.episode.state.view(s).shares for s in range(3)]
    assert hands  # the deal was applied to the engine as one outcome
    assert state.episode.lines[0].outcome == [
        ["nutmeg", "nutmeg"],
        ["nutmeg", "silk"],
        ["silk", "ginseng"],
    ]


def test_returns_rank_as_the_referee_does() -> None:
    for seed in range(3):
        state, _ids = play_openspiel("puerto-rico", 3, seed)
        engine = state.episode.state
        returns = state.returns()
        ranks = engine.ranks()
        for a in range(3):
            for b in range(3):
                if ranks[a] < ranks[b]:
                    assert returns[a] > returns[b]
        assert returns == pytest.approx(engine.scores(), abs=0.01)


def test_serialize_round_trip_mid_game() -> None:
    pyspiel = need("pyspiel")
    state, ids = play_openspiel("manila", 4, 5)
    game = state.get_game()
    half = game.new_initial_state()
    for action in ids[: len(ids) // 2]:
        half.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, half)
    _game2, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == half.history()
    assert again.information_state_string(1) == half.information_state_string(1)
    assert str(again.observation_tensor(2)) == str(half.observation_tensor(2))


@pytest.mark.parametrize("name", ["manila", "navegador", "puerto-rico", "roads-and-boats"])
def test_resample_keeps_the_information_state_and_legal_ids(name: str) -> None:
    _pyspiel, game = _load(name, 3 if name != "navegador" else 2)
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 25:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, rng.random)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 25


def test_openspiel_ismcts_plays_a_game() -> None:
    np = need("numpy")
    need("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    _pyspiel, game = _load("manila", 3, max_plies=40)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        2.0,
        3,
        random_state=np.random.RandomState(1),
    )
    rng = random.Random(2)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 5
