"""Builder phase: quarry discounts, privilege, one building each, large buildings, 12th
space, university (rulebook "建筑师", "采石场", "大学"; research notes 6.16-6.19, 7)."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.puerto_rico.actions import Build, Pass
from referee.games.puerto_rico.data import BUILDING_INDEX
from referee.games.puerto_rico.state import PuertoRicoState
from tests.puerto_rico.helpers import give, names, new_state, take_role


def cost(state: PuertoRicoState, seat: int, name: str) -> int:
    return int(state.build_cost(seat, BUILDING_INDEX[name]))


def test_rulebook_quarry_example() -> None:
    # 3 occupied quarries, not the builder: hut 1, office 3, harbor 5, city hall 7
    state = new_state(4, governor=0)
    give(state.players[1], tiles={"quarry": 3}, occupied={"quarry": 3})
    take_role(state, 0, "builder")
    assert [cost(state, 1, b) for b in ("construction_hut", "office", "harbor", "city_hall")] == [
        1,
        3,
        5,
        7,
    ]


def test_builder_privilege_with_quarries() -> None:
    state = new_state(4, governor=0)
    give(state.players[0], tiles={"quarry": 4}, occupied={"quarry": 3})
    take_role(state, 0, "builder")
    assert cost(state, 0, "wharf") == 9 - 1 - 3
    assert cost(state, 0, "small_market") == 0
    assert cost(state, 0, "city_hall") == 10 - 1 - 3  # the unoccupied quarry does not count
    state.players[0].occ[5] = 4
    assert cost(state, 0, "city_hall") == 10 - 1 - 4


def test_one_building_each_no_duplicates_and_payment() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], buildings={"small_market": 0}, doubloons=3)
    take_role(state, 0, "builder")
    legal = names(state.legal_actions())
    assert ("build", "small_market") not in legal
    assert ("build", "small_warehouse") in legal and ("build", "office") not in legal
    state.apply_action(Build("small_warehouse"))
    assert state.players[0].doubloons == 1
    assert state.building_supply[BUILDING_INDEX["small_warehouse"]] == 1
    assert state.to_move() == 1  # one building per player
    state.players[1].doubloons = 3
    state._legal = None
    state.apply_action(Build("small_warehouse"))
    assert state.players[1].doubloons == 0  # no privilege for seat 1
    assert state.to_move() == 2
    assert ("build", "small_warehouse") not in names(state.legal_actions())  # both copies gone


def test_large_building_needs_two_spaces_and_twelfth_space_ends_the_game() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    p.doubloons = 20
    p.city = 11
    take_role(state, 0, "builder")
    legal = names(state.legal_actions())
    assert ("build", "wharf") in legal and ("build", "city_hall") not in legal
    p.city = 10
    state._legal = None
    state.apply_action(Build("city_hall"))
    assert p.city == 12 and state.end_triggered
    assert state.phase == 6  # the phase and round go on


def test_university_puts_one_colonist_on_the_new_building() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], buildings={"university": 1}, doubloons=10)
    take_role(state, 0, "builder")
    supply = state.colonist_supply
    state.apply_action(Build("coffee_roaster"))
    assert state.players[0].bld[BUILDING_INDEX["coffee_roaster"]] == 1
    assert state.colonist_supply == supply - 1


def test_university_falls_back_to_the_ship() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], buildings={"university": 1}, doubloons=10)
    state.colonist_supply = 0
    take_role(state, 0, "builder")
    state.apply_action(Build("hospice"))
    assert state.players[0].bld[BUILDING_INDEX["hospice"]] == 1
    assert state.colonist_ship == 2


def test_builder_without_money_is_skipped_and_pass_is_legal() -> None:
    state = new_state(3, governor=0)
    for p in state.players:
        p.doubloons = 0
    state.players[2].doubloons = 1
    take_role(state, 0, "builder")
    # seat 0 can afford the small market (0 after privilege), seat 1 nothing
    assert state.to_move() == 0
    state.apply_action(Pass())
    assert state.to_move() == 2
    with pytest.raises(IllegalAction):
        state.apply_action(Build("hospice"))
