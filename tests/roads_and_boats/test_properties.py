"""Property tests: random legal play ends; goods and transporters obey the rules."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState
from referee.games.roads_and_boats.world import DOCK, LAND, RIVER, SEA_PLACE
from tests.roads_and_boats.helpers import totals

MOVES = (
    A.MoveTransporter,
    A.Step,
    A.Load,
    A.Unload,
    A.Stop,
    A.Lead,
    A.Carry,
    A.Release,
    A.Take,
    A.Scrap,
    A.Breed,
    A.Settle,
    A.Give,
    A.Receive,
    A.Agree,
    A.Refuse,
)


def expected_cost(state: RBState, action: object) -> list[int] | None:
    """Goods an infrastructure or wonder action must use up (None: not checked)."""
    cost = [0] * len(D.GOODS)
    w = state.world
    if isinstance(action, A.Build):
        for g, n in D.BUILDINGS[D.B[action.building]].cost:
            cost[g] += n
    elif isinstance(action, A.Road | A.Bridge):
        cost[D.STONE] = 1
    elif isinstance(action, A.Wall | A.Demolish):
        edge = w.edge_of[w.place_hex[action.place]][action.side]
        tokens = state.walls.get(edge, [0, 0])[1]
        extra = 2 if w.place_kind[action.place] == SEA_PLACE else 0
        good = D.STONE if isinstance(action, A.Wall) else D.BOARD
        cost[good] = tokens + 1 + extra
    elif isinstance(action, A.Shaft):
        cost[D.IRON] = cost[D.FUEL] = 1
    elif isinstance(action, A.Pay):
        cost[D.G[action.good]] = 1
    elif isinstance(action, A.Research):
        cost[D.GOOSE], cost[D.PAPER] = 2, 1
    else:
        return None
    return cost


def check_invariants(state: RBState) -> None:
    w = state.world
    for seat in range(state.seats):
        own = [t for t in state.trans.values() if t.owner == seat]
        land = sum(1 for t in own if not t.water)
        assert len(own) <= D.MAX_TRANSPORTERS and land <= D.MAX_LAND
        assert len(own) - land <= D.MAX_WATER
    for t in state.trans.values():
        assert len(t.cargo) <= D.TRANSPORTERS[t.kind].capacity
        kind = w.place_kind[t.place]
        if t.carrier >= 0:
            carrier = state.trans[t.carrier]
            assert carrier.place == t.place and not t.cargo and not carrier.cargo
            continue
        assert (kind in (RIVER, SEA_PLACE, DOCK)) if t.water else kind == LAND
        if kind == LAND:
            assert state.root[t.place] == t.place
    for place, pile in state.piles.items():
        assert pile, "empty piles are removed"
        kind = w.place_kind[place]
        if kind == SEA_PLACE:  # an oil rig, or geese at sea
            rig = state.buildings.get(w.place_hex[place], [-1])[0] == D.OIL_RIG
            assert rig or all(g & D.GOOD_MASK == D.GOOSE for g in pile)
        else:
            assert kind == LAND and state.root[place] == place


def play(seats: int, seed: int, done_bias: float) -> RBState:
    rng = random.Random(seed)
    state = GAME.new_game(seats, GAME.parse_options({}))
    plies = 0
    while (seat := state.to_move()) != TERMINAL:
        plies += 1
        assert plies < 50_000
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        busy = [a for a in legal if not isinstance(a, A.Done | A.Stop)]
        action = rng.choice(busy) if busy and rng.random() > done_bias else legal[-1]
        before = totals(state)
        cost = expected_cost(state, action)
        stage = state.stage
        state.apply_action(action)
        after = totals(state)
        if isinstance(action, MOVES):
            assert after == before, f"moving goods changed their number: {action}"
        elif isinstance(action, A.Produce):
            btype = D.BUILDINGS[state.buildings[action.hex][0]]
            used = sum(n for _g, n in btype.inputs)
            made = btype.out_count if btype.kind == D.SECONDARY else 0
            assert sum(after) - sum(before) == made - used, action
            if made:
                assert after[btype.output] > before[btype.output], action
        elif cost is not None:
            assert [b - a for a, b in zip(after, before, strict=True)] == cost, action
        elif isinstance(action, A.Done) and stage != 0 and state.stage == stage + 1:
            assert after == before  # ending movement/building changes no goods
        check_invariants(state)
    return state


@settings(max_examples=24, deadline=None)
@given(seats=st.integers(1, 4), seed=st.integers(0, 2**32), bias=st.sampled_from([0.02, 0.3]))
def test_random_play_terminates_and_keeps_the_invariants(
    seats: int, seed: int, bias: float
) -> None:
    state = play(seats, seed, bias)
    scores = state.scores()
    assert len(scores) == seats and all(s >= 0 for s in scores)
    assert len(state.wonder) <= D.WONDER_SLOTS
    assert state.neutral_left >= 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_determinize_rebuilds_the_same_state(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(2, GAME.parse_options({"map": "dead-sea"}))
    for _ in range(rng.randrange(50, 600)):
        if state.is_terminal():
            break
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        busy = [a for a in legal if not isinstance(a, A.Done)]
        state.apply_action(rng.choice(busy) if busy and rng.random() > 0.1 else legal[-1])
    for seat in range(2):
        view = state.view(seat)
        copy = GAME.determinize(view, rng)
        assert msgspec.json.encode(copy.view(seat)) == msgspec.json.encode(view)
        if not state.is_terminal() and state.to_move() >= 0:
            assert copy.legal_actions() == state.legal_actions()
