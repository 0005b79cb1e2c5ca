"""Wonder phase, scoring, game end, setup and the temple (rulebook p5-6, p15-19)."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, TERMINAL, IllegalAction, InvalidChance
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import MOVEMENT, PRODUCTION, WONDER, RBState
from tests.roads_and_boats.helpers import add, area, bare, jump, kinds, loose_names, put, started


def wonder_phase(seats: int = 2) -> RBState:
    state = started(seats)
    for t in state.trans.values():  # keep only the donkeys; clear the home goods
        t.cargo = ()
    state.piles = {}
    jump(state, WONDER)
    return state


def test_row_scoring_example() -> None:
    """Rulebook p19: red 3, blue 2, yellow 1 bricks in a row -> 5, 3 and 1 points."""
    state = bare(3)
    state.wonder = [-1] * 32 + [0, 1, 2, 0, 1, 0]  # row 8 holds six bricks
    assert state.wonder_rows()[-1] == [0, 1, 2, 0, 1, 0]
    assert state.wonder_points() == [5, 3, 1]


def test_score_table_matches_the_formula() -> None:
    for own, row in enumerate(D.SCORE_TABLE, start=1):
        for others, points in enumerate(row):
            assert points == D.row_share(own, own + others)


def test_neutral_bricks_do_not_count_and_a_lone_player_takes_ten() -> None:
    state = bare(2)
    state.wonder = [-1, -1, 0, -1, 1, 1]  # row 1 (4 slots): one brick of seat 0
    assert state.wonder_points() == [10, 10]


def test_brick_prices_rise_per_brick_and_after_four_rows() -> None:
    state = wonder_phase()
    seat = state.to_move()
    home = state.homes[seat]
    put(state, home, D.TRUNK, 10)
    state.apply_action(A.BRICK)
    assert state.paying == 1
    assert kinds(state.legal_actions()) == ["Pay"]
    state.apply_action(A.Pay("trunk"))
    assert state.wonder == [seat] and state.brick_price() == 2
    state.apply_action(A.BRICK)
    state.apply_action(A.Pay("trunk"))
    state.apply_action(A.Pay("trunk"))
    assert loose_names(state, home) == ["trunk"] * 7
    state.wonder = [-1] * D.PRICE_STEP_AT
    state.bricks_now = 0
    assert state.brick_price() == 2


def test_bricks_need_a_transporter_on_the_home_hex() -> None:
    state = wonder_phase()
    seat = state.to_move()
    put(state, state.homes[seat], D.TRUNK, 3)
    assert A.BRICK in state.legal_actions()
    away = area(state.world, 2, 5)  # no home is there
    for t in state.trans.values():
        t.place = away
    assert A.BRICK not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply_action(A.BRICK)


def test_neutral_brick_and_end_at_the_player_count_mark() -> None:
    state = wonder_phase()
    state.wonder = [-1] * 60
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    assert len(state.wonder) == 61 and state.stage == PRODUCTION
    jump(state, WONDER)
    seat = state.to_move()
    put(state, state.homes[seat], D.STONE, 2)
    state.apply_action(A.BRICK)
    state.apply_action(A.Pay("stone"))
    state.apply_action(A.Pay("stone"))
    assert len(state.wonder) == 62 and state.to_move() == TERMINAL


def test_last_neutral_brick_ends_the_game() -> None:
    state = wonder_phase()
    state.neutral_left = 1
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    assert state.neutral_left == 0 and state.is_terminal()


def test_scores_count_goods_on_own_transporters_only() -> None:
    state = bare(2)
    place = area(state.world, 2, 1)
    add(state, 0, D.DONKEY, place, [D.GOLD, D.COINS])
    add(state, 1, D.TRUCK, place, [D.STOCK, D.IRON])
    put(state, place, D.STOCK, 3)
    assert state.scores() == [50.0, 120.0]


def test_ties_go_to_the_figure_closest_to_the_temple() -> None:
    state = bare(3)
    state.temple = [2, 0, 1]
    assert state.scores() == [0.0, 0.0, 0.0]
    assert state.ranks() == [2, 3, 1]


def test_setup_homes_and_starting_goods() -> None:
    state = GAME.new_game(2, GAME.parse_options({"temple": False}))
    state.apply_chance([1, 0])  # seat 1 closest to the temple, so seat 0 chooses first
    assert state.sequence == [0, 1] and state.to_move() == 0
    w = state.world
    first = area(w, 2, 2)
    state.apply_action(A.Home(first))
    homes = {a.place for a in state.legal_actions()}
    assert first not in homes and area(w, 2, 1) not in homes and area(w, 2, 3) not in homes
    assert area(w, 2, 4) in homes
    state.apply_action(A.Home(area(w, 2, 4)))
    assert sorted(loose_names(state, first)) == sorted(["board"] * 5 + ["stone"] + ["goose"] * 2)
    assert [t.kind for t in state.trans.values() if t.owner == 0] == [D.DONKEY] * 3
    assert state.stage == PRODUCTION and state.turn == 1


def test_temple_procedure_examples() -> None:
    """Rulebook p17-18: red prays, blue cashes in; blue, yellow, red choose slots.
    Next phase red cashes in and takes slot 1."""
    red, blue, yellow = 0, 1, 2
    state = GAME.new_game(3, GAME.parse_options({"map_seed": 1}))
    state.apply_chance([red, blue, yellow])
    for seat in list(state.sequence):
        state.apply_action(A.Home(state.legal_actions()[0 if seat != blue else -1].place))
    assert state.step == "request"
    state.apply_action(A.REQUEST)
    state.apply_action(A.NO_REQUEST)
    state.apply_action(A.NO_REQUEST)
    assert state.step == "pray" and state.to_move() == red
    state.apply_action(A.PRAY)
    assert state.to_move() == blue
    state.apply_action(A.CASH_IN)  # yellow, now ahead of blue only, has no choice
    assert state.step == "position" and state.to_move() == blue
    state.apply_action(A.Position(1))
    assert state.to_move() == yellow
    state.apply_action(A.Position(2))
    assert state.legal_actions() == [A.Position(3)]
    state.apply_action(A.Position(3))
    assert state.temple == [red, yellow, blue]
    assert state.sequence == [blue, yellow, red]
    assert state.step == "act" and state.to_move() == blue
    for _ in range(3):
        state.apply_action(A.DONE)
    assert state.stage == MOVEMENT and state.step == "request"
    state.apply_action(A.REQUEST)
    state.apply_action(A.NO_REQUEST)
    state.apply_action(A.NO_REQUEST)
    assert state.to_move() == red
    state.apply_action(A.CASH_IN)
    state.apply_action(A.PRAY)  # yellow; blue is last and skipped
    assert state.to_move() == red
    state.apply_action(A.Position(1))
    state.apply_action(A.Position(2))  # blue
    assert state.to_move() == yellow and state.legal_actions() == [A.Position(3)]
    state.apply_action(A.Position(3))
    assert state.temple == [yellow, blue, red]
    assert state.sequence == [red, blue, yellow]


def test_no_request_keeps_the_order() -> None:
    state = GAME.new_game(2, GAME.parse_options({}))
    state.apply_chance([0, 1])
    for _ in range(2):
        state.apply_action(state.legal_actions()[0 if state.to_move() == 1 else -1])
    state.apply_action(A.NO_REQUEST)
    state.apply_action(A.NO_REQUEST)
    assert state.step == "act" and state.sequence == [1, 0]


def test_solo_game_lasts_twenty_turns_with_four_rows_prefilled() -> None:
    state = GAME.new_game(1, GAME.parse_options({}))
    assert state.wonder == [-1] * 17 and state.step == "homes"
    state.apply_action(state.legal_actions()[0])
    while not state.is_terminal():
        state.apply_action(A.DONE)
    assert state.turn == 20 and len(state.wonder) == 37
    assert state.scores() == [0.0]


def test_bad_temple_orders_are_rejected() -> None:
    state = GAME.new_game(3, GAME.parse_options({"map_seed": 1}))
    for bad in ([0, 1], [0, 1, 1], ["a", 1, 2], [0, 1, 2.0], {"x": 1}, None):
        with pytest.raises(InvalidChance):
            state.apply_chance(bad)
        assert state.to_move() == CHANCE
    state.apply_chance([2, 0, 1])
    assert state.sequence == [1, 0, 2]
