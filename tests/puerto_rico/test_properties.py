"""Property tests: random legal play ends for every seat count, conserving goods,
colonists, doubloons and VP chips; views round-trip; determinize rebuilds the state."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.engine import CHANCE, TERMINAL
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.data import DOUBLOONS_TOTAL, ISLAND_SPACES
from referee.games.puerto_rico.state import PuertoRicoState


def check_invariants(s: PuertoRicoState) -> None:
    setup = s.setup
    for g in range(5):
        on_ships = sum(s.ship_load[i] for i in range(len(s.ship_cap)) if s.ship_good[i] == g)
        held = sum(p.goods[g] for p in s.players)
        assert s.goods_supply[g] + held + s.house.count(g) + on_ships == setup.goods[g]
    colonists = s.colonist_supply + s.colonist_ship + sum(p.colonists() for p in s.players)
    assert colonists == setup.colonists + setup.ship_colonists
    coins = s.bank + sum(p.doubloons for p in s.players) + sum(s.role_coins)
    assert coins == DOUBLOONS_TOTAL
    assert s.vp_left + sum(p.vp for p in s.players) == s.vp_pool
    for k in range(5):
        tiles = s.stack[k] + s.discard[k] + s.face_up[k] + sum(p.tiles[k] for p in s.players)
        assert tiles == setup.plantations[k]
    quarries = s.quarries + sum(p.tiles[5] for p in s.players)
    assert quarries == setup.quarries
    for p in s.players:
        assert sum(p.tiles) <= ISLAND_SPACES and p.city <= 12
        assert p.doubloons >= 0 and min(p.goods) >= 0
        assert all(0 <= p.occ[k] <= p.tiles[k] for k in range(6))
    for i in range(len(s.ship_cap)):
        assert 0 <= s.ship_load[i] <= s.ship_cap[i]
    assert len(s.house) <= 4


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(min_value=2, max_value=5), seed=st.integers(0, 2**32))
def test_random_play_terminates_and_conserves(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(seats)
    plies = 0
    while state.to_move() != TERMINAL:
        plies += 1
        assert plies < 20_000
        check_invariants(state)
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        assert legal
        state.apply_action(legal[rng.randrange(len(legal))])
    check_invariants(state)
    assert state.end_triggered
    scores = state.scores()
    assert len(scores) == seats and min(state.ranks()) == 1


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(min_value=2, max_value=5), seed=st.integers(0, 2**32))
def test_determinize_rebuilds_the_position_from_any_view(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(seats)
    while state.to_move() != TERMINAL:
        seat = state.to_move()
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if rng.random() < 0.1:
            wire = msgspec.json.encode(state.view(seat))
            view = msgspec.json.decode(wire, type=GAME.view_type)
            copy = GAME.determinize(view, rng)
            assert msgspec.json.encode(copy.view(seat)) == wire
            assert copy.legal_actions() == state.legal_actions()
            assert copy.stack == state.stack and copy.bank == state.bank
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def test_views_hide_only_the_stack_order_and_are_otherwise_equal() -> None:
    rng = random.Random(5)
    state = GAME.new_game(4)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    views = [msgspec.to_builtins(state.view(seat)) for seat in range(4)]
    assert views[0]["plantation_stack"] == sum(state.stack)
    assert "stack" not in views[0]
    for v in views:
        v.pop("seat")
    assert all(v == views[0] for v in views)
    msgspec.json.encode(state.debug())
