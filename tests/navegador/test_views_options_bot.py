"""Views hide face-down prices, options validate, the card-triggered end, and the bot."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import TERMINAL, OptionError
from referee.games.navegador import GAME
from referee.games.navegador.actions import DONE, USE_CARD, Rondel, Sail

from .helpers import R, new_state, set_tiles


def test_view_shows_counts_and_goods_of_unexplored_stacks_only() -> None:
    state = new_state(4)
    view = state.view(1)
    timor = view.regions[R["Timor"]]
    assert (timor.good, timor.hidden, timor.tiles, timor.explored) == ("spice", 2, [], False)
    wire = msgspec.json.encode(view)
    assert GAME.determinize(msgspec.json.decode(wire, type=GAME.view_type), random.Random(0))


def test_options_are_validated() -> None:
    assert GAME.parse_options({"king_at_goa": "true"}).king_at_goa is True
    assert GAME.parse_options({"building_end": "row"}).building_end == "row"
    with pytest.raises(OptionError):
        GAME.parse_options({"building_end": "sometimes"})
    with pytest.raises(OptionError):
        GAME.parse_options({"max_rounds": "-1"})
    with pytest.raises(OptionError):
        GAME.new_game(1)


def test_max_rounds_ends_the_game_after_full_rounds() -> None:
    state = GAME.new_game(3, GAME.parse_options({"max_rounds": "2"}))
    for turn in range(6):
        assert state.to_move() == turn % 3
        state.apply_action(next(a for a in state.legal_actions() if isinstance(a, Rondel)))
        state.apply_action(DONE)
    assert state.to_move() == TERMINAL
    assert [p.turns for p in state.players] == [2, 2, 2]


def test_nagasaki_with_the_card_then_regular_turn_then_one_more_each() -> None:
    state = new_state(2)
    for region in (
        "Guiné",
        "Angola",
        "Cabo da Boa Esperança",
        "Moçambique",
        "Goa",
        "Ceilão",
        "Malaca",
        "Timor",
    ):
        set_tiles(state, region, [])
    set_tiles(state, "Macau", [60, 70])
    state.phase = 3
    for first in (0, 2):
        state.apply_action(Rondel(space=first))
        state.apply_action(DONE)
    state.apply_action(Rondel(space=1))
    state.apply_action(DONE)
    player = state.players[1]
    player.ships = [0] * 13
    player.ships[R["Macau"]] = 3
    state._legal = None
    state.apply_action(USE_CARD)
    for _ in range(3):
        state.apply_action(Sail(src="Macau", dst="Nagasaki"))
    state.apply_chance([100])
    state.apply_action(DONE)
    assert state.end_seat == 1 and state.card_holder == 0
    state.apply_action(Rondel(space=3))  # his regular turn
    state.apply_action(DONE)
    state.apply_action(Rondel(space=2))  # seat 0's final turn
    state.apply_action(DONE)
    assert state.to_move() == 1
    state.apply_action(Rondel(space=4))  # seat 1's final turn
    state.apply_action(DONE)
    assert state.to_move() == TERMINAL


def test_heuristic_bot_outscores_random_players() -> None:
    from bots.navegador_bot import evaluate_vs_random

    result = evaluate_vs_random(games=2, seats=3, seed=5)
    assert result["bot_win_rate"] == 1.0
    assert result["bot_mean_vp"] > 2 * result["random_mean_vp"]
