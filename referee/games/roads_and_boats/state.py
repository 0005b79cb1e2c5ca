"""The Roads & Boats game state: one position, with its legal actions, scores and views.

Rule sources: the 3rd-edition rulebook (``shared/seeds/004_…``, pages cited per
method) and ``shared/rules/roads_and_boats.md`` (sections cited as §n).  Players act
one after another in sequence-chart order in every phase (§0 item 16); the temple
procedure (§11) may reorder them before each phase.

:class:`RBState` puts together one class per part of the rules, each in its module:
the shared attributes and goods helpers (``base``), the turn flow and temple order
(``flow``), the chance nodes and drafted map (``chance``), production
(``production``), offers that wait for consent (``consent``), movement
(``movement``), building (``building``) and the wonder (``wonder``).  This module keeps
the legal-action list, the action dispatch (:data:`_HANDLERS`), scores and views, and
still exports the names other code imports from it (phases, :class:`Transporter`...).
"""

from __future__ import annotations

import random
from typing import Any, Self

import msgspec

from referee.api import native
from referee.api.engine import IllegalAction, State, ranks_from_keys
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import (
    BUILDING,
    GOOD_INDEX,
    GOOD_NAMES,
    MAP_SEEDS,
    MOVEMENT,
    PRODUCTION,
    SETUP,
    STAGES,
    STATE_FIELDS,
    UNDRAWN,
    WONDER,
    StateBase,
    Transporter,
)
from referee.games.roads_and_boats.building import BuildingRules
from referee.games.roads_and_boats.chance import ChanceRules
from referee.games.roads_and_boats.consent import ConsentRules
from referee.games.roads_and_boats.flow import TurnFlow
from referee.games.roads_and_boats.movement import MovementRules
from referee.games.roads_and_boats.options import RBOptions
from referee.games.roads_and_boats.production import ProductionRules
from referee.games.roads_and_boats.view import RBView
from referee.games.roads_and_boats.viewmemo import ViewMemo
from referee.games.roads_and_boats.viewmemo import buildings as memo_buildings
from referee.games.roads_and_boats.viewmemo import layout as memo_layout
from referee.games.roads_and_boats.viewmemo import piles as memo_piles
from referee.games.roads_and_boats.viewmemo import research as memo_research
from referee.games.roads_and_boats.viewmemo import transporters as memo_transporters
from referee.games.roads_and_boats.wonder import WonderRules
from referee.games.roads_and_boats.world import World

__all__ = [
    "BUILDING",
    "GOOD_INDEX",
    "GOOD_NAMES",
    "MAP_SEEDS",
    "MOVEMENT",
    "PRODUCTION",
    "SETUP",
    "STAGES",
    "UNDRAWN",
    "WONDER",
    "RBState",
    "Transporter",
    "state_from_view",
]

_POSITIONS = tuple(A.Position(s) for s in range(9))
"""``A.Position(s)`` by slot ``s`` (actions are immutable: shared by every state)."""

_TRANSPORTER_NAMES = tuple(t.name for t in D.TRANSPORTERS)
_BUILDING_NAMES = tuple(b.name for b in D.BUILDINGS)


