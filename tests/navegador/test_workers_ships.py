"""Workers and Ships actions (rulebook examples, virtual workers and ships)."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.navegador.actions import DONE, Hire, Launch

from .helpers import R, enter, new_state


def test_two_churches_two_workers_cost_100() -> None:
    state = new_state()
    player = state.players[0]
    player.churches = 2
    enter(state, "workers")
    state.apply_action(Hire(count=2))
    assert (player.money, player.workers) == (100, 5)


def test_three_workers_in_phase_two_cost_300() -> None:
    state = new_state()
    state.phase = 2
    player = state.players[0]
    player.churches, player.money = 2, 300
    enter(state, "workers")
    assert Hire(count=4) not in state.legal_actions()  # 500 > 300
    state.apply_action(Hire(count=3))
    assert (player.money, player.workers) == (0, 6)


def test_virtual_workers_above_nine() -> None:
    """8 workers, 3 churches: pay 150, go to 9, receive 200 for the 2 virtual ones."""
    state = new_state()
    player = state.players[0]
    player.workers, player.churches, player.money = 8, 3, 150
    enter(state, "workers")
    legal = state.legal_actions()
    assert legal == [Hire(count=1), Hire(count=2), Hire(count=3), DONE]
    state.apply_action(Hire(count=3))
    assert (player.workers, player.money) == (9, 200)


def test_no_phase_price_workers_above_nine() -> None:
    state = new_state()
    player = state.players[0]
    player.workers, player.churches, player.money = 9, 1, 1000
    enter(state, "workers")
    assert state.legal_actions() == [Hire(count=1), DONE]


def test_three_shipyards_four_ships_cost_250() -> None:
    state = new_state()
    player = state.players[0]
    player.shipyards, player.money = 3, 300
    enter(state, "ships")
    state.apply_action(Launch(count=4))
    assert player.money == 50
    assert player.ships[R["Portugal"]] == 6


def test_virtual_ships_above_seven() -> None:
    state = new_state()
    player = state.players[0]
    player.ships[R["Portugal"]] = 6
    player.shipyards, player.money = 3, 150
    enter(state, "ships")
    state.apply_action(Launch(count=3))
    assert player.ships_on_board() == 7
    assert player.money == 200


def test_unaffordable_purchase_is_illegal() -> None:
    state = new_state()
    player = state.players[0]
    player.money = 40
    enter(state, "ships")
    assert state.legal_actions() == [DONE]
    with pytest.raises(IllegalAction):
        state.apply_action(Launch(count=1))
