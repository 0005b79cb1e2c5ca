#!/usr/bin/env python3
"""A heuristic Manila bot: expected values from punt positions and dice odds.

Every decision is scored in pesos of expected gain for this seat:

* **placements** - each free space is worth its expected payout (from the exact
  distribution of the remaining dice for every punt, pirates and the count of punts
  expected in port or shipyard) minus its cost; a punt seat also counts the rise of
  our own shares of that good.  The pirate space is worth the exact expected loot
  (each punt's chance to end on 13 times its own payout, split among the pirates);
  a pilot space in the last round is worth what its best move adds to our stake
  less the other seats' mean income.
  The bot passes when nothing is worth its price.
* **bidding** - the harbour master's office is worth the margin of the best share
  it can buy below that share's expected final value, plus its control (cargo and
  starts for our own shares), plus ``HM_LATER`` pesos from voyage 2 on; the bot
  raises by a third of its headroom up to that value, never beyond what still pays
  for the share (from voyage 2 on, a mortgage may cover up to ``HM_LATER``).
* **share purchase** - the harbour master buys the share with the best expected
  margin (plus ``BUY_OWN`` pesos per share of that good already held) whenever one
  has a positive margin (no cash reserve), on a mortgage if its cash is short and
  the margin beats the loan's cost (3 pesos at the end).
* **harbour master** - leaves out the good it owns least of, and picks the start
  layout that maximises the expected rise of its own shares.
* **pirates, pilots, plunder** - the action with the best expected value for us
  (pilot moves: our stake minus ``RIVAL`` times the other seats' mean income).
* **money** - never redeems (with the default scoring a redemption is worth exactly
  what the mortgage costs at the end), mortgages only when forced, to buy a share
  as harbour master, or to afford a clearly profitable space; forced mortgages take
  the cheapest good first.

Measurements and known weaknesses: ``docs/bots/manila.md``.

Usage: ``manila_bot.py [--cautious]`` (the cautious variant bids less and places
only on clearly profitable spaces).  Speaks protocol 1 through ``referee.botkit``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

from referee.botkit import Bot, run
from referee.games.manila import data as D
from referee.games.manila.actions import (
    Bid,
    Board,
    Buy,
    Deliver,
    Launch,
    LeaveOut,
    Mortgage,
    Pass,
    Pilot,
    Place,
)
from referee.games.manila.view import ManilaView


def _dice_sums(rolls: int) -> dict[int, float]:
    """Distribution of the sum of ``rolls`` six-sided dice."""
    dist: dict[int, float] = {0: 1.0}
    for _ in range(rolls):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        dist = nxt
    return dist


DICE = [_dice_sums(r) for r in range(4)]
H = D.HARBOUR_LENGTH
HM_CONTROL = 0.3
"""Pesos of harbour-master control per peso of rise value of our own shares."""
BUY_OWN = 2.0
"""Pesos of preference per share we already hold of a good, when buying (the harbour
master later loads and starts punts for its own goods)."""
HM_SHARE = 1.0
"""Share of the best purchasable share's margin the office is worth (0.8, 0.85, 1.2,
1.3 and 1.7 all did worse against the frozen copy: docs/bots/manila.md)."""
PASS_FLOOR = (0.0, 0.0, 0.0)
"""Least expected net pesos a space must be worth to be taken, by dice rolled so far
(lower floors in the first two rounds made no measurable difference)."""
CREW_FILL = 0.5
"""Share of a punt's still-free seats expected to fill after ours, before any roll
(scaled down by each roll made)."""
BOAT_RISE = 0.15
"""Share of a good's rise value a punt seat of that good is credited with."""
RIVAL = 1.0
"""Weight of the other seats' mean expected income against ours in pilot moves."""
PILOT_SHARE = 0.8
"""Share of a pilot move's expected gain the pilot space is credited with (the other
pilot may undo part of it)."""
PIRATE_SHARE = 1.0
"""Share of the expected loot the pirate space is credited with."""
FV_RATE = 0.45
"""Expected price steps a good climbs per remaining voyage."""
HM_LATER = 2.0
"""Pesos the office is worth beyond the formula from voyage 2 on (may take a loan for
the share).  Against the frozen copy +1 to +3 all gained about 3 points of first
places; a peso more in voyage 1, where the office is overpriced, lost 6."""
LOAN_COST = float(D.REDEEM_COST - D.MORTGAGE_LOAN)
"""What a mortgage costs in the end (12 pesos now, 15 owed at the end: default
scoring counts a mortgaged share at its value minus 15)."""


