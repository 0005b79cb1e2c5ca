"""The shortcuts of the faster engine keep its meaning.

``apply_action`` checks an action against the list the last ``legal_actions()`` call
returned (worked out again when the action is not in it), ``_own_at`` stands for one
entry of ``presence``, ``clone`` copies transporters without ``__init__`` and
``_positioning`` picks a seat of the new temple order without building it.  The
golden trajectories check whole games; these tests check the edges they do not reach.
"""

from __future__ import annotations

import itertools
import random

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL, IllegalAction
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats.state import RBState
from tests.roads_and_boats.helpers import started


def _snapshot(state: RBState) -> bytes:
    return msgspec.json.encode(state.view(0))


def _random_states(seats: int, seed: int, every: int = 7) -> list[RBState]:
    """Clones of the decision positions of one seeded random game (every ``every``th)."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, GAME.parse_options({}))
    out: list[RBState] = []
    ply = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        ply += 1
        if ply % every == 0:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return out


def test_apply_works_out_the_legal_actions_again_after_the_list_was_changed() -> None:
    state = started()
    twin = state.clone()
    legal = state.legal_actions()
    action = legal[0]
    legal.clear()  # the caller's list, emptied: the action is checked afresh
    state.apply_action(action)
    twin.apply_action(action)  # no legal_actions() call before
    assert _snapshot(state) == _snapshot(twin)


def test_apply_rejects_an_illegal_action_and_leaves_the_state_alone() -> None:
    state = started()
    state.legal_actions()
    before = _snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply_action(A.Home(0))  # homes are placed at setup only
    assert _snapshot(state) == before
    with pytest.raises(IllegalAction):
        state.apply_action(A.Home(0))  # also without a listing just before
    assert _snapshot(state) == before


def test_an_action_added_to_the_callers_list_is_still_refused() -> None:
    state = started()
    before = _snapshot(state)
    legal = state.legal_actions()
    legal.append(A.Home(0))  # homes are placed at setup only
    with pytest.raises(IllegalAction):
        state.apply_action(A.Home(0))
    assert _snapshot(state) == before


def test_a_listing_does_not_outlive_an_apply() -> None:
    state = started()
    old = state.legal_actions()
    state.apply_action(A.DONE)  # the next seat decides: the old list no longer holds
    fresh = state.clone().legal_actions()
    stale = [a for a in old if a not in fresh]
    assert stale
    for action in stale:
        with pytest.raises(IllegalAction):
            state.apply_action(action)


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_own_transporters_at_a_place_match_presence(seats: int, seed: int) -> None:
    for state in _random_states(seats, seed):
        places = range(len(state.world.place_kind))
        for seat in range(seats):
            here = state.presence(seat)
            for place in places:
                assert state._own_at(seat, place) == here.get(place, [])


def test_clone_copies_every_transporter() -> None:
    for state in _random_states(4, 5, every=11):
        copy = state.clone()
        assert _snapshot(copy) == _snapshot(state)
        before = _snapshot(state)
        for t in copy.trans.values():
            assert t is not state.trans[t.id]
            t.cargo = (*t.cargo, 0)
            t.place = -1
            t.moved = not t.moved
        assert _snapshot(state) == before


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_positioning_seat_matches_the_new_temple_order(seats: int) -> None:
    state = started(seats)
    for temple in itertools.permutations(range(seats)):
        for size in range(seats + 1):
            for cashed in itertools.permutations(range(seats), size):
                state.temple, state.cashed = list(temple), list(cashed)
                order = state._new_temple()
                for k in range(seats):
                    assert state._positioning(k) == order[-1 - k]
