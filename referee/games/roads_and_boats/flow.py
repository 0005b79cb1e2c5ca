"""Roads & Boats turn flow: who decides, the steps from phase to phase, the temple.

Setup ends with every player choosing a home (rulebook p6); each turn then runs the
production, movement, building and wonder phases, in which the players act one after
another in sequence-chart order (§0 item 16).  With option ``temple`` each phase may
first go through the temple procedure: request, pray, position (§11).
"""

from __future__ import annotations

from referee.api.engine import CHANCE, TERMINAL, IllegalAction
from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import StateBase
from referee.games.roads_and_boats.phases import BUILDING, MOVEMENT, PRODUCTION, WONDER


@trait
class TurnFlow(StateBase):
    """Whose decision it is, and the steps from one phase to the next (p6, §11)."""

    def order(self) -> list[int]:
        """Seats in the order they decide during the current step."""
        if self.step == "pray":
            return self.temple[:-1]
        if self.step == "position":
            return self._new_temple()[::-1]
        return self.sequence

    def to_move(self) -> int:
        """The seat to decide, CHANCE (setup order, mine draws) or TERMINAL.  In the
        ``consent`` step it is the owner of the transporter named by the pending offer."""
        step = self.step
        if step == "act" or step == "request":  # the most frequent steps
            return self.sequence[self.actor]
        if step == "pray":  # order() without the copies
            return self.temple[self.actor]
        if step == "position":
            if not self.cashed:  # the temple order stands: _new_temple() without the copy
                return self.temple[-1 - self.actor]
            return self._positioning(self.actor)
        if step == "over":
            return TERMINAL
        if step in ("map", "setup", "draw", "deal", "rivers"):
            return CHANCE
        if step == "consent":
            assert self.offer is not None
            return self.trans[self.offer.transporter].owner
        return self.order()[self.actor]

    def _seat(self) -> int:
        seat = self.to_move()
        if seat < 0:
            raise IllegalAction("no seat is to move")
        return seat

    def _begin_turn(self) -> None:
        self.turn += 1
        self._begin_stage(PRODUCTION)

    def _begin_stage(self, stage: int) -> None:
        self.stage = stage
        if stage == PRODUCTION:
            for b in self.buildings.values():
                b[3] = 0
            self._breed()
            self._primary()
            self.draws = sorted(h for h, bag in self.bags.items() if bag[0] + bag[1] > 0)
            if self.draws and self.seats == 1:
                for h in self.draws:  # solo: the majority type, gold on a tie (§13)
                    gold, iron = self.bags[h]
                    self._mine_yield(h, gold >= iron)
                self.draws = []
            if self.draws:
                self.step = "draw"
                return
        self._begin_order()

    def _begin_order(self) -> None:
        self.requested = False
        self.cashed = []
        self.slots = []
        self.actor = 0
        if self.options.temple and self.seats > 1:
            self.step = "request"
        else:
            self._begin_acting()

    def _begin_acting(self) -> None:
        self.step = "act"
        self.actor = 0
        self.bricks_now = 0
        self.paying = 0
        self.active = -1
        self.fresh = [0] * self.seats

    def _advance(self) -> None:
        """The current decider is finished with the current step."""
        self.actor += 1
        self.refused = []
        step = self.step
        # len(self.order()) without building it: the new temple order has every seat
        deciders = len(self.temple) - 1 if step == "pray" else len(self.sequence)
        if step == "position":
            deciders = len(self.temple)
        if self.actor < deciders:
            if self.step == "act" and self.stage == WONDER:
                self.bricks_now = 0
            return
        if step == "homes":
            self._begin_turn()
        elif step == "request":
            if self.requested:
                self.step, self.actor = "pray", 0
            else:
                self._begin_acting()
        elif step == "pray":
            self.step, self.actor = "position", 0
            self.slots = [0] * self.seats
        elif step == "position":
            self.temple = self._new_temple()
            self.sequence = sorted(range(self.seats), key=self.slots.__getitem__)
            self.cashed, self.slots = [], []
            self._begin_acting()
        else:
            self._end_stage()

    def _positioning(self, k: int) -> int:
        """``_new_temple()[-1 - k]`` without building it: the ``k``-th seat to take a
        slot (cashers in temple order, then the others in reverse temple order)."""
        temple, cashed = self.temple, self.cashed
        for s in temple:
            if s in cashed:
                if not k:
                    return s
                k -= 1
        for s in reversed(temple):
            if s not in cashed:
                if not k:
                    return s
                k -= 1
        raise IndexError(k)

    def _new_temple(self) -> list[int]:
        """Temple order after step 1: non-cashers keep their order, cashers follow in
        reverse of their original order (§11)."""
        cashed = self.cashed
        if not cashed:
            return self.temple[:]
        stay = [s for s in self.temple if s not in cashed]
        return stay + [s for s in self.temple[::-1] if s in cashed]

    def _end_stage(self) -> None:
        stage = self.stage
        if stage == PRODUCTION:
            self._auto_process()
            self._clear_moved()  # the marks of goods taken in production
            self.breeders = []
            self._begin_stage(MOVEMENT)
        elif stage == MOVEMENT:
            self._clear_moved()
            self._begin_stage(BUILDING)
        elif stage == BUILDING:
            self._return_loans()
            self._begin_stage(WONDER)
        else:
            if self.neutral_left > 0:
                self.wonder.append(-1)
                self.neutral_left -= 1
            solo_over = self.seats == 1 and self.turn >= self.options.solo_turns
            if self._wonder_done() or self.neutral_left == 0 or solo_over:
                self.step = "over"
            else:
                self._begin_turn()

    def _return_loans(self) -> None:
        """End of the building phase: every good lent for building that no building used
        goes back onto its lender's transporter (seed p13: with its owner's permission a
        good may be used as building material, no more).  Lent goods are marked
        :data:`data.LENT` where they lie; payments take the newest loose goods first, so
        a lent good is used before goods that lay there already, and goods being alike,
        the earliest loans get back what is left."""
        if not self.loans:
            return
        piles = self.piles
        for place, good, lender in self.loans:
            root = self.root[place]
            pile = piles.get(root)
            t = self.trans.get(lender)
            if not pile or t is None:
                continue
            for i in range(len(pile) - 1, -1, -1):
                if pile[i] == good | D.LENT:
                    pile.pop(i)
                    t.cargo = (*t.cargo, good)
                    break
            if not pile:
                del piles[root]
        self.loans = []
        for p, pile in piles.items():  # defensive: no mark outlives the phase
            if pile and max(pile) >= D.LENT:
                piles[p] = [g & ~D.LENT for g in pile]

    def _wonder_done(self) -> bool:
        return len(self.wonder) >= D.END_MARK[self.seats]

    def _home_places(self) -> list[int]:
        """Land areas with at least one side, not on or next to another home (p6)."""
        w = self.world
        taken = [w.place_hex[p] for p in self.homes if p >= 0]
        out: list[int] = []
        for h in w.land_hexes():
            if any(h == t or w.adjacent(h, t) for t in taken):
                continue
            out.extend(a for a in w.areas[h] if w.area_sides[a])
        return out

    def _do_home(self, seat: int, action: A.Home) -> None:
        self.homes[seat] = action.place
        for _ in range(D.START_DONKEYS):
            self._new_transporter(seat, D.DONKEY, action.place)
        for good, n in D.START_GOODS:
            for _ in range(n):
                self._drop(action.place, good)
        self._advance()

    def _do_request_order(self, seat: int, action: A.RequestOrder | A.NoRequest) -> None:
        self.requested |= isinstance(action, A.RequestOrder)
        self._advance()

    def _do_pray(self, seat: int, action: A.Pray | A.CashIn) -> None:
        if isinstance(action, A.CashIn):
            self.cashed.append(seat)
        self._advance()

    def _do_position(self, seat: int, action: A.Position) -> None:
        self.slots[seat] = action.slot
        self._advance()

    def _do_done(self, seat: int, action: A.Done) -> None:
        self._advance()
