#!/usr/bin/env python3
"""Information-set Monte Carlo tree search over the rules engines (every game).

One bot for Manila, Navegador, Puerto Rico and Roads & Boats, speaking the protocol
through ``referee.botkit``.  Each iteration of the search:

1. **determinizes**: ``Game.determinize(view, rng)`` builds a full state consistent
   with this seat's view (Manila deals the other seats' hidden shares at random; the
   other games hide nothing but the future), so the bot never sees the true state;
2. **selects** down one tree shared by all determinizations (single-observer
   ISMCTS): tree edges are actions of every seat, chance outcomes are drawn afresh
   each time and are not tree nodes; a child is scored by UCT with *availability*
   counts (how often its action was legal when its parent was visited), from the
   point of view of the seat that chose it;
3. **expands** one untried action, with progressive widening where the candidate
   list is long (a node may hold ``4 + 2 * sqrt(visits)`` children);
4. **rolls out** with cheap random play until the game's :class:`Adapter` cuts it
   (Puerto Rico 60, Navegador 60, Roads & Boats 40 decisions), then scores the
   position: final scores and ranks at the end, the game's evaluation function when
   cut;
5. **backs up** a reward in ``[0, 1]`` per seat: half from the rank (1 first,
   0 last), half from a logistic of the score margin over the best other seat,
   scaled per game (pesos, VP, points); at a cut, the adapter's
   ``cut_rank_weight`` replaces the half of the rank.

Manila works differently (:class:`ManilaAdapter`): every decision is a flat paired
simulation of a few candidates (bid limits in the auction, the harbour master's
choices, the guide's best placements, pilots, pirates), each played on from the same
determinizations and dice by the guide in every seat to just before the voyage's
last roll, and scored exactly from the dice odds (the expected pesos of the voyage
in progress, the guide's forecast); the guide's choice stands unless another
candidate's mean margin beats it clearly.

Guide: the game's heuristic bot (``bots/<game>_bot.py``) runs alongside and is
asked for its choice at every decision; that action is expanded first, and the
search plays another root action only when it was visited more than the guide's
and its mean reward beats the guide's by the game's ``guide_margin``: Puerto Rico
0; Manila 0.05; Navegador and Roads & Boats 0.4 (only where one move wins and the
guide's loses: there the random rollouts misjudged ordinary moves, and smaller
margins lost to the plain heuristic in measurement; how the bot works, its flags
and current figures: docs/bots/search.md).
``--no-guide`` plays pure search, ``--guide-margin M`` overrides the margin.

Candidate actions: Manila bids are grouped into a few raises (minimum, +1, +2, +4,
+7, +11 pesos over the high bid) and voluntary mortgages and redemptions are left
out of the search (the engine still forces a mortgage in the debt phase).

Time: the ``act`` clock (``move_ms``, ``bank_ms``) comes from ``botkit`` (``self.clock``); the
search stops after ``--fraction`` (default 0.35) of ``move_ms`` plus a 1/40 share of
the bank minus a safety margin, measured from when the ``act`` line arrived; a long
unit of work (a Navegador playout) is started only if, at its measured cost, it ends
before the move clock plus that share of the bank, less the margin (:class:`Deadline`).
``--iterations N`` instead runs exactly N iterations (deterministic with
``--seed``, for tests); ``--max-ms`` caps the per-move budget.

Usage: search_bot.py [--iterations N] [--seed S] [--fraction F] [--max-ms MS]
                     [--no-guide] [--guide-margin M]
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


from bots.search_adapter import Adapter, load_guide
from bots.search_manila import ManilaAdapter
from referee.api.engine import CHANCE, TERMINAL, IllegalAction, State, ranks_from_scores
from referee.botkit import Bot, Clock, run

UCT_C = 0.7
"""Exploration constant of UCT for rewards in [0, 1]."""
WIDEN_BASE = 4
"""Children a node may always hold before progressive widening limits it."""
WIDEN_RATE = 2.0
"""Extra children allowed per square root of the node's visits."""
SAFETY_MS = 60.0
"""Margin kept back from every time budget (reply, scheduling on a loaded machine)."""
BANK_SHARE = 1 / 40
"""Share of the remaining time bank one move may spend."""


