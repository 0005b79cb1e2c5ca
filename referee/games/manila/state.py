"""The Manila game state: auction, harbour master, placements, dice, pirates, profits.

Rule references (``§n``, ``Kn``) point at rules/manila.md; the seed is the Chinese
rulebook translation.  Money is in pesos throughout.
"""

from __future__ import annotations

import random
from typing import Any

from referee.api import native
from referee.api.engine import CHANCE, TERMINAL, IllegalAction, InvalidChance, State
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
    Redeem,
)
from referee.games.manila.options import ManilaOptions
from referee.games.manila.phases import (
    AUCTION,
    BOARD,
    BUY,
    DEAL,
    DEBT,
    DELIVER,
    LAUNCH,
    LEAVE_OUT,
    NGOODS,
    NOBODY,
    OVER,
    PHASE_NAMES,
    PILOT,
    PLACE,
    PORT,
    ROLL,
    SEA,
    YARD,
)
from referee.games.manila.view import ManilaView
from referee.games.manila.viewbuild import ViewMemo, build_view

# Shared immutable action objects (actions are frozen, so sharing is safe and fast).
PASS = Pass()
BIDS = tuple(Bid(amount) for amount in range(400))
BUYS = tuple(Buy(g) for g in D.GOODS)
LEAVE_OUTS = tuple(LeaveOut(g) for g in D.GOODS)
LAUNCHES = tuple(Launch(layout) for layout in D.LAUNCH_LAYOUTS)
PLACES = tuple(Place(name) for name in D.SPOT_NAMES)
MORTGAGES = tuple(Mortgage(g) for g in D.GOODS)
REDEEMS = tuple(Redeem(g) for g in D.GOODS)
DELIVERS = tuple((Deliver(g, "port"), Deliver(g, "shipyard")) for g in D.GOODS)


def _bid(amount: int) -> Bid:
    return BIDS[amount] if amount < len(BIDS) else Bid(amount)


# fmt: off
_FIELDS: tuple[str, ...] = (
    "_legal", "auc_out", "auc_turn", "board_left", "board_stays", "cargo", "cash", "crew",
    "debt", "debt_kind", "debtor", "dest", "held", "high", "high_bidder", "hm", "insurer",
    "just_boarded", "large_pilot", "last_roll", "left", "memo", "mort", "opener", "opts",
    "passed", "phase", "pilot_turn", "pirates", "place_turn", "plunder_pending",
    "plundered", "port_boats", "port_occ", "pos", "price", "rolls", "schedule", "seats",
    "small_pilot", "step", "supply", "voyage", "win_m", "win_r", "win_seat", "yard_boats",
    "yard_occ"
)
"""Every attribute of a :class:`ManilaState` (its ``__slots__``; :meth:`ManilaState.debug`
reads them from here, since a compiled class keeps no ``__slots__``)."""
# fmt: on


