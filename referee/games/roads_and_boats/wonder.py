"""Roads & Boats wonder phase and the wonder's points (rulebook p15, p19)."""

from __future__ import annotations

from typing import Any

from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import GOOD_INDEX, GOOD_NAMES, StateBase


@trait
class WonderRules(StateBase):
    """The wonder phase (buying bricks at home) and the points of the wonder's rows."""

    def brick_price(self) -> int:
        """Goods for the next brick of the seat acting: its ordinal this turn, +1 once
        the first four rows (17 bricks) stand (p15, §0 item 4)."""
        return self.bricks_now + 1 + (1 if len(self.wonder) >= D.PRICE_STEP_AT else 0)

    def _wonder_actions(self, seat: int) -> list[Any]:
        home = self.homes[seat]
        own = self._own_at(seat, home)
        counts = self.pool(home, own) if own else [0] * D.NUM_GOODS
        if self.paying:
            return [A.Pay(GOOD_NAMES[g]) for g in range(D.NUM_GOODS) if counts[g]]
        out: list[Any] = []
        if own and sum(counts) >= self.brick_price() and len(self.wonder) < D.WONDER_SLOTS:
            out.append(A.BRICK)
        out.append(A.DONE)
        return out

    def _do_brick(self, seat: int, action: A.Brick) -> None:
        self.paying = self.brick_price()

    def _do_pay(self, seat: int, action: A.Pay) -> None:
        home = self.homes[seat]
        self._take(home, self._own_at(seat, home), GOOD_INDEX[action.good], 1)
        self.paying -= 1
        if not self.paying:
            self.wonder.append(seat)
            self.bricks_now += 1
            if self._wonder_done():
                self.step = "over"

    def wonder_rows(self) -> list[list[int]]:
        """Brick owners row by row, bottom row first (only rows with a brick)."""
        rows, i = [], 0
        for size in D.WONDER_ROWS:
            if i >= len(self.wonder):
                break
            rows.append(self.wonder[i : i + size])
            i += size
        return rows

    def wonder_points(self) -> list[int]:
        """Wonder points by seat: each row gives 10 split by player bricks, rounded
        down; neutral bricks are ignored (p19)."""
        points = [0] * self.seats
        for row in self.wonder_rows():
            mine = [row.count(s) for s in range(self.seats)]
            total = sum(mine)
            for s in range(self.seats):
                points[s] += D.row_share(mine[s], total)
        return points
