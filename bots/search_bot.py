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
the bank minus a safety margin, measured from when the ``act`` line arrived.
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


from bots.paired import pick as paired_pick
from referee.botkit import Bot, Clock, run
from referee.engine import CHANCE, TERMINAL, IllegalAction, State, ranks_from_scores

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


# ------------------------------------------------------------------ adapters


class Adapter:
    """Per-game knobs of the search.

    ``scale`` is the score margin (game units) worth a clear lead, ``rollout_depth``
    the decisions a rollout plays before it is cut and evaluated (0 = to the end).
    """

    scale: float = 10.0
    rollout_depth: int = 0
    guide: str | None = None
    guide_margin: float = 0.0
    cut_rank_weight: float = 0.5
    """Weight of the rank in the reward of a cut rollout (the rest: the margin)."""
    playouts: str | None = None
    """Module in ``bots/`` whose ``decide(adapter, view, legal, hint, done)`` is this
    game's :meth:`decide` and whose ``ROLLOUTS_PER_ITERATION`` its
    :attr:`rollouts_per_iteration` (loaded with the adapter), or ``None``."""
    rollouts_per_iteration: float = 1.0
    """Playouts of :meth:`decide` per ``--iterations`` unit (the same CPU time)."""
    clock_playout_cap: int | None = None
    """At the real clock, the most playouts of :meth:`decide` per decision (``None``:
    as many as the clock allows)."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.playout_module: Any = None
        if self.playouts is not None:
            import importlib

            self.playout_module = importlib.import_module(f"bots.{self.playouts}")
            self.rollouts_per_iteration = self.playout_module.ROLLOUTS_PER_ITERATION

    def observe(self, view: Any, events: list[Any]) -> None:
        """Called with every ``act``'s view and raw events, forced moves included,
        before any decision; default: nothing."""

    def determinize(self, view: Any, rng: random.Random) -> State:
        """A full state consistent with ``view`` (hidden information from ``rng``)."""
        state: State = self.bot.game.determinize(view, rng)
        return state

    def candidates(self, state: State, legal: list[Any]) -> list[Any]:
        """The actions the search considers (a subset of ``legal``, never empty)."""
        return legal

    def rollout_action(self, state: State, legal: list[Any], rng: random.Random) -> Any:
        """The rollout policy: uniform among the candidates."""
        cands = self.candidates(state, legal)
        return cands[rng.randrange(len(cands))]

    def evaluate(self, state: State) -> list[float]:
        """Estimated final scores of an unfinished position (game units)."""
        return state.scores()

    def shortlist(self, view: Any, actions: list[Any], hint: Any) -> list[Any]:
        """The root actions worth searching (``hint``, the guide's choice, among
        them); default: all of ``actions``."""
        return actions

    def trust_guide(self, view: Any) -> bool:
        """Whether the guide's choice is played unsearched at this decision (where
        the rollouts cannot judge it)."""
        return False

    def decide(
        self, view: Any, legal: list[Any], hint: Any, done: Callable[[int], bool]
    ) -> Any | None:
        """A decision-specific search that replaces the tree search here: the action
        to play, or ``None`` to go on as usual (the :attr:`playouts` module's, if
        any).  ``done(n)`` says whether the budget is spent after ``n`` rollouts."""
        if self.playout_module is None:
            return None
        return self.playout_module.decide(self, view, legal, hint, done)

    def model_action(self, state: State, seat: int) -> Any:
        """The action another ``seat`` is expected to play in ``state`` (its
        model), or ``None`` to search its choices like this seat's."""
        return None

    def cut_at_chance(self, state: State) -> bool:
        """Whether a rollout stops (and is evaluated) at this chance node."""
        return False

    def mark(self, state: State) -> Any:
        """What :meth:`cut` needs to know about the position a rollout starts from."""
        return None

    def cut(self, state: State, mark: Any, decisions: int) -> bool:
        """Whether the rollout stops here (after ``decisions`` decisions) and is
        evaluated; default: after ``rollout_depth`` decisions (0 = never)."""
        return bool(self.rollout_depth) and decisions >= self.rollout_depth


