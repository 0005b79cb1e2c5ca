"""What the map and the state offer one seat: land and boat distances, free sites, dry
mines, islands and raft sites (the queries every other part of the planner builds on).

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from collections import deque
from typing import Any

from bots.roads_and_boats import geometry as G
from bots.roads_and_boats import settings as S
from bots.roads_and_boats.geometry import neighbours
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState
from referee.games.roads_and_boats.world import DOCK


class Survey:
    """Map and state queries of one seat's planner."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        # Kept for the length of one ``choose`` (None outside it): the state does not
        # change within a decision, which asks for these many times.
        self._land_steps: dict[int, dict[int, int]] | None = None
        self._target_list: list[tuple[int, int]] | None = None

    def _spare_sites(
        self, state: RBState, taken: set[int], sites: dict[str, list[int]]
    ) -> list[int]:
        """Land areas next to the home for secondary buildings, best first: pastures,
        (irrigated) deserts, rock, woods; ``taken`` areas (sites of other targets) are
        left out."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        ranked = []
        for q in neighbours(state, home):
            j = w.place_hex[q]
            if j == hh or j in state.buildings or q in taken:
                continue
            terrain = w.hexes[j].terrain
            if terrain == D.PASTURE:
                rank = 0
            elif terrain == D.DESERT and state.irrigated:
                rank = 1
            elif terrain == D.ROCK:
                rank = 2
            elif terrain == D.WOODS:
                rank = 3
            else:
                continue
            ranked.append((rank, q))
        return [q for _rank, q in sorted(ranked)]

    def _dry_mines(self, state: RBState) -> list[tuple[int, int]]:
        """(hex, land area) of our mines whose bags hold at most ``SHAFT_LOW`` counters,
        once new shafts are researched."""
        if not state.research[self.seat] >> D.NEW_SHAFTS & 1:
            return []
        return [
            (h, b[1])
            for h, b in state.buildings.items()
            if b[0] == D.MINE
            and b[2] == self.seat
            and sum(state.bags.get(h, (0, 0))) <= S.SHAFT_LOW
        ]

    def _distances(self, state: RBState, start: int) -> dict[int, int]:
        """Off-road land steps from ``start`` to every land area reached (kept for the
        rest of the decision; callers must not change the dictionary returned)."""
        memo = self._land_steps
        if memo is not None and (got := memo.get(start)) is not None:
            return got
        dist = {start: 0}
        todo = deque([start])
        while todo:
            p = todo.popleft()
            for q in neighbours(state, p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        if memo is not None:
            memo[start] = dist
        return dist

    def _raft_seats(self, state: RBState) -> bool:
        """True when the raft plan may be used at this table size (``RAFTS``,
        ``RAFT_SEATS``)."""
        return S.RAFTS and 1 < state.seats <= S.RAFT_SEATS

    def _boat_distances(self, state: RBState, starts: list[int]) -> dict[int, int]:
        """Boat steps from the nearest of ``starts`` (docks, sea or river places) to every
        place a boat reaches; a dock is a dead end (a boat that docks stops there).
        Boats' links are part of the map, so the answer is kept per map and ``starts``
        (``geometry._BOAT_STEPS``); callers must not change the dictionary returned."""
        w = state.world
        kept = G._BOAT_STEPS.get(id(w))
        if kept is None or kept[0] is not w:
            kept = G._BOAT_STEPS[id(w)] = (w, {})
        key = tuple(starts)
        dist = kept[1].get(key)
        if dist is not None:
            return dist
        dist = dict.fromkeys(starts, 0)
        todo = deque(starts)
        while todo:
            p = todo.popleft()
            if w.place_kind[p] == DOCK and dist[p] > 0:
                continue
            for _edge, q, _dock in w.boat_links[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        kept[1][key] = dist
        return dist

    def _area_docks(self, state: RBState, place: int) -> list[int]:
        """Docks of the (possibly bridged) land area ``place``."""
        w = state.world
        out: list[int] = []
        for a in w.areas[w.place_hex[place]]:
            if state.root[a] == place:
                out.extend(w.docks_of_area[a])
        return out

    def _islands(self, state: RBState) -> list[int]:
        """Mountain land areas without a building more than ``RAFT_LAND`` land steps from
        the home (or with no land path to it) whose coast lies within ``RAFT_REACH`` boat
        steps of the home's coast, nearest first (the raft plan's mine sites)."""
        w = state.world
        home = state.homes[self.seat]
        docks = self._area_docks(state, home)
        if not docks:
            return []
        by_land = self._distances(state, home)
        by_boat = self._boat_distances(state, docks)
        found: list[tuple[int, int]] = []
        for h, hx in enumerate(w.hexes):
            if hx.terrain != D.MOUNTAIN or h in state.buildings:
                continue
            for a in w.areas[h]:
                q = state.root[a]
                if by_land.get(q, 99) <= S.RAFT_LAND or any(q == r for _d, r in found):
                    continue
                steps = min((by_boat.get(d, 99) for d in self._area_docks(state, q)), default=99)
                if steps <= S.RAFT_REACH:
                    found.append((steps, q))
        return [q for _d, q in sorted(found)]

    def _by_water(self, state: RBState, site: int) -> bool:
        """True when ``site`` is a target of the raft plan: more than ``RAFT_LAND`` land
        steps from the home, or no land path joins it to the home."""
        if not self._raft_seats(state):
            return False
        return self._distances(state, state.homes[self.seat]).get(site, 99) > S.RAFT_LAND

    def _raft_factory_site(self, state: RBState, taken: set[int]) -> int | None:
        """A free shore land area next to the home (not in ``taken``) for the raft
        factory, in the order of ``_spare_sites`` (pasture first, woods last)."""
        for q in self._spare_sites(state, taken, {}):
            if self._area_docks(state, q):
                return q
        return None

    def _rafts(self, state: RBState) -> list[Any]:
        """Our boats."""
        return [t for t in state.trans.values() if t.owner == self.seat and t.water]
