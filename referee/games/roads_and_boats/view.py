"""The Roads & Boats view: the whole (public) state in compact arrays.

Roads & Boats has no secrets (mine bags are public; only the next draw is chance), so
every seat sees the same thing plus its own ``seat``.  Goods are small ints:
``good_index | moved_mask << 4`` where ``good_index`` indexes :data:`data.GOODS` and bit
``s`` of ``moved_mask`` says seat ``s`` already moved that good this movement phase
(bit 8, :data:`data.LENT`, marks a good lent for building, see ``loans``).
Places, hexes, edges and sides are the ids of :class:`world.World` built from ``map``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from referee.api.engine import View
from referee.games.roads_and_boats.actions import Borrow, Carry, Give, Receive
from referee.games.roads_and_boats.options import RBOptions

if TYPE_CHECKING:
    from referee.games.roads_and_boats.state import RBState


class TransporterView(msgspec.Struct, array_like=True):
    """``[id, owner, kind, place, moved, cargo, carrier]`` (kind: data.TRANSPORTERS name;
    carrier: id of the transporter carrying it, or -1)."""

    id: int
    owner: int
    kind: str
    place: int
    moved: bool
    cargo: list[int]
    carrier: int


class BuildingView(msgspec.Struct, array_like=True):
    """``[hex, kind, place, owner, used, bag_gold, bag_iron]``.

    ``used`` counts goods (or transporters) made this production phase; the bag
    fields are the counters left in a mine's bag (0 for other buildings).
    """

    hex: int
    kind: str
    place: int
    owner: int
    used: int
    bag_gold: int
    bag_iron: int


class WallView(msgspec.Struct, array_like=True):
    """``[edge, owner, strength]``; owner -1 is a neutral wall."""

    edge: int
    owner: int
    strength: int


class PileView(msgspec.Struct, array_like=True):
    """``[place, goods]``: goods lying loose at a place."""

    place: int
    goods: list[int]


class RBView(View):
    """What a seat sees (everything; see the module docstring for encodings).

    ``stage`` is production/movement/building/wonder (or ``setup``); ``step`` is
    map/setup/deal/tile/rivers/homes/draw/request/pray/position/act/
    consent/scrap/over (``scrap``: the seat must remove transporters after a production
    broke the transporter limit).  ``temple`` lists seats from
    the figure closest to the temple; ``sequence`` lists seats in acting order.
    ``actor`` indexes the current list of the step.  ``active`` is
    ``[transporter, moves_left, steps]`` of the moving transporter or ``[-1, 0, 0]``;
    ``herd`` the geese following it.  ``breeders`` lists ``[place, seat]`` donkey pairs
    that may still breed this production; ``offer`` is the hand-over or carrying that
    awaits its owner's consent (``step`` = consent), ``refused`` the transporters whose
    owners refused the moving transporter.  ``loans`` lists ``[place, good, lender]``
    for every good lent for building this building phase (good: index into
    data.GOODS; lender: the transporter it goes back to, unless a building used it).
    A lent good lying loose carries the bit ``data.LENT`` (256).
    ``wonder`` lists brick owners bottom row first (-1 neutral).  ``roads`` lists the
    edges with a road; ``bank_roads`` the roads along a river as ``[edge, half]``
    (half 0: the half of the edge nearer the corner between sides ``d - 1`` and ``d``
    of the edge's first hex, see :mod:`world`).  While a drafted map is laid (steps
    deal/tile/rivers) ``map`` is empty, ``tiles`` lists the placed land tiles as
    ``[q, r, terrain]`` and ``hand`` the drawn tiles the drafter still places.

    Fields are declared in the order :meth:`RBState.view` passes them (positionally);
    only the last three may be left out of a decoded view.
    """

    seat: int
    options: RBOptions
    map_name: str
    map: str
    turn: int
    stage: str
    step: str
    actor: int
    temple: list[int]
    sequence: list[int]
    requested: bool
    cashed: list[int]
    slots: list[int]
    homes: list[int]
    transporters: list[TransporterView]
    next_transporter: int
    buildings: list[BuildingView]
    piles: list[PileView]
    roads: list[int]
    bank_roads: list[list[int]]
    bridges: list[list[int]]
    walls: list[WallView]
    research: list[list[str]]
    fresh: list[list[str]]
    wonder: list[int]
    neutral_left: int
    bricks_now: int
    paying: int
    active: list[int]
    draws: list[int]
    mines: int
    herd: list[int]
    breeders: list[list[int]]
    offer: Give | Receive | Carry | Borrow | None
    refused: list[int]
    tiles: list[list[int | str]] = msgspec.field(default_factory=list)
    hand: list[str] = msgspec.field(default_factory=list)
    loans: list[list[int]] = msgspec.field(default_factory=list)


def build_view(state: RBState, seat: int) -> RBView:
    """The view of ``seat`` of ``state``: the whole public state (nothing is secret in
    Roads & Boats) plus the seat.  Raises nothing.

    The body is still :meth:`RBState.view <referee.games.roads_and_boats.state.RBState.view>`
    (it is being optimised in place); this function is the package's common entry point.
    """
    return state.view(seat)
