"""Property tests: random legal play ends; goods and transporters obey the rules."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.engine import CHANCE, TERMINAL
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
    A.Put,
    A.Borrow,
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
    """Limits (8/5/5, except while the player picks what to scrap), capacity, every
    transporter on terrain it can use, nothing loose at sea but on oil rigs or geese."""
    w = state.world
    for seat in range(state.seats):
        if state.step == "scrap":
            break
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
    lent = sum(1 for pile in state.piles.values() for g in pile if g & D.LENT)
    assert lent <= len(state.loans), "every good marked lent belongs to a loan"
    assert state.stage == 2 or not state.loans, "loans end with the building phase"
    for place, pile in state.piles.items():
        assert pile, "empty piles are removed"
        kind = w.place_kind[place]
        if kind == SEA_PLACE:  # an oil rig, or geese at sea
            rig = state.buildings.get(w.place_hex[place], [-1])[0] == D.OIL_RIG
            assert rig or all(g & D.GOOD_MASK == D.GOOSE for g in pile)
        else:
            assert kind == LAND and state.root[place] == place


def auto_processed(state: RBState) -> list[int]:
    """Goods totals after the end-of-production processing, recounted independently of
    the engine: each secondary producer or transporter factory (not the wagon factory,
    whose input set includes a donkey) uses complete loose input sets up to its limit,
    boards before trunks where wood will do; then loose 2 geese + 1 paper sets vanish."""
    counts = totals(state)
    loose: dict[int, list[int]] = {}
    for place, pile in state.piles.items():
        c = [0] * len(D.GOODS)
        for g in pile:
            c[g & D.GOOD_MASK] += 1
        loose[place] = c
    for h in sorted(state.buildings):
        kind, place, _owner, used = state.buildings[h]
        btype = D.BUILDINGS[kind]
        if btype.kind == D.PRIMARY or kind == D.WAGON_FACTORY:
            continue
        here = loose.setdefault(place, [0] * len(D.GOODS))
        while used + btype.out_count <= btype.limit:
            if kind in D.WOOD_FED:
                if here[D.BOARD] + here[D.TRUNK] < 2:
                    break
                boards = min(2, here[D.BOARD])
                spent = [(D.BOARD, boards), (D.TRUNK, 2 - boards)]
            elif all(here[g] >= n for g, n in btype.inputs):
                spent = list(btype.inputs)
            else:
                break
            for g, n in spent:
                here[g] -= n
                counts[g] -= n
            used += btype.out_count
            if btype.kind == D.SECONDARY:
                here[btype.output] += btype.out_count
                counts[btype.output] += btype.out_count
    for here in loose.values():
        sets = min(here[D.GOOSE] // 2, here[D.PAPER])
        counts[D.GOOSE] -= 2 * sets
        counts[D.PAPER] -= sets
    return counts


def recount_scores(state: RBState) -> list[float]:
    """Final scores from the state, using the printed score table where it reaches."""
    points = [0] * state.seats
    for t in state.trans.values():
        points[t.owner] += sum(D.SCORE_VALUE.get(g & D.GOOD_MASK, 0) for g in t.cargo)
    start = 0
    for size in D.WONDER_ROWS:
        row = state.wonder[start : start + size]
        start += size
        players = [b for b in row if b >= 0]
        for seat in range(state.seats):
            own = players.count(seat)
            others = len(players) - own
            if own == 0:
                continue
            if own <= len(D.SCORE_TABLE) and others < len(D.SCORE_TABLE[own - 1]):
                points[seat] += D.SCORE_TABLE[own - 1][others]
            else:
                points[seat] += 10 * own // (own + others)
    return [float(p) for p in points]


def enrich(state: RBState, rng: random.Random) -> None:
    """Pre-build a random economy once the homes stand, so rare paths are reached: all
    research for everyone, one building of every kind on a fitting hex where possible
    (mines with bags) with some of its inputs loose, a raft per seat at sea, and a few
    goods of every kind at homes."""
    w = state.world
    state.research = [(1 << len(D.RESEARCH)) - 1] * state.seats
    free = [h for h in range(len(w.hexes)) if h not in state.buildings]
    homes = {w.place_hex[p] for p in state.homes}
    rng.shuffle(free)
    for kind in range(len(D.BUILDINGS)):
        for h in free:
            sea = not w.hexes[h].land
            if h in state.buildings or sea != (kind == D.OIL_RIG) or not state._site_ok(kind, h):
                continue
            place = w.sea_place[h] if sea else state.root[w.areas[h][0]]
            if h in homes and kind != D.SAWMILL:
                continue
            state.buildings[h] = [kind, place, rng.randrange(state.seats), 0]
            for good, n in D.BUILDINGS[kind].inputs:  # loose inputs for auto-processing
                for _ in range(rng.randrange(2 * n + 1)):
                    state._drop(place, good)
            if kind == D.MINE:
                state.bags[h] = list(D.MINE_MIXES[rng.choice(sorted(D.MINE_MIXES))])
                state.mines += 1
            break
    seas = [w.sea_place[h] for h in range(len(w.hexes)) if not w.hexes[h].land]
    for seat in range(state.seats):
        if seas:
            state._new_transporter(seat, D.RAFT, rng.choice(seas))
        for good in range(len(D.GOODS)):
            for _ in range(rng.randrange(3)):
                state._drop(state.homes[seat], good)


def play(
    seats: int,
    seed: int,
    done_bias: float,
    options: dict[str, object] | None = None,
    rich: bool = False,
) -> RBState:
    """Random legal play to the end, checking conservation of goods at every action
    (moving goods keeps them, production makes and uses exactly its sets, building and
    the wonder use exactly their cost, ending production processes exactly the loose
    complete sets) and the invariants after every ply."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, GAME.parse_options(options or {}))
    plies = 0
    while (seat := state.to_move()) != TERMINAL:
        plies += 1
        assert plies < 50_000
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if rich and state.turn == 1 and state.step != "homes" and not state.research[0]:
            enrich(state, rng)
        legal = state.legal_actions()
        busy = [a for a in legal if not isinstance(a, A.Done | A.Stop)]
        action = rng.choice(busy) if busy and rng.random() > done_bias else legal[-1]
        before = totals(state)
        cost = expected_cost(state, action)
        stage = state.stage
        ends_production = (
            isinstance(action, A.Done)
            and stage == 0
            and state.step == "act"
            and state.actor == len(state.order()) - 1
        )
        processed = auto_processed(state) if ends_production else None
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
        elif processed is not None:
            assert after == processed, "end of production processed other goods"
        elif isinstance(action, A.Done) and stage != 0 and state.stage == stage + 1:
            assert after == before  # ending movement/building changes no goods
        check_invariants(state)
    assert state.scores() == recount_scores(state)
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


