"""Worked examples of the quick intro (Italian translation) not covered elsewhere."""

from __future__ import annotations

from referee.games.navegador.actions import DONE, Found, Hire, Launch, Process, Sail

from .helpers import R, enter, new_state, set_tiles


def test_colony_in_guine_and_angola_for_230() -> None:
    """6 workers, one ship each in Guiné and Angola: two colonies for 230, no third."""
    state = new_state()
    set_tiles(state, "Guiné", [80, 90])
    set_tiles(state, "Angola", [150])
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Guiné"]] = 1
    player.ships[R["Angola"]] = 1
    player.workers, player.money = 6, 500
    enter(state, "colony")
    money = player.money
    state.apply_action(Found(region="Guiné"))
    state.apply_action(Found(region="Angola"))
    assert money - player.money == 230
    assert state.legal_actions() == [DONE]
    assert state.tiles[R["Guiné"]] == [90]


def test_two_churches_two_workers_and_one_shipyard_one_ship() -> None:
    state = new_state()
    player = state.players[0]
    player.churches = 2
    enter(state, "workers")
    state.apply_action(Hire(count=2))
    assert (player.workers, player.money) == (5, 100)
    enter(state, "ships")
    state.apply_action(Launch(count=1))
    assert player.money == 50
    assert player.ships[R["Portugal"]] == 3


def test_processing_spice_at_60_pays_40_per_unit() -> None:
    state = new_state()
    state.market[2] = 4
    player = state.players[0]
    player.factories = [0, 0, 1]
    enter(state, "market")
    money = player.money
    state.apply_action(Process(good="spice", count=2))  # spice factory + orange one
    assert player.money == money + 80
    assert state.market[2] == 2


def test_exploring_cabo_in_phase_one() -> None:
    """Two ships enter Cabo from Angola: one is lost, bonus = the (only) tile there."""
    state = new_state()
    set_tiles(state, "Guiné", [])
    set_tiles(state, "Angola", [])
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Angola"]] = 2
    enter(state, "sailing")
    money = player.money
    state.apply_action(Sail(src="Angola", dst="Cabo da Boa Esperança"))
    state.apply_action(Sail(src="Angola", dst="Cabo da Boa Esperança"))
    state.apply_chance([110])
    assert player.money == money + 110
    assert player.ships_on_board() == 1 and player.explorers == 1
