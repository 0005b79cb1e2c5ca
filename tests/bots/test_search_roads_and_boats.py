"""The search bot's Roads & Boats decisions (``bots/search_roads_and_boats.py``).

``decide`` is called as the search bot's adapter would call it, with a small
adapter-like object (the guide, a seeded generator, the engine's determinization)
and a budget of a fixed number of rollout units, so the tests are deterministic
and do not depend on the machine's speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bots import search_roads_and_boats as rbs
from bots.roads_and_boats_bot import RoadsAndBoatsBot
from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game
from referee.games.roads_and_boats import actions as A
from tests.bots.positions import roads_and_boats_last_brick

ROOT = Path(__file__).resolve().parents[2]

GAME: Any = get_game("roads-and-boats")
UNITS = 66
"""Rollout units per decision in these tests (750 iterations at 2 seats)."""


class FakeBot:
    """What ``decide`` reads from the search bot: its guide, generator and seat."""

    def __init__(self, seat: int, seats: int, seed: int) -> None:
        self.game = GAME
        self.seat, self.seats = seat, seats
        self.rng = random.Random(seed)
        guide = RoadsAndBoatsBot()
        guide.game, guide.seat, guide.seats = GAME, seat, seats
        guide.on_start()
        self.guide: Any = guide


class FakeAdapter:
    """The part of the search bot's ``RoadsAndBoatsAdapter`` that ``decide`` uses."""

    def __init__(self, seat: int, seats: int, seed: int = 0) -> None:
        self.bot = FakeBot(seat, seats, seed)

    def determinize(self, view: Any, rng: random.Random) -> Any:
        return GAME.determinize(view, rng)


def units(n: int) -> Callable[[int], bool]:
    """A budget of ``n`` rollout units."""
    return lambda count: count >= n


def guide_plays_on(state: Any, seed: int) -> Any:
    """``state`` played to the end by the guide's planner in every seat (mine draws
    from ``seed``)."""
    from bots.roads_and_boats_bot import Planner

    planners = [Planner(s) for s in range(state.seats)]
    rng = random.Random(seed)
    while (who := state.to_move()) != TERMINAL:
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[planners[who].choose(state, legal)])
    return state


def test_last_brick_bought_when_the_guide_would_pass() -> None:
    """Hand-built (``positions.roads_and_boats_last_brick``): one brick short of the
    wonder's end mark, buying wins and passing loses in every continuation.  Given a
    guide's hint of ``Done``, the paired playouts play the brick."""
    position = roads_and_boats_last_brick(2)
    assert position is not None, "the engine changed: no such position in 40 games"
    brick, done = position.legal
    assert isinstance(brick, A.Brick) and isinstance(done, A.Done)
    adapter = FakeAdapter(position.seat, 2)
    picked = rbs.decide(adapter, position.view, list(position.legal), done, units(UNITS))
    assert picked == brick
    assert rbs.LAST["samples"] >= 2
    assert rbs.LAST["cands"] == [done, brick]


def test_guide_kept_when_no_candidate_beats_it() -> None:
    """The same position with the winning ``Brick`` as the guide's hint: passing never
    beats it, so the hint stands."""
    position = roads_and_boats_last_brick(2)
    assert position is not None
    brick, _done = position.legal
    adapter = FakeAdapter(position.seat, 2)
    picked = rbs.decide(adapter, position.view, list(position.legal), brick, units(UNITS))
    assert picked == brick
    assert rbs.LAST["best"] == 0


def test_pick_needs_a_paired_gain_beyond_its_standard_error() -> None:
    """The guide's candidate (index 0) is replaced only by a mean paired gain above
    zero and above one standard error of the paired differences."""
    guide = [0.0, 0.0, 0.0, 0.0]
    assert rbs.pick([guide, [1.0, 1.0, 1.0, 1.0]]) == 1  # sure gain (no spread)
    assert rbs.pick([guide, [0.0, 0.0, 0.0, 0.0]]) == 0  # a tie keeps the guide
    assert rbs.pick([guide, [9.0, -8.0, 9.0, -8.0]]) == 0  # +0.5 with a spread of 9.8
    assert rbs.pick([guide, [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0]]) == 2
    assert rbs.pick([[], []]) == 0  # no sample: the guide's


def test_guide_answers_unsearched_decisions_at_once() -> None:
    """A movement decision is answered with the hint and no playout."""
    rng = random.Random(3)
    state = GAME.new_game(2)
    while True:
        who = state.to_move()
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if any(isinstance(a, A.MoveTransporter) for a in legal) and len(legal) > 1:
            break
        state.apply_action(legal[0])
    adapter = FakeAdapter(who, 2)
    calls: list[int] = []

    def budget(count: int) -> bool:
        calls.append(count)
        return True

    hint = legal[-1]
    assert rbs.decide(adapter, state.view(who), legal, hint, budget) == hint
    assert calls == []


HOME_UNITS = 200
"""Rollout units for the home comparison below: one sample of every home candidate (six
homes on seed 5001, where a 2-seat playout with rafts takes about 0.4 s of CPU)."""


def test_second_home_with_a_better_margin_than_the_guides() -> None:
    """Seeded 2-seat game (seed 5001, *The Pacific*): the seat placing its home second.
    Played on by the guide in both seats, the guide's own home loses (133 to 172, the
    raft economy of round 7); with a budget that covers every home candidate, the
    paired playouts pick another home, and that home, played on the same way, ends
    with a smaller deficit (a playout's score is the margin over the best other seat,
    plus a bonus for a win)."""
    rng = random.Random(5001)
    state = GAME.new_game(2)
    bot = RoadsAndBoatsBot()
    placed = 0
    while True:
        who = state.to_move()
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        assert isinstance(legal[0], A.Home)
        bot.seat = who
        bot.on_start()
        hint = legal[bot.choose(state.view(who), legal, [])]
        if placed == 1:
            break
        state.apply_action(hint)
        placed += 1
    adapter = FakeAdapter(who, 2)
    picked = rbs.decide(adapter, state.view(who), legal, hint, units(HOME_UNITS))
    assert picked != hint
    assert len(rbs.LAST["cands"]) == len(rbs.LAST["values"]) >= 3
    margins = {}
    for action in (hint, picked):
        child = state.clone()
        child.apply_action(action)
        scores = guide_plays_on(child, 7).scores()
        margins[action] = scores[who] - max(s for i, s in enumerate(scores) if i != who)
    assert margins[hint] < 0
    assert margins[picked] > margins[hint]


def test_a_solo_playout_is_valued_by_its_own_score() -> None:
    """A one-seat game has no other seat to measure a margin against: the playout's
    value is the seat's own score plus the win bonus (it raised ValueError on an empty
    max, so the search bot faulted in every solo game)."""

    class Finished:
        def scores(self) -> list[float]:
            return [41.0]

        def ranks(self) -> list[int]:
            return [1]

    playouts = object.__new__(rbs.Playouts)
    playouts.me = 0
    assert playouts.value(Finished()) == 41.0 + rbs.WIN_BONUS
