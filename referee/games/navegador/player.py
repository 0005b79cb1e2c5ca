"""One player's holdings (player sheet, Lisboa, ships, money) as a fast mutable record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.api import native
from referee.games.navegador import data

if TYPE_CHECKING:
    from referee.games.navegador.view import PlayerView


_PLAYER_FIELDS: tuple[str, ...] = (
    "_score_key",
    "_score_value",
    "_view_memo",
    "churches",
    "colonies",
    "explorers",
    "factories",
    "has_king",
    "king_col",
    "money",
    "privileges",
    "ships",
    "shipyards",
    "stone",
    "turns",
    "wild",
    "workers",
)
"""Every attribute of a :class:`Player` (its ``__slots__``; :meth:`Player.__reduce__`
reads them from here, since a compiled class keeps no ``__slots__``)."""


class Player:
    """Everything one seat owns.

    ``money`` in Cruzados; ``workers`` in Lisboa (2..9); ``ships[r]`` own ships in
    region ``r``; ``colonies[g]`` / ``factories[g]`` per good; ``wild`` orange factories;
    ``privileges[c]`` tiles per sheet column; ``king_col`` the column holding the King's
    privilege (-1: not on the sheet); ``has_king`` the King is still in hand (placed at
    the end); ``stone`` the rondel space (-1 before the first turn); ``turns`` completed.
    """

    __slots__ = _PLAYER_FIELDS

    def __init__(self, *, _blank: bool = False) -> None:
        # _blank: no attribute set (copy() sets them all); a compiled class cannot be
        # made with object.__new__ (referee.api.native)
        if _blank:
            return
        self.money = data.START_MONEY
        self.workers = data.START_WORKERS
        self.ships = [0] * len(data.REGIONS)
        self.ships[data.PORTUGAL] = data.START_SHIPS
        self.colonies = [0, 0, 0]
        self.factories = [0, 0, 0]
        self.wild = 1
        self.shipyards = 1
        self.churches = 1
        self.explorers = 0
        self.privileges = [0, 0, 0, 0, 0]
        self.king_col = -1
        self.has_king = True
        self.stone = -1
        self.turns = 0
        self._score_key: tuple[int | bool | list[int], ...] = ()
        self._score_value = 0
        self._view_memo: tuple[tuple[object, ...], PlayerView] | None = None
        """The last view of this player and its key (see :mod:`.snapshot`); not state."""

    def copy(self) -> Player:
        """An independent copy (hand-written for speed)."""
        other = Player(_blank=True)
        other.money = self.money
        other.workers = self.workers
        other.ships = self.ships[:]
        other.colonies = self.colonies[:]
        other.factories = self.factories[:]
        other.wild = self.wild
        other.shipyards = self.shipyards
        other.churches = self.churches
        other.explorers = self.explorers
        other.privileges = self.privileges[:]
        other.king_col = self.king_col
        other.has_king = self.has_king
        other.stone = self.stone
        other.turns = self.turns
        other._score_key = self._score_key
        other._score_value = self._score_value
        other._view_memo = self._view_memo
        return other

    def __reduce__(self) -> tuple[object, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not (a compiled class
        has no default for either)."""
        return native.reduce(self, (), _PLAYER_FIELDS)

    def ships_on_board(self) -> int:
        """Own ships on the map (max 7)."""
        return sum(self.ships)

    def items(self, column: int) -> int:
        """Items counted by a sheet column: colonies, factories (orange included),
        explorers, shipyards or churches."""
        if column == 0:
            return sum(self.colonies)
        if column == 1:
            return sum(self.factories) + self.wild
        if column == 2:
            return self.explorers
        if column == 3:
            return self.shipyards
        return self.churches

    def filled(self, column: int) -> int:
        """Privilege slots used in ``column`` (privilege tiles plus a placed King)."""
        return self.privileges[column] + (1 if self.king_col == column else 0)

    def column_vp(self, column: int) -> int:
        """VP per item of ``column``: printed base plus every tile placed there."""
        return data.BASE_VP[column] + data.PRIVILEGE_VP[column] * self.filled(column)

    def _column_items(self) -> tuple[int, int, int, int, int]:
        """Items counted by each sheet column (as :meth:`items`, all five at once)."""
        return (
            sum(self.colonies),
            sum(self.factories) + self.wild,
            self.explorers,
            self.shipyards,
            self.churches,
        )

    def _filled(self) -> list[int]:
        """Privilege slots used per column (as :meth:`filled`, all five at once)."""
        king = self.king_col
        return [n + (1 if column == king else 0) for column, n in enumerate(self.privileges)]

    @staticmethod
    def _best_column(filled: list[int], items: tuple[int, ...]) -> int:
        best, gain = -1, -1
        for column, vp in enumerate(data.PRIVILEGE_VP):
            if filled[column] >= data.PRIVILEGE_SLOTS:
                continue
            value = vp * items[column]
            if value > gain:
                best, gain = column, value
        return best

    def best_king_column(self) -> int:
        """Column where the King's privilege adds most VP now (-1 if every column is full).

        Ties go to the leftmost column (rulebook: Scoring, the King goes on a free slot).
        """
        return self._best_column(self._filled(), self._column_items())

    def score(self) -> int:
        """Final VP (rulebook: Scoring): 1 per worker, per ship on the map, per full 200
        Cruzados, plus each column's VP per item times the items; a King still in hand
        counts in its best free column.

        Memoised on every holding the score reads: views ask for every player's score at
        every decision while only the player to move changes.
        """
        key = (
            self.money,
            self.workers,
            self.wild,
            self.explorers,
            self.shipyards,
            self.churches,
            self.king_col,
            self.has_king,
            self.ships,
            self.colonies,
            self.factories,
            self.privileges,
        )
        if key == self._score_key:
            return self._score_value
        total = self.score_now()
        # The key keeps copies of the lists: they change in place.
        self._score_key = (
            *key[:8],
            self.ships[:],
            self.colonies[:],
            self.factories[:],
            self.privileges[:],
        )
        self._score_value = total
        return total

    def score_now(self) -> int:
        """:meth:`score` worked out afresh (no memo): for callers that already know the
        holdings changed."""
        privileges = self.privileges
        king = self.king_col
        has_king = self.has_king
        items = (
            sum(self.colonies),
            sum(self.factories) + self.wild,
            self.explorers,
            self.shipyards,
            self.churches,
        )
        total = self.workers + sum(self.ships) + self.money // data.VP_MONEY_UNIT
        gain = -1
        for column in range(5):
            filled = privileges[column] + (1 if column == king else 0)
            count = items[column]
            step = data.PRIVILEGE_VP[column]
            total += (data.BASE_VP[column] + step * filled) * count
            # A King in hand goes to the free column where it adds most (leftmost on ties).
            if has_king and filled < data.PRIVILEGE_SLOTS and step * count > gain:
                gain = step * count
        if has_king and gain > 0:
            total += gain
        return total
