"""Settler phase: quarry privilege, construction hut, hacienda, hospice, display refill
(rulebook "拓荒者", "农庄", "建筑小屋", "收容院"; research notes 6.12-6.15)."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, InvalidChance
from referee.games.puerto_rico.actions import HaciendaDraw, Pass, TakePlantation, TakeQuarry
from referee.games.puerto_rico.data import COFFEE, CORN, INDIGO, QUARRY, SUGAR, TOBACCO
from tests.puerto_rico.helpers import give, names, new_state, take_role


def test_only_the_settler_may_take_a_quarry() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    take_role(state, 0, "settler")
    assert names(state.legal_actions()) == [
        ("plantation", "corn"),
        ("plantation", "indigo"),
        ("plantation", "sugar"),
        ("plantation", "tobacco"),
        ("quarry",),
        ("pass",),
    ]
    state.apply_action(TakeQuarry())
    assert state.players[0].tiles[QUARRY] == 1 and state.quarries == 7
    assert ("quarry",) not in names(state.legal_actions())
    state.apply_action(TakePlantation("sugar"))
    assert state.players[1].tiles[SUGAR] == 1


def test_construction_hut_gives_others_a_quarry_but_the_settler_only_one() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    give(state.players[1], buildings={"construction_hut": 1})
    give(state.players[0], buildings={"construction_hut": 1})
    take_role(state, 0, "settler")
    state.apply_action(TakeQuarry())
    assert state.to_move() == 1  # one tile only, even with a hut
    assert ("quarry",) in names(state.legal_actions())
    state.quarries = 0
    state._legal = None
    assert ("quarry",) not in names(state.legal_actions())


def test_full_island_takes_nothing() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    give(state.players[1], tiles={"corn": 6, "indigo": 6})
    take_role(state, 0, "settler")
    state.apply_action(TakePlantation("corn"))
    assert state.to_move() == 2  # seat 1 skipped


def test_display_is_discarded_and_redrawn_with_reshuffle() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    take_role(state, 0, "settler")
    for _ in range(3):
        state.apply_action(Pass())
    assert state.to_move() == CHANCE
    assert state.discard == [1, 1, 1, 1, 0]
    # leave only two tiles in the stack: the draw takes them, then reshuffles discards
    state.stack = [0, 0, 0, 1, 1]
    with pytest.raises(InvalidChance):
        state.apply_chance([0, 1, 2, 3])  # must take the whole stack first
    with pytest.raises(InvalidChance):
        state.apply_chance([3, 4, 4, 1])  # only one coffee in the stack
    state.apply_chance([3, 4, 0, 1])
    assert state.face_up == [1, 1, 0, 1, 1]
    assert state.stack == [0, 0, 1, 1, 0] and state.discard == [0] * 5


def test_display_stays_short_when_tiles_run_out() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    take_role(state, 0, "settler")
    state.stack = [0, 0, 0, 0, 1]
    state.discard = [0] * 5
    state.face_up = [0] * 5
    state._legal = None
    state.players[0].tiles = [6, 6, 0, 0, 0, 0]
    state.players[1].tiles = [6, 6, 0, 0, 0, 0]
    state.players[2].tiles = [6, 6, 0, 0, 0, 0]
    state._settler_continue()
    assert state.to_move() == CHANCE
    state.apply_chance([COFFEE])
    assert state.face_up == [0, 0, 0, 0, 1]


def test_hacienda_draw_before_the_face_up_tile_without_hospice_colonist() -> None:
    state = new_state(4, governor=0, draw=[0, 1, 2, 3, 4])
    give(state.players[1], buildings={"hacienda": 1, "hospice": 1, "construction_hut": 1})
    take_role(state, 0, "settler")
    state.apply_action(TakePlantation("coffee"))
    assert names(state.legal_actions())[0] == ("hacienda",)
    state.apply_action(HaciendaDraw())
    assert state.to_move() == CHANCE
    with pytest.raises(InvalidChance):
        state.apply_chance(7)
    supply = state.colonist_supply
    state.apply_chance(TOBACCO)
    p = state.players[1]
    assert p.tiles[TOBACCO] == 1 and p.occ[TOBACCO] == 0
    assert state.colonist_supply == supply  # no hospice colonist for the hacienda tile
    assert ("hacienda",) not in names(state.legal_actions())
    assert ("quarry",) in names(state.legal_actions())
    state.apply_action(TakePlantation("sugar"))
    assert p.tiles[SUGAR] == 1 and p.occ[SUGAR] == 1  # hospice colonist on the normal tile
    assert state.colonist_supply == supply - 1


def test_hacienda_with_empty_stack_reshuffles_discards_or_not() -> None:
    for reshuffle in (True, False):
        state = new_state(4, governor=0, hacienda_reshuffle=reshuffle)
        give(state.players[0], buildings={"hacienda": 1})
        state.stack = [0] * 5
        state.discard = [0, 0, 3, 0, 0]
        take_role(state, 0, "settler")
        assert (("hacienda",) in names(state.legal_actions())) is reshuffle
        if reshuffle:
            state.apply_action(HaciendaDraw())
            with pytest.raises(InvalidChance):
                state.apply_chance(CORN)
            state.apply_chance(SUGAR)
            assert state.stack == [0, 0, 2, 0, 0] and state.discard == [0] * 5


def test_hospice_colonist_comes_from_ship_when_supply_is_empty() -> None:
    state = new_state(3, governor=0, draw=[0, 1, 2, 3])
    give(state.players[0], buildings={"hospice": 1})
    state.colonist_supply = 0
    state.colonist_ship = 1
    take_role(state, 0, "settler")
    state.apply_action(TakeQuarry())
    assert state.players[0].occ[QUARRY] == 1 and state.colonist_ship == 0
    # next time neither supply nor ship has one: the tile stays empty
    state2 = new_state(3, governor=0, draw=[0, 1, 2, 3])
    give(state2.players[0], buildings={"hospice": 1})
    state2.colonist_supply = state2.colonist_ship = 0
    take_role(state2, 0, "settler")
    state2.apply_action(TakePlantation("indigo"))
    assert state2.players[0].tiles[INDIGO] == 2 and state2.players[0].occ[INDIGO] == 0