MAPS = ("auto", "dead-sea", "mesopotamia", "generated", "pacific", "drafted")


@settings(max_examples=16, deadline=None)
@given(
    seats=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    map_name=st.sampled_from(MAPS),
    bias=st.sampled_from([0.05, 0.3]),
)
def test_random_rich_games_keep_goods_limits_and_scores(
    seats: int, seed: int, map_name: str, bias: float
) -> None:
    """Issue 15 invariants over games that start with every building kind built and all
    research done (random play alone almost never builds mines or factories)."""
    state = play(seats, seed, bias, {"map": map_name}, rich=True)
    assert state.is_terminal()


READINGS: tuple[dict[str, object], ...] = (
    {"primary_onto_transporters": True, "sea_geese_last": True, "loans_stay": True},
    {"rules": "referee-0.2"},
)
"""The other readings of issue 35 (items 3-5) and the rules of referee 0.2."""


@settings(max_examples=8, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    options=st.sampled_from(READINGS),
    map_name=st.sampled_from(("pacific", "dead-sea", "generated")),
)
def test_random_rich_games_keep_the_invariants_under_every_reading(
    seats: int, seed: int, options: dict[str, object], map_name: str
) -> None:
    state = play(seats, seed, 0.3, {"map": map_name, **options}, rich=True)
    assert state.is_terminal()


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
