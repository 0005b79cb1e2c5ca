"""What a seat may choose in each role's phase: the option lists behind the state's
``legal_actions``, with the builder's costs, the captain's ship targets and the
warehouses' capacity.

:class:`Choices` is a base class of the state (a mypyc trait where the engine is
compiled, :mod:`referee.api.native`); it reads the state's attributes only.
"""

from __future__ import annotations

from typing import Any, Final

from referee.api.native import trait
from referee.games.puerto_rico import actions as A
from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import (
    BUILDINGS,
    CITY_SPACES,
    CONSTRUCTION_HUT,
    HACIENDA,
    ISLAND_SPACES,
    LARGE_WAREHOUSE,
    OFFICE,
    QUARRY,
    SMALL_WAREHOUSE,
    TRADING_HOUSE_SIZE,
    WHARF,
)
from referee.games.puerto_rico.options import PuertoRicoOptions

CIRCLES: Final = tuple(b.circles for b in BUILDINGS)
"""Colonist circles by building index."""

_BUILD_TERMS: Final = tuple(
    (b.cost, b.column, 2 if b.large else 1, A.BUILD_ACTIONS[i]) for i, b in enumerate(BUILDINGS)
)
"""``(cost, quarry column, city spaces, Build action)`` by building index, for the
builder's options."""

_MAX_COLUMN: Final = max(b.column for b in BUILDINGS)


@trait
class Choices:
    """The option lists of each phase (a base of :class:`PuertoRicoState`; the
    annotations below name the state attributes they read)."""

    options: PuertoRicoOptions
    players: list[Player]
    chooser: int
    hacienda_used: bool
    face_up: list[int]
    stack: list[int]
    discard: list[int]
    quarries: int
    building_supply: list[int]
    house: list[int]
    ship_cap: list[int]
    ship_good: list[int]
    ship_load: list[int]
    wharf_used: list[bool]
    kept: list[int]

    def _settler_options(self, seat: int) -> list[Any]:
        p = self.players[seat]
        if p.island_used() >= ISLAND_SPACES:
            return []
        out: list[Any] = []
        if not self.hacienda_used and p.has(HACIENDA) and self._hacienda_possible():
            out.append(A.HACIENDA_ACTION)
        out.extend(A.PLANTATION_ACTIONS[k] for k in range(5) if self.face_up[k] > 0)
        if self.quarries > 0 and (seat == self.chooser or p.has(CONSTRUCTION_HUT)):
            out.append(A.QUARRY_ACTION)
        if out:
            out.append(A.PASS_ACTION)
        return out

    def _hacienda_possible(self) -> bool:
        return sum(self.stack) > 0 or (self.options.hacienda_reshuffle and sum(self.discard) > 0)

    @staticmethod
    def _place_options(p: Player) -> list[Any]:
        occ, tiles = p.occ, p.tiles
        out: list[Any] = [A.PLACE_TILE_ACTIONS[k] for k in range(6) if occ[k] < tiles[k]]
        out += [
            action
            for c, circles, action in zip(p.bld, CIRCLES, A.PLACE_BUILDING_ACTIONS, strict=True)
            if 0 <= c < circles
        ]
        return out

    def build_cost(self, seat: int, building: int) -> int:
        """Doubloons ``seat`` would pay for ``building`` now: printed cost, minus 1 for the
        builder (privilege), minus occupied quarries up to the building's column, never
        below 0 (rulebook "建筑师" and "采石场")."""
        b = BUILDINGS[building]
        p = self.players[seat]
        discount = min(p.occ[QUARRY], b.column) + (1 if seat == self.chooser else 0)
        return max(0, b.cost - discount)

    def _build_options(self, seat: int) -> list[Any]:
        p = self.players[seat]
        free = CITY_SPACES - p.city
        if free <= 0:
            return []
        doubloons = p.doubloons
        quarries = p.occ[QUARRY]
        privilege = 1 if seat == self.chooser else 0
        # As build_cost: printed cost minus privilege and occupied quarries (at most the
        # building's column), never below 0 (doubloons never are, so the floor at 0 can
        # be left out of the comparison); the discount by column is worked out once.
        discount = [min(quarries, column) + privilege for column in range(_MAX_COLUMN + 1)]
        out: list[Any] = [
            action
            for (cost, column, spaces, action), left, owned in zip(
                _BUILD_TERMS, self.building_supply, p.bld, strict=True
            )
            if left > 0 and owned < 0 and spaces <= free and cost - discount[column] <= doubloons
        ]
        if out:
            out.append(A.PASS_ACTION)
        return out

    def _sell_options(self, seat: int) -> list[Any]:
        if len(self.house) >= TRADING_HOUSE_SIZE:
            return []
        p = self.players[seat]
        office = p.has(OFFICE)
        out: list[Any] = [
            A.SELL_ACTIONS[g]
            for g in range(5)
            if p.goods[g] > 0 and (office or g not in self.house)
        ]
        if out:
            out.append(A.PASS_ACTION)
        return out

    def ship_targets(self, good: int, amount: int) -> list[int]:
        """Cargo ships that may legally take ``amount`` (>0) barrels of ``good`` now.

        The ship already carrying ``good`` if it has room (and no other); otherwise the
        empty ships taking the most barrels, unless ``good`` is already on some ship
        (rulebook "装货条件"; research notes 6.3).
        """
        for s, g in enumerate(self.ship_good):
            if g == good:
                return [s] if self.ship_load[s] < self.ship_cap[s] else []
        best = 0
        out: list[int] = []
        for s, load in enumerate(self.ship_load):
            if load:
                continue
            fit = min(amount, self.ship_cap[s])
            if fit > best:
                best, out = fit, [s]
            elif fit == best:
                out.append(s)
        return out

    def _captain_options(self, seat: int) -> list[Any]:
        p = self.players[seat]
        out: list[Any] = []
        for g in range(5):
            if p.goods[g]:
                out.extend(A.LOAD_ACTIONS[g][s] for s in self.ship_targets(g, p.goods[g]))
        can_ship = bool(out)
        if p.has(WHARF) and not self.wharf_used[seat]:
            out.extend(A.WHARF_ACTIONS[g] for g in range(5) if p.goods[g])
            if out and not can_ship:
                out.append(A.PASS_ACTION)
        return out

    @staticmethod
    def warehouse_kinds(p: Player) -> int:
        """Kinds of goods ``p`` may keep whole: 1 per occupied small warehouse, 2 large."""
        return (1 if p.has(SMALL_WAREHOUSE) else 0) + (2 if p.has(LARGE_WAREHOUSE) else 0)

    def _storage_options(self, p: Player) -> list[Any]:
        if len(self.kept) < self.warehouse_kinds(p):
            return [A.KEEP_KIND_ACTIONS[g] for g in range(5) if p.goods[g] and g not in self.kept]
        return [A.KEEP_BARREL_ACTIONS[g] for g in range(5) if p.goods[g] and g not in self.kept]
