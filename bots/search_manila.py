"""The search bot's Manila adapter (:class:`ManilaAdapter`): flat paired simulations
of a few candidates played on by the guide, and an exact evaluation of the voyage in
progress; the tree search and the other games' adapters are in ``bots/search_bot.py``."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bots.paired import pick as paired_pick
from bots.search_adapter import Adapter, load_guide
from referee.api.engine import CHANCE, TERMINAL, State

if TYPE_CHECKING:
    from bots.search_bot import SearchBot


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
