"""Property tests: random legal play ends cleanly and keeps the invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.engine import CHANCE, TERMINAL
from referee.games.navegador import GAME, data
from referee.games.navegador.state import NavegadorState


def check_invariants(state: NavegadorState) -> None:
    tiles = sum(len(t) for t in state.tiles) + sum(len(u) for u in state.unseen)
    owned = sum(sum(p.colonies) for p in state.players)
    assert tiles + owned == sum(len(p) for p in data.TILE_PRICES)
    rows = data.building_row_sizes(state.seats)
    for b in range(len(data.BUILDINGS)):
        assert state.display[b] + state.display_taken[b] == rows[b]
    for p in state.players:
        assert p.money >= 0
        assert data.MIN_WORKERS <= p.workers <= data.MAX_WORKERS
        assert 0 <= p.ships_on_board() <= data.MAX_SHIPS
        assert all(n >= 0 for n in p.ships)
        assert all(p.filled(c) <= data.PRIVILEGE_SLOTS for c in range(5))
    assert all(0 <= row < data.MARKET_ROWS for row in state.market)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.booleans(), end=st.sampled_from(["display", "row"]))
def test_random_play_terminates_with_invariants(
    seats: int, seed: int, variant: bool, end: str
) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(seats, GAME.parse_options({"king_at_goa": variant, "building_end": end}))
    plies = 0
    while (seat := state.to_move()) != TERMINAL:
        plies += 1
        assert plies < 100_000
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            assert legal
            state.apply_action(legal[rng.randrange(len(legal))])
        if plies % 50 == 0:
            check_invariants(state)
    check_invariants(state)
    assert len(state.scores()) == seats


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_determinize_rebuilds_the_state(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(3, GAME.parse_options({"building_end": "row"}))
    while state.to_move() != TERMINAL:
        seat = state.to_move()
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if rng.random() < 0.05:
            copy = GAME.determinize(state.view(seat), rng)
            assert copy.debug() == state.debug()
            assert copy.legal_actions() == state.legal_actions()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
