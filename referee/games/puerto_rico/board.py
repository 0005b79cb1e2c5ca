"""One player's board in Puerto Rico: island, city, colonists, goods, money and VP."""

from __future__ import annotations

from typing import Any

from referee.api import native
from referee.games.puerto_rico.data import BUILDINGS, BUILDINGS_FOR_GOOD, N_BUILDINGS

_CIRCLES = tuple(b.circles for b in BUILDINGS)
"""Colonist circles by building index."""


# fmt: off
PLAYER_FIELDS: tuple[str, ...] = (
    "_view_memo", "bld", "city", "doubloons", "goods", "occ", "pool", "san_juan", "tiles",
    "vp"
)
"""Every attribute of a :class:`Player` (its ``__slots__``; read from here, since a
compiled class keeps no ``__slots__``)."""
# fmt: on


class Player:
    """One player's board.

    ``doubloons``; ``vp`` chip VP (paper VP included); ``goods[g]`` barrels by good;
    ``tiles[k]`` island tiles by kind (0-4 plantations, 5 quarry) and ``occ[k]`` how many
    of them hold a colonist; ``bld[b]`` colonists on building ``b`` or -1 if not owned;
    ``san_juan`` colonists waiting in San Juan; ``pool`` colonists in hand during the
    mayor phase; ``city`` city spaces used (large buildings take 2).
    """

    __slots__ = PLAYER_FIELDS

    def __init__(self, *, _blank: bool = False) -> None:
        # _blank: no attribute set (copy() sets them all); a compiled class cannot be
        # made with object.__new__ (referee.api.native)
        if _blank:
            return
        self.doubloons = 0
        self.vp = 0
        self.goods = [0] * 5
        self.tiles = [0] * 6
        self.occ = [0] * 6
        self.bld = [-1] * N_BUILDINGS
        self.san_juan = 0
        self.pool = 0
        self.city = 0
        self._view_memo: tuple[Any, ...] = ()
        """What views memoise of this board (see :mod:`.view`); not part of the state."""

    def copy(self) -> Player:
        """An independent copy."""
        p = Player(_blank=True)
        p.doubloons = self.doubloons
        p.vp = self.vp
        p.goods = self.goods[:]
        p.tiles = self.tiles[:]
        p.occ = self.occ[:]
        p.bld = self.bld[:]
        p.san_juan = self.san_juan
        p.pool = self.pool
        p.city = self.city
        p._view_memo = self._view_memo
        return p

    def __reduce__(self) -> tuple[Any, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not (a compiled class
        has no default for either)."""
        return native.reduce(self, (), PLAYER_FIELDS)

    def has(self, building: int) -> bool:
        """True if ``building`` is owned and holds at least one colonist (occupied)."""
        return self.bld[building] > 0

    def island_used(self) -> int:
        """Filled island spaces (plantations and quarries)."""
        return sum(self.tiles)

    def colonists(self) -> int:
        """Every colonist this player has, wherever it stands."""
        return sum(self.occ) + sum([c for c in self.bld if c > 0]) + self.san_juan + self.pool

    def empty_building_circles(self) -> int:
        """Unfilled colonist circles on this player's buildings."""
        return sum([circles - c for c, circles in zip(self.bld, _CIRCLES, strict=True) if c >= 0])

    def production(self, good: int) -> int:
        """Barrels of ``good`` this player's occupied tiles and buildings make (no supply cap)."""
        buildings = BUILDINGS_FOR_GOOD[good]
        if not buildings:
            return self.occ[good]
        bld = self.bld
        capacity = sum([bld[b] for b in buildings if bld[b] > 0])
        return min(self.occ[good], capacity)