class Deadline:
    """A move's clock budget as the ``done(count)`` predicate of the searches: true
    once ``perf_counter`` has reached ``deadline`` (seconds; the soft budget, see
    :meth:`SearchBot.budget_ms`) or ``count`` has reached ``cap`` (when given).

    :meth:`remaining_s` is the time left before ``hard`` (seconds), the latest the
    move may end: the move clock plus the bank's share, less the safety margin.  A
    caller whose units of work are long (Navegador's playouts: hundreds of ms near
    the end of the game) starts one only if it ends before that, so that a unit
    started just before the soft deadline cannot run the move past its clock and
    drain the bank."""

    def __init__(self, deadline: float, cap: int | None = None, hard: float | None = None) -> None:
        self.deadline = deadline
        self.cap = cap
        self.hard = deadline if hard is None else max(hard, deadline)

    def __call__(self, count: int) -> bool:
        return time.perf_counter() >= self.deadline or (self.cap is not None and count >= self.cap)

    def remaining_s(self) -> float:
        """Seconds left before the hard deadline (negative once past it)."""
        return self.hard - time.perf_counter()


# ------------------------------------------------------------------ adapters
# The base class and the guide's loading: bots/search_adapter.py; Manila's adapter:
# bots/search_manila.py.


class PuertoRicoAdapter(Adapter):
    """Puerto Rico: VP; rollouts cut after 60 decisions (about one round) and scored
    by the heuristic bot's VP-like estimate of every board (``player_value``)."""

    scale = 6.0
    rollout_depth = 60
    guide = "puerto_rico_bot"
    guide_margin = 0.0

    def __init__(self, bot: SearchBot) -> None:
        super().__init__(bot)
        from bots.puerto_rico_bot import player_value, rounds_left

        self.value = player_value
        self.rounds_left = rounds_left

    def evaluate(self, state: State) -> list[float]:
        pr: Any = state
        rem = self.rounds_left(pr)
        return [self.value(pr, s, rem) for s in range(state.seats)]


class NavegadorAdapter(Adapter):
    """Navegador: with the guide, the rondel choice by paired guide playouts and every
    other decision the guide's (``bots/search_navegador.py``); without it (pure
    search), VP, rollouts cut after 60 decisions and scored by the heuristic bot's
    evaluation (VP now plus money, colonies, factories, workers, ships)."""

    scale = 6.0
    rollout_depth = 60
    guide = "navegador_bot"
    guide_margin = 0.4

    playouts = "search_navegador"

    def __init__(self, bot: SearchBot) -> None:
        super().__init__(bot)
        from bots.navegador_bot import evaluate

        self.value = evaluate

    def evaluate(self, state: State) -> list[float]:
        return [self.value(state, s) for s in range(state.seats)]  # type: ignore[arg-type]


class RoadsAndBoatsAdapter(Adapter):
    """Roads & Boats: with the guide, the home, the builds and the wonder bricks by
    paired guide playouts to the end of the game and every other decision the
    guide's (``bots/search_roads_and_boats.py``); without it (pure search), wealth
    points, rollouts cut after 40 decisions and scored by the engine's wealth count
    (goods on transporters plus wonder bricks)."""

    scale = 15.0
    rollout_depth = 40
    guide = "roads_and_boats_bot"
    guide_margin = 0.4
    playouts = "search_roads_and_boats"


ADAPTERS: dict[str, type[Adapter]] = {
    "manila": ManilaAdapter,
    "puerto-rico": PuertoRicoAdapter,
    "navegador": NavegadorAdapter,
    "roads-and-boats": RoadsAndBoatsAdapter,
}


# ------------------------------------------------------------------ the tree