def boat_odds(pos: int, rolls_left: int) -> tuple[float, float, float]:
    """(P ends past 13, P ends exactly on 13, P ends short of 13) for a sailing punt."""
    past = on13 = short = 0.0
    for total, p in DICE[rolls_left].items():
        final = pos + total
        if final > H:
            past += p
        elif final == H:
            on13 += p
        else:
            short += p
    if rolls_left == 0:
        return past, 0.0, short + on13  # nothing more moves it (only used by pilots)
    return past, on13, short


def count_dist(probs: list[float]) -> list[float]:
    """Distribution of how many of several independent events happen."""
    dist = [1.0]
    for p in probs:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


class Forecast:
    """Expected outcome of the current voyage seen from one view (money in pesos)."""

    def __init__(self, view: ManilaView, positions: list[int] | None = None) -> None:
        self.view = view
        pos = positions if positions is not None else view.positions
        rolls_left = 3 - view.rolls
        if view.pirates:
            pirate_p = 1.0
        elif len(view.passed) and view.rolls < 3 and view.phase == "place":
            pirate_p = 0.3
        else:
            pirate_p = 0.0
        self.pirate_p = pirate_p
        self.arrive: list[float] = []
        self.plunder: list[float] = []
        self.yard: list[float] = []
        for b, dest in enumerate(view.destinations):
            if dest == "port":
                self.arrive.append(1.0)
                self.plunder.append(0.0)
                self.yard.append(0.0)
            elif dest == "shipyard":
                self.arrive.append(0.0)
                self.plunder.append(0.0)
                self.yard.append(1.0)
            elif view.plundered and view.plundered[b]:
                self.arrive.append(0.5)
                self.plunder.append(0.0)
                self.yard.append(0.5)
            else:
                past, on13, short = boat_odds(pos[b], rolls_left)
                self.arrive.append(past + on13 * (1 - pirate_p))
                self.plunder.append(on13 * pirate_p)
                self.yard.append(short)
        # plundered punts are sent to port or shipyard: count them half each
        to_port = [a + 0.5 * p for a, p in zip(self.arrive, self.plunder, strict=True)]
        to_yard = [y + 0.5 * p for y, p in zip(self.yard, self.plunder, strict=True)]
        port_dist = count_dist(to_port)
        yard_dist = count_dist(to_yard)
        self.port_at_least = [sum(port_dist[k:]) for k in range(4)]
        self.yard_at_least = [sum(yard_dist[k:]) for k in range(4)]

    def office(self, spot: str) -> float:
        """Expected payout of a port/shipyard space."""
        area, berth = spot.split("-")
        i = D.BERTHS.index(berth)
        at_least = self.port_at_least if area == "port" else self.yard_at_least
        return D.OFFICE_PAYOUTS[i] * at_least[i + 1]

    def claims(self) -> float:
        """Expected insurance claims (6/8/15 for shipyard berths A/B/C)."""
        return sum(D.OFFICE_PAYOUTS[i] * self.yard_at_least[i + 1] for i in range(3))

    def plunder_value(self, pirates_after: int) -> float:
        """Expected plunder per pirate with ``pirates_after`` pirates on the ship."""
        total = 0.0
        for b, good in enumerate(self.view.cargo):
            p13 = self.plunder[b] / self.pirate_p if self.pirate_p else 0.0
            total += p13 * D.CARGO_PAYOUT[D.GOOD_INDEX[good]]
        return total / max(1, pirates_after)


