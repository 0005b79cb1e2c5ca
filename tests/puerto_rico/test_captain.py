"""Captain phase: forced loading, ship choice, harbor, wharf, storage, clearing ships,
VP chips (rulebook "船长", "港口", "船坞", warehouses; research notes 6.1-6.7, 7)."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.puerto_rico.actions import KeepBarrel, KeepKind, Load, Pass, UseWharf
from referee.games.puerto_rico.data import CORN, INDIGO, SUGAR, TOBACCO
from referee.games.puerto_rico.state import P_CAPTAIN, P_ROLE, P_STORAGE
from tests.puerto_rico.helpers import finish_role, give, names, new_state, take_role

ANNA, BOB, CHRIS, DAVID = range(4)


def test_rulebook_captain_example() -> None:
    state = new_state(4, governor=0)
    assert state.ship_cap == [5, 6, 7]
    state.ship_good[1], state.ship_load[1] = CORN, 3
    give(state.players[ANNA], goods={"sugar": 6, "corn": 2})
    give(state.players[BOB], goods={"sugar": 1, "tobacco": 3})
    give(state.players[CHRIS], goods={"tobacco": 1})
    give(state.players[DAVID], goods={"corn": 1})
    take_role(state, ANNA, "captain")
    # sugar must go on the 7-ship (most barrels), corn only where corn already is
    assert names(state.legal_actions()) == [("load", "corn", 1), ("load", "sugar", 2)]
    state.apply_action(Load("sugar", 2))
    assert state.players[ANNA].vp == 7
    state.apply_action(Load("sugar", 2))  # Bob fills the sugar ship
    assert names(state.legal_actions()) == [("load", "tobacco", 0)]
    state.apply_action(Load("tobacco", 0))  # Chris
    assert names(state.legal_actions()) == [("load", "corn", 1)]  # David is forced
    state.apply_action(Load("corn", 1))
    state.apply_action(Load("corn", 1))  # Anna fills the corn ship
    assert state.players[ANNA].vp == 9
    assert names(state.legal_actions()) == [("load", "tobacco", 0)]
    state.apply_action(Load("tobacco", 0))  # Bob
    assert state.phase == P_ROLE
    assert state.ship_load == [4, 0, 0] and state.ship_good == [TOBACCO, -1, -1]
    assert [p.vp for p in state.players] == [9, 4, 1, 1]
    assert state.goods_supply[SUGAR] == 11 + 7 and state.goods_supply[CORN] == 10 + 6


def test_tied_empty_ships_are_a_free_choice() -> None:
    state = new_state(4, governor=0)
    give(state.players[0], goods={"indigo": 2})
    take_role(state, 0, "captain")
    assert names(state.legal_actions()) == [
        ("load", "indigo", 0),
        ("load", "indigo", 1),
        ("load", "indigo", 2),
    ]


def test_kind_on_a_full_ship_cannot_go_on_an_empty_one() -> None:
    state = new_state(3, governor=0)
    state.ship_good[0], state.ship_load[0] = INDIGO, 4  # full 4-ship, cleared at phase end
    give(state.players[0], goods={"indigo": 3})
    take_role(state, 0, "captain")
    # seat 0 cannot load at all, nobody can: the phase moves straight on
    assert state.phase in (P_ROLE, P_STORAGE)
    assert state.players[0].vp == 0


def test_any_kind_may_be_chosen_and_loading_is_compulsory() -> None:
    state = new_state(3, governor=0)
    give(state.players[1], goods={"corn": 1, "coffee": 6})
    take_role(state, 1, "captain")
    legal = names(state.legal_actions())
    assert ("pass",) not in legal
    assert legal == [
        ("load", "corn", 0),
        ("load", "corn", 1),
        ("load", "corn", 2),
        ("load", "coffee", 2),
    ]
    with pytest.raises(IllegalAction):
        state.apply_action(Pass())


def test_captain_bonus_once_and_harbor_per_load() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], goods={"corn": 1, "indigo": 1}, buildings={"harbor": 1})
    take_role(state, 0, "captain")
    state.apply_action(Load("corn", 2))
    assert state.players[0].vp == 1 + 1 + 1
    state.apply_action(Load("indigo", 1))
    assert state.players[0].vp == 3 + 1 + 1


def test_rulebook_harbor_example() -> None:
    state = new_state(3, governor=2)
    state.ship_good[2], state.ship_load[2] = TOBACCO, 3
    state.ship_good[1], state.ship_load[1] = SUGAR, 1
    p = state.players[1]
    give(p, goods={"tobacco": 5, "sugar": 2}, buildings={"harbor": 1, "wharf": 1})
    take_role(state, 0, "captain")  # seat 0 has nothing to ship
    state.apply_action(Load("tobacco", 2))
    assert p.vp == 3 + 1
    state.apply_action(Load("sugar", 1))
    assert p.vp == 4 + 2 + 1
    assert names(state.legal_actions()) == [("wharf", "tobacco"), ("pass",)]
    state.apply_action(UseWharf("tobacco"))
    assert p.vp == 7 + 2 + 1  # 3 harbor VP in this phase


def test_wharf_is_optional_once_per_phase_and_any_kind() -> None:
    state = new_state(3, governor=0)
    state.ship_good[0], state.ship_load[0] = CORN, 1
    give(state.players[0], goods={"corn": 2, "sugar": 3}, buildings={"wharf": 1})
    take_role(state, 0, "captain")
    legal = names(state.legal_actions())
    assert ("wharf", "corn") in legal and ("wharf", "sugar") in legal
    assert ("pass",) not in legal  # he can load a cargo ship, so he must do something
    state.apply_action(UseWharf("corn"))
    assert state.players[0].vp == 2 + 1  # captain bonus on a wharf load (default)
    assert state.players[0].goods[CORN] == 0
    assert names(state.legal_actions()) == [("load", "sugar", 1), ("load", "sugar", 2)]


def test_wharf_first_load_without_captain_bonus_option() -> None:
    state = new_state(3, governor=0, wharf_captain_bonus=False)
    give(state.players[0], goods={"corn": 2, "sugar": 1}, buildings={"wharf": 1})
    take_role(state, 0, "captain")
    state.apply_action(UseWharf("corn"))
    assert state.players[0].vp == 2
    state.apply_action(Load("sugar", 0))
    assert state.players[0].vp == 2 + 1 + 1  # the bonus comes with the first cargo load


def test_storage_windrose_and_warehouses() -> None:
    state = new_state(3, governor=0)
    for s in range(3):
        state.ship_good[s], state.ship_load[s] = (CORN, INDIGO, SUGAR)[s], state.ship_cap[s]
    plain, small, both = state.players
    give(plain, goods={"tobacco": 3})
    give(small, goods={"tobacco": 2, "coffee": 3}, buildings={"small_warehouse": 1})
    give(
        both,
        goods={"corn": 2, "indigo": 2, "tobacco": 2, "coffee": 2, "sugar": 1},
        buildings={"small_warehouse": 1, "large_warehouse": 1},
    )
    take_role(state, 0, "captain")
    # all ships are full of other kinds: nothing loads; storage starts from the captain
    assert plain.goods[TOBACCO] == 1  # one kind only: one barrel kept automatically
    assert small.goods == [0, 0, 0, 2, 3]  # 2 kinds, warehouse + windrose: both kept whole
    assert state.phase == P_STORAGE and state.to_move() == 1
    assert names(state.legal_actions()) == [("keep_kind", "tobacco"), ("keep_kind", "coffee")]
    state.apply_action(KeepKind("coffee"))
    assert state.to_move() == 2 and small.goods == [0, 0, 0, 1, 3]
    for kind in ("corn", "indigo", "tobacco"):
        state.apply_action(KeepKind(kind))
    assert names(state.legal_actions()) == [("keep_barrel", "sugar"), ("keep_barrel", "coffee")]
    state.apply_action(KeepBarrel("coffee"))
    assert both.goods == [2, 2, 0, 2, 1]
    assert state.phase == P_ROLE
    assert state.ship_load == [0, 0, 0]  # full ships emptied after storage


def test_small_warehouse_example_two_kinds_kept() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], goods={"indigo": 1}, buildings={"small_warehouse": 1})
    give(state.players[1], goods={"sugar": 4, "corn": 3}, buildings={"small_warehouse": 1})
    state.ship_good = [INDIGO, SUGAR, CORN]
    state.ship_load = [4, 5, 6]
    take_role(state, 0, "captain")
    assert state.to_move() == 1 and state.phase == P_STORAGE
    state.apply_action(KeepKind("sugar"))
    assert state.players[1].goods[SUGAR] == 4 and state.players[1].goods[CORN] == 1


def test_vp_chips_running_out_triggers_the_end_with_paper_vp() -> None:
    state = new_state(3, governor=0)
    state.vp_pool = 3
    give(state.players[0], goods={"corn": 3})
    give(state.players[1], goods={"indigo": 2})
    take_role(state, 0, "captain")
    state.apply_action(Load("corn", 0))  # 3 + 1 > 3 chips
    assert state.end_triggered and state.vp_left == -1
    state.apply_action(Load("indigo", 1))
    assert state.players[1].vp == 2 and state.vp_left == -3
    assert state.phase == P_ROLE  # the round is finished before the game ends
    for _ in range(2):  # the two remaining picks of the round
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
        finish_role(state)
    assert state.is_terminal()
    assert state.scores()[1] == 2.0


def test_partly_loaded_ships_keep_their_cargo() -> None:
    state = new_state(3, governor=0)
    give(state.players[0], goods={"corn": 2})
    take_role(state, 0, "captain")
    state.apply_action(Load("corn", 2))
    assert state.phase not in (P_CAPTAIN, P_STORAGE)
    assert state.ship_good[2] == CORN and state.ship_load[2] == 2