class ManilaState(State):
    """One Manila position (see the module docstring for the rules sources).

    Seats are 0-based; goods are indices into :data:`data.GOODS`; punts ("boats") are
    indices 0..2 into ``cargo`` for the current voyage.
    """

    __slots__ = _FIELDS

    def __init__(self, seats: int, options: ManilaOptions, *, _blank: bool = False) -> None:
        # _blank: no attribute set (clone() sets them all); a compiled class cannot be
        # made with object.__new__ (referee.api.native)
        if _blank:
            return
        n = seats
        self.seats = n
        self.opts = options
        self.schedule = D.SCHEDULES[n]
        self.phase = DEAL
        self.step = -1
        self.voyage = 0
        self.cash = [D.START_CASH] * n
        self.held = [[0] * NGOODS for _ in range(n)]
        self.mort = [[0] * NGOODS for _ in range(n)]
        self.supply = [D.SHARES_PER_GOOD] * NGOODS
        self.price = [0] * NGOODS
        self.left = [D.ACCOMPLICES[n]] * n
        self.passed = [False] * n
        self.hm = NOBODY
        self.opener = options.first_opener
        self.high = 0
        self.high_bidder = NOBODY
        self.auc_out = [False] * n
        self.auc_turn = options.first_opener
        self.cargo: list[int] = []
        self.pos: list[int] = []
        self.dest: list[int] = []
        self.crew: list[list[int]] = []
        self.plundered: list[bool] = []
        self.port_occ = [NOBODY] * 3
        self.yard_occ = [NOBODY] * 3
        self.port_boats: list[int] = []
        self.yard_boats: list[int] = []
        self.pirates: list[int] = []
        self.small_pilot = NOBODY
        self.large_pilot = NOBODY
        self.insurer = NOBODY
        self.place_turn = 0
        self.board_stays = 0
        self.board_left = 0
        self.just_boarded = (NOBODY, NOBODY)
        self.pilot_turn = 0
        self.plunder_pending: list[int] = []
        self.debtor = NOBODY
        self.debt = 0
        self.debt_kind = 0
        self.rolls = 0
        self.last_roll: dict[str, int] = {}
        self.win_seat = NOBODY
        self.win_m = [0] * NGOODS
        self.win_r = [0] * NGOODS
        self._legal: list[Any] | None = None
        self.memo = ViewMemo()  # the computed parts of the last view, shared by clones

    # ------------------------------------------------------------------ copying

    def __reduce__(self) -> tuple[Any, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not: the fields by name
        (a compiled class has no default for either)."""
        return native.reduce(self, (self.seats, self.opts), _FIELDS)

    def clone(self) -> ManilaState:
        """An independent copy (hand-written for speed)."""
        c = ManilaState(self.seats, self.opts, _blank=True)
        c.seats = self.seats
        c.opts = self.opts
        c.schedule = self.schedule
        c.phase = self.phase
        c.step = self.step
        c.voyage = self.voyage
        c.cash = self.cash[:]
        c.held = [row[:] for row in self.held]
        c.mort = [row[:] for row in self.mort]
        c.supply = self.supply[:]
        c.price = self.price[:]
        c.left = self.left[:]
        c.passed = self.passed[:]
        c.hm = self.hm
        c.opener = self.opener
        c.high = self.high
        c.high_bidder = self.high_bidder
        c.auc_out = self.auc_out[:]
        c.auc_turn = self.auc_turn
        c.cargo = self.cargo[:]
        c.pos = self.pos[:]
        c.dest = self.dest[:]
        c.crew = [row[:] for row in self.crew]
        c.plundered = self.plundered[:]
        c.port_occ = self.port_occ[:]
        c.yard_occ = self.yard_occ[:]
        c.port_boats = self.port_boats[:]
        c.yard_boats = self.yard_boats[:]
        c.pirates = self.pirates[:]
        c.small_pilot = self.small_pilot
        c.large_pilot = self.large_pilot
        c.insurer = self.insurer
        c.place_turn = self.place_turn
        c.board_stays = self.board_stays
        c.board_left = self.board_left
        c.just_boarded = self.just_boarded
        c.pilot_turn = self.pilot_turn
        c.plunder_pending = self.plunder_pending[:]
        c.debtor = self.debtor
        c.debt = self.debt
        c.debt_kind = self.debt_kind
        c.rolls = self.rolls
        c.last_roll = dict(self.last_roll)
        c.win_seat = self.win_seat
        c.win_m = self.win_m[:]
        c.win_r = self.win_r[:]
        c._legal = self._legal
        c.memo = self.memo
        return c

    # ------------------------------------------------------------- node kinds

    def to_move(self) -> int:
        """The seat to decide, :data:`CHANCE` (deal, dice) or :data:`TERMINAL`."""
        phase = self.phase
        if phase == PLACE:
            return (self.hm + self.place_turn) % self.seats
        if phase == AUCTION:
            return self.auc_turn
        if phase in (BUY, LEAVE_OUT, LAUNCH):
            return self.hm
        if phase in (DEAL, ROLL):
            return CHANCE
        if phase == OVER:
            return TERMINAL
        if phase == DEBT:
            return self.debtor
        if phase == BOARD:
            return self.pirates[self.board_stays]
        if phase == PILOT:
            return self.small_pilot if self.pilot_turn == 0 else self.large_pilot
        return self.pirates[0]  # DELIVER: the pirate captain

    # ---------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Any]:
        """Legal actions of the seat to move: the phase's own actions, then
        ``mortgage``/``redeem`` for that seat.  Raises :class:`IllegalAction` at a
        chance or terminal node."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[Any]:
        phase = self.phase
        if phase in (DEAL, ROLL, OVER):
            raise IllegalAction(f"no decision is due (phase {PHASE_NAMES[phase]})")
        seat = self.to_move()
        if phase == DEBT:
            held = self.held[seat]
            return [MORTGAGES[g] for g in range(NGOODS) if held[g]]
        if phase == PLACE:
            spots, _blind = self.place_options(seat)
            acts: list[Any] = [PASS]
            acts.extend(map(PLACES.__getitem__, spots))
        elif phase == AUCTION:
            acts = [PASS]
            ceiling = self.cash[seat] + D.MORTGAGE_LOAN * sum(self.held[seat])
            if ceiling > self.high:
                if ceiling < len(BIDS):
                    acts.extend(BIDS[self.high + 1 : ceiling + 1])
                else:
                    acts.extend(_bid(a) for a in range(self.high + 1, ceiling + 1))
        elif phase == BUY:
            acts = [PASS]
            cash = self.cash[seat]
            for g in range(NGOODS):
                if self.supply[g] and cash >= self.share_price(g):
                    acts.append(BUYS[g])
        elif phase == LEAVE_OUT:
            acts = list(LEAVE_OUTS)
        elif phase == LAUNCH:
            acts = list(LAUNCHES)
        elif phase == BOARD:
            acts = [PASS]
            acts.extend(self.board_options())
        elif phase == PILOT:
            acts = [PASS]
            acts.extend(self.pilot_options())
        else:  # DELIVER
            acts = list(DELIVERS[self.cargo[self.plunder_pending[0]]])
        self._finance(seat, acts)
        return acts

    def _finance(self, seat: int, acts: list[Any]) -> None:
        """Append the seat's voluntary mortgage and redemption actions (§4, lead's rule:
        no undoing within the same decision window)."""
        in_window = self.win_seat == seat
        held = self.held[seat]
        for g in range(NGOODS):
            if held[g] and not (in_window and self.win_r[g]):
                acts.append(MORTGAGES[g])
        if self.cash[seat] >= D.REDEEM_COST:
            mort = self.mort[seat]
            for g in range(NGOODS):
                if mort[g] and not (in_window and self.win_m[g]):
                    acts.append(REDEEMS[g])

    def share_price(self, good: int) -> int:
        """Price the harbour master pays for a share: max(5, market value) (§6.2a)."""
        return max(D.MIN_SHARE_PRICE, D.PRICE_TRACK[self.price[good]])

    def ceiling(self, seat: int) -> int:
        """Highest bid ``seat`` may make: cash + 12 per unmortgaged share (seed §A)."""
        return self.cash[seat] + D.MORTGAGE_LOAN * sum(self.held[seat])

    def free_spots(self) -> list[tuple[int, int]]:
        """``(spot, cost)`` of every empty placement space, in spot order (§1-§3, K2)."""
        out: list[tuple[int, int]] = []
        cargo = self.cargo
        dest = self.dest
        crew = self.crew
        plundered = self.plundered
        for b in range(len(cargo)):  # cargo is in good order, like the spots
            if dest[b] == SEA and not plundered[b]:
                costs = D.SEAT_COSTS[cargo[b]]
                taken = len(crew[b])
                if taken < len(costs):
                    out.append((cargo[b], costs[taken]))
        filled_ok = self.opts.place_on_filled_berth
        port_n = len(self.port_boats)
        yard_n = len(self.yard_boats)
        for i in range(3):
            if self.port_occ[i] == NOBODY and (filled_ok or port_n <= i):
                out.append((D.PORT_SPOTS[i], D.OFFICE_COSTS[i]))
        for i in range(3):
            if self.yard_occ[i] == NOBODY and (filled_ok or yard_n <= i):
                out.append((D.YARD_SPOTS[i], D.OFFICE_COSTS[i]))
        if len(self.pirates) < 2:
            out.append((D.PIRATE_SPOT, D.PIRATE_COST))
        if self.small_pilot == NOBODY:
            out.append((D.SMALL_PILOT_SPOT, D.SMALL_PILOT_COST))
        if self.large_pilot == NOBODY:
            out.append((D.LARGE_PILOT_SPOT, D.LARGE_PILOT_COST))
        if self.insurer == NOBODY:
            out.append((D.INSURANCE_SPOT, 0))
        return out

    def place_options(self, seat: int) -> tuple[list[int], bool]:
        """Spots ``seat`` may place on now, and whether it places as a blind passenger.

        A seat whose cash plus loan capacity cannot pay the cheapest free space
        (insurance left out, K12) may place anywhere but the insurance for free (§8).
        """
        free = self.free_spots()
        cash = self.cash[seat]
        # one pass: the spots paid from cash, and the cheapest space that counts
        skip = -1 if self.opts.blind_counts_insurance else D.INSURANCE_SPOT
        cheapest = None
        affordable = []
        for s, c in free:
            if c <= cash:
                affordable.append(s)
            if s != skip and (cheapest is None or c < cheapest):
                cheapest = c
        if (
            cheapest is not None
            and cash < cheapest
            and cash + D.MORTGAGE_LOAN * sum(self.held[seat]) < cheapest
        ):
            return [s for s, _c in free], True
        return affordable, False

    def boardable(self) -> list[int]:
        """Punts on space 13 still at sea with an empty crew seat (§7)."""
        return [
            b
            for b in range(len(self.cargo))
            if self.dest[b] == SEA
            and self.pos[b] == D.HARBOUR_LENGTH
            and len(self.crew[b]) < len(D.SEAT_COSTS[self.cargo[b]])
        ]

    def board_options(self) -> list[Board]:
        """Boarding choices of the deciding pirate (§7; displacement variant optional)."""
        open_boats = self.boardable()
        if open_boats:
            return [Board(D.GOODS[self.cargo[b]]) for b in open_boats]
        if not self.opts.pirate_displacement:
            return []
        out = []
        for b in range(len(self.cargo)):
            if self.dest[b] == SEA and self.pos[b] == D.HARBOUR_LENGTH:
                for k in range(len(self.crew[b])):
                    if (b, k) != self.just_boarded:
                        out.append(Board(D.GOODS[self.cargo[b]], k))
        return out

    def pilot_options(self) -> list[Pilot]:
        """Moves of the deciding pilot over the punts still at sea (§3, K13)."""
        sailing = [b for b in range(len(self.cargo)) if self.dest[b] == SEA]
        deltas = (1, -1) if self.pilot_turn == 0 else (1, -1, 2, -2)
        out = []
        for b in sailing:
            g = D.GOODS[self.cargo[b]]
            for d in deltas:
                if self.pos[b] + d >= 0:
                    out.append(Pilot(((g, d),)))
        if self.pilot_turn == 1:
            for i, b1 in enumerate(sailing):
                for b2 in sailing[i + 1 :]:
                    g1, g2 = D.GOODS[self.cargo[b1]], D.GOODS[self.cargo[b2]]
                    for d1 in (1, -1):
                        for d2 in (1, -1):
                            if self.pos[b1] + d1 >= 0 and self.pos[b2] + d2 >= 0:
                                out.append(Pilot(((g1, d1), (g2, d2))))
        return out

    # --------------------------------------------------------------- actions

    def apply_action(self, action: Any) -> None:
        """Apply a legal action of the seat to move; :class:`IllegalAction` otherwise
        (the state is then unchanged)."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"{action!r} is not legal here")
        seat = self.to_move()
        phase_before = self.phase
        self._legal = None
        cls = type(action)
        if cls is Mortgage or cls is Redeem:
            g = D.GOOD_INDEX[action.good]
            if self.win_seat != seat:
                self.win_seat = seat
                self.win_m = [0] * NGOODS
                self.win_r = [0] * NGOODS
            if cls is Mortgage:
                self.held[seat][g] -= 1
                self.mort[seat][g] += 1
                self.cash[seat] += D.MORTGAGE_LOAN
                self.win_m[g] += 1
                if self.phase == DEBT:
                    self._settle_debt()
            else:
                self.held[seat][g] += 1
                self.mort[seat][g] -= 1
                self.cash[seat] -= D.REDEEM_COST
                self.win_r[g] += 1
            if self.phase != phase_before or self.to_move() != seat:
                self._close_window()
            return
        self._close_window()
        phase = self.phase
        if phase == PLACE:
            self._apply_place(seat, action)
        elif phase == AUCTION:
            if cls is Bid:
                self.high = action.amount
                self.high_bidder = seat
            else:
                self.auc_out[seat] = True
            self._auction_next()
        elif phase == BUY:
            if cls is Buy:
                g = D.GOOD_INDEX[action.good]
                self.cash[seat] -= self.share_price(g)
                self.supply[g] -= 1
                self.held[seat][g] += 1
            self.phase = LEAVE_OUT
        elif phase == LEAVE_OUT:
            out = D.GOOD_INDEX[action.good]
            self.cargo = [g for g in range(NGOODS) if g != out]
            self.phase = LAUNCH
        elif phase == LAUNCH:
            self.pos = list(action.starts)
            self.dest = [SEA, SEA, SEA]
            self.crew = [[], [], []]
            self.plundered = [False, False, False]
            self.step = -1
            self._next_step()
        elif phase == BOARD:
            self._apply_board(action)
        elif phase == PILOT:
            if cls is Pilot:
                for good, delta in action.moves:
                    b = self.cargo.index(D.GOOD_INDEX[good])
                    self.pos[b] += delta
                    if self.pos[b] > D.HARBOUR_LENGTH:
                        self._dock(b, PORT)
            self.pilot_turn += 1
            if self.pilot_turn == 1 and self.large_pilot != NOBODY and SEA in self.dest:
                return
            self._next_step()
        else:  # DELIVER
            to = PORT if action.to == "port" else YARD
            todo = self.plunder_pending if not self.opts.plunder_choice_per_punt else None
            first = self.plunder_pending.pop(0)
            self._dock(first, to)
            if todo is not None:
                for b in todo:
                    self._dock(b, to)
                self.plunder_pending = []
            if not self.plunder_pending:
                self._next_step()

    def _close_window(self) -> None:
        if self.win_seat != NOBODY:
            self.win_seat = NOBODY
            self.win_m = [0] * NGOODS
            self.win_r = [0] * NGOODS

    def _dock(self, boat: int, where: int) -> None:
        """Move a punt into the next free berth of the port or the shipyard."""
        self.dest[boat] = where
        (self.port_boats if where == PORT else self.yard_boats).append(boat)

    # -- auction (§6.1, K5)

    def _auction_next(self) -> None:
        n = self.seats
        remaining = [s for s in range(n) if not self.auc_out[s]]
        if not remaining:
            self._auction_end(NOBODY)
            return
        if len(remaining) == 1 and remaining[0] == self.high_bidder:
            self._auction_end(self.high_bidder)
            return
        s = self.auc_turn
        while True:
            s = (s + 1) % n
            if not self.auc_out[s]:
                break
        self.auc_turn = s

    def _auction_end(self, winner: int) -> None:
        if winner == NOBODY:
            # Nobody bid: the previous harbour master (voyage 1: the opener) keeps it free.
            self.hm = self.opener
            self.phase = BUY
            return
        self.hm = winner
        self.debtor = winner
        self.debt = self.high
        self.debt_kind = 0
        self._settle_debt()

    def _settle_debt(self) -> None:
        """Pay the pending debt if the debtor's cash covers it, or if nothing is left to
        mortgage (insurance only: the bank covers the rest, §3); else ask for mortgages."""
        s = self.debtor
        if self.cash[s] >= self.debt:
            self.cash[s] -= self.debt
        elif not any(self.held[s]):
            self.cash[s] = 0
        else:
            self.phase = DEBT
            return
        self.debt = 0
        self.debtor = NOBODY
        if self.debt_kind == 0:
            self.phase = BUY
        else:
            self._finish_voyage()

    # -- placement (§6.3, §8)

    def _apply_place(self, seat: int, action: Any) -> None:
        if type(action) is Pass:
            self.passed[seat] = True
        else:
            spot = D.SPOT_INDEX[action.spot]
            cost = self._spot_cost(spot)
            if cost > self.cash[seat]:  # only a blind passenger gets here (§8)
                cost = self.cash[seat]
            self.cash[seat] -= cost
            self.left[seat] -= 1
            if spot < NGOODS:
                self.crew[self.cargo.index(spot)].append(seat)
            elif spot in D.PORT_SPOTS:
                self.port_occ[spot - D.PORT_SPOTS[0]] = seat
            elif spot in D.YARD_SPOTS:
                self.yard_occ[spot - D.YARD_SPOTS[0]] = seat
            elif spot == D.PIRATE_SPOT:
                self.pirates.append(seat)
            elif spot == D.SMALL_PILOT_SPOT:
                self.small_pilot = seat
            elif spot == D.LARGE_PILOT_SPOT:
                self.large_pilot = seat
            else:
                self.insurer = seat
                self.cash[seat] += D.INSURANCE_PREMIUM
        self.place_turn += 1
        self._seek_placer()

    def _spot_cost(self, spot: int) -> int:
        """Cost of a free spot (pesos)."""
        if spot < NGOODS:
            b = self.cargo.index(spot)
            return D.SEAT_COSTS[spot][len(self.crew[b])]
        if spot in D.PORT_SPOTS:
            return D.OFFICE_COSTS[spot - D.PORT_SPOTS[0]]
        if spot in D.YARD_SPOTS:
            return D.OFFICE_COSTS[spot - D.YARD_SPOTS[0]]
        return {
            D.PIRATE_SPOT: D.PIRATE_COST,
            D.SMALL_PILOT_SPOT: D.SMALL_PILOT_COST,
            D.LARGE_PILOT_SPOT: D.LARGE_PILOT_COST,
        }.get(spot, 0)

    def _seek_placer(self) -> None:
        """Advance ``place_turn`` to the next seat that still places, or end the round."""
        n = self.seats
        while self.place_turn < n:
            s = (self.hm + self.place_turn) % n
            if self.left[s] > 0 and not self.passed[s]:
                self.phase = PLACE
                return
            self.place_turn += 1
        self._next_step()

    # -- pirates (§7)

    def _apply_board(self, action: Any) -> None:
        if type(action) is Pass:
            self.board_stays += 1
        else:
            pirate = self.pirates.pop(self.board_stays)
            b = self.cargo.index(D.GOOD_INDEX[action.good])
            crew = self.crew[b]
            if action.bump is None:
                crew.append(pirate)
                self.just_boarded = (b, len(crew) - 1)
            else:
                self.left[crew[action.bump]] += 1
                crew[action.bump] = pirate
                self.just_boarded = (b, action.bump)
        self.board_left -= 1
        if self.board_left == 0 or not self.board_options():
            self.just_boarded = (NOBODY, NOBODY)
            self._next_step()

    # -- voyage pacing

    def _next_step(self) -> None:
        """Move on to the next step of the voyage that needs a decision or a roll."""
        schedule = self.schedule
        while True:
            self.step += 1
            kind = schedule[self.step]
            if kind == D.PLACE:
                self.place_turn = 0
                if not self.opts.pass_is_final:
                    self.passed = [False] * self.seats
                n = self.seats
                while self.place_turn < n:
                    s = (self.hm + self.place_turn) % n
                    if self.left[s] > 0 and not self.passed[s]:
                        self.phase = PLACE
                        return
                    self.place_turn += 1
            elif kind == D.ROLL:
                if SEA in self.dest:
                    self.phase = ROLL
                    return
                self.rolls += 1
            elif kind == D.BOARD:
                if self.pirates and self.board_options():
                    self.board_stays = 0
                    self.board_left = len(self.pirates)
                    self.just_boarded = (NOBODY, NOBODY)
                    self.phase = BOARD
                    return
            elif kind == D.PILOTS:
                if SEA in self.dest:
                    if self.small_pilot != NOBODY:
                        self.pilot_turn = 0
                        self.phase = PILOT
                        return
                    if self.large_pilot != NOBODY:
                        self.pilot_turn = 1
                        self.phase = PILOT
                        return
            else:
                self._settle()
                return

    # -- chance

    def sample_chance(self, rng: random.Random) -> Any:
        """Deal: ``[[good, good], ...]`` one hand per seat; roll: ``{good: 1..6}`` for
        every punt still at sea.  Raises :class:`InvalidChance` elsewhere."""
        if self.phase == ROLL:
            rand = rng.random
            return {
                D.GOODS[self.cargo[b]]: int(rand() * 6) + 1 for b in range(3) if self.dest[b] == SEA
            }
        if self.phase == DEAL:
            pool = [g for g in D.GOODS for _ in range(D.DEALT_PER_GOOD)]
            rng.shuffle(pool)
            return [pool[2 * s : 2 * s + 2] for s in range(self.seats)]
        raise InvalidChance("not at a chance node")

    def apply_chance(self, outcome: Any) -> None:
        """Apply a deal or a roll (see :meth:`sample_chance` for the shapes).

        Raises :class:`InvalidChance` for a malformed or impossible outcome."""
        if self.phase == ROLL:
            self._apply_roll(outcome)
        elif self.phase == DEAL:
            self._apply_deal(outcome)
        else:
            raise InvalidChance("not at a chance node")
        self._legal = None

    def _apply_deal(self, outcome: Any) -> None:
        n = self.seats
        if not isinstance(outcome, list) or len(outcome) != n:
            raise InvalidChance(f"a deal is a list of {n} hands")
        dealt = [0] * NGOODS
        for hand in outcome:
            if not isinstance(hand, list) or len(hand) != D.HAND_SIZE:
                raise InvalidChance("each hand is a list of 2 goods")
            for g in hand:
                if g not in D.GOOD_INDEX:
                    raise InvalidChance(f"unknown good {g!r}")
                dealt[D.GOOD_INDEX[g]] += 1
        if max(dealt) > D.DEALT_PER_GOOD:
            raise InvalidChance("at most 3 shares of a good are dealt")
        for s, hand in enumerate(outcome):
            for g in hand:
                self.held[s][D.GOOD_INDEX[g]] += 1
        self.supply = [D.SHARES_PER_GOOD - d for d in dealt]
        self.phase = AUCTION
        self.voyage = 1

    def _apply_roll(self, outcome: Any) -> None:
        sailing = [b for b in range(3) if self.dest[b] == SEA]
        if not isinstance(outcome, dict) or len(outcome) != len(sailing):
            raise InvalidChance("a roll maps every sailing good to a die 1..6")
        for b in sailing:
            die = outcome.get(D.GOODS[self.cargo[b]])
            if type(die) is not int or not 1 <= die <= 6:
                raise InvalidChance(f"bad die for {D.GOODS[self.cargo[b]]}: {die!r}")
        self.last_roll = dict(outcome)
        for b in sailing:
            self.pos[b] += outcome[D.GOODS[self.cargo[b]]]
            if self.pos[b] > D.HARBOUR_LENGTH:
                self._dock(b, PORT)
        self.rolls += 1
        if self.rolls < 3:
            self._next_step()
            return
        # Roll 3 (§6.9): punts on 13 are plundered if pirates wait, else enter port;
        # punts short of 13 go to the shipyard.
        pending = []
        for b in range(3):
            if self.dest[b] != SEA:
                continue
            if self.pos[b] == D.HARBOUR_LENGTH:
                if self.pirates:
                    pending.append(b)
                else:
                    self._dock(b, PORT)
        for b in range(3):
            if self.dest[b] == SEA and b not in pending:
                self._dock(b, YARD)
        if pending:
            share_each = 0
            for b in pending:
                share_each += D.CARGO_PAYOUT[self.cargo[b]] // len(self.pirates)
                for s in self.crew[b]:
                    self.left[s] += 1
                self.crew[b] = []
                self.plundered[b] = True
            for p in self.pirates:
                self.cash[p] += share_each
            self.plunder_pending = pending
            self.phase = DELIVER
            return
        self._next_step()

    # -- profits (§6.10) and end (§4, §9)

    def _settle(self) -> None:
        cash = self.cash
        for b in range(3):
            crew = self.crew[b]
            if self.dest[b] == PORT and crew and not self.plundered[b]:
                share = D.CARGO_PAYOUT[self.cargo[b]] // len(crew)
                for s in crew:
                    cash[s] += share
        port_n = len(self.port_boats)
        yard_n = len(self.yard_boats)
        for i in range(3):
            if self.port_occ[i] != NOBODY and port_n > i:
                cash[self.port_occ[i]] += D.OFFICE_PAYOUTS[i]
        claims = sum(D.OFFICE_PAYOUTS[:yard_n])
        for i in range(yard_n):
            if self.yard_occ[i] != NOBODY:
                cash[self.yard_occ[i]] += D.OFFICE_PAYOUTS[i]
        if self.insurer != NOBODY and claims:
            self.debtor = self.insurer
            self.debt = claims
            self.debt_kind = 1
            self._settle_debt()
        else:
            self._finish_voyage()

    def _finish_voyage(self) -> None:
        for b in range(3):
            if self.dest[b] == PORT:
                g = self.cargo[b]
                self.price[g] = min(self.price[g] + 1, D.END_PRICE_STEP)
        if D.END_PRICE_STEP in self.price:
            self.phase = OVER
            return
        n = self.seats
        self.voyage += 1
        self.opener = self.hm
        self.auc_turn = self.hm
        self.auc_out = [False] * n
        self.high = 0
        self.high_bidder = NOBODY
        self.left = [D.ACCOMPLICES[n]] * n
        self.passed = [False] * n
        self.cargo = []
        self.pos = []
        self.dest = []
        self.crew = []
        self.plundered = []
        self.port_occ = [NOBODY] * 3
        self.yard_occ = [NOBODY] * 3
        self.port_boats = []
        self.yard_boats = []
        self.pirates = []
        self.small_pilot = self.large_pilot = self.insurer = NOBODY
        self.step = -1
        self.rolls = 0
        self.last_roll = {}
        self.phase = AUCTION

    def scores(self) -> list[float]:
        """Cash + shares at market value - 15 per mortgaged share (§9, K1)."""
        keep = self.opts.mortgaged_share_keeps_value
        out: list[float] = []
        for s in range(self.seats):
            total = self.cash[s]
            for g in range(NGOODS):
                value = D.PRICE_TRACK[self.price[g]]
                counted = self.held[s][g] + (self.mort[s][g] if keep else 0)
                total += counted * value - D.REDEEM_COST * self.mort[s][g]
            out.append(float(total))
        return out

    # ------------------------------------------------------------- information

    def observe_action(self, seat: int, action: Any, viewer: int) -> Any | None:
        """Other viewers see that a share was mortgaged or redeemed, not which good."""
        if viewer != seat and type(action) in (Mortgage, Redeem):
            return {"kind": "mortgage" if type(action) is Mortgage else "redeem"}
        return action

    def observe_chance(self, outcome: Any, viewer: int) -> Any | None:
        """The deal shows each viewer only its own hand (others as ``None``)."""
        if self.phase == DEAL and isinstance(outcome, list):
            return [hand if s == viewer else None for s, hand in enumerate(outcome)]
        return outcome

    def view(self, seat: int) -> ManilaView:
        """The public board plus ``seat``'s own shares (see :class:`ManilaView`)."""
        return build_view(self, seat)

    def debug(self) -> Any:
        """Every field, secrets included, as JSON-able data."""
        return {
            name: (list(v) if isinstance(v, tuple) else v)
            for name in _FIELDS
            if name not in ("_legal", "memo", "opts", "schedule")
            for v in [getattr(self, name)]
        } | {"options": {f: getattr(self.opts, f) for f in self.opts.__struct_fields__}}