class ManilaBot(Bot):
    """Expected-value heuristics for every Manila decision (see the module docstring)."""

    name = "manila-heuristic"
    version = "1"

    def __init__(self, cautious: bool = False, buy_weight: float = 1.0) -> None:
        self.cautious = cautious
        self.buy_weight = buy_weight
        if cautious:
            self.name = "manila-cautious"

    # ------------------------------------------------------------ valuations

    def remaining_voyages(self, view: ManilaView) -> float:
        """Rough number of voyages left (a good rises about every other voyage)."""
        top = max(D.PRICE_TRACK.index(v) for v in view.prices.values())
        return max(1.0, (D.END_PRICE_STEP - top) * 1.6)

    def final_value(self, view: ManilaView, good: str) -> float:
        """Expected value of one share of ``good`` at the end (pesos)."""
        step = D.PRICE_TRACK.index(view.prices[good]) + FV_RATE * self.remaining_voyages(view)
        step = min(float(D.END_PRICE_STEP), step)
        lo = int(step)
        if lo >= D.END_PRICE_STEP:
            return float(D.PRICE_TRACK[-1])
        frac = step - lo
        return D.PRICE_TRACK[lo] * (1 - frac) + D.PRICE_TRACK[lo + 1] * frac

    def rise_value(self, view: ManilaView, good: str) -> float:
        """What one step up of ``good`` is worth to us (own shares, mortgaged included)."""
        step = D.PRICE_TRACK.index(view.prices[good])
        if step >= D.END_PRICE_STEP:
            return 0.0
        gain = D.PRICE_TRACK[step + 1] - D.PRICE_TRACK[step]
        mine = view.hand[good] + view.mortgaged[good]
        # others' average holding of the good rises too: a relative gain only
        others = max(0.0, (5 - view.supply[good] - mine) / max(1, view.seats - 1))
        return gain * (mine - 0.5 * others)

    def stake(self, view: ManilaView, fc: Forecast, rival: float = 0.0) -> float:
        """Our expected income this voyage plus share rises under forecast ``fc``,
        minus ``rival`` times the mean expected income of the other seats."""
        total = self.income(view, fc, view.seat)
        for b, good in enumerate(view.cargo):
            total += (fc.arrive[b] + 0.5 * fc.plunder[b]) * self.rise_value(view, good)
        if rival:
            others = [s for s in range(view.seats) if s != view.seat]
            total -= rival * sum(self.income(view, fc, s) for s in others) / len(others)
        return total

    @staticmethod
    def income(view: ManilaView, fc: Forecast, seat: int) -> float:
        """Expected pesos ``seat`` earns this voyage from its placed accomplices
        (crews, offices, insurance claims and pirates) under forecast ``fc``."""
        total = 0.0
        for b, good in enumerate(view.cargo):
            crew = view.crews[b]
            if seat in crew:
                pay = D.CARGO_PAYOUT[D.GOOD_INDEX[good]]
                total += fc.arrive[b] * pay * crew.count(seat) / len(crew)
        for i, occ in enumerate(view.port):
            if occ == seat:
                total += fc.office(f"port-{D.BERTHS[i]}")
        for i, occ in enumerate(view.shipyard):
            if occ == seat:
                total += fc.office(f"shipyard-{D.BERTHS[i]}")
        if view.insurance == seat:
            total -= fc.claims()
        if seat in view.pirates:
            total += fc.plunder_value(len(view.pirates)) * view.pirates.count(seat)
        return total

    def spot_value(self, view: ManilaView, fc: Forecast, spot: str, cost: int) -> float:
        """Expected net pesos of placing on ``spot`` now."""
        if spot in D.GOOD_INDEX:
            b = view.cargo.index(spot)
            crew = len(view.crews[b]) + 1
            seats = len(D.SEAT_COSTS[D.GOOD_INDEX[spot]])
            expected_crew = crew + CREW_FILL * (seats - crew) * (1 - view.rolls / 3)
            pay = D.CARGO_PAYOUT[D.GOOD_INDEX[spot]] / expected_crew
            rise = BOAT_RISE * fc.arrive[b] * self.rise_value(view, spot)
            return fc.arrive[b] * pay - cost + rise
        if spot.startswith(("port", "shipyard")):
            return fc.office(spot) - cost
        if spot == "insurance":
            return D.INSURANCE_PREMIUM - fc.claims()
        if spot == "pirate":
            pirates = len(view.pirates) + 1
            # each punt's chance to end on 13 (plundered) times its own payout
            loot = sum(
                boat_odds(view.positions[b], 3 - view.rolls)[1] * D.CARGO_PAYOUT[D.GOOD_INDEX[g]]
                for b, g in enumerate(view.cargo)
                if view.destinations[b] == "sea"
            )
            return loot / pirates * PIRATE_SHARE - cost
        if spot in ("pilot-small", "pilot-large"):
            if view.rolls == 2:
                return self.pilot_gain(view, fc, spot == "pilot-large") - cost
            # before the second roll the move cannot be foreseen: a small allowance
            return (1.0 if spot == "pilot-small" else 2.5) - cost
        return -cost

    def pilot_gain(self, view: ManilaView, fc: Forecast, large: bool) -> float:
        """Expected pesos a pilot adds to our stake by its best move before roll 3."""
        base = self.stake(view, fc, RIVAL)
        sailing = [b for b, d in enumerate(view.destinations) if d == "sea"]
        moves: list[list[tuple[int, int]]] = [[(b, d)] for b in sailing for d in (-1, 1)]
        if large:
            moves += [[(b, d)] for b in sailing for d in (-2, 2)]
            moves += [
                [(b, d), (c, e)]
                for i, b in enumerate(sailing)
                for c in sailing[i + 1 :]
                for d in (-1, 1)
                for e in (-1, 1)
            ]
        best = 0.0
        for move in moves:
            pos = list(view.positions)
            for b, d in move:
                pos[b] += d
            best = max(best, self.stake(view, Forecast(view, pos), RIVAL) - base)
        return PILOT_SHARE * best

    def hm_value(self, view: ManilaView) -> float:
        """What the harbour master's office is worth to us this voyage (pesos).

        The office's own worth is its control (cargo and starts for our shares, about
        2 pesos plus ``HM_CONTROL`` of our shares' rise values) plus ``HM_SHARE`` of
        the margin of the best share it lets us buy.  The bid never exceeds what
        leaves the price of that share in hand (plus ``HM_LATER`` pesos from voyage 2
        on, a gap a mortgage can fill).
        """
        cash = view.cash[view.seat]
        own = 2.0 + HM_CONTROL * sum(max(0.0, self.rise_value(view, g)) for g in D.GOODS)
        best = min(own, cash - 5.0)
        for good, left in view.supply.items():
            if left:
                price = max(D.MIN_SHARE_PRICE, view.prices[good])
                gain = self.final_value(view, good) - price
                if gain > 0:
                    best = max(best, min(own + HM_SHARE * self.buy_weight * gain, cash - price))
        return best + (HM_LATER if view.voyage > 1 else 0.0)

    # -------------------------------------------------------------- choosing

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Index into ``legal`` of the chosen action (see the module docstring)."""
        phase = view.phase
        if phase == "debt":
            return self._cheapest_mortgage(view, legal)
        if phase == "auction":
            return self._bid(view, legal)
        if phase == "buy":
            return self._buy(view, legal)
        if phase == "leave_out":
            return self._leave_out(view, legal)
        if phase == "launch":
            return self._launch(view, legal)
        if phase == "place":
            return self._place(view, legal)
        if phase == "board":
            return self._board(view, legal)
        if phase == "pilot":
            return self._pilot(view, legal)
        if phase == "deliver":
            return self._deliver(view, legal)
        return legal.index(Pass()) if Pass() in legal else 0

    def _cheapest_mortgage(self, view: ManilaView, legal: list[Any]) -> int:
        options = [
            (self.final_value(view, a.good), i)
            for i, a in enumerate(legal)
            if isinstance(a, Mortgage)
        ]
        return min(options)[1] if options else 0

    def _bid(self, view: ManilaView, legal: list[Any]) -> int:
        limit = self.hm_value(view) * (0.6 if self.cautious else 1.0)
        limit = min(limit, view.cash[view.seat])
        bids = [(a.amount, i) for i, a in enumerate(legal) if isinstance(a, Bid)]
        affordable = [(amount, i) for amount, i in bids if amount <= limit]
        if not affordable:
            return legal.index(Pass())
        # raise by a third of the headroom (at least 1): few bids, same final price
        low = min(affordable)[0]
        target = max(low, low - 1 + int((limit - low + 1) / 3))
        return min(affordable, key=lambda b: abs(b[0] - target))[1]

    def _buy(self, view: ManilaView, legal: list[Any]) -> int:
        """Buy the share with the best expected gain; any share whose final value is
        expected above its price is worth buying (no cash reserve: the office was
        bid for exactly this).  A share out of cash is bought on a mortgage when its
        gain beats the loans' cost (``LOAN_COST`` pesos each): the bot mortgages first
        and buys at its next decision."""
        cash = view.cash[view.seat]
        loans_left = sum(view.hand.values())
        best, choice = 0.0, ""
        for good, left in view.supply.items():
            if not left:
                continue
            price = max(D.MIN_SHARE_PRICE, view.prices[good])
            loans = max(0, -(-(price - cash) // D.MORTGAGE_LOAN))
            if loans > loans_left:
                continue
            gain = self.final_value(view, good) - price
            if gain > 0:
                gain += BUY_OWN * (view.hand[good] + view.mortgaged[good])
            gain -= LOAN_COST * loans
            if gain > best:
                best, choice = gain, good
        if not choice:
            return legal.index(Pass())
        if Buy(choice) in legal:
            return legal.index(Buy(choice))
        if any(isinstance(a, Mortgage) for a in legal):
            return self._cheapest_mortgage(view, legal)
        return legal.index(Pass())

    def _leave_out(self, view: ManilaView, legal: list[Any]) -> int:
        scores = [
            (self.rise_value(view, a.good), -D.GOOD_INDEX[a.good], i)
            for i, a in enumerate(legal)
            if isinstance(a, LeaveOut)
        ]
        return min(scores)[2]

    def _launch(self, view: ManilaView, legal: list[Any]) -> int:
        weights = [self.rise_value(view, g) + 1.0 for g in view.cargo]
        best, choice = -1e9, 0
        for i, a in enumerate(legal):
            if isinstance(a, Launch):
                value = 0.0
                for b, start in enumerate(a.starts):
                    past, on13, _short = boat_odds(start, 3)
                    value += weights[b] * (past + 0.7 * on13)
                if value > best:
                    best, choice = value, i
        return choice

    def _place(self, view: ManilaView, legal: list[Any]) -> int:
        fc = Forecast(view)
        costs = dict(self._spot_costs(view))
        best, choice = (1.0 if self.cautious else PASS_FLOOR[view.rolls]), legal.index(Pass())
        for i, a in enumerate(legal):
            if isinstance(a, Place):
                value = self.spot_value(view, fc, a.spot, costs.get(a.spot, 0))
                if value > best:
                    best, choice = value, i
        if choice == legal.index(Pass()):
            # a clearly better space that needs a loan (a mortgage costs 3 in the end)
            cash = view.cash[view.seat]
            for spot, cost in self._spot_costs(view):
                if cost > cash and cost <= cash + 12 and self.spot_value(view, fc, spot, cost) > 6:
                    mortgages = [i for i, a in enumerate(legal) if isinstance(a, Mortgage)]
                    if mortgages:
                        return self._cheapest_mortgage(view, legal)
        return choice

    @staticmethod
    def _spot_costs(view: ManilaView) -> list[tuple[str, int]]:
        """Cost of every currently free space (what the engine would charge)."""
        out = []
        for b, good in enumerate(view.cargo):
            taken = len(view.crews[b])
            costs = D.SEAT_COSTS[D.GOOD_INDEX[good]]
            if view.destinations[b] == "sea" and taken < len(costs):
                out.append((good, costs[taken]))
        for i, berth in enumerate(D.BERTHS):
            out.append((f"port-{berth}", D.OFFICE_COSTS[i]))
            out.append((f"shipyard-{berth}", D.OFFICE_COSTS[i]))
        out += [
            ("pirate", D.PIRATE_COST),
            ("pilot-small", D.SMALL_PILOT_COST),
            ("pilot-large", D.LARGE_PILOT_COST),
            ("insurance", 0),
        ]
        return out

    def _board(self, view: ManilaView, legal: list[Any]) -> int:
        fc = Forecast(view)
        stay = fc.plunder_value(len(view.pirates))
        best, choice = stay, legal.index(Pass())
        for i, a in enumerate(legal):
            if isinstance(a, Board):
                b = view.cargo.index(a.good)
                crew = len(view.crews[b]) + (1 if a.bump is None else 0)
                value = D.CARGO_PAYOUT[D.GOOD_INDEX[a.good]] / crew
                if value > best:
                    best, choice = value, i
        return choice

    def _pilot(self, view: ManilaView, legal: list[Any]) -> int:
        best, choice = self.stake(view, Forecast(view), RIVAL), legal.index(Pass())
        for i, a in enumerate(legal):
            if isinstance(a, Pilot):
                pos = list(view.positions)
                for good, delta in a.moves:
                    pos[view.cargo.index(good)] += delta
                value = self.stake(view, Forecast(view, pos), RIVAL)
                if value > best + 1e-9:
                    best, choice = value, i
        return choice

    def _deliver(self, view: ManilaView, legal: list[Any]) -> int:
        me = view.seat
        best, choice = -1e9, 0
        for i, a in enumerate(legal):
            if not isinstance(a, Deliver):
                continue
            if a.to == "port":
                berth = len(view.port_boats)
                value = self.rise_value(view, a.good)
                value += D.OFFICE_PAYOUTS[berth] if view.port[berth] == me else 0
            else:
                berth = len(view.shipyard_boats)
                value = D.OFFICE_PAYOUTS[berth] if view.shipyard[berth] == me else 0
                value -= D.OFFICE_PAYOUTS[berth] if view.insurance == me else 0
            if value > best:
                best, choice = value, i
        return choice


def main() -> None:
    """Run the bot on stdin/stdout."""
    run(ManilaBot(cautious="--cautious" in sys.argv))


if __name__ == "__main__":
    main()
