"""Buildings (rulebook: Buildings; 7- and 8-worker examples) and the building end trigger."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.navegador.actions import DONE, Build
from referee.games.navegador.data import BUILDING_COSTS

from .helpers import enter, new_state

GOLD_F, SPICE_F, SHIPYARD, CHURCH = (
    Build(building="gold"),
    Build(building="spice"),
    Build(building="shipyard"),
    Build(building="church"),
)


def figure_c(workers: int):
    """Four players; gold factory next at 70, spice at 100, shipyard at 150."""
    state = new_state(4)
    state.display_taken = [2, 1, 2, 1, 0]
    state.display = [4, 5, 4, 5, 6]
    player = state.players[0]
    player.workers = workers
    player.money = 1000
    enter(state, "buildings")
    return state, player


def test_costs_of_figure_c() -> None:
    assert BUILDING_COSTS[1][1] == 70 and BUILDING_COSTS[1][2] == 100
    assert BUILDING_COSTS[2][2] == 100 and BUILDING_COSTS[3][1] == 150


@pytest.mark.parametrize(
    ("plan", "paid"),
    [([GOLD_F, SHIPYARD], 220), ([GOLD_F, GOLD_F], 170), ([GOLD_F, SPICE_F], 170)],
)
def test_seven_workers_legal_pairs(plan: list[Build], paid: int) -> None:
    state, player = figure_c(7)
    for action in plan:
        state.apply_action(action)
    assert player.money == 1000 - paid
    assert player.workers == 7  # workers are not spent
    assert state.legal_actions() == [DONE]


def test_seven_workers_cannot_build_two_shipyards_or_church_plus_more() -> None:
    state, _ = figure_c(7)
    state.apply_action(SHIPYARD)
    assert SHIPYARD not in state.legal_actions()
    state, _ = figure_c(7)
    state.apply_action(CHURCH)
    assert state.legal_actions() == [DONE]


def test_eight_workers_church_and_sugar_factory() -> None:
    """Quick intro: church (250) + sugar factory (100) = 350; not church + shipyard."""
    state = new_state(4)
    state.display_taken[0] = 2
    state.display[0] = 4
    player = state.players[0]
    player.workers = 8
    player.money = 400
    enter(state, "buildings")
    state.apply_action(CHURCH)
    assert SHIPYARD not in state.legal_actions()
    state.apply_action(Build(building="sugar"))
    assert player.money == 50
    assert player.churches == 2 and player.factories[0] == 1


def test_cheapest_first_and_money_needed() -> None:
    state = new_state(4)
    player = state.players[0]
    player.workers = 9
    player.money = 110
    enter(state, "buildings")
    state.apply_action(GOLD_F)
    assert player.money == 70
    state.apply_action(GOLD_F)  # second gold factory costs 70
    assert player.money == 0
    with pytest.raises(IllegalAction):
        state.apply_action(GOLD_F)


def test_display_rows_hold_ten_minus_n() -> None:
    for seats in (2, 3, 4, 5):
        assert new_state(seats).display == [6, 6, 6, 10 - seats, 10 - seats]


@pytest.mark.parametrize("mode", ["display", "row"])
def test_building_end_trigger(mode: str) -> None:
    state = new_state(5, building_end=mode)
    state.display = [0, 0, 1, 1, 0]
    state.display_taken = [6, 6, 5, 4, 5]
    player = state.players[0]
    player.workers, player.money = 9, 2000
    enter(state, "buildings")
    state.apply_action(Build(building="spice"))
    assert (state.end_seat == 0) == (mode == "row")
    state.apply_action(SHIPYARD)
    assert state.end_seat == 0
