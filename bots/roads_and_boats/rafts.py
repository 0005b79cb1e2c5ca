"""Round 7's island mines served by rafts (2 seats, long games): the raft factory's trunks,
the rafts' loads, goals and steering, and their production-phase loading.

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import settings as S
from bots.roads_and_boats.geometry import neighbours, trunks_aboard
from bots.roads_and_boats.plan import Plan
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState


class Rafts(Plan):
    """Island mines served by rafts."""

    def _raft_pending(self, state: RBState) -> bool:
        """True while the raft plan has a raft factory or an island mine to build (its
        stone is then not spent on roads)."""
        if not self._raft_seats(state):
            return False
        return any(
            kind == D.RAFT_FACTORY or (kind == D.MINE and self._by_water(state, q))
            for q, kind in self._targets(state)
        )

    def _raft_production(self, state: RBState, legal: list[Any]) -> Any | None:
        """In production, for the raft plan: our raft factory makes a raft (launched on
        the coastline nearest the home's) when one is wanted, or a land transporter of
        ours at home takes the trunks lying there (up to the 2 of a raft) so that the
        sawmill does not saw them; None otherwise."""
        if not self._raft_seats(state):
            return None
        job = self._raft_job(state)
        home = state.homes[self.seat]
        if job is not None:  # a boat docked at home takes the mine's goods now
            for t in self._rafts(state):
                if home not in state.reach(t):
                    continue
                cargo = [g & D.GOOD_MASK for g in t.cargo]
                if len(cargo) >= D.TRANSPORTERS[t.kind].capacity:
                    continue
                for g in (D.STONE, D.BOARD):
                    if job[1][g] > cargo.count(g):
                        for a in legal:
                            if (
                                isinstance(a, A.Take)
                                and a.transporter == t.id
                                and a.place == home
                                and D.G[a.good] == g
                            ):
                                return a
        if not self._raft_wanted(state):
            return None
        launches = [
            a
            for a in legal
            if isinstance(a, A.Produce) and state.buildings[a.hex][0] == D.RAFT_FACTORY
        ]
        if launches:
            dist = self._boat_distances(state, self._area_docks(state, home))
            return min(launches, key=lambda a: (dist.get(a.launch, 99), a.launch))
        if self._raft_factory(state) is None:
            return None
        held = 0
        for t in state.trans.values():
            if t.owner == self.seat and t.place == home and not t.water:
                held += trunks_aboard(t)
        if held >= 2:
            return None
        takes = [
            a
            for a in legal
            if isinstance(a, A.Take)
            and a.place == home
            and D.G[a.good] == D.TRUNK
            and not state.trans[a.transporter].water
        ]

        def order(a: A.Take) -> tuple[int, int]:
            t = state.trans[a.transporter]
            trunks = trunks_aboard(t)
            return (-trunks, a.transporter)

        return min(takes, key=order) if takes else None

    def _island_mines(self, state: RBState) -> list[int]:
        """Land areas of our mines more than ``RAFT_LAND`` land steps from the home (or
        with no land path to it): the raft plan's."""
        dist = self._distances(state, state.homes[self.seat])
        return [
            b[1]
            for b in state.buildings.values()
            if b[0] == D.MINE and b[2] == self.seat and dist.get(b[1], 99) > S.RAFT_LAND
        ]

    def _raft_wanted(self, state: RBState) -> bool:
        """True when the raft plan wants another raft: fewer than ``RAFT_COUNT`` boats of
        ours, and an island mine to build or to work, and turns enough left."""
        if not self._raft_seats(state) or len(self._rafts(state)) >= S.RAFT_COUNT:
            return False
        if self._turns_left(state) <= S.LATE_TURNS + 1:
            return False
        return bool(self._island_mines(state)) or any(
            kind == D.MINE and self._by_water(state, q) for q, kind in self._targets(state)
        )

    def _raft_factory(self, state: RBState) -> int | None:
        """Land area of our raft factory next to the home, if any."""
        near = neighbours(state, state.homes[self.seat])
        for b in state.buildings.values():
            if b[0] == D.RAFT_FACTORY and b[2] == self.seat and b[1] in near:
                return int(b[1])
        return None

    def _trunk_holder(self, state: RBState, t: Any) -> bool:
        """True when ``t`` is the land transporter of ours at home that keeps trunks for
        a raft (while a raft is wanted and our raft factory stands): of those at home
        with trunks aboard, the one with the most (the lowest id on a tie); the others
        unload theirs for the sawmill."""
        home = state.homes[self.seat]
        if t.water or t.place != home:
            return False
        if not trunks_aboard(t):
            return False
        if self._raft_factory(state) is None or not self._raft_wanted(state):
            return False
        best: tuple[int, int] | None = None
        for u in state.trans.values():
            if u.owner != self.seat or u.water or u.place != home:
                continue
            trunks = trunks_aboard(u)
            if trunks and (best is None or (-trunks, u.id) < best):
                best = (-trunks, u.id)
        return best is not None and best[1] == t.id

    def _trunk_fetch(self, state: RBState, t: Any) -> int | None:
        """For the trunk holder (``_trunk_holder``) with room and no trunk at home that it
        may load: a neighbouring woodcutter of ours where a trunk lies, to fetch it
        there; None otherwise."""
        if not self._trunk_holder(state, t) or len(t.cargo) >= D.TRANSPORTERS[t.kind].capacity:
            return None
        home = state.homes[self.seat]
        bit = 1 << (self.seat + D.GOOD_BITS)
        if any(g & D.GOOD_MASK == D.TRUNK and not g & bit for g in state.piles.get(home, ())):
            return None
        w = state.world
        for q in neighbours(state, home):
            b = state.buildings.get(w.place_hex[q])
            if b is None or b[0] != D.WOODCUTTER or b[2] != self.seat or b[1] != q:
                continue
            if any(g & D.GOOD_MASK == D.TRUNK and not g & bit for g in state.piles.get(q, ())):
                return q
        return None

    def _raft_feed(self, state: RBState, t: Any) -> int | None:
        """Our raft factory next to the home when land transporter ``t`` at home can take
        it the 2 trunks of a raft this phase (its trunks plus loose ones at home that it
        may load); None otherwise."""
        home = state.homes[self.seat]
        if t.water or t.place != home or not self._raft_wanted(state):
            return None
        factory = self._raft_factory(state)
        if factory is None:
            return None
        for u in state.trans.values():
            trunks = trunks_aboard(u)
            if u.owner == self.seat and u.place == factory and trunks >= 2:
                return None  # the trunks are there
        held = trunks_aboard(t)
        bit = 1 << (self.seat + D.GOOD_BITS)
        loose = sum(
            1 for g in state.piles.get(home, ()) if g & D.GOOD_MASK == D.TRUNK and not g & bit
        )
        room = D.TRANSPORTERS[t.kind].capacity - len(t.cargo)
        if held + min(loose, room) < 2:
            return None
        return factory

    def _raft_job(self, state: RBState) -> tuple[int, list[int]] | None:
        """(site, goods it still lacks on its ground) of the first island mine target
        whose cost is not all lying there, or None."""
        for site, kind in self._targets(state):
            if kind != D.MINE or not self._by_water(state, site):
                continue
            lying = state.pool(site, [])
            lack = [0] * D.NUM_GOODS
            for g, n in D.BUILDINGS[kind].cost:
                lack[g] = max(0, n - lying[g])
            return site, lack
        return None

    def _raft_goal(self, state: RBState, t: Any) -> int:
        """The land area where our boat ``t`` should be docked: the island mine site when
        it carries goods the site lacks, else home while a site lacks goods; else one of
        our island mines with gold lying or still in its bag while the boat has room;
        else home."""
        home = state.homes[self.seat]
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        room = D.TRANSPORTERS[t.kind].capacity - len(cargo)
        job = self._raft_job(state)
        if job is not None:
            site, lack = job
            left = [max(0, n - cargo.count(g)) for g, n in enumerate(lack)]
            if room and any(left):
                source = self._raft_source(state, t, left)
                if source is not None:
                    return source
            if any(lack[g] for g in cargo):
                return site
            return home
        if len(cargo) < D.TRANSPORTERS[t.kind].capacity:
            islands = self._gold_islands(state)
            if islands:  # where gold lies first, then where it is still in the bag

                def lying(q: int) -> bool:
                    return any(g & D.GOOD_MASK in S.KEEP for g in state.piles.get(q, ()))

                return min(islands, key=lambda q: (not lying(q), q))
        return home

    def _raft_source(self, state: RBState, t: Any, left: list[int]) -> int | None:
        """Where our boat ``t`` fetches goods an island mine site still lacks (``left``):
        home when they lie there (loadable this phase), else the nearest producer of ours
        on the coast within ``RAFT_REACH`` boat steps where one of them lies (the quarry's
        stone), else None."""
        home = state.homes[self.seat]
        bit = 1 << (self.seat + D.GOOD_BITS)

        def has(place: int) -> bool:
            return any(left[g & D.GOOD_MASK] and not g & bit for g in state.piles.get(place, ()))

        if has(home):
            return home
        w = state.world
        dist = self._boat_distances(state, [t.place])
        best: tuple[int, int] | None = None
        for b in state.buildings.values():
            if b[2] != self.seat or D.BUILDINGS[b[0]].kind != D.PRIMARY or not has(b[1]):
                continue
            if w.place_hex[b[1]] == w.place_hex[home]:
                continue
            steps = min((dist.get(d, 99) for d in self._area_docks(state, b[1])), default=99)
            if steps <= S.RAFT_REACH and (best is None or (steps, b[1]) < best):
                best = (steps, b[1])
        return best[1] if best is not None else None

    def _boat(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        """The next action of our moving boat ``t`` (``RAFTS``): load or unload where it
        is docked, then steer towards ``_raft_goal``; None stops it."""
        home = state.homes[self.seat]
        reach = state.reach(t)
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        room = D.TRANSPORTERS[t.kind].capacity - len(cargo)
        loads = {(D.G[a.good], a.place): a for a in legal if isinstance(a, A.Load)}
        last = self._last_turn(state, S.END_MARGIN)
        if last:  # scoring goods aboard (they score wherever the boat is)
            for q in reach:
                for g in (D.STOCK, D.COINS, D.GOLD):
                    if (g, q) in loads:
                        if room:
                            return loads[(g, q)]
                        for c in cargo:
                            if c not in S.KEEP:
                                return A.Unload(D.GOODS[c], q)
            if not room:
                return None
            lying = self._gold_islands(state)
            if not lying or any(q in reach for q in lying):
                return None
            return self._steer(state, t, legal, lying)
        job = self._raft_job(state)
        if home in reach:
            want = [0] * D.NUM_GOODS
            if job is not None:
                want = [max(0, n - cargo.count(g)) for g, n in enumerate(job[1])]
            needed = job is not None and any(job[1][g] for g in cargo)
            for g in set(cargo):
                if g in S.KEEP:
                    continue
                if job is None or cargo.count(g) > job[1][g]:
                    return A.Unload(D.GOODS[g], home)
            for g in (D.STONE, D.BOARD):
                if want[g] and (g, home) in loads:
                    if room:
                        return loads[(g, home)]
                    for c in cargo:
                        if c in S.KEEP:
                            return A.Unload(D.GOODS[c], home)  # room for the mine's goods
            if not needed and self._gold_islands(state):
                for c in cargo:
                    if c in S.KEEP:
                        return A.Unload(D.GOODS[c], home)  # room for more gold
        elif job is not None and job[0] in reach:
            site, lack = job
            have = state.pool(site, state.presence(self.seat).get(site, []))
            if all(have[g] >= n for g, n in D.BUILDINGS[D.MINE].cost):
                return None  # the mine is built from this boat this turn
            for g in set(cargo):
                if lack[g]:
                    return A.Unload(D.GOODS[g], site)
        for q in reach:
            if q != home and room:
                for g in (D.STOCK, D.COINS, D.GOLD):
                    if (g, q) in loads:
                        return loads[(g, q)]
                if job is not None and q != job[0]:  # the site's goods from our producer
                    for g in (D.STONE, D.BOARD):
                        if job[1][g] > cargo.count(g) and (g, q) in loads:
                            return loads[(g, q)]
        goal = self._raft_goal(state, t)
        if goal in reach:
            return None
        return self._steer(state, t, legal, [goal])

    def _steer(self, state: RBState, t: Any, legal: list[Any], goals: list[int]) -> Any | None:
        """The step of our moving boat ``t`` that brings it nearest a dock of one of the
        land areas ``goals``, or None when no step brings it nearer."""
        steps = {a.to: a for a in legal if isinstance(a, A.Step)}
        if not steps:
            return None
        docks = [d for q in goals for d in self._area_docks(state, q)]
        dist = self._boat_distances(state, docks)
        here = dist.get(t.place, 99)
        best = min(steps, key=lambda q: (dist.get(q, 99), q))
        return steps[best] if dist.get(best, 99) < here else None

    def _gold_islands(self, state: RBState) -> list[int]:
        """Our island mines (``_island_mines``) with gold, coins or stock lying there or
        gold still in the bag."""
        w = state.world
        return [
            q
            for q in self._island_mines(state)
            if state.bags.get(w.place_hex[q], [0, 0])[0]
            or any(g & D.GOOD_MASK in S.KEEP for g in state.piles.get(q, ()))
        ]
