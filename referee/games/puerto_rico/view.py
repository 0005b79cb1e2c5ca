"""What a seat sees of a Puerto Rico match.

Everything in Puerto Rico is public except the order of the face-down plantation stack,
of which a view shows only the size.  (Chip VP are public here: every shipment is
announced, so a player with perfect memory knows them anyway.)  Lists indexed by good
use the order corn, indigo, sugar, tobacco, coffee; lists indexed by island tile add
quarry as the sixth entry.  Money in doubloons, scores in VP.

The structs stay in a module of their own, never compiled (:mod:`referee.api.native`):
a compiled module keeps its classes' annotations only as bare classes (``list`` for
``list[PlayerView]``), and msgspec reads a struct's types from them;
:func:`.viewbuild.build_view` builds them from a state.

The view structs also take their fields positionally, in declaration order, and
:func:`.viewbuild.build_view` builds them that way at every decision (msgspec matches keyword
arguments one by one: for the 31-field view a keyword call costs over ten times a
positional one).  Keep the order in ``build_view`` in step with the fields.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.api.deprecation import renamed
from referee.api.engine import View
from referee.games.puerto_rico.options import PuertoRicoOptions


class PlayerView(msgspec.Struct):
    """One player's public board.

    ``goods`` barrels by good; ``plantations`` island tiles by kind (5 goods + quarry) and
    ``occupied`` how many of those hold a colonist; ``buildings`` maps each owned
    building's name to its colonists; ``san_juan`` colonists waiting; ``unplaced``
    colonists in hand during his mayor turn; ``city_spaces`` used of 12; ``vp`` chip
    VP (paper VP included); ``score`` the VP he would have if the game ended now.
    """

    doubloons: int
    vp: int
    goods: list[int]
    plantations: list[int]
    occupied: list[int]
    buildings: dict[str, int]
    san_juan: int
    unplaced: int
    city_spaces: int
    score: int


class ShipView(msgspec.Struct):
    """A cargo ship: ``capacity`` barrels, ``good`` on board (``None`` if empty), ``load``."""

    capacity: int
    good: str | None
    load: int


class PuertoRicoView(View):
    """The observation of seat ``seat`` (all public but the stack order).

    ``phase`` is one of setup, plantation_draw, hacienda_draw, role, settler, mayor,
    builder, craftsman, trader, captain, storage, over; ``role`` the role being
    carried out (``None`` while choosing) and ``chooser`` who took it; ``order`` the
    seats in the order of the current phase and ``turn`` the index of the seat acting.
    ``roles`` maps every role card still available this round to the doubloons on it;
    ``taken_roles`` the cards taken this round.  ``plantation_stack`` is the number of
    face-down tiles; ``plantation_discards`` and ``face_up`` count tiles by good.
    ``captain_bonus_used``, ``wharf_used`` (by seat) and ``idle`` (consecutive turns
    without a load) describe the captain phase; ``kept`` the kinds the storing player
    has put in warehouses; ``produced`` the craftsman's kinds eligible for his extra
    good; ``hacienda_used`` whether the settling player already drew with his hacienda.
    """

    seat: int
    seats: int
    options: PuertoRicoOptions
    phase: str
    round: int
    governor: int
    role: str | None
    chooser: int
    order: list[int]
    turn: int
    roles: dict[str, int]
    taken_roles: list[str]
    players: list[PlayerView]
    colonist_supply: int
    colonist_ship: int
    vp_chips_left: int
    goods_supply: list[int]
    ships: list[ShipView]
    trading_house: list[str]
    face_up: list[int]
    plantation_stack: int
    plantation_discards: list[int]
    quarries: int
    building_supply: dict[str, int]
    end_triggered: bool
    captain_bonus_used: bool
    wharf_used: list[bool]
    idle: int
    kept: list[str]
    produced: list[str]
    hacienda_used: bool


def __getattr__(name: str) -> Any:
    """``build_view``, which lives in :mod:`.viewbuild`, is still found here, and so is
    its deprecated name ``make_view`` (it warns); imported on first use, since that
    module imports this one."""
    if name in ("build_view", "make_view"):
        from referee.games.puerto_rico import viewbuild

        if name == "make_view":
            return renamed(__name__, {"make_view": ("build_view", viewbuild.build_view)})(name)
        return viewbuild.build_view
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
