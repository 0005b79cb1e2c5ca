"""Remaining subtle cases: end of game at the end of the round, the unoccupied new
building, warehouses and compulsory loading, the craftsman's extra good and the factory,
the small market example (research notes 6.7, 6.19, 6.22, 6.23)."""

from __future__ import annotations

from referee.games.puerto_rico.actions import Build, ExtraGood, Sell
from referee.games.puerto_rico.data import BUILDING_INDEX, CORN
from tests.puerto_rico.helpers import finish_role, give, names, new_state, take_role


def test_twelfth_city_space_ends_the_game_after_the_round() -> None:
    state = new_state(3, governor=0)
    p = state.players[1]
    p.city = 11
    p.doubloons = 5
    take_role(state, 0, "builder")
    state.apply_action(state.legal_actions()[-1])  # seat 0 passes
    state.apply_action(Build("small_market"))
    assert p.city == 12 and state.end_triggered
    assert p.bld[BUILDING_INDEX["small_market"]] == 0  # built, not occupied
    finish_role(state)
    assert not state.is_terminal()
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
        finish_role(state)
    assert state.is_terminal()
    assert state.scores()[1] == 1.0  # the unoccupied small market still scores


def test_warehouse_does_not_exempt_goods_from_loading() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], goods={"corn": 3}, buildings={"large_warehouse": 1})
    take_role(state, 0, "captain")
    assert ("pass",) not in names(state.legal_actions())
    assert names(state.legal_actions()) == [
        ("load", "corn", 0),
        ("load", "corn", 1),
        ("load", "corn", 2),
    ]


def test_extra_good_does_not_change_the_factory_payout() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    p.tiles = [1, 1, 0, 0, 0, 0]
    p.occ = [1, 0, 0, 0, 0, 0]
    give(p, buildings={"factory": 1})
    take_role(state, 0, "craftsman")
    assert p.doubloons == 2  # one kind: no factory money
    state.apply_action(ExtraGood("corn"))
    assert p.goods[CORN] == 2 and p.doubloons == 2


def test_rulebook_small_market_example() -> None:
    state = new_state(3, governor=0)
    give(state.players[1], goods={"corn": 1}, buildings={"small_market": 1}, doubloons=0)
    take_role(state, 0, "trader")
    state.apply_action(Sell("corn"))
    assert state.players[1].doubloons == 1
