"""Colony founding limits and rondel movement costs (rulebook examples)."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.navegador.actions import DONE, Found, Rondel, Scrap

from .helpers import R, enter, new_state, set_tiles, space


def colony_example(guine_ships: int, workers: int):
    state = new_state()
    set_tiles(state, "Guiné", [80, 90])
    set_tiles(state, "Bahia", [100])
    set_tiles(state, "Rio de Janeiro", [40])
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Bahia"]] = 2
    player.ships[R["Guiné"]] = guine_ships
    player.workers, player.money = workers, 1000
    enter(state, "colony")
    return state, player


def test_colony_example_two_colonies() -> None:
    state, player = colony_example(1, 6)
    assert Found(region="Rio de Janeiro") not in state.legal_actions()  # no ship there
    state.apply_action(Found(region="Guiné"))
    assert Found(region="Guiné") not in state.legal_actions()  # its ship is used
    state.apply_action(Found(region="Bahia"))
    assert player.money == 1000 - 180
    assert player.colonies == [1, 1, 0]
    assert state.legal_actions() == [DONE]


def test_colony_example_three_with_two_ships_in_guine() -> None:
    state, player = colony_example(2, 6)
    for region in ("Guiné", "Guiné", "Bahia"):
        state.apply_action(Found(region=region))
    assert player.money == 1000 - 270
    assert state.legal_actions() == [DONE]


def test_colony_example_three_workers_one_colony() -> None:
    state, _ = colony_example(2, 3)
    state.apply_action(Found(region="Bahia"))
    assert state.legal_actions() == [DONE]
    with pytest.raises(IllegalAction):
        state.apply_action(Found(region="Guiné"))


def test_first_placement_is_free_anywhere() -> None:
    state = new_state()
    assert state.legal_actions() == [Rondel(space=s) for s in range(8)]


def test_rondel_costs_from_sailing() -> None:
    state = new_state()
    player = state.players[0]
    player.stone, player.turns = space("sailing"), 1
    player.ships[0] = 1
    legal = state.legal_actions()
    # three free spaces and one more for the single ship; never staying
    assert [a.space for a in legal] == [1, 2, 3, 4]
    player.ships[0] = 5
    state._legal = None
    assert [a.space for a in state.legal_actions()] == [1, 2, 3, 4, 5, 6, 7, 0]
    state.apply_action(Rondel(space=0))  # the same action again: 8 spaces, 5 ships
    assert state.ships_owed == 5
    for _ in range(5):
        assert state.legal_actions() == [Scrap(region="Portugal")]
        state.apply_action(Scrap(region="Portugal"))
    assert player.ships_on_board() == 0
    assert state.stage == 2  # sailing


def test_privilege_costs_one_ship_taken_anywhere() -> None:
    state = new_state()
    set_tiles(state, "Guiné", [])
    player = state.players[0]
    player.stone, player.turns = space("sailing"), 1
    player.ships[R["Guiné"]] = 1
    state.apply_action(Rondel(space=space("privilege")))
    assert state.legal_actions() == [Scrap(region="Portugal"), Scrap(region="Guiné")]
    state.apply_action(Scrap(region="Guiné"))
    assert player.ships[R["Guiné"]] == 0 and state.stage == 5


def test_declining_an_action() -> None:
    state = new_state()
    enter(state, "privilege")
    state.apply_action(DONE)
    assert state.current == 1 and state.players[0].workers == 3
