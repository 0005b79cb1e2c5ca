"""Craftsman and trader phases (rulebook "监管", "工厂", "商人", "分商会", markets;
research notes 6.8, 6.20-6.22)."""

from __future__ import annotations

from referee.games.puerto_rico.actions import ExtraGood, Pass, Sell
from referee.games.puerto_rico.data import COFFEE, CORN, INDIGO, SUGAR, TOBACCO
from referee.games.puerto_rico.state import P_CRAFTSMAN, P_ROLE
from tests.puerto_rico.helpers import give, names, new_state, take_role


def test_rulebook_factory_example() -> None:
    # 3 corn, 3 sugar, 1 tobacco with buildings; no corn and 2 sugar left: 2 sugar + 1 tobacco
    state = new_state(3, governor=0)
    p = state.players[1]
    p.tiles = [3, 0, 3, 1, 0, 0]
    p.occ = [3, 0, 3, 1, 0, 0]
    give(p, buildings={"sugar_mill": 3, "tobacco_storage": 1, "factory": 1})
    state.goods_supply[CORN] = 0
    state.goods_supply[SUGAR] = 2
    doubloons = p.doubloons
    take_role(state, 0, "craftsman")
    assert p.goods[SUGAR] == 2 and p.goods[TOBACCO] == 1 and p.goods[CORN] == 0
    assert p.doubloons == doubloons + 1


def test_factory_pays_by_kinds_not_quantity() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    p.tiles = [2, 1, 1, 1, 1, 0]
    p.occ = [2, 1, 1, 1, 1, 0]
    give(
        p,
        buildings={
            "small_indigo_plant": 1,
            "small_sugar_mill": 1,
            "tobacco_storage": 1,
            "coffee_roaster": 1,
            "factory": 1,
        },
    )
    take_role(state, 0, "craftsman")
    assert p.goods == [2, 1, 1, 1, 1]
    assert p.doubloons == 2 + 5


def test_production_needs_occupied_plantation_and_building_circle() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    p.tiles = [0, 3, 0, 0, 0, 0]
    p.occ = [0, 3, 0, 0, 0, 0]
    give(p, buildings={"indigo_plant": 1})
    state.players[1].occ = [0, 0, 0, 0, 0, 0]  # seat 1's indigo is not occupied
    take_role(state, 0, "craftsman")
    assert p.goods[INDIGO] == 1
    assert state.players[1].goods == [0] * 5


def test_shortage_served_clockwise_from_the_craftsman_and_privilege_last() -> None:
    state = new_state(3, governor=0)
    for p in state.players:
        p.tiles = [2, 0, 0, 0, 0, 0]
        p.occ = [2, 0, 0, 0, 0, 0]
    state.goods_supply[CORN] = 3
    take_role(state, 2, "craftsman")
    assert [p.goods[CORN] for p in state.players] == [1, 0, 2]
    # the privilege good is taken after everyone produced: corn is gone, so no choice
    assert state.phase == P_ROLE


def test_craftsman_privilege_only_for_kinds_he_produced() -> None:
    state = new_state(3, governor=0)
    p = state.players[0]
    p.tiles = [1, 1, 0, 0, 1, 0]
    p.occ = [1, 1, 0, 0, 1, 0]
    give(p, buildings={"coffee_roaster": 1})
    take_role(state, 0, "craftsman")
    assert state.phase == P_CRAFTSMAN
    assert names(state.legal_actions()) == [
        ("extra_good", "corn"),
        ("extra_good", "coffee"),
        ("pass",),
    ]
    state.apply_action(ExtraGood("coffee"))
    assert p.goods[COFFEE] == 2


def test_trader_privilege_markets_and_one_barrel_each() -> None:
    state = new_state(4, governor=0)
    give(state.players[0], goods={"corn": 2})
    give(state.players[1], goods={"coffee": 1}, buildings={"small_market": 1, "large_market": 1})
    give(state.players[2], goods={"corn": 1, "sugar": 1})
    take_role(state, 0, "trader")
    state.apply_action(Sell("corn"))  # corn sells for 0, +1 privilege
    assert state.players[0].doubloons == 3 + 1 and state.players[0].goods[CORN] == 1
    state.apply_action(Sell("coffee"))
    assert state.players[1].doubloons == 3 + 4 + 3
    # corn is in the house: seat 2 may only sell sugar
    assert names(state.legal_actions()) == [("sell", "sugar"), ("pass",)]
    state.apply_action(Pass())
    assert state.phase == P_ROLE  # seat 3 has nothing
    assert state.house == [CORN, COFFEE]  # not full: stays for the next trader phase


def test_office_sells_a_kind_already_in_the_house_but_not_into_a_full_house() -> None:
    # rulebook: tobacco in the house, two office owners each sell tobacco
    state = new_state(4, governor=0)
    state.house = [TOBACCO]
    give(state.players[1], goods={"tobacco": 1}, buildings={"office": 1})
    give(state.players[2], goods={"tobacco": 1}, buildings={"office": 1})
    give(state.players[3], goods={"tobacco": 1, "indigo": 1}, buildings={"office": 1})
    give(state.players[0], goods={"tobacco": 1})
    take_role(state, 1, "trader")
    state.apply_action(Sell("tobacco"))
    state.apply_action(Sell("tobacco"))
    state.apply_action(Sell("indigo"))
    # house full: seat 0 gets no turn, and the house is emptied
    assert state.phase == P_ROLE
    assert state.house == []
    assert state.players[0].goods[TOBACCO] == 1
    assert state.goods_supply[TOBACCO] == 9 + 3 - 0  # the 3 sold tobacco went back