class Node:
    """One tree node: statistics of the action that led here, for ``seat``."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def rewards(
    values: list[float], ranks: list[int], scale: float, rank_weight: float = 0.5
) -> list[float]:
    """Per-seat rewards in [0, 1] from scores ``values`` and ``ranks`` (1 = best):
    ``rank_weight`` from the rank, the rest from a logistic of the margin over the
    best other seat in units of ``scale``."""
    n = len(values)
    out: list[float] = []
    for seat in range(n):
        rank_part = 1.0 if n == 1 else (n - ranks[seat]) / (n - 1)
        best_other = max((values[o] for o in range(n) if o != seat), default=0.0)
        margin = (values[seat] - best_other) / scale
        margin_part = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin))))
        out.append(rank_weight * rank_part + (1.0 - rank_weight) * margin_part)
    return out


class Search:
    """ISMCTS from one seat's view; see the module docstring."""

    def __init__(self, adapter: Adapter, seat: int, rng: random.Random) -> None:
        self.adapter = adapter
        self.seat = seat
        self.rng = rng
        self.iterations = 0

    def run(
        self,
        view: Any,
        root_actions: list[Any],
        done: Callable[[int], bool],
        first: Any = None,
    ) -> tuple[Any, dict[Any, Node]]:
        """Search until ``done(iterations)``; return the most visited root action
        and the root's children.  ``first`` (a root action) is expanded first."""
        root = Node(-1)
        if first is not None:
            root.children[first] = Node(self.seat)
        count = 0
        while not done(count):
            count += 1
            self.iterate(root, view, root_actions)
        self.iterations = count
        if not root.children:
            return root_actions[0], root.children
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return best[0], root.children

    def iterate(self, root: Node, view: Any, root_actions: list[Any]) -> None:
        """One determinize-select-expand-rollout-backup pass."""
        adapter, rng = self.adapter, self.rng
        state = adapter.determinize(view, rng)
        node = root
        path = [root]
        expanded = False
        try:
            while not expanded:
                who = state.to_move()
                if who == TERMINAL:
                    break
                if who == CHANCE:
                    state.apply_chance(state.sample_chance(rng))
                    continue
                children = node.children
                if node is not root and who != self.seat:
                    modelled = adapter.model_action(state, who)
                    if modelled is not None:  # an opponent played by its model
                        child = children.get(modelled)
                        if child is None:
                            child = children[modelled] = Node(who)
                        state.apply_action(modelled)
                        node = child
                        path.append(node)
                        continue
                if node is root:
                    legal = root_actions
                else:
                    legal = adapter.candidates(state, state.legal_actions())
                present = [a for a in legal if a in children]
                allowed = len(legal)
                if allowed > WIDEN_BASE:
                    allowed = min(allowed, WIDEN_BASE + int(WIDEN_RATE * math.sqrt(node.visits)))
                fresh = [a for a in present if children[a].visits == 0]
                if fresh:
                    action = fresh[0]  # expanded ahead of time (the guide's choice)
                    expanded = True
                elif len(present) < allowed:
                    untried = [a for a in legal if a not in children]
                    action = untried[rng.randrange(len(untried))]
                    child = Node(who)
                    children[action] = child
                    present.append(action)
                    expanded = True
                else:
                    log_term = 0.0
                    best_score = -1.0
                    action = present[0]
                    for a in present:
                        c = children[a]
                        log_term = math.log(c.avail)
                        score = c.total / c.visits + UCT_C * math.sqrt(log_term / c.visits)
                        if score > best_score:
                            best_score, action = score, a
                for a in present:
                    children[a].avail += 1
                state.apply_action(action)
                node = children[action]
                path.append(node)
            values, ranks, cut = self.rollout(state)
        except IllegalAction:
            return  # a root action the determinization does not allow: skip
        weight = adapter.cut_rank_weight if cut else 0.5
        reward = rewards(values, ranks, adapter.scale, weight)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.total += reward[n.seat]

    def rollout(self, state: State) -> tuple[list[float], list[int], bool]:
        """Play on randomly; final scores and ranks, or the evaluation when cut
        (and whether it was cut)."""
        adapter, rng = self.adapter, self.rng
        mark = adapter.mark(state)
        decisions = 0
        while True:
            who = state.to_move()
            if who == TERMINAL:
                return state.scores(), state.ranks(), False
            if who == CHANCE:
                if adapter.cut_at_chance(state):
                    values = adapter.evaluate(state)
                    return values, ranks_from_scores(values), True
                state.apply_chance(state.sample_chance(rng))
                continue
            if adapter.cut(state, mark, decisions):
                values = adapter.evaluate(state)
                return values, ranks_from_scores(values), True
            state.apply_action(adapter.rollout_action(state, state.legal_actions(), rng))
            decisions += 1


# ------------------------------------------------------------------ the bot


