"""The hex world of Roads & Boats: terrain, rivers, areas (banks), places and links.

A map is a set of flat-top hexes in axial coordinates ``(q, r)`` (+r is north, sides
``N NE SE S SW NW`` clockwise, see :data:`data.DELTAS`).  Rivers run along hex
sides: a land hex lists the sides its river(s) cross.  Rivers split a hex into
**areas** (banks): with ``m >= 2`` river sides the hex has ``m`` areas, area ``k``
owning the sides strictly between river side ``k`` and river side ``k+1`` clockwise;
a source (one river side) or no river leaves one area.

Everything that can hold a transporter or goods is a **place**, numbered densely:

* ``LAND`` – one land area of a hex (goods, land transporters, buildings, homes);
* ``RIVER`` – the river of a hex (boats; it touches every area of the hex);
* ``SEA`` – a sea hex (boats; goods only on an oil rig);
* ``DOCK`` – a coastline between a land area and an adjacent sea hex (docked boats).

Hex sides shared by two hexes are **edges** (numbered), the home of walls.  Land
transporters and roads use **crossings**: crossing ``e`` is the whole edge ``e`` when
no river flows through it; an edge between two land hexes that a river flows through
has two crossings, one per bank: ``len(edges) + 2 * e + half``, where half 0 is the
half of the edge nearer the corner between sides ``d - 1`` and ``d`` of the edge's
first hex (``edges[e] = (hex, d, ...)``) and half 1 the other (rulebook: parallel
roads may run on both banks).  A :class:`World` is immutable and cached per map;
bridges (which merge areas) are state, not world.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from referee.api.engine import OptionError
from referee.games.roads_and_boats import data as D

LAND, RIVER, SEA_PLACE, DOCK = 0, 1, 2, 3
PLACE_KINDS = ("land", "river", "sea", "dock")


class MapError(OptionError):
    """A map that cannot be played (bad syntax, river running into land, ...)."""


@dataclass(frozen=True)
class Hex:
    """One map hex: axial ``q, r``, terrain code, river sides (indices into DIRECTIONS)."""

    q: int
    r: int
    terrain: str
    rivers: tuple[int, ...]

    @property
    def land(self) -> bool:
        """True for every terrain but sea."""
        return self.terrain != D.SEA


def parse_spec(spec: str) -> list[Hex]:
    """Hexes from the compact text ``"q,r TER[N+SE]; ..."``; raises :class:`MapError`."""
    hexes: list[Hex] = []
    for raw in spec.split(";"):
        item = raw.strip()
        if not item:
            continue
        try:
            coords, rest = item.split(None, 1)
            q_text, r_text = coords.split(",")
            terrain, _, river_text = rest.partition("[")
            terrain = terrain.strip()
            rivers = (
                tuple(
                    sorted(D.DIRECTIONS.index(x.strip()) for x in river_text.rstrip("]").split("+"))
                )
                if river_text
                else ()
            )
            hexes.append(Hex(int(q_text), int(r_text), terrain, rivers))
        except ValueError:
            raise MapError(f"bad map hex {item!r}: expected 'q,r TER' or 'q,r TER[N+S]'") from None
    return hexes


def format_spec(hexes: list[Hex]) -> str:
    """The inverse of :func:`parse_spec`."""
    parts = []
    for h in hexes:
        rivers = "[" + "+".join(D.DIRECTIONS[d] for d in h.rivers) + "]" if h.rivers else ""
        parts.append(f"{h.q},{h.r} {h.terrain}{rivers}")
    return "; ".join(parts)


@dataclass
class World:
    """Static topology of one map (see the module docstring for the vocabulary).

    Attributes are flat lists indexed by hex, edge or place ids; none change in play.
    """

    name: str
    spec: str
    hexes: list[Hex]
    index: dict[tuple[int, int], int] = field(default_factory=dict)
    nbr: list[list[int]] = field(default_factory=list)
    edge_of: list[list[int]] = field(default_factory=list)
    edges: list[tuple[int, int, int, int]] = field(default_factory=list)
    place_kind: list[int] = field(default_factory=list)
    place_hex: list[int] = field(default_factory=list)
    place_dir: list[int] = field(default_factory=list)
    dock_area: list[int] = field(default_factory=list)
    areas: list[list[int]] = field(default_factory=list)
    area_sides: list[tuple[int, ...]] = field(default_factory=list)
    area_of_side: list[list[int]] = field(default_factory=list)
    river_place: list[int] = field(default_factory=list)
    sea_place: list[int] = field(default_factory=list)
    land_links: list[list[tuple[int, int]]] = field(default_factory=list)
    boat_links: list[list[tuple[int, int, bool]]] = field(default_factory=list)
    docks_of_area: list[list[int]] = field(default_factory=list)
    river_banks: list[list[tuple[int, int, int]]] = field(default_factory=list)
    shore: list[bool] = field(default_factory=list)
    cross_edge: list[int] = field(default_factory=list)
    is_land: list[bool] = field(default_factory=list)
    """By hex: True for land (``Hex.land`` without the property call)."""
    site_cache: dict[tuple[int, bool, bool], list[int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Filled in play by the state: (hex, sea place, irrigated) -> building kinds whose
    site fits the hex (derived from the map alone, so shared by every game on it)."""
    build_cache: dict[tuple[int, bool, int, int], tuple[tuple[int, str], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Filled in play by the state: (place, irrigated, research bits that buildings need,
    capped counts of the goods buildings cost) -> ``(kind, name)`` of the building kinds
    that may be built from that place, in data.BUILDINGS order."""

    def build(self) -> None:
        """Derive every table from ``hexes``; raises :class:`MapError` if invalid."""
        hexes = self.hexes
        if not any(h.land for h in hexes):
            raise MapError(f"map {self.name!r} has no land")
        for i, h in enumerate(hexes):
            if h.terrain not in D.TERRAINS:
                raise MapError(f"map {self.name!r}: unknown terrain {h.terrain!r} at {h.q},{h.r}")
            if (h.q, h.r) in self.index:
                raise MapError(f"map {self.name!r}: hex {h.q},{h.r} listed twice")
            if not h.land and h.rivers:
                raise MapError(f"map {self.name!r}: sea hex {h.q},{h.r} has a river")
            self.index[(h.q, h.r)] = i
        n = len(hexes)
        self.nbr = [[-1] * 6 for _ in range(n)]
        self.edge_of = [[-1] * 6 for _ in range(n)]
        for i, h in enumerate(hexes):
            for d, (dq, dr) in enumerate(D.DELTAS):
                j = self.index.get((h.q + dq, h.r + dr), -1)
                self.nbr[i][d] = j
                if j >= 0 and self.edge_of[i][d] < 0:
                    e = len(self.edges)
                    self.edges.append((i, d, j, (d + 3) % 6))
                    self.edge_of[i][d] = e
                    self.edge_of[j][(d + 3) % 6] = e
        self._check_rivers()
        self._make_places()
        self._make_links()
        self.is_land = [h.land for h in hexes]

    # --- validation ----------------------------------------------------------

    def _check_rivers(self) -> None:
        for i, h in enumerate(self.hexes):
            for d in h.rivers:
                j = self.nbr[i][d]
                where = f"{h.q},{h.r} side {D.DIRECTIONS[d]}"
                if j < 0:
                    raise MapError(f"map {self.name!r}: river runs off the map at {where}")
                other = self.hexes[j]
                if other.land and (d + 3) % 6 not in other.rivers:
                    raise MapError(f"map {self.name!r}: river at {where} runs into dry land")
        # every river system must reach the sea
        seen: set[int] = set()
        for start, h in enumerate(self.hexes):
            if not h.rivers or start in seen:
                continue
            group, todo, mouth = {start}, [start], False
            while todo:
                i = todo.pop()
                for d in self.hexes[i].rivers:
                    j = self.nbr[i][d]
                    if not self.hexes[j].land:
                        mouth = True
                    elif j not in group:
                        group.add(j)
                        todo.append(j)
            seen |= group
            if not mouth:
                raise MapError(
                    f"map {self.name!r}: the river through {h.q},{h.r} never reaches the sea"
                )

    # --- places --------------------------------------------------------------

    def _new_place(self, kind: int, hex_: int, side: int = -1, area: int = -1) -> int:
        self.place_kind.append(kind)
        self.place_hex.append(hex_)
        self.place_dir.append(side)
        self.dock_area.append(area)
        self.area_sides.append(())
        return len(self.place_kind) - 1

    def _make_places(self) -> None:
        n = len(self.hexes)
        self.areas = [[] for _ in range(n)]
        self.area_of_side = [[-1] * 6 for _ in range(n)]
        self.river_place = [-1] * n
        self.sea_place = [-1] * n
        self.river_banks = [[] for _ in range(n)]
        for i, h in enumerate(self.hexes):
            if not h.land:
                self.sea_place[i] = self._new_place(SEA_PLACE, i)
                continue
            rivers = h.rivers
            arcs: list[tuple[int, ...]] = []
            if len(rivers) <= 1:
                arcs.append(tuple(d for d in range(6) if d not in rivers))
            else:
                for k, start in enumerate(rivers):
                    stop = rivers[(k + 1) % len(rivers)]
                    arc: list[int] = []
                    d = (start + 1) % 6
                    while d != stop:
                        arc.append(d)
                        d = (d + 1) % 6
                    arcs.append(tuple(arc))
            for sides in arcs:
                p = self._new_place(LAND, i)
                self.areas[i].append(p)
                self.area_sides[p] = sides
                for d in sides:
                    self.area_of_side[i][d] = p
            if rivers:
                self.river_place[i] = self._new_place(RIVER, i)
                m = len(rivers)
                for k, d in enumerate(rivers):
                    # river side d separates the arc ending at d and the arc starting at d
                    left = self.areas[i][(k - 1) % m] if m > 1 else self.areas[i][0]
                    right = self.areas[i][k] if m > 1 else self.areas[i][0]
                    self.river_banks[i].append((d, left, right))
        # docks: coastlines between a land area and a sea neighbour
        self.docks_of_area = [[] for _ in range(len(self.place_kind))]
        for i, h in enumerate(self.hexes):
            if not h.land:
                continue
            for d in range(6):
                j = self.nbr[i][d]
                if j < 0 or self.hexes[j].land:
                    continue
                if d in h.rivers:
                    banks = {
                        a
                        for side, left, right in self.river_banks[i]
                        if side == d
                        for a in (left, right)
                    }
                else:
                    banks = {self.area_of_side[i][d]}
                for a in sorted(banks):
                    p = self._new_place(DOCK, i, d, a)
                    self.docks_of_area.append([])
                    self.docks_of_area[a].append(p)
        self.shore = [
            h.land
            and (bool(h.rivers) or any(j >= 0 and not self.hexes[j].land for j in self.nbr[i]))
            for i, h in enumerate(self.hexes)
        ]

    def _make_links(self) -> None:
        count = len(self.place_kind)
        docks_at: dict[tuple[int, int], list[int]] = {}
        for q in range(count):
            if self.place_kind[q] == DOCK:
                docks_at.setdefault((self.place_hex[q], self.place_dir[q]), []).append(q)
        self.land_links = [[] for _ in range(count)]
        self.boat_links = [[] for _ in range(count)]
        n_edges = len(self.edges)
        self.cross_edge = list(range(n_edges)) + [e for e in range(n_edges) for _ in (0, 1)]
        for p in range(count):
            kind, i = self.place_kind[p], self.place_hex[p]
            if kind == LAND:
                for d in self.area_sides[p]:
                    j = self.nbr[i][d]
                    if j >= 0 and self.hexes[j].land:
                        q = self.area_of_side[j][(d + 3) % 6]
                        self.land_links[p].append((self.edge_of[i][d], q))
                for d, left, right in self.river_banks[i]:
                    j = self.nbr[i][d]
                    if not self.hexes[j].land:
                        continue  # a river mouth: no land beyond
                    back = (d + 3) % 6
                    far_left, far_right = next(
                        (lf, rt) for side, lf, rt in self.river_banks[j] if side == back
                    )
                    # the near bank counter-clockwise of d meets the far bank clockwise of
                    # the opposite side, and the other way round
                    if left == p:
                        self.land_links[p].append((self.crossing(i, d, 0), far_right))
                    if right == p:
                        self.land_links[p].append((self.crossing(i, d, 1), far_left))
            elif kind == RIVER:
                for d in self.hexes[i].rivers:
                    j = self.nbr[i][d]
                    e = self.edge_of[i][d]
                    target = self.river_place[j] if self.hexes[j].land else self.sea_place[j]
                    self.boat_links[p].append((e, target, False))
            elif kind == SEA_PLACE:
                for d in range(6):
                    j = self.nbr[i][d]
                    if j < 0:
                        continue
                    e = self.edge_of[i][d]
                    if not self.hexes[j].land:
                        self.boat_links[p].append((-1, self.sea_place[j], False))
                        continue
                    back = (d + 3) % 6
                    if back in self.hexes[j].rivers:
                        self.boat_links[p].append((e, self.river_place[j], False))
                    for q in docks_at.get((j, back), ()):
                        self.boat_links[p].append((e, q, True))
            else:  # DOCK
                d = self.place_dir[p]
                self.boat_links[p].append(
                    (self.edge_of[i][d], self.sea_place[self.nbr[i][d]], False)
                )

    # --- queries -------------------------------------------------------------

    def crossing(self, h: int, d: int, bank: int = -1) -> int:
        """Crossing id of side ``d`` of hex ``h``: the edge id for ``bank`` -1, else the
        half of a river edge counter-clockwise (``bank`` 0, towards side ``d - 1``) or
        clockwise (1, towards side ``d + 1``) of the river, as seen from hex ``h``."""
        e = self.edge_of[h][d]
        if bank < 0:
            return e
        first = self.edges[e][0] == h
        return len(self.edges) + 2 * e + (bank if first else 1 - bank)

    def crossing_side(self, h: int, c: int) -> tuple[int, int]:
        """``(side, bank)`` of crossing ``c`` seen from hex ``h`` (inverse of
        :meth:`crossing`; bank -1 for a whole edge)."""
        e = self.cross_edge[c]
        a, da, _b, db = self.edges[e]
        side = da if a == h else db
        if c < len(self.edges):
            return side, -1
        half = (c - len(self.edges)) % 2
        return side, half if a == h else 1 - half

    def land_hexes(self) -> list[int]:
        """Indices of all land hexes."""
        return [i for i, h in enumerate(self.hexes) if h.land]

    def adjacent(self, a: int, b: int) -> bool:
        """True if hexes ``a`` and ``b`` share a side."""
        return b in self.nbr[a]

    def dock_sea(self, dock: int) -> int:
        """The sea place a dock faces."""
        i = self.place_hex[dock]
        return self.sea_place[self.nbr[i][self.place_dir[dock]]]

    def describe(self, place: int) -> str:
        """Human label of a place, e.g. ``land 3,4#0`` or ``dock 3,4 NE``."""
        h = self.hexes[self.place_hex[place]]
        kind = self.place_kind[place]
        text = f"{PLACE_KINDS[kind]} {h.q},{h.r}"
        if kind == LAND:
            text += f"#{self.areas[self.place_hex[place]].index(place)}"
        elif kind == DOCK:
            text += f" {D.DIRECTIONS[self.place_dir[place]]}"
        return text


def world_from_hexes(name: str, hexes: list[Hex]) -> World:
    """Build and validate a :class:`World`; raises :class:`MapError`."""
    world = World(name, format_spec(hexes), hexes)
    world.build()
    return world


@cache
def world_from_spec(name: str, spec: str) -> World:
    """A cached :class:`World` from a compact map spec; raises :class:`MapError`."""
    return world_from_hexes(name, parse_spec(spec))


def load_map_file(path: str) -> tuple[str, str]:
    """(name, spec) from a JSON map file.

    The file holds ``{"name": str, "hexes": "q,r TER[N+S]; ..."}`` or ``"hexes"`` as a
    list of ``[q, r, "TER", ["N", "S"]]``.  Raises :class:`MapError` when unreadable.
    """
    try:
        raw: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapError(f"cannot read map file {path!r}: {exc}") from None
    if not isinstance(raw, dict) or "hexes" not in raw:
        raise MapError(f"map file {path!r}: expected an object with a 'hexes' field")
    hexes = raw["hexes"]
    if isinstance(hexes, list):
        try:
            spec = "; ".join(
                f"{int(q)},{int(r)} {t}" + ("[" + "+".join(riv) + "]" if riv else "")
                for q, r, t, *rest in hexes
                for riv in [rest[0] if rest else []]
            )
        except (TypeError, ValueError):
            raise MapError(f"map file {path!r}: bad hex list") from None
    elif isinstance(hexes, str):
        spec = hexes
    else:
        raise MapError(f"map file {path!r}: 'hexes' must be a string or a list")
    return str(raw.get("name", Path(path).stem)), spec


def generate_map(players: int, seed: int) -> tuple[str, str]:
    """A random map following the custom-map rules; returns (name, spec).

    About 10 land hexes per player grown as one touching blob, ringed by sea; a few
    rivers, each starting at a mountain source and flowing to the sea through
    river-free land, then a tributary that flows from another source into a river
    through a junction (a wide bend gaining its third side, like the junction tile).
    Every river hex matches a real tile: a source, a straight, a bend or a junction.
    Deterministic in ``(players, seed)``.
    """
    rng = random.Random(f"roads-and-boats-map-{players}-{seed}")
    target = D.GEN_LAND_PER_PLAYER * max(players, 1)
    land: dict[tuple[int, int], str] = {(0, 0): ""}
    grown = [(0, 0)]  # sorted(land), kept sorted as cells are added
    while len(land) < target:
        q, r = rng.choice(grown)
        dq, dr = D.DELTAS[rng.randrange(6)]
        cell = (q + dq, r + dr)
        if cell not in land:
            land[cell] = ""
            bisect.insort(grown, cell)
    names = [t for t, w in D.GEN_TERRAIN_WEIGHTS for _ in range(w)]
    cells = sorted(land)
    for cell in cells:
        land[cell] = rng.choice(names)
    # make sure the economy's basic terrains exist for every player
    needed = [D.WOODS, D.ROCK, D.PASTURE, D.MOUNTAIN] * max(1, players // 2 + 1)
    for terrain, cell in zip(needed, rng.sample(cells, min(len(cells), len(needed))), strict=False):
        land[cell] = terrain
    return f"generated-{players}-{seed}", _with_rivers(land, players, rng)


def drafted_map(players: int, tiles: list[tuple[int, int, str]], seed: int) -> tuple[str, str]:
    """The map the players drafted (``(q, r, terrain)`` land tiles): rivers laid as on
    generated maps from ``seed`` (a chance outcome), ringed by sea; returns (name, spec).

    Raises :class:`MapError` when no tile is given.
    """
    if not tiles:
        raise MapError("a drafted map needs at least one tile")
    rng = random.Random(f"roads-and-boats-rivers-{players}-{seed}")
    land = {(q, r): terrain for q, r, terrain in tiles}
    return f"drafted-{players}-{seed}", _with_rivers(land, players, rng)


def _with_rivers(land: dict[tuple[int, int], str], players: int, rng: random.Random) -> str:
    """Spec of the land cells ``land`` (cell -> terrain) ringed by sea, with about one
    river per two players from mountain sources to the sea and one tributary."""
    cells = sorted(land)
    sea = {
        (q + dq, r + dr) for q, r in cells for dq, dr in D.DELTAS if (q + dq, r + dr) not in land
    }
    rivers: dict[tuple[int, int], list[int]] = {cell: [] for cell in cells}
    count = max(1, round(players * D.GEN_RIVERS_PER_PLAYER))
    for tributary in [False] * count + [True] * D.GEN_TRIBUTARIES:
        sources = [c for c in cells if land[c] == D.MOUNTAIN and not rivers[c]]
        rng.shuffle(sources)
        for source in sources:
            path = _river_path(source, land, sea, rivers, tributary)
            if path is not None:
                for a, b in itertools.pairwise(path):
                    d = D.DELTAS.index((b[0] - a[0], b[1] - a[1]))
                    rivers[a].append(d)
                    if b in rivers:
                        rivers[b].append((d + 3) % 6)
                break
    hexes = [Hex(q, r, land[(q, r)], tuple(sorted(rivers[(q, r)]))) for q, r in cells]
    hexes += [Hex(q, r, D.SEA, ()) for q, r in sorted(sea)]
    return format_spec(hexes)


def _river_path(
    source: tuple[int, int],
    land: dict[tuple[int, int], str],
    sea: set[tuple[int, int]],
    rivers: dict[tuple[int, int], list[int]],
    tributary: bool = False,
) -> list[tuple[int, int]] | None:
    """Shortest path source -> ... -> sea through river-free, non-mountain land; for a
    ``tributary``, source -> ... -> a wide bend entered through its free third side."""
    back: dict[tuple[int, int], tuple[int, int]] = {}
    todo = deque([source])
    seen = {source}
    while todo:
        cell = todo.popleft()
        for dq, dr in D.DELTAS:
            nxt = (cell[0] + dq, cell[1] + dr)
            if nxt in seen:
                continue
            end = _joins(rivers.get(nxt, []), dq, dr) if tributary else nxt in sea
            if end:
                if cell == source:
                    continue  # a river needs at least one land hex after its source
                path = [nxt, cell]
                while path[-1] != source:
                    path.append(back[path[-1]])
                return path[::-1]
            if nxt in land and not rivers[nxt] and land[nxt] != D.MOUNTAIN:
                seen.add(nxt)
                back[nxt] = cell
                todo.append(nxt)
    return None


def _joins(sides: list[int], dq: int, dr: int) -> bool:
    """True if a river entering a hex with river ``sides`` by the step ``(dq, dr)``
    makes a junction: the hex is a wide bend and the entry side is its third side."""
    if len(sides) != 2:
        return False
    entry = (D.DELTAS.index((dq, dr)) + 3) % 6
    return {*sides, entry} in ({0, 2, 4}, {1, 3, 5})
