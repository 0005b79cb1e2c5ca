"""The shared part of a Roads & Boats position: transporters, goods helpers (the phases
are in ``phases``).

:class:`StateBase` sets up every attribute of a position (``__init__``), copies it
(``clone``) and holds the helpers every part of the rules uses: where goods lie and who
reaches them, paying costs, transporter counts and the marks of moved goods.  Each part
of the rules (``flow``, ``chance``, ``production``, ``consent``, ``movement``,
``building``, ``wonder``) is a class derived from it; :class:`state.RBState` puts them
together.  Where the engine is compiled (:mod:`referee.api.native`) these classes are
mypyc traits, mixed into one compiled class; a transporter stays a Python class (it
renews its stamp in ``__setattr__``).  Goods are small ints,
``good | moved_mask << data.GOOD_BITS`` (see ``view``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Self

from referee.api.native import mypyc_attr, trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.options import RBOptions

# the phases, re-exported: state.py imports them from here
from referee.games.roads_and_boats.phases import BUILDING as BUILDING
from referee.games.roads_and_boats.phases import MOVEMENT as MOVEMENT
from referee.games.roads_and_boats.phases import PRODUCTION as PRODUCTION
from referee.games.roads_and_boats.phases import SETUP
from referee.games.roads_and_boats.phases import STAGES as STAGES
from referee.games.roads_and_boats.phases import WONDER as WONDER
from referee.games.roads_and_boats.world import DOCK, LAND, RIVER, World

MAP_SEEDS = 2**31
"""Generated-map seeds are drawn from ``range(MAP_SEEDS)``."""

UNDRAWN = World("undrawn", "", [])
"""The empty world of a match whose map is not drawn yet (never built or played on)."""

GOOD_NAMES = D.GOODS
GOOD_INDEX = D.G

_new_object = object.__new__
_set = object.__setattr__
_STAMPS = itertools.count()
"""Transporter stamps: ``next()`` is one C call, so threads never draw the same one."""


@mypyc_attr(native_class=False)
class _Fields:
    """A transporter's slots, written without a stamp: only :meth:`Transporter.copy`
    fills one, then makes it a :class:`Transporter` (same layout)."""

    __slots__ = ("cargo", "carrier", "id", "kind", "moved", "owner", "place", "stamp")

    id: int
    owner: int
    kind: int
    place: int
    moved: bool
    cargo: tuple[int, ...]
    carrier: int
    stamp: int


@mypyc_attr(native_class=False)
class Transporter(_Fields):
    """One transporter: ``owner`` seat, ``kind`` (index into data.TRANSPORTERS),
    ``place`` id, ``moved`` this movement phase, ``cargo`` goods (encoded ints, a tuple)
    and ``carrier`` (id of the transporter carrying it, or -1).

    ``stamp`` names the transporter's content: every attribute assignment gives it a
    stamp never used before (from one counter for the process), and :meth:`copy` keeps
    it, so two transporters with the same stamp hold the same values.  The cargo is a
    tuple (an assigned list is made one), so it can change only by assignment: no code
    path can change a transporter without a new stamp.  Views reuse what they built for
    a stamp they saw before (:mod:`.viewmemo`)."""

    __slots__ = ()

    def __init__(self, tid: int, owner: int, kind: int, place: int) -> None:
        _set(self, "id", tid)
        _set(self, "owner", owner)
        _set(self, "kind", kind)
        _set(self, "place", place)
        _set(self, "moved", False)
        _set(self, "cargo", ())
        _set(self, "carrier", -1)
        _set(self, "stamp", next(_STAMPS))

    def __setattr__(self, name: str, value: Any) -> None:
        """Set one attribute (a cargo as a tuple) and give the transporter a new stamp."""
        _set(self, name, tuple(value) if name == "cargo" else value)
        _set(self, "stamp", next(_STAMPS))

    def copy(self) -> Transporter:
        """An independent copy, with the same stamp (the cargo tuple is shared)."""
        t = _new_object(_Fields)  # plain slot writes, then the class with the stamps
        t.id = self.id
        t.owner = self.owner
        t.kind = self.kind
        t.place = self.place
        t.moved = self.moved
        t.cargo = self.cargo
        t.carrier = self.carrier
        t.stamp = self.stamp
        t.__class__ = Transporter
        return t  # type: ignore[return-value]

    @property
    def water(self) -> bool:
        """True for rafts, rowboats and steamers."""
        return self.kind >= D.RAFT


@trait
class StateBase:
    """The attributes of a position and the helpers every part of the rules uses.

    ``__init__`` sets every attribute (``world``, ``seats``, ``turn``, ``stage``, ``step``,
    ``trans``: id -> :class:`Transporter`, ``piles``: place -> encoded goods,
    ``buildings``: hex -> ``[kind, place, owner, used]``...).  Abstract: the playable
    class is :class:`state.RBState`."""

    seats: int

    def __init__(
        self, world: World | None, seats: int, options: RBOptions, *, _blank: bool = False
    ) -> None:
        # _blank: no attribute set (clone() sets them all); a compiled class cannot be
        # made with object.__new__
        if _blank:
            return
        self.world = world if world is not None else UNDRAWN
        self.options = options
        self.seats = seats
        self.turn = 0
        self.stage = SETUP
        self.step = "setup"
        self.actor = 0
        self.temple: list[int] = list(range(seats))
        self.sequence: list[int] = list(range(seats))
        self.requested = False
        self.cashed: list[int] = []
        self.slots: list[int] = []
        self.homes: list[int] = [-1] * seats
        self.piles: dict[int, list[int]] = {}
        self.trans: dict[int, Transporter] = {}
        self.next_tid = 0
        self.buildings: dict[int, list[int]] = {}  # hex -> [kind, place, owner, used]
        self.bags: dict[int, list[int]] = {}  # mine hex -> [gold, iron]
        self.roads: set[int] = set()
        self.root: list[int] = list(range(len(self.world.place_kind)))
        self.bridges: list[tuple[int, int]] = []
        self.walls: dict[int, list[int]] = {}  # edge -> [owner, strength]
        self.research: list[int] = [0] * seats
        self.fresh: list[int] = [0] * seats
        self.wonder: list[int] = []
        self.neutral_left = D.NEUTRAL_BRICKS
        self.bricks_now = 0
        self.paying = 0
        self.active = -1
        self.moves_left = 0
        self.steps = 0
        self.draws: list[int] = []
        self.mines = 0
        self.herd: list[int] = []  # geese following the moving transporter
        self.breeders: list[list[int]] = []  # [place, seat] donkey pairs that may breed
        self.offer: A.Give | A.Receive | A.Carry | A.Borrow | None = None  # awaiting consent
        self.refused: list[int] = []  # transporters whose owner refused the mover
        self.loans: list[list[int]] = []  # [place, good, lender] lent for building
        if seats == 1:
            self.wonder = [-1] * D.SOLO_PREFILL
            self.step = "homes"
        self.tiles: list[tuple[int, int, str]] = []  # drafted land tiles (map=drafted)
        self.hand: list[str] = []  # drawn tiles the drafter still places
        # a copy of the list the last legal_actions() call returned, until the next
        # apply: lets apply_action check an action without working the legal actions
        # out again (a copy, so a caller that edits the list it got changes nothing)
        self._legal: tuple[Any, ...] | None = None
        # the parts of the last view (viewmemo.ViewMemo), shared by clones; made by the
        # first view
        self._view_memo: Any = None
        if world is None:
            drafted = options.map == "drafted"
            self.step = ("setup" if seats > 1 else "deal") if drafted else "map"

    def clone(self) -> Self:
        """A fast independent copy (hand-written; the world is shared, immutable)."""
        c = type(self)(self.world, self.seats, self.options, _blank=True)
        c.world = self.world
        c.options = self.options
        c.seats = self.seats
        c.turn = self.turn
        c.stage = self.stage
        c.step = self.step
        c.actor = self.actor
        c.requested = self.requested
        c.next_tid = self.next_tid
        c.neutral_left = self.neutral_left
        c.bricks_now = self.bricks_now
        c.paying = self.paying
        c.active = self.active
        c.moves_left = self.moves_left
        c.steps = self.steps
        c.mines = self.mines
        c.offer = self.offer
        c._legal = self._legal
        c._view_memo = self._view_memo
        c.temple = self.temple[:]
        c.sequence = self.sequence[:]
        c.cashed = self.cashed[:]
        c.slots = self.slots[:]
        c.homes = self.homes[:]
        c.piles = {k: v[:] for k, v in self.piles.items()}
        c.trans = {k: t.copy() for k, t in self.trans.items()}
        c.buildings = {k: v[:] for k, v in self.buildings.items()}
        c.bags = {k: v[:] for k, v in self.bags.items()}
        c.roads = set(self.roads)
        c.root = self.root[:]
        c.bridges = self.bridges[:]
        c.walls = {k: v[:] for k, v in self.walls.items()}
        c.research = self.research[:]
        c.fresh = self.fresh[:]
        c.wonder = self.wonder[:]
        c.draws = self.draws[:]
        c.herd = self.herd[:]
        c.breeders = [b[:] for b in self.breeders]
        c.refused = self.refused[:]
        c.loans = [x[:] for x in self.loans]
        c.tiles = self.tiles[:]
        c.hand = self.hand[:]
        return c

    @property
    def irrigated(self) -> bool:
        """True once the irrigation brick (#45) is placed: deserts are pasture (p15)."""
        return len(self.wonder) >= D.IRRIGATION_AT

    def _drop(self, place: int, good: int) -> None:
        pile = self.piles.get(place)
        if pile is None:
            self.piles[place] = [good]
        else:
            pile.append(good)

    def _loose_count(self, place: int) -> list[int]:
        counts = [0] * D.NUM_GOODS
        for g in self.piles.get(place, ()):
            counts[g & D.GOOD_MASK] += 1
        return counts

    def reach(self, t: Transporter) -> list[int]:
        """Places (land areas, or an oil-rig sea hex) whose goods ``t`` can touch."""
        w = self.world
        kind = w.place_kind[t.place]
        if kind == LAND:
            return [t.place]
        if kind == RIVER:
            out: list[int] = []
            for a in w.areas[w.place_hex[t.place]]:
                r = self.root[a]
                if r not in out:
                    out.append(r)
            return out
        if kind == DOCK:
            return [self.root[w.dock_area[t.place]]]
        b = self.buildings.get(w.place_hex[t.place])
        return [t.place] if b is not None and b[0] == D.OIL_RIG else []

    def presence(self, seat: int) -> dict[int, list[Transporter]]:
        """Place -> own transporters there: land areas and oil rigs they reach, plus the
        river or sea place of every boat."""
        out: dict[int, list[Transporter]] = {}
        kinds = self.world.place_kind
        for t in self.trans.values():
            if t.owner != seat or t.carrier >= 0:
                continue
            place = t.place
            kind = kinds[place]
            if kind == LAND:  # reach(t) is just its place
                bucket = out.get(place)
                if bucket is None:
                    out[place] = [t]
                else:
                    bucket.append(t)
                continue
            places = self.reach(t)
            if kind != DOCK and place not in places:  # a river or sea place
                places = [*places, place]
            for p in places:
                bucket = out.get(p)
                if bucket is None:
                    out[p] = [t]
                else:
                    bucket.append(t)
        return out

    def _own_at(self, seat: int, place: int) -> list[Transporter]:
        """``presence(seat).get(place, [])`` without working out every other place."""
        kinds = self.world.place_kind
        out = []
        for t in self.trans.values():
            if t.owner != seat or t.carrier >= 0:
                continue
            p = t.place
            if p == place:
                if kinds[p] != DOCK or place in self.reach(t):
                    out.append(t)  # a dock is no place goods lie on (it reaches its area)
            elif kinds[p] != LAND and place in self.reach(t):
                out.append(t)
        return out

    def pool(self, place: int, own: list[Transporter]) -> list[int]:
        """Goods counts usable at ``place``: loose there plus the cargo of ``own``."""
        counts = [0] * D.NUM_GOODS  # _loose_count(place), inline
        mask = D.GOOD_MASK
        pile = self.piles.get(place)
        if pile:
            for g in pile:
                counts[g & mask] += 1
        for t in own:
            for g in t.cargo:
                counts[g & mask] += 1
        return counts

    def _take(self, place: int, own: list[Transporter], good: int, n: int) -> None:
        """Remove ``n`` goods of type ``good``: loose at ``place`` first, then cargo."""
        pile = self.piles.get(place)
        if pile:
            i = len(pile) - 1
            while n and i >= 0:
                if pile[i] & D.GOOD_MASK == good:
                    pile.pop(i)
                    n -= 1
                i -= 1
            if not pile:
                del self.piles[place]
        for t in own:
            if not n:
                break
            cargo = list(t.cargo)
            i = len(cargo) - 1
            while n and i >= 0:
                if cargo[i] & D.GOOD_MASK == good:
                    cargo.pop(i)
                    n -= 1
                i -= 1
            if len(cargo) != len(t.cargo):
                t.cargo = tuple(cargo)
        if n:
            raise AssertionError("paid more goods than the pool holds")

    def _affordable(self, counts: list[int], cost: tuple[tuple[int, int], ...]) -> bool:
        return _covers(counts, cost)

    def _pay(self, place: int, own: list[Transporter], cost: tuple[tuple[int, int], ...]) -> None:
        for g, n in cost:
            self._take(place, own, g, n)

    def _count_own(self, seat: int) -> tuple[int, int]:
        land = water = 0
        for t in self.trans.values():
            if t.owner == seat:
                if t.kind >= D.RAFT:
                    water += 1
                else:
                    land += 1
        return land, water

    def _may_gain(self, seat: int, kind: int) -> bool:
        land, water = self._count_own(seat)
        if land + water >= D.MAX_TRANSPORTERS:
            return False
        return water < D.MAX_WATER if kind >= D.RAFT else land < D.MAX_LAND

    def _new_transporter(self, seat: int, kind: int, place: int) -> Transporter:
        t = Transporter(self.next_tid, seat, kind, place)
        self.trans[t.id] = t
        self.next_tid += 1
        return t

    def _clear_moved(self) -> None:
        mask = D.GOOD_MASK
        for t in self.trans.values():
            if t.moved:  # an unchanged transporter keeps its stamp
                t.moved = False
            cargo = t.cargo
            if cargo and max(cargo) > mask:
                t.cargo = tuple([g & mask for g in cargo])
        piles = self.piles
        for p, pile in piles.items():
            if pile and max(pile) > mask:
                piles[p] = [g & mask for g in pile]

    def _carriers(self) -> set[int]:
        """Ids of the transporters carrying another one."""
        return {u.carrier for u in self.trans.values() if u.carrier >= 0}

    def _carried_by(self, t: Transporter) -> Transporter | None:
        """The transporter ``t`` carries, if any."""
        tid = t.id
        for u in self.trans.values():
            if u.carrier == tid:
                return u
        return None

    # What one part of the rules calls in another.  RBState inherits every part
    # before this class, so these are never reached; they declare the calls' types
    # (and stay plain methods, which a compiled class allows).

    def _begin_order(self) -> None:  # flow.TurnFlow
        raise NotImplementedError

    def _wonder_done(self) -> bool:  # flow.TurnFlow
        raise NotImplementedError

    def _mine_yield(self, h: int, gold: bool) -> None:  # production.ProductionRules
        raise NotImplementedError

    def _breed(self) -> None:  # production.ProductionRules
        raise NotImplementedError

    def _primary(self) -> None:  # production.ProductionRules
        raise NotImplementedError

    def _auto_process(self) -> None:  # production.ProductionRules
        raise NotImplementedError

    def _borrow_actions(  # consent.ConsentRules
        self,
        seat: int,
        here: dict[int, list[Transporter]],
        carriers: set[int] | None,
        materials: bool = False,
    ) -> list[Any]:
        raise NotImplementedError

    def _site_kinds(self, h: int, sea: bool) -> list[int]:  # building.BuildingRules
        raise NotImplementedError

    def _wall_sides(self, place: int) -> tuple[list[int], int]:  # building.BuildingRules
        raise NotImplementedError


# fmt: off
STATE_FIELDS: tuple[str, ...] = (
    "world", "options", "seats", "turn", "stage", "step", "actor", "temple", "sequence",
    "requested", "cashed", "slots", "homes", "piles", "trans", "next_tid", "buildings",
    "bags", "roads", "root", "bridges", "walls", "research", "fresh", "wonder",
    "neutral_left", "bricks_now", "paying", "active", "moves_left", "steps", "draws",
    "mines", "herd", "breeders", "offer", "refused", "loans", "tiles", "hand", "_legal",
    "_view_memo"
)
"""Every attribute of a position, as :meth:`StateBase.__init__` sets them (what pickling
takes apart: a compiled class has no ``__dict__``)."""
# fmt: on


def _covers(counts: list[int], cost: tuple[tuple[int, int], ...]) -> bool:
    """True when ``counts`` (by good index) hold every ``(good, n)`` of ``cost``."""
    for g, n in cost:  # noqa: SIM110 - a plain loop beats all() over a generator here
        if counts[g] < n:
            return False
    return True


def _kinds(goods: Sequence[int], skip: int = 0) -> tuple[str, ...]:
    """Names of the good types among encoded ``goods``, in data.GOODS order, leaving out
    goods with the moved bit ``skip``."""
    if not goods:
        return ()
    seen = 0
    mask = D.GOOD_MASK
    for g in goods:
        if not g & skip:
            seen |= 1 << (g & mask)
    names = _NAMES_OF_SET.get(seen)
    if names is None:
        names = tuple(GOOD_NAMES[k] for k in range(len(GOOD_NAMES)) if seen >> k & 1)
        _NAMES_OF_SET[seen] = names
    return names


_NAMES_OF_SET: dict[int, tuple[str, ...]] = {}
"""Bit set of good types -> their names in data.GOODS order (filled as met)."""