class SearchBot(Bot):
    """Protocol wrapper around :class:`Search` with a clock-driven budget."""

    name = "search"
    version = "1"

    def __init__(
        self,
        iterations: int | None = None,
        seed: int | None = None,
        fraction: float = 0.35,
        max_ms: float | None = None,
        guide: bool = True,
        guide_margin: float | None = None,
        belief: bool = True,
    ) -> None:
        self.iterations = iterations
        self.use_belief = belief
        self.rng = random.Random(seed if seed is not None else (0 if iterations else None))
        self.fraction = fraction
        self.max_ms = max_ms
        self.clock = Clock()
        self.received = time.perf_counter()
        self.adapter: Adapter = Adapter(self)
        self.last: Search | None = None
        self.last_children: dict[Any, Node] = {}
        self.use_guide = guide
        self.guide_margin = guide_margin
        self.guide: Bot | None = None

    def on_start(self) -> None:
        self.adapter = ADAPTERS.get(self.game.name, Adapter)(self)
        if self.guide_margin is not None:
            self.adapter.guide_margin = self.guide_margin
        self.guide = None
        if self.use_guide and self.adapter.guide:
            self.guide = load_guide(self.adapter.guide, self.rng.randrange(2**31))
            if self.guide is not None:
                self.guide.game, self.guide.seat = self.game, self.seat
                self.guide.seats, self.guide.options = self.seats, self.options
                self.guide.start = self.start
                self.guide.on_start()

    def budget_ms(self) -> float:
        """Thinking time for this move (ms) from the ``act`` clock."""
        ms = self.fraction * self.clock.move_ms + BANK_SHARE * self.clock.bank_ms - SAFETY_MS
        if self.max_ms is not None:
            ms = min(ms, self.max_ms)
        return max(ms, 5.0)

    def budget(self, rollouts: bool) -> Callable[[int], bool]:
        """``done(count)``: whether this move's budget is spent after ``count`` tree
        iterations (or, with ``rollouts``, the adapter's playouts): the iteration
        count of ``--iterations`` (playouts: scaled by the adapter's
        ``rollouts_per_iteration``), else the clock."""
        if self.iterations is not None:
            limit = self.iterations
            if rollouts:
                limit = max(1, round(limit * self.adapter.rollouts_per_iteration))

            def done(count: int) -> bool:
                return count >= limit

            return done
        deadline = self.received + self.budget_ms() / 1000.0
        cap = self.adapter.clock_playout_cap if rollouts else None
        hard_ms = self.clock.move_ms + BANK_SHARE * self.clock.bank_ms - SAFETY_MS
        if self.max_ms is not None:
            hard_ms = min(hard_ms, self.max_ms)
        return Deadline(deadline, cap, self.received + hard_ms / 1000.0)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        self.adapter.observe(view, events)
        if len(legal) == 1:
            return 0
        hint: Any = None
        if self.guide is not None:
            hint_index = self.guide.choose(view, legal, events)
            hint = legal[hint_index]
            picked = self.adapter.decide(view, legal, hint, self.budget(True))
            if picked is not None:
                return legal.index(picked)
            if self.adapter.trust_guide(view):
                return hint_index
        search = Search(self.adapter, self.seat, self.rng)
        probe = self.adapter.determinize(view, self.rng)
        root_actions = self.adapter.candidates(probe, legal)
        if hint is not None and hint not in root_actions:
            return legal.index(hint)  # e.g. a Manila mortgage the search never weighs
        if hint is not None:
            root_actions = self.adapter.shortlist(view, root_actions, hint)
        if len(root_actions) == 1:
            return legal.index(root_actions[0])
        action, children = search.run(view, root_actions, self.budget(False), first=hint)
        self.last = search
        self.last_children = children
        if hint is not None and action != hint:
            h, a = children[hint], children[action]
            h_mean = h.total / h.visits if h.visits else 0.0
            clear = a.visits > h.visits and a.total / a.visits > h_mean + self.adapter.guide_margin
            if not clear:
                action = hint  # the search must beat the heuristic's choice clearly
        return legal.index(action)


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and run the bot on stdin/stdout."""
    import argparse

    parser = argparse.ArgumentParser(description="ISMCTS bot for every game")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--fraction", type=float, default=0.35)
    parser.add_argument("--max-ms", type=float, default=None)
    parser.add_argument("--no-guide", action="store_true", help="pure search, no heuristic")
    parser.add_argument("--guide-margin", type=float, default=None)
    parser.add_argument(
        "--no-belief",
        action="store_true",
        help="Manila: deal the other seats' shares at random, not from their play",
    )
    args = parser.parse_args(argv)
    bot = SearchBot(
        args.iterations,
        args.seed,
        args.fraction,
        args.max_ms,
        not args.no_guide,
        args.guide_margin,
        belief=not args.no_belief,
    )
    run(bot)


if __name__ == "__main__":
    main()
