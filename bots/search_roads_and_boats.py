"""Roads & Boats decisions of the search bot: paired guide playouts to the end.

The search bot (``bots/search_bot.py``) calls :func:`decide` at every decision of its
seat with the guide's choice (the *hint*).  Most decisions are answered with the hint
at once (the tree search of ``search_bot.py`` is never used here).  At the decisions
that shape the score (the home, what to build and where, whether to buy a wonder
brick now) a few candidates are compared:

* **Candidates**: the guide's choice first, then a short list of alternatives: for
  the home (:func:`home_candidates`), one home per other value the guide's own home
  valuation gives, spread over the range of values; at the wonder, buying the
  brick and ending the phase; in the building phase (:func:`candidates`), ending
  the phase and one site per building kind the guide did not choose (the first
  legal site of that kind).
* **Paired playouts**: one sample is one determinization of the view
  (``adapter.determinize``; nothing is hidden in Roads & Boats, so it is the view's
  full state) and one stream of mine draws (the only chance in play, rulebook
  p8) shared by every candidate (common random numbers).  Each candidate is
  played, then the guide's planner plays every seat (this one too) to the end of
  the game.  In the gauntlet the other seats *are* the guide, so the opponent
  model is exact up to the mine draws.
* **Score** of a playout: the final margin in wealth points over the best other
  seat, plus :data:`WIN_BONUS` points when this seat ranks first (ties are broken
  by the engine's ``ranks()``: the praying figure closer to the temple, rulebook
  p19).
* **Choice**: the candidate with the best mean score is played if it beats the
  guide's choice by more than :data:`FLAT_Z` standard errors of the paired
  differences (and by more than zero); otherwise the guide's choice is played.

Budget: the work of a playout is counted in *rollout units* of
:data:`UNIT_DECISIONS` simulated decisions (weighted by the seat count, since a
4-seat decision costs about twice a 2-seat one); ``done(units)`` from the bot's
budget says when to stop.  A sample is only used once every candidate has been
played on it; a sample cut short by the budget is dropped, except the first: then
the candidates it reached are compared (the home: a 2-seat playout from there took
about 60 ms of CPU before the heuristic's rafts and takes about 0.3 s since, so at the
clock two or three homes fit), and with fewer than two the guide's choice is played.
Early in a 4-seat game (about 250 ms per playout) no sample fits and the guide plays;
the searched decisions there are the later ones.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from bots import paired
from referee.api.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import actions as A

UNIT_DECISIONS = 100
"""Simulated decisions (at 2 seats) that make one rollout unit of the budget."""
ROLLOUTS_PER_ITERATION = 0.088
"""Rollout units per ``--iterations`` unit of the search bot: 750 iterations (the
search bot's 290 ms figure at 2 seats) are 66 units.  Measured with
``time.process_time`` around the playouts of every searched decision of seat 0 in
a heuristic self-play game (seed 7): 223 units per CPU second at 2 seats (66 units
in 296 ms), 213 at 4 seats (650 iterations, 57 units, in 268 ms)."""
SEAT_COST = 0.7
"""Extra weight of one simulated decision per seat beyond two (a 4-seat decision
weighs 2.4: about 0.045 ms of CPU at 2 seats and 0.105 ms at 4 seats, engine and
guide together, measured in heuristic self-play playouts)."""
WIN_BONUS = 5.0
"""Wealth points added to a playout's margin when this seat finishes first."""
FLAT_Z = 1.0
"""Standard errors of the paired differences a candidate must gain over the guide's."""
OTHER_BUILDS = 3
"""Alternative building kinds tried besides the guide's choice and ending the phase."""
HOMES = 5
"""Alternative homes tried besides the guide's (one per value the guide gives)."""
CHECK_EVERY = 64
"""Simulated decisions between two looks at the budget inside a playout."""


class OutOfTime(Exception):
    """The budget ran out in the middle of a sample."""


def searched(view: Any, legal: list[Any], hint: Any) -> bool:
    """Whether this decision is compared by playouts (else the guide answers)."""
    first = legal[0]
    if isinstance(first, A.Brick | A.Home):
        return True  # buy a brick now or end the wonder phase; the home
    return any(isinstance(a, A.Build) for a in legal)


def home_value(state: Any, guide_module: Any, place: int) -> float:
    """The guide's own valuation of a home on land area ``place`` (the guide
    module's ``home_value``: its terrain and its land neighbours); 0 where the guide
    module lacks it."""
    value = getattr(guide_module, "home_value", None)
    return 0.0 if value is None else float(value(state, place))


def home_candidates(state: Any, guide_module: Any, legal: list[Any], hint: Any) -> list[Any]:
    """The guide's home first, then one home per other value the guide gives a home
    (the first legal home of that value; homes of equal value lead the guide to play
    alike), at most :data:`HOMES`, spread over the range of values: the lowest
    value that is not negative (no desert home), the highest, the second lowest, the
    second highest, and so on.  The budget may cut the list short, and the homes
    the guide values least differ most from its own choice."""
    guide_value = round(home_value(state, guide_module, hint.place), 3)
    by_value: dict[float, Any] = {}
    for a in legal:
        v = round(home_value(state, guide_module, a.place), 3)
        if v >= 0.0 and v != guide_value and v not in by_value:
            by_value[v] = a
    ranked = [by_value[v] for v in sorted(by_value)]
    out = [hint]
    while ranked and len(out) <= HOMES:
        out.append(ranked.pop(0))
        if ranked and len(out) <= HOMES:
            out.append(ranked.pop())
    return out


def candidates(legal: list[Any], hint: Any) -> list[Any]:
    """The actions compared (the guide's ``hint`` first): at the wonder, the brick and
    ending the phase; in the building phase, ending the phase and the first site of
    up to :data:`OTHER_BUILDS` building kinds other than the hint's."""
    out = [hint]
    if isinstance(legal[0], A.Brick):
        out += [a for a in legal if a != hint]
        return out
    for a in legal:
        if isinstance(a, A.Done) and a != hint:
            out.append(a)
    kinds = {hint.building} if isinstance(hint, A.Build) else set()
    extra = 0
    for a in legal:
        if extra >= OTHER_BUILDS:
            break
        if isinstance(a, A.Build) and a.building not in kinds:
            kinds.add(a.building)
            out.append(a)
            extra += 1
    return out


class Playouts:
    """Paired playouts of a few candidates from one view, the guide in every seat."""

    def __init__(self, adapter: Any, view: Any, done: Callable[[int], bool]) -> None:
        bot = adapter.bot
        self.adapter = adapter
        self.rng: random.Random = bot.rng
        self.seats: int = len(view.homes)
        self.me: int = view.seat
        self.view = view
        self.done = done
        planner_type = type(bot.guide.planner)
        self.planners = [planner_type(s) for s in range(self.seats)]
        self.weight = (1.0 + SEAT_COST * (self.seats - 2)) / UNIT_DECISIONS
        self.work = 0.0
        self.samples = 0
        self.root = adapter.determinize(view, self.rng)

    def spent(self) -> bool:
        """Whether the budget is used up (work so far, in rollout units)."""
        return bool(self.done(int(self.work)))

    def value(self, state: Any) -> float:
        """Score of a finished playout for this seat (wealth points): its margin over the
        best other seat, plus a bonus for a win; alone (a solo game), its own score."""
        scores = state.scores()
        me = self.me
        best = max((v for s, v in enumerate(scores) if s != me), default=0.0)
        bonus = WIN_BONUS if state.ranks()[me] == 1 else 0.0
        return float(scores[me] - best + bonus)

    def playout(self, state: Any, first: Any, rng: random.Random, strict: bool) -> float:
        """Play ``first``, then the guide in every seat to the end; the score.
        Raises :class:`OutOfTime` when ``strict`` and the budget runs out."""
        state.apply_action(first)
        planners = self.planners
        count = 0
        while True:
            who = state.to_move()
            if who == TERMINAL:
                break
            if who == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[planners[who].choose(state, legal)] if len(legal) > 1 else legal[0]
            state.apply_action(action)
            count += 1
            if count % CHECK_EVERY == 0:
                self.work += CHECK_EVERY * self.weight
                if strict and self.spent():
                    raise OutOfTime
        self.work += (count % CHECK_EVERY) * self.weight
        return self.value(state)

    def run(self, cands: list[Any]) -> list[list[float]]:
        """Scores per candidate, paired by sample (the same mine draws for every
        candidate); only whole samples are kept."""
        values: list[list[float]] = [[] for _ in cands]
        root = self.root
        while True:
            seed = self.rng.randrange(2**31)
            row: list[float] = []
            try:
                for a in cands:
                    row.append(self.playout(root.clone(), a, random.Random(seed), True))
            except OutOfTime:
                if not self.samples and len(row) >= 2:
                    # one sample cut short: compare the candidates it reached
                    for k, v in enumerate(row):
                        values[k].append(v)
                    self.samples = 1
                    del values[len(row) :]
                break
            for k, v in enumerate(row):
                values[k].append(v)
            self.samples += 1
            if self.spent():
                break
        return values


def pick(values: list[list[float]], guide_i: int = 0) -> int:
    """Index of the candidate to play: the best mean paired gain over the guide's
    candidate if it exceeds zero and :data:`FLAT_Z` standard errors, else the guide's."""
    return paired.pick(values, guide_i, FLAT_Z)


LAST: dict[str, Any] = {}
"""The last comparison (candidates, values, choice, samples): for tests and logs."""


def decide(
    adapter: Any, view: Any, legal: list[Any], hint: Any, done: Callable[[int], bool]
) -> Any:
    """The action to play at this decision (the search bot's ``Adapter.decide`` hook):
    the guide's ``hint`` unless a candidate beats it in paired playouts.  ``done(n)``
    says whether the budget is spent after ``n`` rollout units."""
    guide: Any = adapter.bot.guide
    if hint is None or guide is None or not searched(view, legal, hint):
        return hint
    runner = Playouts(adapter, view, done)
    if isinstance(hint, A.Home):
        module = sys.modules.get(type(guide).__module__)
        cands = home_candidates(runner.root, module, legal, hint)
    else:
        cands = candidates(legal, hint)
    if len(cands) < 2:
        return hint
    values = runner.run(cands)
    cands = cands[: len(values)]
    best = pick(values, 0)
    LAST.update(cands=cands, values=values, best=best, samples=runner.samples)
    return cands[best]