class ManilaAdapter(Adapter):
    """Manila: pesos; bids grouped into a few raises; no voluntary finance.

    With the guide loaded (``manila_bot``: ``Forecast``, ``ManilaBot.income``,
    ``spot_value`` and ``hm_value``) every decision of this seat with a choice is a
    **flat paired simulation** (:meth:`decide`): a few candidate policies, each
    played from the same samples (one determinization of the hidden shares and one
    dice stream per sample, common random numbers), with the guide in every seat
    afterwards (:meth:`playout`), to just before the voyage's last roll (or the next
    voyage, or the end).  The position is then scored (:meth:`evaluate`) as cash
    plus the expected pesos of the voyage in progress (exact dice odds of every
    punt, crews diluted by the accomplices still in hand, pilots' allowance) plus
    shares at their expected final value (a good rises about 0.45 steps per voyage;
    about 1.6 voyages are left per step the leading good still has to climb; a good
    on a punt rises now with the punt's chance to arrive), less 15 per mortgaged
    share.  A candidate's worth is its mean margin over the best other seat; the
    guide's choice is played unless another beats it by ``flat_z`` standard errors
    of the paired differences (:meth:`pick`).  The candidates: in the auction,
    passing and bid limits ``LIMIT_OFFSETS`` pesos around the guide's own limit
    (:meth:`limit_bid`, the guide's raise rule); the harbour master's share and
    cargo: every legal one; his start layouts: the guide's best ``launch_top``;
    placements: the guide's ``top`` spaces, its choice and passing
    (:meth:`shortlist`); pilots, boarding and delivery: every legal action.

    Every sample deals the other seats' secret shares from :attr:`belief` (a
    ``manila_belief.ShareBelief``: the public purchases plus a posterior over the
    deal, weighed by how the guide would have played each seat's possible pair;
    :meth:`observe` feeds it every ``act``'s events), or at random with
    ``--no-belief`` or when the belief has switched itself off.

    The tree search remains for decisions the flat simulation declines (and with
    ``flat`` off): this seat's decisions in the tree, the guide for every other
    seat (:meth:`model_action`) and in the rollouts, cut at the next dice roll.

    Without the guide (``--no-guide``): every seat searched, random rollouts to the
    start of the placements or of the next voyage, scored the same way.
    """

    scale = 25.0
    guide = "manila_bot"
    guide_margin = 0.05
    RAISES = (1, 2, 3, 5, 8, 12)
    GUIDED = ("auction", "buy", "leave_out", "launch")
    cut_rank_weight = 0.0
    LIMIT_OFFSETS = (-4.0, 0.0, 4.0, 8.0, 14.0)
    """Bid limits simulated in the auction, in pesos over the guide's own limit (and
    passing)."""
    flat_cut = 2
    """Rolls made when a paired playout stops (2: just before the last roll)."""
    flat_z = 1.0
    """Standard errors of the paired differences a candidate must beat the guide's
    choice by."""
    flat_phases: tuple[str, ...] = (
        "buy",
        "leave_out",
        "launch",
        "place",
        "pilot",
        "board",
        "deliver",
    )
    """Decisions besides the auction decided by the flat simulation."""
    launch_top = 4
    """Start layouts the flat simulation compares (the guide's best by its score)."""
    rollouts_per_iteration = 0.73
    """Paired playouts per ``--iterations`` unit: 153 playouts (210 iterations) are
    290 ms of CPU (527 playouts per CPU second, ``benchmarks/strength/manila_rate.py``)."""
    clock_playout_cap = 153
    """The clock never buys more than the 153 paired playouts the figures were measured
    with: with more samples the paired comparison leaves the guide on smaller
    margins, and at the gauntlet's clock (``move_ms`` 1000 and a 10 s bank: a 540 ms
    budget, 40 to 100 samples a decision) the bot was first in 8.5 of 48 games
    (mean rank 2.75) against 7 of 24 (2.58) at ``--iterations 210`` under the same
    referee, and with the cap in 71 of 200 (2.29; docs/bots/search.md)."""
    PILOT_HOPE = (1.0, 2.5)
    """Pesos a small and a large pilot are expected to gain when the evaluation is
    made before they move (the guide's own allowance)."""

    def __init__(self, bot: SearchBot) -> None:
        super().__init__(bot)
        from referee.games.manila import actions as MA
        from referee.games.manila import data as MD
        from referee.games.manila.phases import AUCTION, PLACE, ROLL

        self.bid = MA.Bid
        self.track = MD.PRICE_TRACK
        self.auction = AUCTION
        self.place = PLACE
        self.roll = ROLL
        self.exact = False
        self.dilute = 0.5
        self.seat_costs = MD.SEAT_COSTS
        self.good_index = MD.GOOD_INDEX
        self.office_costs = MD.OFFICE_COSTS
        self.place_action = MA.Place
        self.top = 3
        self.costs = {
            "pirate": MD.PIRATE_COST,
            "small": MD.SMALL_PILOT_COST,
            "large": MD.LARGE_PILOT_COST,
        }
        self.payout = MD.CARGO_PAYOUT
        try:  # the guide's exact voyage forecast (dice odds), if it still offers one
            from bots.manila_bot import Forecast, ManilaBot, boat_odds

            self.forecast: Any = Forecast
            self.boat_odds: Any = boat_odds
            self.income: Any = ManilaBot.income
            self.exact = True
        except (ImportError, AttributeError):
            pass
        self.model = self.exact and bot.use_guide
        self.flat = True
        self.launch_action = MA.Launch
        self.last_flat: Any = None
        self.finance = (MA.Mortgage, MA.Redeem)
        self.pass_ = MA.Pass()
        self.belief: Any = None
        if bot.use_belief and self.model:
            from bots.manila_belief import ShareBelief

            model = load_guide(self.guide, 0)
            self.belief = ShareBelief(bot.game, bot.options, bot.seat, bot.seats, model)

    def observe(self, view: Any, events: list[Any]) -> None:
        belief = self.belief
        if belief is not None and belief.active:
            belief.observe(view, events)
            if not belief.active:  # say once why the deal is random from now on
                reason = belief.failure or "the replayed events do not match the view"
                print(f"search: share belief off, voyage {view.voyage}: {reason}", file=sys.stderr)

    def determinize(self, view: Any, rng: random.Random) -> State:
        holdings = self.belief.sample(rng) if self.belief is not None else None
        state: State = self.bot.game.determinize(  # type: ignore[call-arg]
            view, rng, self.bot.options, holdings=holdings
        )
        return state

    def candidates(self, state: State, legal: list[Any]) -> list[Any]:
        finance = self.finance
        out = [a for a in legal if type(a) not in finance]
        if not out:  # the debt phase: a mortgage is forced
            return legal
        bids = [a for a in out if type(a) is self.bid]
        if len(bids) > len(self.RAISES):
            low = bids[0].amount - 1
            keep = {low + r for r in self.RAISES}
            out = [a for a in out if type(a) is not self.bid or a.amount in keep]
        return out

    def shortlist(self, view: Any, actions: list[Any], hint: Any) -> list[Any]:
        # placements: the guide's ``top`` best spaces by its own expected value, the
        # guide's choice and passing, so that the visits concentrate on them
        guide: Any = self.bot.guide
        if view.phase != "place" or self.top <= 0 or guide is None:
            return actions
        try:
            fc = self.forecast(view)
            costs = self.spot_costs(view)
            scored: list[tuple[float, int, Any]] = []
            for a in actions:
                if type(a) is self.place_action and a.spot in costs:
                    value = guide.spot_value(view, fc, a.spot, costs[a.spot])
                    scored.append((-value, len(scored), a))
        except (AttributeError, TypeError, ValueError, KeyError):
            return actions
        keep = {a for _v, _i, a in sorted(scored)[: self.top]}
        keep.add(hint)
        return [a for a in actions if a in keep or type(a) is not self.place_action]

    def spot_costs(self, view: Any) -> dict[str, int]:
        """Pesos each free placement space costs now (crew seats fill cheapest first)."""
        out: dict[str, int] = {}
        for b, good in enumerate(view.cargo):
            costs = self.seat_costs[self.good_index[good]]
            if view.destinations[b] == "sea" and len(view.crews[b]) < len(costs):
                out[good] = costs[len(view.crews[b])]
        for i, berth in enumerate(("a", "b", "c")):
            out[f"port-{berth}"] = out[f"shipyard-{berth}"] = self.office_costs[i]
        out["pirate"], out["insurance"] = self.costs["pirate"], 0
        out["pilot-small"], out["pilot-large"] = self.costs["small"], self.costs["large"]
        return out

    def decide(
        self, view: Any, legal: list[Any], hint: Any, done: Callable[[int], bool]
    ) -> Any | None:
        # a flat paired simulation: the auction over a few bid limits, the harbour
        # master's choices and (with ``flat_place``) the placements over a shortlist
        guide: Any = self.bot.guide
        if not (self.model and self.flat and guide is not None):
            return None
        phase = view.phase
        if phase == "auction":
            try:
                base = float(guide.hm_value(view))
            except (AttributeError, TypeError, ValueError):
                return None
            policies: list[Any] = [-1.0] + [base + d for d in self.LIMIT_OFFSETS]
            firsts = [self.limit_bid(legal, p, view.cash[view.seat]) for p in policies]
            if all(type(a) is not self.bid for a in firsts):
                return None  # every limit passes now
            guide_i = self.LIMIT_OFFSETS.index(0.0) + 1
        elif phase in self.flat_phases:
            if type(hint) in self.finance:
                return None  # a mortgage to buy a share: the guide's
            firsts = self.flat_candidates(view, legal, hint)
            if len(firsts) < 2:
                return None
            policies = [(a,) for a in firsts]
            guide_i = firsts.index(hint)
        else:
            return None
        margins = self.paired(view, policies, done)
        if margins is None:
            return None
        best = self.pick(margins, guide_i)
        self.last_flat = (firsts, margins, best)
        return firsts[best]

    def flat_candidates(self, view: Any, legal: list[Any], hint: Any) -> list[Any]:
        """The actions the flat simulation compares (the guide's ``hint`` among them):
        the guide's best ``launch_top`` start layouts, every share purchase and cargo,
        the placement shortlist."""
        guide: Any = self.bot.guide
        cands = self.candidates(self.determinize(view, self.bot.rng), legal)
        if view.phase == "launch":
            weights = [guide.rise_value(view, g) + 1.0 for g in view.cargo]

            def score(a: Any) -> float:
                total = 0.0
                for b, start in enumerate(a.starts):
                    past, on13, _short = self.boat_odds(start, 3)
                    total += weights[b] * (past + 0.7 * on13)
                return -total

            launches = [a for a in cands if type(a) is self.launch_action]
            cands = sorted(launches, key=score)[: self.launch_top]
        elif view.phase == "place":
            cands = self.shortlist(view, cands, hint)
        if hint not in cands:
            cands.append(hint)
        return cands

    def limit_bid(self, legal: list[Any], limit: float, cash: int) -> Any:
        """The guide's bidding rule with its limit replaced by ``limit`` (pesos):
        raise by a third of the headroom, never beyond the limit or the cash."""
        limit = min(limit, float(cash))
        bids = [a for a in legal if type(a) is self.bid and a.amount <= limit]
        if not bids:
            return self.pass_
        low = min(a.amount for a in bids)
        target = max(low, low - 1 + int((limit - low + 1) / 3))
        return min(bids, key=lambda a: abs(a.amount - target))

    def paired(
        self, view: Any, limits: list[Any], done: Callable[[int], bool]
    ) -> list[list[float]] | None:
        """Expected margins (pesos over the best other seat) of each policy (a bid
        limit, or a 1-tuple: an action played first), one list per policy, paired by
        sample: each sample is one determinization and one dice stream shared by
        every policy (common random numbers)."""
        me = view.seat
        margins: list[list[float]] = [[] for _ in limits]
        count = 0
        while True:
            if done(count + len(limits)) and count:
                break
            root = self.determinize(view, self.bot.rng)
            seed = self.bot.rng.randrange(2**31)
            for k, limit in enumerate(limits):
                values = self.playout(root.clone(), me, limit, random.Random(seed))
                others = max(v for s, v in enumerate(values) if s != me)
                margins[k].append(values[me] - others)
            count += len(limits)
            if done(count):
                break
        return margins if margins[0] else None

    def playout(self, state: Any, me: int, limit: Any, rng: random.Random) -> list[float]:
        """Play on with the guide in every seat (this seat bidding up to ``limit`` in
        the auction in progress, or first playing ``limit[0]`` if it is a tuple)
        until the last roll of the voyage, the next voyage or the end; the
        position's evaluation (or the final scores)."""
        voyage = state.voyage
        if isinstance(limit, tuple):
            state.apply_action(limit[0])
            limit = None
        while True:
            who = state.to_move()
            if who == TERMINAL:
                scores: list[float] = state.scores()
                return scores
            if who == CHANCE:
                if state.phase == self.roll and state.rolls >= self.flat_cut:
                    return self.evaluate(state)
                state.apply_chance(state.sample_chance(rng))
                continue
            if state.voyage > voyage:
                return self.evaluate(state)
            if who == me and limit is not None and state.phase == self.auction:
                legal = state.legal_actions()
                action = self.limit_bid(legal, limit, state.cash[me])
            else:
                action = self.guided_action(state, who)
            state.apply_action(action)

    def pick(self, margins: list[list[float]], guide_i: int) -> int:
        """The limit to play: the best mean margin if it beats the guide's own limit
        by ``flat_z`` standard errors of the paired differences, else the guide's."""
        return paired_pick(margins, guide_i, self.flat_z)

    def trust_guide(self, view: Any) -> bool:
        # the auction and the harbour master's choices pay off through the placements
        # that follow (first pick each round), which the cut at the placements misses
        return self.exact and view.phase in self.GUIDED

    def model_action(self, state: State, seat: int) -> Any:
        if not self.model or self.bot.guide is None:
            return None
        return self.guided_action(state, seat)

    def guided_action(self, state: State, seat: int) -> Any:
        """The guide's choice for ``seat`` (from its view of ``state``)."""
        guide: Any = self.bot.guide
        legal = state.legal_actions()
        return legal[guide.choose(state.view(seat), legal, [])]

    def cut_at_chance(self, state: State) -> bool:
        return self.model and state.phase == self.roll  # type: ignore[attr-defined]

    def mark(self, state: State) -> Any:
        return state.voyage  # type: ignore[attr-defined]

    def cut(self, state: State, mark: Any, decisions: int) -> bool:
        if self.model:  # the guide plays on to the next roll (or the next voyage)
            return state.phase == self.auction and state.high_bidder < 0  # type: ignore[attr-defined]
        if self.exact:
            phase = state.phase  # type: ignore[attr-defined]
            return phase >= self.place or (phase == self.auction and state.high_bidder < 0)  # type: ignore[attr-defined]
        return state.voyage > mark and state.phase == self.auction  # type: ignore[attr-defined]

    def worth(self, step: float) -> float:
        """Pesos of one share whose marker is expected at ``step`` at the end."""
        track, top = self.track, len(self.track) - 1
        step = min(float(top), step)
        lo = int(step)
        hi = min(top, lo + 1)
        return track[lo] + (track[hi] - track[lo]) * (step - lo)

    def dilute_crews(self, ms: Any, fc: Any, income: list[float]) -> None:
        """Correct ``income`` (pesos per seat) for the crew seats still expected to
        fill before the punts sail: the accomplices still in hand spread over the
        free spaces, a share ``dilute`` of them onto crews."""
        free = ms.free_spots()
        if not free:
            return
        fill = self.dilute * min(1.0, sum(ms.left) / len(free))
        if fill <= 0.0:
            return
        for b, crew in enumerate(ms.crew):
            if not crew:
                continue
            room = len(self.seat_costs[ms.cargo[b]]) - len(crew)
            if room <= 0 or ms.dest[b] != 0:
                continue
            pay = fc.arrive[b] * self.payout[ms.cargo[b]]
            now, later = 1.0 / len(crew), 1.0 / (len(crew) + fill * room)
            for s in crew:
                income[s] -= pay * (now - later)

    def evaluate(self, state: State) -> list[float]:
        ms: Any = state
        top = len(self.track) - 1
        steps: list[int] = ms.price
        voyages = max(1.0, (top - max(steps)) * 1.6)
        sailing = self.exact and ms.phase >= self.place and bool(ms.cargo)
        if not sailing:
            worth = [self.worth(p + 0.45 * voyages) for p in steps]
            income = [0.0] * ms.seats
        else:
            # the voyage in progress: exact dice odds of every punt (the guide's
            # forecast), its expected payouts, and each good's chance to rise now
            view = ms.view(0)
            fc = self.forecast(view)
            income = [self.income(view, fc, s) for s in range(ms.seats)]
            if ms.phase == self.place and self.dilute:
                self.dilute_crews(ms, fc, income)
            if ms.rolls < 2:  # pilots still to move punts before the last roll
                if ms.small_pilot >= 0:
                    income[ms.small_pilot] += self.PILOT_HOPE[0]
                if ms.large_pilot >= 0:
                    income[ms.large_pilot] += self.PILOT_HOPE[1]
            later = 0.45 * max(0.0, voyages - 1.0)
            worth = [self.worth(p + later) for p in steps]
            for b, g in enumerate(ms.cargo):
                arrive = fc.arrive[b] + 0.5 * fc.plunder[b]
                worth[g] += arrive * (self.worth(steps[g] + 1 + later) - worth[g])
        out = []
        for s in range(ms.seats):
            held = ms.held[s]
            mort = ms.mort[s]
            value = float(ms.cash[s]) + income[s]
            for g, w in enumerate(worth):
                value += (held[g] + mort[g]) * w - 15 * mort[g]
            out.append(value)
        return out

    def rollout_action(self, state: State, legal: list[Any], rng: random.Random) -> Any:
        if self.model and self.bot.guide is not None:
            return self.guided_action(state, state.to_move())
        cands = self.candidates(state, legal)
        if type(cands[-1]) is self.bid and rng.random() < 0.6:
            return cands[0]  # pass the auction more often than not
        return cands[rng.randrange(len(cands))]


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

        def timed(count: int) -> bool:
            return time.perf_counter() >= deadline or (cap is not None and count >= cap)

        return timed

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


def load_guide(module_name: str, seed: int) -> Bot | None:
    """A fresh instance of the heuristic bot in ``bots/<module_name>.py`` (its first
    :class:`Bot` subclass, default arguments but ``seed`` where it takes one), or
    ``None`` if it cannot be loaded."""
    import importlib
    import inspect

    try:
        module = importlib.import_module(f"bots.{module_name}")
    except ImportError:
        return None
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Bot) and value is not Bot:
            cls: Any = value
            takes_seed = "seed" in inspect.signature(cls).parameters
            guide: Bot = cls(seed=seed) if takes_seed else cls()
            return guide
    return None


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
