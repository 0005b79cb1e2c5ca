"""Manila views reuse their computed parts from the last view of the same game
(``referee.games.manila.viewbuild.ViewMemo``): that reuse must be invisible.  Every view
equals the view built with an empty memo and stays as it was built while the game
goes on, also when clones that share the memo go separate ways (as a search's
playouts do), and the bundled heuristic, which reads views inside the search bot's
playouts, leaves them as it found them."""

from __future__ import annotations

import copy
import random

import msgspec
import pytest

from bots.manila_bot import ManilaBot
from referee.api.engine import CHANCE, TERMINAL
from referee.games.manila import GAME
from referee.games.manila.state import ManilaState
from referee.games.manila.view import ManilaView
from referee.games.manila.viewbuild import ViewMemo


def fresh_view(state: ManilaState, seat: int) -> ManilaView:
    """The view built from nothing remembered."""
    alone = state.clone()
    alone.memo = ViewMemo()
    return alone.view(seat)


def step(state: ManilaState, rng: random.Random) -> bool:
    """One random ply; False once the game is over."""
    seat = state.to_move()
    if seat == TERMINAL:
        return False
    if seat == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return True


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_view_of_a_game_equals_the_view_built_from_nothing(seats: int) -> None:
    rng = random.Random(seats)
    state = GAME.new_game(seats)
    assert isinstance(state, ManilaState)
    taken: list[tuple[ManilaView, bytes]] = []
    while step(state, rng):
        for seat in range(seats):
            view = state.view(seat)
            got = msgspec.json.encode(view)
            assert got == msgspec.json.encode(fresh_view(state, seat))
            taken.append((view, got))
    assert len(taken) > 200
    # the parts later views share with earlier ones were never changed under them
    for earlier, its_wire in taken:
        assert msgspec.json.encode(earlier) == its_wire


def test_clones_that_share_the_memo_and_part_ways_each_see_their_own_game() -> None:
    rng = random.Random(7)
    state = GAME.new_game(4)
    assert isinstance(state, ManilaState)
    for _ in range(40):
        step(state, rng)
    branches = [state.clone() for _ in range(3)]
    assert all(b.memo is state.memo for b in branches)
    compared = 0
    for _ in range(150):
        for branch in branches:  # interleaved: each view follows another branch's
            if not step(branch, rng):
                continue
            seat = max(branch.to_move(), 0)
            view = branch.view(seat)
            assert view == fresh_view(branch, seat)
            compared += 1
    assert compared > 300
    assert len({msgspec.json.encode(b.view(0)) for b in branches}) > 1


def test_the_heuristic_bot_leaves_the_views_it_reads_unchanged() -> None:
    rng = random.Random(11)
    state = GAME.new_game(4)
    assert isinstance(state, ManilaState)
    bot = ManilaBot()
    decisions = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(seat)
        before = copy.deepcopy(view)
        legal = state.legal_actions()
        index = bot.choose(view, legal, [])
        assert view == before
        state.apply_action(legal[index])
        decisions += 1
    assert decisions > 50
