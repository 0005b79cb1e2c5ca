"""Mayor phase: privilege, dealing the ship, placement, refill and the end trigger
(rulebook "市长"; research notes 6.9-6.11)."""

from __future__ import annotations

from referee.games.puerto_rico.actions import Place
from referee.games.puerto_rico.data import BUILDING_INDEX, CORN, INDIGO, QUARRY
from referee.games.puerto_rico.state import P_MAYOR, P_ROLE
from tests.puerto_rico.helpers import give, names, new_state, take_role


def test_ship_is_dealt_one_at_a_time_from_the_mayor() -> None:
    # RGG example: 4 players, 6 on the ship -> mayor 2 + 1 privilege, then 2, 1, 1
    state = new_state(4, governor=0)
    state.colonist_ship = 6
    # big empty islands so nobody is auto-placed
    for p in state.players:
        give(p, tiles={"corn": 3, "indigo": 3, "sugar": 3})
    take_role(state, 1, "mayor")
    assert state.phase == P_MAYOR
    pools = {seat: state.players[seat].pool for seat in range(4)}
    assert pools == {1: 3, 2: 2, 3: 1, 0: 1}
    assert state.to_move() == 1


def test_no_privilege_colonist_from_an_empty_supply() -> None:
    state = new_state(4, governor=0)
    state.colonist_supply = 0
    state.colonist_ship = 4
    for p in state.players:
        give(p, tiles={"corn": 3, "indigo": 3})
    take_role(state, 0, "mayor")
    assert [p.pool for p in state.players] == [1, 1, 1, 1]


def test_player_rearranges_all_colonists_one_at_a_time() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    give(p, tiles={"indigo": 2, "corn": 1}, occupied={"corn": 1}, buildings={"indigo_plant": 1})
    p.san_juan = 0
    state.colonist_ship = 3
    take_role(state, 0, "mayor")
    # old colonists (corn, indigo plant) + 1 privilege + 1 from ship = 4, 6 circles
    assert p.pool == 4 and p.occ == [0] * 6 and p.bld[BUILDING_INDEX["indigo_plant"]] == 0
    assert names(state.legal_actions()) == [
        ("place", "corn"),
        ("place", "indigo"),
        ("place", "indigo_plant"),
    ]
    for spot in ("indigo", "indigo", "indigo_plant", "indigo_plant"):
        state.apply_action(Place(spot))
    assert p.occ[INDIGO] == 2 and p.occ[CORN] == 0 and p.bld[BUILDING_INDEX["indigo_plant"]] == 2
    assert state.to_move() != 0


def test_no_voluntary_san_juan_and_forced_fill() -> None:
    state = new_state(3, governor=0)
    p = state.players[1]
    give(p, tiles={"quarry": 1}, buildings={"small_market": 0})
    p.san_juan = 3
    take_role(state, 0, "mayor")
    # 3 + 1 from the ship = 4 colonists, 3 circles (indigo, quarry, market): no choice
    assert p.occ[INDIGO] == 1 and p.occ[QUARRY] == 1
    assert p.bld[BUILDING_INDEX["small_market"]] == 1 and p.san_juan == 1


def test_refill_counts_empty_building_circles_with_minimum() -> None:
    state = new_state(3, governor=0)
    supply = state.colonist_supply
    give(state.players[2], buildings={"coffee_roaster": 0, "tobacco_storage": 0, "hospice": 0})
    state.colonist_ship = 0
    take_role(state, 0, "mayor")
    # mayor gets the privilege colonist; seat 2 has none, so 2 + 3 + 1 = 6 circles stay empty
    assert state.phase == P_ROLE
    assert state.colonist_ship == 6 and state.colonist_supply == supply - 1 - 6
    state2 = new_state(3, governor=0)
    take_role(state2, 0, "mayor")
    assert state2.colonist_ship == 3  # no buildings: minimum = number of players


def test_short_supply_triggers_the_end_and_ship_gets_the_rest() -> None:
    for mode, ship in (("remainder", 2), ("none", 0)):
        state = new_state(3, governor=0, short_refill=mode)
        state.colonist_supply = 3  # 1 for the privilege, 2 left, 3 needed
        take_role(state, 0, "mayor")
        assert state.end_triggered
        assert state.colonist_ship == ship


def test_exactly_emptied_supply_does_not_trigger_the_end() -> None:
    state = new_state(3, governor=0)
    state.colonist_supply = 4  # 1 privilege + exactly 3 for the refill
    take_role(state, 0, "mayor")
    assert state.colonist_supply == 0 and state.colonist_ship == 3
    assert not state.end_triggered
