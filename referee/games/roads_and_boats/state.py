"""The Roads & Boats game state: turn flow, production, movement, building, wonder.

Rule sources: the 3rd-edition rulebook (``shared/seeds/004_…``, pages cited per
method) and ``shared/rules/roads_and_boats.md`` (sections cited as §n).  Players act
one after another in sequence-chart order in every phase (§0 item 16); the temple
procedure (§11) may reorder them before each phase.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

import msgspec

from referee.engine import CHANCE, TERMINAL, IllegalAction, InvalidChance, State, ranks_from_keys
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.options import RBOptions
from referee.games.roads_and_boats.view import (
    BuildingView,
    PileView,
    RBView,
    TransporterView,
    WallView,
)
from referee.games.roads_and_boats.world import (
    DOCK,
    LAND,
    RIVER,
    SEA_PLACE,
    World,
    drafted_map,
    generate_map,
    world_from_spec,
)

STAGES = ("production", "movement", "building", "wonder")
PRODUCTION, MOVEMENT, BUILDING, WONDER = range(4)
SETUP = -1

MAP_SEEDS = 2**31
"""Generated-map seeds are drawn from ``range(MAP_SEEDS)``."""
UNDRAWN = World("undrawn", "", [])
"""The empty world of a match whose map is not drawn yet (never built or played on)."""

GOOD_NAMES = D.GOODS
GOOD_INDEX = D.G

_new_object = object.__new__
_POSITIONS = tuple(A.Position(s) for s in range(9))
"""``A.Position(s)`` by slot ``s`` (actions are immutable: shared by every state)."""
_COST_CAPS = tuple(
    sorted(
        {
            (g, max(n for b in D.BUILDINGS for g2, n in b.cost if g2 == g))
            for b in D.BUILDINGS
            for g, _n in b.cost
        }
    )
)
"""``(good, most of it any building costs)`` for every good in a building cost: whether
a pool covers a cost depends only on these counts, each capped at that most."""
_BUILD_RESEARCH = sum(1 << b.research for b in D.BUILDINGS if b.research is not None)
"""Research bits that some building kind needs."""
_TRANSPORTER_NAMES = tuple(t.name for t in D.TRANSPORTERS)
_BUILDING_NAMES = tuple(b.name for b in D.BUILDINGS)


class Transporter:
    """One transporter: ``owner`` seat, ``kind`` (index into data.TRANSPORTERS),
    ``place`` id, ``moved`` this movement phase, ``cargo`` goods (encoded ints) and
    ``carrier`` (id of the transporter carrying it, or -1)."""

    __slots__ = ("cargo", "carrier", "id", "kind", "moved", "owner", "place")

    def __init__(self, tid: int, owner: int, kind: int, place: int) -> None:
        self.id = tid
        self.owner = owner
        self.kind = kind
        self.place = place
        self.moved = False
        self.cargo: list[int] = []
        self.carrier = -1

    def copy(self) -> Transporter:
        """An independent copy."""
        t = _new_object(Transporter)  # every slot set below, without __init__
        t.id = self.id
        t.owner = self.owner
        t.kind = self.kind
        t.place = self.place
        t.moved = self.moved
        t.cargo = self.cargo[:]
        t.carrier = self.carrier
        return t

    @property
    def water(self) -> bool:
        """True for rafts, rowboats and steamers."""
        return self.kind >= D.RAFT


class RBState(State):
    """A Roads & Boats position (see the module docstring)."""

    def __init__(self, world: World | None, seats: int, options: RBOptions) -> None:
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
        if world is None:
            drafted = options.map == "drafted"
            self.step = ("setup" if seats > 1 else "deal") if drafted else "map"

    # ------------------------------------------------------------------ basics

    def clone(self) -> Self:
        """A fast independent copy (hand-written; the world is shared, immutable)."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
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

    @property
    def irrigated(self) -> bool:
        """True once the irrigation brick (#45) is placed: deserts are pasture (p15)."""
        return len(self.wonder) >= D.IRRIGATION_AT

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Any:
        """Setup: the generated map's seed (an int, when no ``map_seed`` pins it), then
        a temple order (list of seats, closest first); production: one mine draw per
        non-empty bag, ``[[hex, "gold"|"iron"], ...]`` (rulebook p8)."""
        if self.step in ("map", "rivers"):
            return rng.randrange(MAP_SEEDS)
        if self.step == "deal":
            names = [t for t, w in D.GEN_TERRAIN_WEIGHTS for _ in range(w)]
            return [rng.choice(names) for _ in range(self._deal_size())]
        if self.step == "setup":
            order = list(range(self.seats))
            rng.shuffle(order)
            return order
        if self.step == "draw":
            out = []
            for h in self.draws:
                gold, iron = self.bags[h]
                out.append([h, "gold" if rng.randrange(gold + iron) < gold else "iron"])
            return out
        raise InvalidChance("not at a chance node")

    def apply_chance(self, outcome: Any) -> None:
        """Apply a map seed, a temple order or mine draws; raises InvalidChance when
        impossible (a temple order where the map seed is due names the rule change)."""
        self._legal = None
        if self.step == "map":
            if type(outcome) is not int or not 0 <= outcome < MAP_SEEDS:
                raise InvalidChance(
                    f"expected the generated map's seed (an int below {MAP_SEEDS}), got "
                    f"{outcome!r}: since referee 0.2 the map is drawn at setup unless "
                    "option map_seed pins it (records of 0.1 used map_seed=1)"
                )
            world = world_from_spec(*generate_map(self.seats, outcome))
            self.world = world
            self.root = list(range(len(world.place_kind)))
            self.step = "homes" if self.seats == 1 else "setup"
            return
        if self.step == "setup":
            if (
                not isinstance(outcome, list)
                or not all(type(x) is int for x in outcome)
                or sorted(outcome) != list(range(self.seats))
            ):
                raise InvalidChance(f"temple order must be a permutation of seats: {outcome!r}")
            self.temple = list(outcome)
            self.sequence = self.temple[::-1]
            self.step = "deal" if self.world is UNDRAWN else "homes"
            self.actor = 0
            return
        if self.step == "deal":
            self._apply_deal(outcome)
            return
        if self.step == "rivers":
            if type(outcome) is not int or not 0 <= outcome < MAP_SEEDS:
                raise InvalidChance(f"expected the rivers' seed (an int below {MAP_SEEDS})")
            world = world_from_spec(*drafted_map(self.seats, self.tiles, outcome))
            self.world = world
            self.root = list(range(len(world.place_kind)))
            self.step, self.actor = "homes", 0
            return
        if self.step != "draw":
            raise InvalidChance("not at a chance node")
        if not isinstance(outcome, list) or len(outcome) != len(self.draws):
            raise InvalidChance(f"expected {len(self.draws)} mine draws, got {outcome!r}")
        for h, item in zip(self.draws, outcome, strict=True):
            if not (isinstance(item, list) and len(item) == 2 and item[0] == h):
                raise InvalidChance(f"bad mine draw {item!r} (expected [{h}, good])")
            if item[1] not in ("gold", "iron"):
                raise InvalidChance(f"a mine yields gold or iron, not {item[1]!r}")
            if self.bags[h][0 if item[1] == "gold" else 1] <= 0:
                raise InvalidChance(f"the bag of the mine on hex {h} holds no {item[1]}")
        for h, (_, good) in zip(self.draws, outcome, strict=True):
            self._mine_yield(h, good == "gold")
        self.draws = []
        self._begin_order()

    # ------------------------------------------------------------------ drafted map

    def _deal_size(self) -> int:
        """Tiles the next draw gives: 1 for the opening tile, then 2 (fewer at the end)."""
        if not self.tiles:
            return 1
        return min(2, D.GEN_LAND_PER_PLAYER * self.seats - len(self.tiles))

    def _apply_deal(self, outcome: Any) -> None:
        land = [t for t, _w in D.GEN_TERRAIN_WEIGHTS]
        if (
            not isinstance(outcome, list)
            or len(outcome) != self._deal_size()
            or not all(t in land for t in outcome)
        ):
            raise InvalidChance(
                f"expected {self._deal_size()} drawn land tiles (of {', '.join(land)}), "
                f"got {outcome!r}"
            )
        self.hand = list(outcome)
        self.step = "tile"

    def tile_spots(self) -> list[tuple[int, int]]:
        """Free cells a drafted tile may go to: next to the map (the opening tile at 0,0)."""
        if not self.tiles:
            return [(0, 0)]
        taken = {(q, r) for q, r, _t in self.tiles}
        spots = {
            (q + dq, r + dr)
            for q, r, _t in self.tiles
            for dq, dr in D.DELTAS
            if (q + dq, r + dr) not in taken
        }
        return sorted(spots)

    def _apply_tile(self, action: A.PlaceTile) -> None:
        self.hand.remove(action.terrain)
        self.tiles.append((action.q, action.r, action.terrain))
        if self.hand:
            return
        if len(self.tiles) >= D.GEN_LAND_PER_PLAYER * self.seats:
            self.step = "rivers"
            return
        if len(self.tiles) > 1:  # the opener places one tile, then the next player draws
            self.actor = (self.actor + 1) % len(self.sequence)
        elif self.seats > 1:
            self.actor = 1
        self.step = "deal"

    def _mine_yield(self, h: int, gold: bool) -> None:
        self.bags[h][0 if gold else 1] -= 1
        self._output(self.buildings[h][1], D.GOLD if gold else D.IRON)

    def _output(self, place: int, good: int) -> None:
        """A primary producer's ``good`` at ``place``: loose there or, with option
        ``primary_onto_transporters`` (seed 「若该板块上有交通工具，则放在交通工具上」), onto the
        transporter :meth:`_receiver` names."""
        if self.options.output_onto_transporters:
            t = self._receiver(place)
            if t is not None:
                t.cargo.append(good)
                return
        self._drop(place, good)

    def _receiver(self, place: int) -> Transporter | None:
        """The transporter that gets primary output at ``place`` under option
        ``primary_onto_transporters``: one touching ``place`` with room that neither
        carries nor is carried; a conflict goes by the sequence chart (seed: 「若有顺位冲突，
        请参考顺位规则」), so the first owner in sequence order, then the lowest id."""
        carriers = self._carriers()
        sequence = self.sequence
        best: Transporter | None = None
        best_key = (0, 0)
        for t in self.trans.values():
            if t.carrier >= 0 or t.id in carriers:
                continue
            if len(t.cargo) >= D.TRANSPORTERS[t.kind].capacity or place not in self.reach(t):
                continue
            key = (sequence.index(t.owner), t.id)
            if best is None or key < best_key:
                best, best_key = t, key
        return best

    # ------------------------------------------------------------------ flow

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
            self.sequence = sorted(range(self.seats), key=lambda s: self.slots[s])
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
                    t.cargo.append(good)
                    break
            if not pile:
                del piles[root]
        self.loans = []
        for p, pile in piles.items():  # defensive: no mark outlives the phase
            if pile and max(pile) >= D.LENT:
                piles[p] = [g & ~D.LENT for g in pile]

    def _wonder_done(self) -> bool:
        return len(self.wonder) >= D.END_MARK[self.seats]

    # ------------------------------------------------------------------ goods helpers

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
            cargo = t.cargo
            i = len(cargo) - 1
            while n and i >= 0:
                if cargo[i] & D.GOOD_MASK == good:
                    cargo.pop(i)
                    n -= 1
                i -= 1
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
            t.moved = False
            cargo = t.cargo
            if cargo and max(cargo) > mask:
                t.cargo = [g & mask for g in cargo]
        piles = self.piles
        for p, pile in piles.items():
            if pile and max(pile) > mask:
                piles[p] = [g & mask for g in pile]

    # ------------------------------------------------------------------ production

    def _pasture(self, h: int) -> bool:
        terrain = self.world.hexes[h].terrain
        return terrain == D.PASTURE or (terrain == D.DESERT and self.irrigated)

    def _breed(self) -> None:
        """Two geese alone on an empty pasture hex produce a third; two donkeys of one
        player alone there may (rulebook p8-9, §3): their place is put in ``breeders``
        and the owner decides with ``breed`` during production."""
        w = self.world
        on_hex: dict[int, list[Transporter]] = {}
        busy = {t.carrier for t in self.trans.values() if t.carrier >= 0}
        for t in self.trans.values():
            on_hex.setdefault(w.place_hex[t.place], []).append(t)
        # only hexes with a transporter or a pile can breed: those, in land_hexes() order
        candidates = set(on_hex)
        candidates.update(w.place_hex[p] for p in self.piles)
        is_land = w.is_land
        for h in sorted(candidates):
            if not is_land[h] or h in self.buildings or not self._pasture(h):
                continue
            piles = [
                (a, self.piles[a])
                for a in set(self.root[x] for x in w.areas[h])
                if self.piles.get(a)
            ]
            ts = on_hex.get(h, [])
            if not ts and len(piles) == 1:
                place, pile = piles[0]
                if len(pile) == 2 and all(g & D.GOOD_MASK == D.GOOSE for g in pile):
                    self._drop(place, D.GOOSE)
            elif not piles and len(ts) == 2:
                a, b = ts
                if (
                    a.kind == b.kind == D.DONKEY
                    and a.owner == b.owner
                    and a.place == b.place
                    and not a.cargo
                    and not b.cargo
                    and a.carrier == b.carrier == -1
                    and not {a.id, b.id} & busy
                ):
                    self.breeders.append([a.place, a.owner])

    def _primary(self) -> None:
        """Woodcutters, quarries, clay pits and oil rigs put 1 good on their hex (p8)."""
        for h in sorted(self.buildings):
            kind, place, _owner, _used = self.buildings[h]
            btype = D.BUILDINGS[kind]
            if btype.kind == D.PRIMARY and kind != D.MINE:
                self._output(place, btype.output)

    def _auto_process(self) -> None:
        """End of production: factories use loose complete input sets up to their
        limit (boards before trunks); unclaimed transporter inputs are lost; loose
        2 geese + 1 paper sets are used up by unattended research (p9, §3, §0 item 9)."""
        for h in sorted(self.buildings):
            b = self.buildings[h]
            btype = D.BUILDINGS[b[0]]
            if btype.kind == D.PRIMARY:
                continue
            if b[0] == D.WAGON_FACTORY and not self.options.legacy:
                continue  # its input set includes a donkey: loose boards are not enough
            place = b[1]
            while b[3] + btype.out_count <= btype.limit:
                counts = self._loose_count(place)
                if not self._inputs_ok(b[0], counts):
                    break
                self._consume_inputs(b[0], place, [])
                b[3] += btype.out_count
                if btype.kind == D.SECONDARY:
                    for _ in range(btype.out_count):
                        self._drop(place, btype.output)
        for place in sorted(self.piles):
            counts = self._loose_count(place)
            sets = min(counts[D.GOOSE] // 2, counts[D.PAPER])
            if sets:
                self._take(place, [], D.GOOSE, 2 * sets)
                self._take(place, [], D.PAPER, sets)

    def _inputs_ok(self, kind: int, counts: list[int]) -> bool:
        if kind in D.WOOD_FED:
            return counts[D.BOARD] + counts[D.TRUNK] >= 2
        return self._affordable(counts, D.BUILDINGS[kind].inputs)

    def _consume_inputs(self, kind: int, place: int, own: list[Transporter]) -> None:
        if kind in D.WOOD_FED:
            loose = self._loose_count(place)
            carried = [0] * D.NUM_GOODS
            for t in own:
                for g in t.cargo:
                    carried[g & D.GOOD_MASK] += 1
            need = 2
            for source, good in (
                (loose, D.BOARD),
                (loose, D.TRUNK),
                (carried, D.BOARD),
                (carried, D.TRUNK),
            ):
                n = min(need, source[good])
                if n:
                    self._take(place, own, good, n)
                    source[good] -= n
                    need -= n
            return
        self._pay(place, own, D.BUILDINGS[kind].inputs)

    def launch_places(self, h: int, seat: int) -> list[int]:
        """Where a boat made on hex ``h`` may enter the water: the hex's river or a
        coastline of the factory's area not walled by another player (p9)."""
        w = self.world
        out = []
        if w.river_place[h] >= 0:
            out.append(w.river_place[h])
        area = self.buildings[h][1]
        for d in range(6):
            j = w.nbr[h][d]
            if j < 0 or w.hexes[j].land:
                continue
            wall = self.walls.get(w.edge_of[h][d])
            if wall is not None and wall[0] not in (-1, seat):
                continue
            for a in w.areas[h]:
                if self.root[a] != area:
                    continue
                for dock in w.docks_of_area[a]:
                    if w.place_dir[dock] == d and dock not in out:
                        out.append(dock)
        return out

    def _production_actions(self, seat: int) -> list[Any]:
        out: list[Any] = []
        here = self.presence(seat)
        pools: dict[int, list[int]] = {}  # pool(place, here[place]) by place, as met
        for h in sorted(self.buildings):
            kind, place, _owner, used = self.buildings[h]
            btype = D.BUILDINGS[kind]
            if btype.kind == D.PRIMARY or place not in here:
                continue
            if used + btype.out_count > btype.limit:
                continue
            own = here[place]
            counts = pools[place] = self.pool(place, own)
            if not self._inputs_ok(kind, counts):
                continue
            if btype.kind == D.SECONDARY:
                out.append(A.Produce(h))
                continue
            if kind == D.WAGON_FACTORY:
                if any(self._free_donkey(t, place) for t in own):
                    out.append(A.Produce(h))
                continue
            # at the transporter limit the production is still offered: the player
            # then removes one transporter at a factory (the ``scrap`` step, p9)
            if btype.output >= D.RAFT:
                out.extend(A.Produce(h, p) for p in self.launch_places(h, seat))
            else:
                out.append(A.Produce(h))
        for place, own in here.items():
            counts = pools.get(place) or self.pool(place, own)
            if (
                counts[D.GOOSE] >= 2
                and counts[D.PAPER] >= 1
                and self.world.place_kind[place] != RIVER
            ):
                for i, name in enumerate(D.RESEARCH):
                    if not self.research[seat] >> i & 1:
                        out.append(A.Research(place, name))
        bit = 1 << (seat + D.GOOD_BITS)
        carriers = self._carriers()
        piles = self.piles
        buildings = self.buildings
        place_hex = self.world.place_hex
        anywhere = self.options.exchange_anywhere  # else only at a building (0.2)
        land = water = 0  # _count_own(seat) in the same pass
        for t in self.trans.values():
            if t.owner != seat:
                continue
            if t.kind >= D.RAFT:
                water += 1
            else:
                land += 1
            if t.carrier >= 0 or t.id in carriers:
                continue
            reach = self.reach(t)
            cargo = t.cargo
            if len(cargo) < D.TRANSPORTERS[t.kind].capacity:
                for p in reach:
                    pile = piles.get(p)
                    if pile:
                        out.extend(A.Take(t.id, k, p) for k in _kinds(pile))
            if cargo:
                for p in reach:
                    b = None if anywhere else buildings.get(place_hex[p])
                    if anywhere or (b is not None and b[1] == p):
                        out.extend(A.Put(t.id, k, p) for k in _kinds(cargo, bit))
        out.extend(self._borrow_actions(seat, here, carriers))
        for place, owner in self.breeders:
            if owner == seat and self._may_gain(seat, D.DONKEY):
                out.append(A.Breed(place))
        if land >= D.MAX_LAND or water >= D.MAX_WATER or land + water >= D.MAX_TRANSPORTERS:
            out.extend(A.Scrap(t.id) for t in self._scrappable(seat))
        fresh = self.fresh[seat]
        if fresh:
            for project, (sources, target) in D.UPGRADES.items():
                if not fresh >> project & 1:
                    continue
                for h in sorted(self.buildings):
                    b = self.buildings[h]
                    if b[0] in sources and b[1] in here:
                        out.append(A.Upgrade(h, D.BUILDINGS[target].name))
        out.append(A.DONE)
        return out

    def _carriers(self) -> set[int]:
        """Ids of the transporters carrying another one."""
        return {u.carrier for u in self.trans.values() if u.carrier >= 0}

    def _borrow_actions(
        self,
        seat: int,
        here: dict[int, list[Transporter]],
        carriers: set[int] | None,
        materials: bool = False,
    ) -> list[Any]:
        """``borrow`` offers: goods on other players' free transporters that touch a land
        area (or oil rig) where ``seat`` has a transporter (rulebook p13); ``carriers``
        is :meth:`_carriers` (None: worked out here when needed).  With ``materials``
        (the building phase) only goods that a building action of ``seat`` at that
        place could consume (:meth:`_materials`)."""
        out: list[Any] = []
        kinds = self.world.place_kind
        refused = self.refused
        needs: dict[int, int] = {}  # _materials(seat, place) by place, as met
        for u in self.trans.values():
            if u.owner == seat or u.carrier >= 0 or not u.cargo:
                continue
            uid = u.id
            if uid in refused:
                continue
            if carriers is None:
                carriers = self._carriers()
            if uid in carriers:
                continue
            place = u.place
            if kinds[place] == LAND:  # reach(u) is just its place
                if place in here:
                    goods = _kinds(u.cargo)
                    if materials:
                        goods = self._usable(seat, place, goods, needs)
                    out.extend(A.Borrow(uid, k, place) for k in goods)
                continue
            for p in self.reach(u):
                if p in here and kinds[p] in (LAND, SEA_PLACE):
                    goods = _kinds(u.cargo)
                    if materials:
                        goods = self._usable(seat, p, goods, needs)
                    out.extend(A.Borrow(uid, k, p) for k in goods)
        return out

    def _usable(
        self, seat: int, place: int, goods: tuple[str, ...], needs: dict[int, int]
    ) -> tuple[str, ...]:
        """The names in ``goods`` that :meth:`_materials` allows at ``place`` (cached in
        ``needs`` by place)."""
        mask = needs.get(place)
        if mask is None:
            mask = needs[place] = self._materials(seat, place)
        return tuple(k for k in goods if mask >> GOOD_INDEX[k] & 1)

    def _materials(self, seat: int, place: int) -> int:
        """Bit set (bit = good index) of the goods some building action of ``seat`` at
        ``place`` (a land area or an oil rig) could consume, whatever goods are at hand:
        another player's goods are lent as building materials only (seed p13
        「建造建筑物时需要提供相应的原料…取得对方的许可之后便可使用对方交通工具上的资源」).  The
        cost goods of every building kind the site, research and mine limit allow on a
        hex without a building, stone for a road, a bridge or a wall, boards to demolish
        a wall, iron and fuel for a new shaft."""
        w = self.world
        kind = w.place_kind[place]
        h = w.place_hex[place]
        research = self.research[seat]
        mask = 0
        if h not in self.buildings:
            mine_room = self.options.mine_limit <= 0 or self.mines < self.options.mine_limit
            for b in self._site_kinds(h, kind == SEA_PLACE):
                btype = D.BUILDINGS[b]
                if btype.research is not None and not research >> btype.research & 1:
                    continue
                if b == D.MINE and not mine_room:
                    continue
                for g, _n in btype.cost:
                    mask |= 1 << g
        stone = 1 << D.STONE
        if kind == LAND:
            for a in w.areas[h]:
                if self.root[a] == place and any(
                    cross not in self.roads for cross, _q in w.land_links[a]
                ):
                    mask |= stone  # a road
            desert = w.hexes[h].terrain == D.DESERT
            if not desert or self.irrigated or self.options.bridges_on_deserts:
                for _side, left, right in w.river_banks[h]:
                    a, b = self.root[left], self.root[right]
                    if a != b and place in (a, b):
                        mask |= stone  # a bridge paid on this bank
            mine = self.buildings.get(h)
            if (
                mine is not None
                and mine[0] == D.MINE
                and mine[1] == place
                and research >> D.NEW_SHAFTS & 1
            ):
                for g, _n in D.SHAFT_COST:
                    mask |= 1 << g
        cap = self.options.most_wall_tokens
        sides, _extra = self._wall_sides(place)
        for d in sides:
            edge = w.edge_of[h][d]
            e = w.edges[edge]
            if not w.is_land[e[0]] and not w.is_land[e[2]]:
                continue
            wall = self.walls.get(edge)
            tokens = wall[1] if wall else 0
            if (wall is None or wall[0] in (-1, seat)) and (cap <= 0 or tokens < cap):
                mask |= stone
            if wall is not None and wall[0] != -1:
                mask |= 1 << D.BOARD  # a demolition
        return mask

    def _over_limit(self, seat: int) -> int:
        """0 within the transporter limit, else which own transporters must go: 1 any,
        2 land ones, 3 water ones (8 in all, 5 land, 5 water; rulebook p9)."""
        land, water = self._count_own(seat)
        if land + water > D.MAX_TRANSPORTERS:
            return 1
        if land > D.MAX_LAND:
            return 2
        return 3 if water > D.MAX_WATER else 0

    def _excess_scraps(self, seat: int) -> list[Any]:
        """The ``scrap`` step: own transporters at a transporter factory whose removal
        brings ``seat`` back towards the limit."""
        over = self._over_limit(seat)
        return [
            A.Scrap(t.id) for t in self._scrappable(seat) if over == 1 or (over == 2) != t.water
        ]

    def _apply_produce(self, seat: int, action: A.Produce) -> None:
        h = action.hex
        b = self.buildings[h]
        kind, place = b[0], b[1]
        btype = D.BUILDINGS[kind]
        own = self._own_at(seat, place)
        self._consume_inputs(kind, place, own)
        b[3] += btype.out_count
        if btype.kind == D.SECONDARY:
            left = btype.out_count
            for t in own:
                room = D.TRANSPORTERS[t.kind].capacity - len(t.cargo)
                if self._carried_by(t) is not None:
                    room = 0  # a transporter carrying another holds no goods
                n = min(room, left)
                t.cargo.extend([btype.output] * n)
                left -= n
            for _ in range(left):
                self._drop(place, btype.output)
            return
        if kind == D.WAGON_FACTORY:
            donkeys = [t for t in own if self._free_donkey(t, place)]
            donkey = min(donkeys, key=lambda t: (len(t.cargo), t.id))
            for g in donkey.cargo:
                self._drop(place, g)
            del self.trans[donkey.id]
        target = place if btype.output < D.RAFT else action.launch
        self._new_transporter(seat, btype.output, target)
        if self._over_limit(seat):
            self.step = "scrap"

    def _scrappable(self, seat: int) -> list[Transporter]:
        """Own transporters at a transporter factory that may be removed (rulebook p9)."""
        out = []
        for t in self.trans.values():
            if t.owner != seat or t.carrier >= 0 or self._carried_by(t) is not None:
                continue
            for p in self.reach(t):
                b = self.buildings.get(self.world.place_hex[p])
                if b is not None and b[1] == p and D.BUILDINGS[b[0]].kind == D.FACTORY:
                    out.append(t)
                    break
        return out

    def _free_donkey(self, t: Transporter, place: int) -> bool:
        """True for a donkey in ``place`` that neither is carried nor carries."""
        if t.kind != D.DONKEY or t.place != place or t.carrier >= 0:
            return False
        return not any(u.carrier == t.id for u in self.trans.values())

    def _apply_research(self, seat: int, action: A.Research) -> None:
        project = D.RESEARCH.index(action.project)
        own = self._own_at(seat, action.place)
        self._pay(action.place, own, D.RESEARCH_COST)
        self.research[seat] |= 1 << project
        self.fresh[seat] |= 1 << project

    # ------------------------------------------------------------------ movement

    def _movement_actions(self, seat: int) -> list[Any]:
        trans = self.trans
        if self.active < 0:
            # releases of carried transporters, then own free unmoved ones: one pass
            out: list[Any] = []
            moves: list[Any] = []
            for u in trans.values():
                cid = u.carrier
                if cid < 0:
                    if u.owner == seat and not u.moved:
                        moves.append(A.MoveTransporter(u.id))
                    continue
                c = trans[cid]
                if c.owner == seat and not c.moved:
                    out.extend(A.Release(u.id, p) for p in self.release_places(u))
            out.extend(moves)
            out.append(A.DONE)
            return out
        t = trans[self.active]
        out = [A.Step(p) for p in self._steps(t)]
        bit = 1 << (seat + D.GOOD_BITS)
        places = self.reach(t)
        # One pass over the transporters finds what t carries, every carrier, the free
        # transporters beside t (sharing a place, or reaching one it reaches: those it
        # may hand goods to or take goods from, rulebook p11) and the unmoved empty
        # ones it may pick up (rulebook p12; another player's only with consent); the
        # last two are filtered by ``carriers`` once that is complete.
        tid = t.id
        tplace = t.place
        kinds = self.world.place_kind
        mine = set(places)  # the places t stands on or reaches
        mine.add(tplace)
        empty = not t.cargo
        t_land = t.kind < D.RAFT
        carrying = None
        carriers: set[int] = set()
        beside: list[Transporter] = []
        carriable: list[Transporter] = []
        for u in trans.values():
            cid = u.carrier
            if cid >= 0:
                carriers.add(cid)
                if cid == tid and carrying is None:
                    carrying = u
                continue
            p = u.place
            if p in mine:  # where t is or a place t reaches
                if u is t:
                    continue
                beside.append(u)
                # unmoved and empty, a land transporter there may be carried; a boat
                # where t is, or one reaching the place of a land t
                if (
                    empty
                    and not u.moved
                    and not u.cargo
                    and (u.kind < D.RAFT or p == tplace or (t_land and tplace in self.reach(u)))
                ):
                    carriable.append(u)
                continue
            if kinds[p] == LAND:  # reaching just its own place: not beside t
                continue
            u_reach = self.reach(u)
            if not mine.isdisjoint(u_reach):
                beside.append(u)
            # away from the places of t only a boat reaching a land t may carry it
            if (
                empty
                and t_land
                and u.kind >= D.RAFT
                and not u.moved
                and not u.cargo
                and tplace in u_reach
            ):
                carriable.append(u)
        room = carrying is None and len(t.cargo) < D.TRANSPORTERS[t.kind].capacity
        piles = self.piles
        if room:
            for p in places:
                pile = piles.get(p)
                if pile:
                    out.extend(A.Load(k, p) for k in _kinds(pile, bit))
        held = _kinds(t.cargo)
        if held:
            for p in places:
                out.extend(A.Unload(k, p) for k in held)
        geese = places
        if kinds[tplace] == SEA_PLACE and tplace not in places:
            geese = [*places, tplace]  # geese at sea
        mask = D.GOOD_MASK
        goose = D.GOOSE
        for p in geese:
            pile = piles.get(p)
            if pile and any(g & mask == goose and not g & bit for g in pile):
                out.append(A.Lead(p))
        if self.herd:
            out.extend(A.Settle(p) for p in places)
        if carrying is None:
            refused = self.refused
            for u in beside:
                if u.id in refused or u.id in carriers:
                    continue
                has_room = len(u.cargo) < D.TRANSPORTERS[u.kind].capacity
                if held and has_room and (u.owner != seat or u.moved):
                    out.extend(A.Give(k, u.id) for k in held)
                if room and u.cargo:
                    out.extend(A.Receive(k, u.id) for k in _kinds(u.cargo, bit))
            if empty:
                out.extend(
                    A.Carry(u.id) for u in carriable if u.id not in carriers and u.id not in refused
                )
        if not (self.herd and kinds[tplace] == RIVER):
            out.append(A.STOP)  # followers on a river must first be settled on a bank
        return out

    def _carried_by(self, t: Transporter) -> Transporter | None:
        """The transporter ``t`` carries, if any."""
        tid = t.id
        for u in self.trans.values():
            if u.carrier == tid:
                return u
        return None

    def release_places(self, u: Transporter) -> list[int]:
        """Where carried ``u`` may be set down at the start of a movement phase: a land
        transporter in an area its carrier touches; a boat on the river or a free coast
        of the carrier's area, or where the carrying boat is (rulebook p12)."""
        w = self.world
        c = self.trans[u.carrier]
        if not u.water:
            if not c.water:
                return [c.place]
            reach = self.reach(c)
            if self.options.legacy:
                return reach
            return [p for p in reach if w.place_kind[p] == LAND]
        if c.water:
            return [c.place]
        h = w.place_hex[c.place]
        out = [w.river_place[h]] if w.river_place[h] >= 0 else []
        for a in w.areas[h]:
            if self.root[a] != c.place:
                continue
            for dock in w.docks_of_area[a]:
                edge = w.edge_of[h][w.place_dir[dock]]
                if not self._blocked(edge, u.owner):
                    out.append(dock)
        return out

    def _blocked(self, edge: int, seat: int) -> bool:
        wall = self.walls.get(edge)
        return wall is not None and wall[0] != -1 and wall[0] != seat

    def _steps(self, t: Transporter) -> list[int]:
        """Places the moving transporter may enter next (p10-12)."""
        if self.moves_left <= 0:
            return []
        w = self.world
        seat = t.owner
        out: list[int] = []
        if t.kind < D.RAFT:
            offroad = t.kind == D.DONKEY and self.steps == 0
            place = t.place
            root = self.root
            roads = self.roads
            walls = self.walls
            cross_edge = w.cross_edge
            for a in w.areas[w.place_hex[place]]:
                if root[a] != place:
                    continue
                for cross, q in w.land_links[a]:
                    if not offroad and cross not in roads:
                        continue
                    if walls:  # _blocked(cross_edge[cross], seat)
                        wall = walls.get(cross_edge[cross])
                        if wall is not None and wall[0] != -1 and wall[0] != seat:
                            continue
                    target = root[q]
                    if target not in out:
                        out.append(target)
            return out
        restricted = self.options.loaded_boats_restricted and self._carried_by(t) is not None
        here = w.place_kind[t.place]
        for edge, q, _dock in w.boat_links[t.place]:
            if edge >= 0 and self._blocked(edge, seat):
                continue
            if restricted and w.place_kind[q] != here:
                continue  # SEED reading: no mouth, docking or undocking while loaded
            out.append(q)
        return out

    def _apply_step(self, t: Transporter, to: int) -> None:
        w = self.world
        if w.place_kind[t.place] == SEA_PLACE:
            self._geese_at_sea_follow(t)
        if t.kind < D.RAFT:
            road = False
            h = w.place_hex[t.place]
            for a in w.areas[h]:
                if self.root[a] != t.place:
                    continue
                for cross, q in w.land_links[a]:
                    if (
                        self.root[q] == to
                        and cross in self.roads
                        and not self._blocked(w.cross_edge[cross], t.owner)
                    ):
                        road = True
            self.moves_left = self.moves_left - 1 if road else 0
        else:
            self.moves_left -= 1
            if w.place_kind[to] == DOCK:
                self.moves_left = 0
        self.steps += 1
        t.place = to
        for u in self.trans.values():
            if u.carrier == t.id:
                u.place = to

    def _geese_at_sea_follow(self, t: Transporter) -> None:
        """Geese at sea follow a transporter leaving their hex when no other transporter
        stays there; an oil rig may keep them (rulebook p12, §6)."""
        here = t.place
        pile = self.piles.get(here)
        if not pile:
            return
        b = self.buildings.get(self.world.place_hex[here])
        if b is not None and b[0] == D.OIL_RIG:
            return
        if self.options.geese_follow_last_only and any(
            u is not t and u.place == here and u.carrier < 0 for u in self.trans.values()
        ):
            return
        geese = [g for g in pile if g & D.GOOD_MASK == D.GOOSE]
        rest = [g for g in pile if g & D.GOOD_MASK != D.GOOSE]
        self.herd.extend(geese)
        if rest:
            self.piles[here] = rest
        else:
            del self.piles[here]

    def _set_down(self, t: Transporter) -> int:
        """Where the followers of stopping ``t`` stay: its land area, the area of its
        dock, or its sea hex (geese at sea)."""
        w = self.world
        kind = w.place_kind[t.place]
        if kind == DOCK:
            return self.root[w.dock_area[t.place]]
        return t.place

    def _apply_load(self, t: Transporter, good: int, place: int) -> None:
        pile = self.piles[place]
        bit = 1 << (t.owner + D.GOOD_BITS)
        for i in range(len(pile) - 1, -1, -1):
            g = pile[i]
            if g & D.GOOD_MASK == good and not g & bit:
                pile.pop(i)
                t.cargo.append(g)
                break
        if not pile:
            del self.piles[place]

    def _apply_unload(self, t: Transporter, good: int, place: int) -> None:
        cargo = t.cargo
        for i in range(len(cargo) - 1, -1, -1):
            if cargo[i] & D.GOOD_MASK == good:
                g = cargo.pop(i)
                self._drop(place, g | 1 << (t.owner + D.GOOD_BITS))
                return

    # ------------------------------------------------------------------ building

    def _site_ok(self, kind: int, h: int) -> bool:
        btype = D.BUILDINGS[kind]
        hx = self.world.hexes[h]
        if hx.terrain == D.DESERT and not self.irrigated:
            return False
        if btype.site == D.LAND:
            return hx.land
        if btype.site == D.SHORE:
            return self.world.shore[h]
        return hx.terrain == btype.site

    def _site_kinds(self, h: int, sea: bool) -> list[int]:
        """Building kinds (in data.BUILDINGS order) whose site fits hex ``h``: only the
        oil rig from a sea place, every other kind from a land area (p13-16); cached on
        the world by (hex, sea, irrigated)."""
        irrigated = self.irrigated
        key = (h, sea, irrigated)
        kinds = self.world.site_cache.get(key)
        if kinds is None:
            kinds = [
                b
                for b in range(len(D.BUILDINGS))
                if sea == (b == D.OIL_RIG) and self._site_ok(b, h)
            ]
            self.world.site_cache[key] = kinds
        return kinds

    def mixes(self, seat: int) -> list[str]:
        """Mine bag fillings ``seat`` may choose (research-dependent, p16)."""
        out = []
        for name, need in D.MIX_RESEARCH.items():
            if need is None or self.research[seat] >> need & 1:
                out.append(name)
        return out

    def _wall_sides(self, place: int) -> tuple[list[int], int]:
        """(hex sides a wall may be built on from ``place``, extra cost)."""
        w = self.world
        kind = w.place_kind[place]
        h = w.place_hex[place]
        if kind == LAND:
            sides = [d for a in w.areas[h] if self.root[a] == place for d in w.area_sides[a]]
            # the river sides the area borders: a wall may stand between any two land
            # hexes, river or not (rulebook p14, the wall example's "F" edges)
            for d, left, right in w.river_banks[h]:
                if d not in sides and place in (self.root[left], self.root[right]):
                    sides.append(d)
            return [d for d in sides if w.nbr[h][d] >= 0], 0
        if kind == RIVER:
            return [d for d in range(6) if w.nbr[h][d] >= 0], 0
        sides = [d for d in range(6) if w.nbr[h][d] >= 0 and w.is_land[w.nbr[h][d]]]
        return sides, D.WALL_FROM_SEA_EXTRA

    def _building_actions(self, seat: int) -> list[Any]:
        w = self.world
        out: list[Any] = []
        here = self.presence(seat)
        research = self.research[seat]
        mine_room = self.options.mine_limit <= 0 or self.mines < self.options.mine_limit
        cap = self.options.most_wall_tokens
        buildings = D.BUILDINGS
        is_land = w.is_land
        wall_least = D.wall_build_cost(0)
        demolish_least = D.wall_demolish_cost(0)
        pools: dict[int, list[int]] = {}
        irrigated = self.irrigated
        build_research = research & _BUILD_RESEARCH
        affordable = w.build_cache
        for place in sorted(here):
            own = here[place]
            counts = pools[place] = self.pool(place, own)
            kind = w.place_kind[place]
            h = w.place_hex[place]
            if kind in (LAND, SEA_PLACE) and h not in self.buildings:
                # the kinds that fit, are researched and affordable: they depend on the
                # place, irrigation, research and the cost goods' counts (capped)
                sig = 0
                for g, most in _COST_CAPS:
                    n = counts[g]
                    sig = sig * (most + 1) + (n if n < most else most)
                key = (place, irrigated, build_research, sig)
                fit = affordable.get(key)
                if fit is None:
                    fit = affordable[key] = tuple(
                        (b, buildings[b].name)
                        for b in self._site_kinds(h, kind == SEA_PLACE)
                        if _may_build(buildings[b], research, counts)
                    )
                for b, name in fit:
                    if b == D.MINE:
                        if mine_room:
                            out.extend(A.Build(name, place, m) for m in self.mixes(seat))
                    else:
                        out.append(A.Build(name, place))
            if kind == LAND and counts[D.STONE] >= 1:
                for a in w.areas[h]:
                    if self.root[a] != place:
                        continue
                    for cross, _q in w.land_links[a]:
                        if cross not in self.roads:
                            out.append(A.Road(place, *w.crossing_side(h, cross)))
            # every wall costs at least wall_build_cost(0) stones or, to demolish,
            # wall_demolish_cost(0) boards: without either no wall action is possible
            sides: list[int] = []
            if counts[D.STONE] >= wall_least or counts[D.BOARD] >= demolish_least:
                sides, extra = self._wall_sides(place)
            for d in sides:
                edge = w.edge_of[h][d]
                e = w.edges[edge]
                if not is_land[e[0]] and not is_land[e[2]]:
                    continue
                wall = self.walls.get(edge)
                tokens = wall[1] if wall else 0
                buildable = (wall is None or wall[0] in (-1, seat)) and (cap <= 0 or tokens < cap)
                if buildable and counts[D.STONE] >= D.wall_build_cost(tokens) + extra:
                    out.append(A.Wall(place, d))
                demolishable = wall is not None and wall[0] != -1
                if demolishable and counts[D.BOARD] >= D.wall_demolish_cost(tokens) + extra:
                    out.append(A.Demolish(place, d))
            mine = self.buildings.get(h)
            if (
                kind == LAND
                and mine is not None
                and mine[0] == D.MINE
                and mine[1] == place
                and research >> D.NEW_SHAFTS & 1
                and self._affordable(counts, D.SHAFT_COST)
            ):
                out.extend(A.Shaft(h, m) for m in self.mixes(seat))
        # bridges (not on deserts before irrigation: only roads and walls, p15)
        deserts_closed = not self.irrigated and not self.options.bridges_on_deserts
        for h in sorted({w.place_hex[p] for p in here}):
            if deserts_closed and w.hexes[h].terrain == D.DESERT:
                continue
            pairs: set[tuple[int, int]] = set()
            for side, left, right in w.river_banks[h]:
                a, b = sorted((self.root[left], self.root[right]))
                if a == b or (a, b) in pairs:
                    continue
                pairs.add((a, b))
                for p in (a, b, w.river_place[h]):
                    if p in pools and pools[p][D.STONE] >= 1:
                        out.append(A.Bridge(h, side, p))
                        break
        materials = self.options.borrow_materials_only
        out.extend(self._borrow_actions(seat, here, None, materials))
        out.append(A.DONE)
        return out

    def _apply_build(self, seat: int, action: A.Build) -> None:
        kind = D.B[action.building]
        place = action.place
        h = self.world.place_hex[place]
        own = self._own_at(seat, place)
        self._pay(place, own, D.BUILDINGS[kind].cost)
        self.buildings[h] = [kind, place, seat, 0]
        if kind == D.MINE:
            self.bags[h] = list(D.MINE_MIXES[action.mix])
            self.mines += 1

    def _apply_wall(self, seat: int, action: A.Wall | A.Demolish) -> None:
        w = self.world
        place = action.place
        h = w.place_hex[place]
        edge = w.edge_of[h][action.side]
        own = self._own_at(seat, place)
        extra = D.WALL_FROM_SEA_EXTRA if w.place_kind[place] == SEA_PLACE else 0
        wall = self.walls.get(edge)
        tokens = wall[1] if wall else 0
        if isinstance(action, A.Demolish):
            self._take(place, own, D.BOARD, D.wall_demolish_cost(tokens) + extra)
            self.walls[edge] = [-1, tokens]
            return
        self._take(place, own, D.STONE, D.wall_build_cost(tokens) + extra)
        self.walls[edge] = [seat, tokens + 1]
        # a coastal wall pushes other players' docked boats back to sea (p14); a
        # land transporter aboard a boat is the boat's cargo, never pushed by itself
        for t in self.trans.values():
            if t.owner != seat and t.carrier < 0 and w.place_kind[t.place] == DOCK:
                th = w.place_hex[t.place]
                if w.edge_of[th][w.place_dir[t.place]] == edge:
                    sea = w.dock_sea(t.place)
                    for u in self.trans.values():
                        if u.carrier == t.id:
                            u.place = sea
                    t.place = sea

    def _apply_bridge(self, seat: int, action: A.Bridge) -> None:
        w = self.world
        own = self._own_at(seat, action.place)
        self._take(action.place, own, D.STONE, 1)
        for side, left, right in w.river_banks[action.hex]:
            if side == action.side:
                self._merge(self.root[left], self.root[right])
        self.bridges.append((action.hex, action.side))

    def _merge(self, a: int, b: int) -> None:
        """Join two areas of a hex (a bridge): everything of the larger id moves over."""
        keep, gone = min(a, b), max(a, b)
        for i, r in enumerate(self.root):
            if r == gone:
                self.root[i] = keep
        pile = self.piles.pop(gone, None)
        if pile:
            self.piles.setdefault(keep, []).extend(pile)
        for t in self.trans.values():
            if t.place == gone:
                t.place = keep
        for b_ in self.buildings.values():
            if b_[1] == gone:
                b_[1] = keep
        self.homes = [keep if x == gone else x for x in self.homes]

    # ------------------------------------------------------------------ wonder

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

    # ------------------------------------------------------------------ actions

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

    def _apply_offer(self, action: A.Give | A.Receive | A.Carry) -> None:
        """Carry out a hand-over or a carrying (after consent where needed)."""
        t = self.trans[self.active]
        u = self.trans[action.transporter]
        if isinstance(action, A.Carry):
            u.carrier = t.id
            u.moved = True
            u.place = t.place
            return
        good = GOOD_INDEX[action.good]
        src, dst = (t, u) if isinstance(action, A.Give) else (u, t)
        bit = 1 << (t.owner + D.GOOD_BITS)
        for i in range(len(src.cargo) - 1, -1, -1):
            g = src.cargo[i]
            if g & D.GOOD_MASK == good and (src is t or not g & bit):
                src.cargo.pop(i)
                dst.cargo.append(g | bit if src is t else g)
                return

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

    def _do_step(self, seat: int, action: A.Step) -> None:
        self._apply_step(self.trans[self.active], action.to)

    def _do_load(self, seat: int, action: A.Load) -> None:
        self._apply_load(self.trans[self.active], GOOD_INDEX[action.good], action.place)

    def _do_unload(self, seat: int, action: A.Unload) -> None:
        self._apply_unload(self.trans[self.active], GOOD_INDEX[action.good], action.place)

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

    def _do_place_tile(self, seat: int, action: A.PlaceTile) -> None:
        self._apply_tile(action)

    def _do_produce(self, seat: int, action: A.Produce) -> None:
        self._apply_produce(seat, action)

    def _do_research(self, seat: int, action: A.Research) -> None:
        self._apply_research(seat, action)

    def _do_breed(self, seat: int, action: A.Breed) -> None:
        self.breeders.remove([action.place, seat])
        self._new_transporter(seat, D.DONKEY, action.place)

    def _do_scrap(self, seat: int, action: A.Scrap) -> None:
        t = self.trans.pop(action.transporter)
        factory = next(
            p
            for p in self.reach(t)
            if (b := self.buildings.get(self.world.place_hex[p])) is not None and b[1] == p
        )
        for g in t.cargo:
            self._drop(factory, g & D.GOOD_MASK)
        if self.step == "scrap" and not self._over_limit(seat):
            self.step = "act"

    def _do_take(self, seat: int, action: A.Take) -> None:
        pile = self.piles[action.place]
        good = GOOD_INDEX[action.good]
        i = next(i for i, g in enumerate(pile) if g & D.GOOD_MASK == good)
        # marked as handled by this seat: it is not set down again this production
        self.trans[action.transporter].cargo.append(pile.pop(i) | 1 << (seat + D.GOOD_BITS))
        if not pile:
            del self.piles[action.place]

    def _do_put(self, seat: int, action: A.Put) -> None:
        cargo = self.trans[action.transporter].cargo
        good = GOOD_INDEX[action.good]
        bit = 1 << (seat + D.GOOD_BITS)
        i = next(i for i, g in enumerate(cargo) if g & D.GOOD_MASK == good and not g & bit)
        self._drop(action.place, cargo.pop(i))

    def _do_upgrade(self, seat: int, action: A.Upgrade) -> None:
        self.buildings[action.hex][0] = D.B[action.building]

    def _do_move_transporter(self, seat: int, action: A.MoveTransporter) -> None:
        t = self.trans[action.transporter]
        t.moved = True
        self.active = t.id
        self.moves_left = D.TRANSPORTERS[t.kind].moves
        self.steps = 0

    def _do_stop(self, seat: int, action: A.Stop) -> None:
        t = self.trans[self.active]
        bit = 1 << (seat + D.GOOD_BITS)
        stay = self._set_down(t)
        for g in self.herd:
            self._drop(stay, g | bit)
        self.herd = []
        t.cargo = [g | bit for g in t.cargo]  # everything aboard has moved
        self.active = -1
        self.refused = []

    def _do_settle(self, seat: int, action: A.Settle) -> None:
        bit = 1 << (seat + D.GOOD_BITS)
        self._drop(action.place, self.herd.pop() | bit)

    def _do_lead(self, seat: int, action: A.Lead) -> None:
        pile = self.piles[action.place]
        bit = 1 << (seat + D.GOOD_BITS)
        i = next(i for i, g in enumerate(pile) if g & D.GOOD_MASK == D.GOOSE and not g & bit)
        self.herd.append(pile.pop(i))
        if not pile:
            del self.piles[action.place]

    def _do_borrow(self, seat: int, action: A.Borrow) -> None:
        self.offer = action
        self.step = "consent"

    def _do_give(self, seat: int, action: A.Give | A.Receive | A.Carry) -> None:
        if self.trans[action.transporter].owner == seat:
            self._apply_offer(action)
        else:
            self.offer = action
            self.step = "consent"

    def _do_agree(self, seat: int, action: A.Agree | A.Refuse) -> None:
        offer = self.offer
        assert offer is not None
        self.offer = None
        self.step = "act"
        if isinstance(action, A.Refuse):
            self.refused.append(offer.transporter)
        elif isinstance(offer, A.Borrow):  # the good is set down for the asker
            u = self.trans[offer.transporter]
            good = GOOD_INDEX[offer.good]
            i = next(i for i, g in enumerate(u.cargo) if g & D.GOOD_MASK == good)
            g = u.cargo.pop(i) & D.GOOD_MASK
            if self.stage == BUILDING and self.options.loans_return:
                self.loans.append([offer.place, g, u.id])  # back if unused (phase end)
                g |= D.LENT
            self._drop(offer.place, g)
        else:
            self._apply_offer(offer)

    def _do_release(self, seat: int, action: A.Release) -> None:
        u = self.trans[action.transporter]
        u.carrier = -1
        u.moved = False
        u.place = action.to

    def _do_build(self, seat: int, action: A.Build) -> None:
        self._apply_build(seat, action)

    def _do_road(self, seat: int, action: A.Road) -> None:
        h = self.world.place_hex[action.place]
        self._take(action.place, self._own_at(seat, action.place), D.STONE, 1)
        self.roads.add(self.world.crossing(h, action.side, action.bank))

    def _do_bridge(self, seat: int, action: A.Bridge) -> None:
        self._apply_bridge(seat, action)

    def _do_wall(self, seat: int, action: A.Wall | A.Demolish) -> None:
        self._apply_wall(seat, action)

    def _do_shaft(self, seat: int, action: A.Shaft) -> None:
        place = self.buildings[action.hex][1]
        self._pay(place, self._own_at(seat, place), D.SHAFT_COST)
        gold, iron = D.MINE_MIXES[action.mix]
        self.bags[action.hex][0] += gold
        self.bags[action.hex][1] += iron

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

    # ------------------------------------------------------------------ results

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
        """The full public state (nothing is secret in Roads & Boats)."""
        world = self.world
        n_edges = len(world.edges)
        roads = sorted(self.roads)
        kind_names = _TRANSPORTER_NAMES
        building_names = _BUILDING_NAMES
        return RBView(
            seat=seat,
            options=self.options,
            map_name=self.world.name,
            map=self.world.spec,
            turn=self.turn,
            stage=STAGES[self.stage] if self.stage >= 0 else "setup",
            step=self.step,
            actor=self.actor,
            temple=self.temple[:],
            sequence=self.sequence[:],
            requested=self.requested,
            cashed=self.cashed[:],
            slots=self.slots[:],
            homes=self.homes[:],
            transporters=[
                TransporterView(
                    t.id,
                    t.owner,
                    kind_names[t.kind],
                    t.place,
                    t.moved,
                    t.cargo[:],
                    t.carrier,
                )
                for t in self.trans.values()
            ],
            next_transporter=self.next_tid,
            buildings=[
                BuildingView(h, building_names[b[0]], b[1], b[2], b[3], *self.bags.get(h, (0, 0)))
                for h, b in sorted(self.buildings.items())
            ],
            piles=[PileView(p, g[:]) for p, g in sorted(self.piles.items())],
            roads=[c for c in roads if c < n_edges],
            bank_roads=[[world.cross_edge[c], (c - n_edges) % 2] for c in roads if c >= n_edges],
            bridges=[[h, s] for h, s in self.bridges],
            walls=[WallView(e, o, s) for e, (o, s) in sorted(self.walls.items())],
            research=[list(_research_names(r)) for r in self.research],
            fresh=[list(_research_names(r)) for r in self.fresh],
            wonder=self.wonder[:],
            neutral_left=self.neutral_left,
            bricks_now=self.bricks_now,
            paying=self.paying,
            active=[self.active, self.moves_left, self.steps],
            draws=self.draws[:],
            mines=self.mines,
            herd=self.herd[:],
            breeders=[b[:] for b in self.breeders],
            offer=self.offer,
            refused=self.refused[:],
            loans=[x[:] for x in self.loans],
            tiles=[list(t) for t in self.tiles],
            hand=self.hand[:],
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


def _covers(counts: list[int], cost: tuple[tuple[int, int], ...]) -> bool:
    """True when ``counts`` (by good index) hold every ``(good, n)`` of ``cost``."""
    for g, n in cost:  # noqa: SIM110 - a plain loop beats all() over a generator here
        if counts[g] < n:
            return False
    return True


def _may_build(btype: D.BuildingType, research: int, counts: list[int]) -> bool:
    """True when ``research`` (bits) allows ``btype`` and ``counts`` cover its cost."""
    if btype.research is not None and not research >> btype.research & 1:
        return False
    return _covers(counts, btype.cost)


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


def _research_names(bits: int) -> tuple[str, ...]:
    """Names of the research projects set in ``bits`` (bit i: data.RESEARCH[i])."""
    names = _RESEARCH_OF_SET.get(bits)
    if names is None:
        names = tuple(n for i, n in enumerate(D.RESEARCH) if bits >> i & 1)
        _RESEARCH_OF_SET[bits] = names
    return names


_RESEARCH_OF_SET: dict[int, tuple[str, ...]] = {}
"""Research bit set -> project names in data.RESEARCH order (filled as met)."""

_NAMES_OF_SET: dict[int, tuple[str, ...]] = {}
"""Bit set of good types -> their names in data.GOODS order (filled as met)."""


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
        t.cargo = tv.cargo[:]
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