class RBState(
    State,
    TurnFlow,
    ChanceRules,
    ProductionRules,
    ConsentRules,
    MovementRules,
    BuildingRules,
    WonderRules,
):
    """A Roads & Boats position (see the module docstring).

    ``RBState(world, seats, options)``: ``world`` is None while the map is not drawn.

    :class:`State` comes first among the bases (mypyc wants the one class that is not a
    trait first), so the methods of its interface that a part of the rules implements
    are named here once more."""

    def to_move(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL`` (:meth:`TurnFlow.to_move`)."""
        return TurnFlow.to_move(self)

    def sample_chance(self, rng: random.Random) -> Any:
        """:meth:`ChanceRules.sample_chance`."""
        return ChanceRules.sample_chance(self, rng)

    def apply_chance(self, outcome: Any) -> None:
        """:meth:`ChanceRules.apply_chance`."""
        ChanceRules.apply_chance(self, outcome)

    def clone(self) -> Self:
        """A fast independent copy (:meth:`StateBase.clone`)."""
        return StateBase.clone(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not: the fields by name
        (a compiled class has no default for either).  The view memo is left out: it is
        a cache, built again by the next view."""
        args = (self.world, self.seats, self.options)
        return native.reduce(self, args, STATE_FIELDS, _view_memo=None)

    def legal_actions(self) -> list[Any]:
        """Atomic legal actions of the seat to move (stable order, ``done`` last)."""
        legal = self._legal_actions()
        self._legal = tuple(legal)
        return legal

    def _legal_actions(self) -> list[Any]:
        step = self.step
        if step == "act":  # the common case first, its seat without a to_move call
            seat = self.sequence[self.actor]
            stage = self.stage
            if stage == MOVEMENT:
                return self._movement_actions(seat)
            if stage == PRODUCTION:
                return self._production_actions(seat)
            if stage == BUILDING:
                return self._building_actions(seat)
            return self._wonder_actions(seat)
        # a seat always decides in these steps: no _seat() check needed
        if step == "request":
            return [A.NO_REQUEST, A.REQUEST]
        if step == "position":
            taken = self.slots
            return [_POSITIONS[s] for s in range(1, self.seats + 1) if s not in taken]
        if step == "pray":
            return [A.PRAY, A.CASH_IN]
        seat = self._seat()
        if step == "homes":
            return [A.Home(p) for p in self._home_places()]
        if step == "consent":
            return [A.AGREE, A.REFUSE]
        if step == "scrap":
            return self._excess_scraps(seat)
        if step == "tile":
            kinds = sorted(set(self.hand))
            return [A.PlaceTile(q, r, t) for q, r in self.tile_spots() for t in kinds]
        stage = self.stage
        if stage == PRODUCTION:
            return self._production_actions(seat)
        if stage == MOVEMENT:
            return self._movement_actions(seat)
        if stage == BUILDING:
            return self._building_actions(seat)
        return self._wonder_actions(seat)

    def apply_action(self, action: Any) -> None:
        """Apply one legal action; raises IllegalAction (state unchanged) otherwise."""
        step = self.step
        seat = self.sequence[self.actor] if step == "act" else self._seat()
        legal = self._legal
        # the last legal_actions() list when no apply came since; worked out afresh
        # when the action is not in it
        if (legal is None or action not in legal) and action not in self._legal_actions():
            raise IllegalAction(f"not legal now: {action!r}")
        self._legal = None
        handler = _HANDLERS.get(type(action))
        if handler is None:  # pragma: no cover - every legal action has a handler
            raise IllegalAction(f"unknown action {action!r}")
        handler(self, seat, action)

    # ------------------------------------------------------------------ results

    def goods_points(self) -> list[int]:
        """Gold 10, coins 40, stock 120 carried on one's own transporters (p19)."""
        points = [0] * self.seats
        for t in self.trans.values():
            for g in t.cargo:
                points[t.owner] += D.SCORE_VALUE.get(g & D.GOOD_MASK, 0)
        return points

    def scores(self) -> list[float]:
        """Wealth points by seat (goods on own transporters + wonder rows)."""
        return [
            float(a + b) for a, b in zip(self.goods_points(), self.wonder_points(), strict=True)
        ]

    def ranks(self) -> list[int]:
        """Ranks; ties go to the praying figure closer to the temple (p19)."""
        scores = self.scores()
        return ranks_from_keys([(scores[s], -self.temple.index(s)) for s in range(self.seats)])

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> RBView:
        """The full public state (nothing is secret in Roads & Boats).  Its lists of
        transporters, buildings, piles, roads, walls and research are reused from the
        last view of this game where that part did not change (:mod:`.viewmemo`), so
        views are read-only.  The struct is built positionally, in the order its
        fields are declared (keywords cost about 3 us more per view)."""
        world = self.world
        memo = self._view_memo
        if memo is None:
            memo = self._view_memo = ViewMemo()
        roads, bank_roads, bridges, walls = memo_layout(
            memo, self.roads, self.bridges, self.walls, len(world.edges), world.cross_edge
        )
        research, fresh = memo_research(memo, self.research, self.fresh, _research_names)
        return RBView(
            seat,
            self.options,
            world.name,  # map_name
            world.spec,  # map
            self.turn,
            STAGES[self.stage] if self.stage >= 0 else "setup",
            self.step,
            self.actor,
            self.temple[:],
            self.sequence[:],
            self.requested,
            self.cashed[:],
            self.slots[:],
            self.homes[:],
            memo_transporters(memo, self.trans, _TRANSPORTER_NAMES),
            self.next_tid,  # next_transporter
            memo_buildings(memo, self.buildings, self.bags, _BUILDING_NAMES),
            memo_piles(memo, self.piles),
            roads,
            bank_roads,
            bridges,
            walls,
            research,
            fresh,
            self.wonder[:],
            self.neutral_left,
            self.bricks_now,
            self.paying,
            [self.active, self.moves_left, self.steps],
            self.draws[:],
            self.mines,
            self.herd[:],
            [b[:] for b in breeders] if (breeders := self.breeders) else [],
            self.offer,
            self.refused[:],
            [list(t) for t in tiles] if (tiles := self.tiles) else [],
            self.hand[:],
            [x[:] for x in loans] if (loans := self.loans) else [],
        )

    def debug(self) -> Any:
        """The full state as JSON-able data (the view of seat 0 without ``seat``)."""
        data = msgspec.to_builtins(self.view(0))
        del data["seat"]
        return data


_HANDLERS: dict[type, Any] = {
    A.Step: RBState._do_step,
    A.Load: RBState._do_load,
    A.Unload: RBState._do_unload,
    A.Home: RBState._do_home,
    A.RequestOrder: RBState._do_request_order,
    A.NoRequest: RBState._do_request_order,
    A.Pray: RBState._do_pray,
    A.CashIn: RBState._do_pray,
    A.Position: RBState._do_position,
    A.Done: RBState._do_done,
    A.PlaceTile: RBState._do_place_tile,
    A.Produce: RBState._do_produce,
    A.Research: RBState._do_research,
    A.Breed: RBState._do_breed,
    A.Scrap: RBState._do_scrap,
    A.Take: RBState._do_take,
    A.Put: RBState._do_put,
    A.Upgrade: RBState._do_upgrade,
    A.MoveTransporter: RBState._do_move_transporter,
    A.Stop: RBState._do_stop,
    A.Settle: RBState._do_settle,
    A.Lead: RBState._do_lead,
    A.Borrow: RBState._do_borrow,
    A.Give: RBState._do_give,
    A.Receive: RBState._do_give,
    A.Carry: RBState._do_give,
    A.Agree: RBState._do_agree,
    A.Refuse: RBState._do_agree,
    A.Release: RBState._do_release,
    A.Build: RBState._do_build,
    A.Road: RBState._do_road,
    A.Bridge: RBState._do_bridge,
    A.Wall: RBState._do_wall,
    A.Demolish: RBState._do_wall,
    A.Shaft: RBState._do_shaft,
    A.Brick: RBState._do_brick,
    A.Pay: RBState._do_pay,
}
"""The method of :class:`RBState` applying each action kind (``self, seat, action``)."""


def _research_names(bits: int) -> tuple[str, ...]:
    """Names of the research projects set in ``bits`` (bit i: data.RESEARCH[i])."""
    names = _RESEARCH_OF_SET.get(bits)
    if names is None:
        names = tuple(n for i, n in enumerate(D.RESEARCH) if bits >> i & 1)
        _RESEARCH_OF_SET[bits] = names
    return names


_RESEARCH_OF_SET: dict[int, tuple[str, ...]] = {}
"""Research bit set -> project names in data.RESEARCH order (filled as met)."""


def state_from_view(world: World | None, options: RBOptions, seats: int, view: RBView) -> RBState:
    """Rebuild the full state from a view (everything in Roads & Boats is public);
    ``world`` is None while the map is not laid yet."""
    s = RBState(world, seats, options)
    world = s.world
    s.turn = view.turn
    s.stage = STAGES.index(view.stage) if view.stage in STAGES else SETUP
    s.step = view.step
    s.actor = view.actor
    s.temple = view.temple[:]
    s.sequence = view.sequence[:]
    s.requested = view.requested
    s.cashed = view.cashed[:]
    s.slots = view.slots[:]
    for h, side in view.bridges:
        for d, left, right in world.river_banks[h]:
            if d == side:
                a, b = s.root[left], s.root[right]
                keep, gone = min(a, b), max(a, b)
                s.root = [keep if r == gone else r for r in s.root]
        s.bridges.append((h, side))
    s.homes = view.homes[:]
    for tv in view.transporters:
        t = Transporter(tv.id, tv.owner, D.T[tv.kind], tv.place)
        t.moved = tv.moved
        t.cargo = tuple(tv.cargo)
        t.carrier = tv.carrier
        s.trans[t.id] = t
    s.next_tid = view.next_transporter
    for bv in view.buildings:
        s.buildings[bv.hex] = [D.B[bv.kind], bv.place, bv.owner, bv.used]
        if bv.kind == "mine":
            s.bags[bv.hex] = [bv.bag_gold, bv.bag_iron]
    s.piles = {pv.place: pv.goods[:] for pv in view.piles}
    s.roads = set(view.roads) | {len(world.edges) + 2 * e + half for e, half in view.bank_roads}
    s.walls = {wv.edge: [wv.owner, wv.strength] for wv in view.walls}
    s.research = [sum(1 << D.RESEARCH.index(n) for n in r) for r in view.research]
    s.fresh = [sum(1 << D.RESEARCH.index(n) for n in r) for r in view.fresh]
    s.wonder = view.wonder[:]
    s.neutral_left = view.neutral_left
    s.bricks_now = view.bricks_now
    s.paying = view.paying
    s.active, s.moves_left, s.steps = view.active
    s.draws = view.draws[:]
    s.mines = view.mines
    s.herd = view.herd[:]
    s.breeders = [b[:] for b in view.breeders]
    s.offer = view.offer
    s.refused = view.refused[:]
    s.loans = [x[:] for x in view.loans]
    s.tiles = [(int(q), int(r), str(t)) for q, r, t in view.tiles]
    s.hand = view.hand[:]
    return s
