"""Market (rulebook: Market; the examples of both translations and the quick intro)."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.navegador.actions import DONE, Process, Sell
from referee.games.navegador.data import MARKET_PRICE, MARKET_REVENUE

from .helpers import enter, new_state

SUGAR, GOLD, SPICE = 0, 1, 2


def test_market_table_reads_as_the_examples() -> None:
    assert [MARKET_PRICE[g][3] for g in range(3)] == [50, 60, 70]  # start row
    assert MARKET_REVENUE[MARKET_PRICE[SPICE].index(60)] == 40  # spice at 60 pays 40


def test_selling_three_gold_at_50() -> None:
    state = new_state()
    state.market[GOLD] = 5  # the lower "50"
    state.players[0].colonies[GOLD] = 5
    enter(state, "market")
    money = state.players[0].money
    state.apply_action(Sell(good="gold", count=3))
    assert state.players[0].money == money + 150
    assert state.market[GOLD] == 8
    assert MARKET_PRICE[GOLD][state.market[GOLD]] == 30


def test_selling_five_gold_pins_the_cube_at_the_bottom() -> None:
    state = new_state()
    state.market[GOLD] = 5
    state.players[0].colonies[GOLD] = 5
    enter(state, "market")
    money = state.players[0].money
    state.apply_action(Sell(good="gold", count=5))
    assert state.players[0].money == money + 250
    assert state.market[GOLD] == 9
    # the next seller gets 30 and the cube stays at the bottom
    state.players[1].colonies[GOLD] = 1
    enter(state, "market", seat=1)
    before = state.players[1].money
    state.apply_action(Sell(good="gold", count=1))
    assert state.players[1].money == before + 30
    assert state.market[GOLD] == 9


def test_full_market_example_italian() -> None:
    """Sell 2 gold at 50 and 1 spice at 80, process 3 sugar at 30: 270."""
    state = new_state()
    state.market = [3, 5, 1]  # sugar 50, gold 50, spice 80
    player = state.players[0]
    player.colonies = [1, 2, 1]
    player.factories = [2, 0, 1]  # two sugar factories, one spice, plus the orange one
    enter(state, "market")
    money = player.money
    state.apply_action(Sell(good="gold", count=2))
    state.apply_action(Sell(good="spice", count=1))
    legal = state.legal_actions()
    assert not any(a.good in ("gold", "spice") for a in legal if a is not DONE)
    assert Process(good="sugar", count=4) not in legal  # 2 sugar + 1 wild
    state.apply_action(Process(good="sugar", count=3))
    assert player.money == money + 270
    assert state.market == [0, 7, 2]
    assert state.legal_actions() == [DONE]


def test_full_market_example_chinese_and_its_alternative() -> None:
    """Sell 2 gold at 40 and 1 spice at 70, process 3 sugar at 30: 240; or process 2
    gold at 50, 2 sugar at 30 and sell the spice: 230."""
    for plan, total in (
        (
            [
                Sell(good="gold", count=2),
                Sell(good="spice", count=1),
                Process(good="sugar", count=3),
            ],
            240,
        ),
        (
            [
                Process(good="gold", count=2),
                Process(good="sugar", count=2),
                Sell(good="spice", count=1),
            ],
            230,
        ),
    ):
        state = new_state()
        state.market = [3, 6, 3]  # sugar 50, gold 40, spice 70
        player = state.players[0]
        player.colonies = [0, 2, 1]
        player.factories = [2, 1, 0]
        enter(state, "market")
        money = player.money
        for action in plan:
            state.apply_action(action)
        assert player.money == money + total


def test_quick_intro_market() -> None:
    """Orange and sugar factory, 2 gold colonies: process 2 sugar at 50, sell 2 gold at 70."""
    state = new_state()
    state.market = [6, 0, 3]
    player = state.players[0]
    player.colonies = [1, 2, 0]
    player.factories = [1, 0, 0]
    enter(state, "market")
    money = player.money
    state.apply_action(Process(good="sugar", count=2))
    state.apply_action(Sell(good="gold", count=2))
    assert player.money == money + 240
    assert state.market[:2] == [4, 2]


def test_processing_clamps_at_top_and_wild_is_used_once() -> None:
    state = new_state()
    state.market = [1, 1, 3]
    player = state.players[0]
    player.factories = [3, 0, 0]
    enter(state, "market")
    state.apply_action(Process(good="sugar", count=4))  # 3 sugar factories + orange
    assert state.market[0] == 0
    assert not any(isinstance(a, Process) for a in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(Process(good="gold", count=1))


def test_sell_or_process_never_both() -> None:
    state = new_state()
    player = state.players[0]
    player.colonies = [2, 0, 0]
    player.factories = [1, 0, 0]
    enter(state, "market")
    state.apply_action(Sell(good="sugar", count=1))
    with pytest.raises(IllegalAction):
        state.apply_action(Process(good="sugar", count=1))
    with pytest.raises(IllegalAction):
        state.apply_action(Sell(good="sugar", count=1))
