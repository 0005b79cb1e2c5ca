"""Roads & Boats building phase (rulebook p13-16).

Buildings on fitting sites, roads, bridges, walls and their demolition, new mine shafts.
"""

from __future__ import annotations

from typing import Any

from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import StateBase, _covers
from referee.games.roads_and_boats.world import DOCK, LAND, RIVER, SEA_PLACE

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


@trait
class BuildingRules(StateBase):
    """The building phase: what may be built where, and building it."""

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


def _may_build(btype: D.BuildingType, research: int, counts: list[int]) -> bool:
    """True when ``research`` (bits) allows ``btype`` and ``counts`` cover its cost."""
    if btype.research is not None and not research >> btype.research & 1:
        return False
    return _covers(counts, btype.cost)
