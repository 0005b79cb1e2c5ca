"""Navegador card, game end and final scoring (rulebook: Navegador, End, Scoring)."""

from __future__ import annotations

import random

from referee.api.engine import TERMINAL
from referee.games.navegador.actions import DONE, USE_CARD, Build, Rondel, Sail
from referee.games.navegador.player import Player

from .helpers import R, enter, new_state, space


def play_first_round(state, spaces: list[int]) -> None:
    for s in spaces:
        state.apply_action(Rondel(space=s))
        state.apply_action(DONE)


def test_card_starts_with_last_player_and_not_in_round_one() -> None:
    state = new_state(3)
    assert state.card_holder == 2
    play_first_round(state, [0, 1])
    assert USE_CARD not in state.legal_actions()  # seat 2, first round
    state.apply_action(Rondel(space=5))
    assert state.card_marker == 5  # the orange ship marks his space
    state.apply_action(DONE)
    play_first_round(state, [1, 2])
    assert USE_CARD in state.legal_actions()


def test_card_extra_sailing_then_passes_right() -> None:
    state = new_state(3)
    play_first_round(state, [0, 1, 5])
    play_first_round(state, [1, 2])
    state.apply_action(USE_CARD)
    assert state.stage == 2  # sailing
    state.apply_action(Sail(src="Portugal", dst="Guiné"))
    state.apply_action(Sail(src="Portugal", dst="Guiné"))
    state.apply_chance(state.sample_chance(random.Random(0)))
    state.apply_action(DONE)
    assert state.card_holder == 1 and state.card_marker == state.players[1].stone
    assert state.current == 2 and USE_CARD not in state.legal_actions()
    # the regular turn can explore again
    state.apply_action(Rondel(space=0))
    assert state.stage == 2


def test_card_expires_when_the_stone_reaches_the_orange_ship() -> None:
    state = new_state(2)
    play_first_round(state, [0, 5])  # seat 1 holds the card, marker on 5
    for seat1_space in (7, 1, 3):
        state.apply_action(Rondel(space=(state.players[0].stone + 1) % 8))
        state.apply_action(DONE)
        state.apply_action(Rondel(space=seat1_space))
        state.apply_action(DONE)
        assert state.card_holder == 1
    state.apply_action(Rondel(space=(state.players[0].stone + 1) % 8))
    state.apply_action(DONE)
    state.apply_action(Rondel(space=6))  # passes space 5 without using the card
    assert state.card_holder == 0
    assert state.card_marker == state.players[0].stone


def test_final_turn_for_everyone_after_the_trigger() -> None:
    state = new_state(3)
    state.display = [0, 0, 0, 0, 1]
    state.display_taken = [6, 6, 6, 7, 6]
    play_first_round(state, [0, 0, 0])
    player = state.players[1]
    player.workers, player.money = 5, 1000
    enter(state, "buildings", seat=1)
    state.apply_action(Build(building="church"))
    state.apply_action(DONE)
    for seat in (2, 0):
        assert state.current == seat
        state.apply_action(Rondel(space=(state.players[seat].stone + 1) % 8))
        state.apply_action(DONE)
    assert state.current == 1 and state.to_move() == 1
    state.apply_action(Rondel(space=(player.stone + 1) % 8))
    state.apply_action(DONE)
    assert state.to_move() == TERMINAL


def test_final_score_of_97() -> None:
    player = Player()
    player.ships = [0] * 13
    player.ships[R["Goa"]] = 3
    player.workers = 5
    player.money = 450
    player.colonies = [1, 0, 0]
    player.factories = [2, 2, 2]  # + the orange one = 7
    player.explorers = 5
    player.shipyards, player.churches = 1, 2
    player.privileges = [3, 3, 3, 0, 0]
    assert player.best_king_column() == 4  # church: 2 VP x 2 churches
    assert player.score() == 97


def test_tie_goes_to_the_card_holder_then_the_next_to_receive_it() -> None:
    state = new_state(4)
    state.card_holder = 2
    assert state.ranks() == [3, 2, 1, 4]  # the card passes 2 -> 1 -> 0 -> 3


def test_stone_space_names() -> None:
    assert space("buildings") == 7 and space("market") == 2
