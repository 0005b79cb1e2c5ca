"""The movement phase: donkeys at home (errands, outings, breeding) and away from home
(carrying goods on, fetching piles, feeding far buildings), and the boats.

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import settings as S
from bots.roads_and_boats.geometry import neighbours, trunks_aboard
from bots.roads_and_boats.production import Production
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState


class Movement(Production):
    """The movement phase of our transporters."""

    def _movement(self, state: RBState, legal: list[Any]) -> Any | None:
        seat = self.seat
        home = state.homes[seat]
        if state.active < 0:
            moves = [a for a in legal if isinstance(a, A.MoveTransporter)]
            land = [a for a in moves if not state.trans[a.transporter].water]
            site = self._breeding_site(state)
            stay = self._breeders(state, site)
            for a in land:  # first the ones away from home come back
                if state.trans[a.transporter].place != home and a.transporter not in stay:
                    return a
            for a in moves:  # then the boats (the raft plan)
                if state.trans[a.transporter].water:
                    return a
            if site is not None and len(stay) < 2:  # send donkeys to breed
                for a in land:
                    t = state.trans[a.transporter]
                    if t.kind == D.DONKEY and t.place == home and self._spare_at_home(state, t):
                        if self._mine_errand(state, t) or self._trunk_holder(state, t):
                            continue
                        return a
            for a in land:
                t = state.trans[a.transporter]
                others = sum(
                    1
                    for u in state.trans.values()
                    if u.owner == seat and u.place == home and u is not t
                )
                if self._raft_feed(state, t) is not None:
                    return a  # the raft comes before this turn's brick
                if others == 0 and not self._home_free(state):
                    continue  # keep one transporter home for the wonder
                if self._trunk_fetch(state, t) is not None:
                    return a  # the raft's second trunk from our woodcutter
                if self._trunk_holder(state, t):
                    continue  # it keeps its trunks at home for the raft
                if self._errand(state, t) is not None or self._outing(state, home) is not None:
                    return a
            return None
        t = state.trans[state.active]
        if t.water:
            return self._boat(state, t, legal)
        if t.place == home:
            return self._at_home(state, t, legal)
        return self._away(state, t, legal)

    def _home_free(self, state: RBState) -> bool:
        """True when the last transporter at home may leave too: in a long game
        (``ALL_OUT``) on a turn when no brick is due (the wonder is on schedule or
        another player has fewer bricks) and the game is not about to end."""
        if not S.ALL_OUT or not self._long_plan(state):
            return False
        if self._last_turn(state, S.END_MARGIN) or self._turns_left(state) <= S.FINAL_TURNS + 1:
            return False
        return not self._behind_schedule(state)

    def _breeding_site(self, state: RBState) -> int | None:
        """A pasture next to the home where two of our donkeys may breed next turn: no
        building, no goods, no other player's transporter; None when we are at the
        land transporter limit or the game is about to end."""
        long = self._pacing(state)
        breed = S.BREED or (S.LONG_BREED and long)
        if not breed or self._turns_left(state) <= S.BREED_TURNS:
            return None
        land = sum(1 for t in state.trans.values() if t.owner == self.seat and not t.water)
        if land >= D.MAX_LAND:
            return None
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        for q in neighbours(state, home):
            h = w.place_hex[q]
            if h == hh or h in state.buildings or w.hexes[h].terrain != D.PASTURE:
                continue
            if any(state.piles.get(a) for a in w.areas[h]):
                continue
            if any(
                w.place_hex[t.place] == h and t.owner != self.seat for t in state.trans.values()
            ):
                continue
            if any(site == q for site, _kind in self._targets(state)):
                continue
            return q
        if S.FAR_BREED and self._long_plan(state):
            own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
            targets = self._targets(state)
            if D.MINE not in own and not any(kind == D.MINE for _q, kind in targets):
                return None  # no gold to carry: the trips would cost more than they give
            for r in self._far_sites(state, D.PASTURE):
                h = w.place_hex[r]
                if any(state.piles.get(a) for a in w.areas[h]):
                    continue
                if any(
                    w.place_hex[t.place] == h and t.owner != self.seat for t in state.trans.values()
                ):
                    continue
                if any(site == r for site, _kind in targets):
                    continue
                return r
        return None

    def _mine_errand(self, state: RBState, t: Any) -> bool:
        """True when ``t`` has an errand before the pace is known while a mine away from
        the home is one of the first two targets (``BREED_ERRANDS_FIRST``): it carries
        goods instead of going to breed (a home without rock builds its mine in turn 1
        with the starting stone, or the sawmill takes that stone)."""
        if not S.BREED_ERRANDS_FIRST or self._long_plan(state):
            return False
        if self._errand(state, t) is None:
            return False
        home = state.homes[self.seat]
        return any(site != home and kind == D.MINE for site, kind in self._targets(state)[:2])

    def _breeders(self, state: RBState, site: int | None) -> set[int]:
        """Ids of (at most two) empty donkeys of ours standing on the breeding site."""
        if site is None:
            return set()
        ids = sorted(
            t.id
            for t in state.trans.values()
            if t.owner == self.seat and t.place == site and t.kind == D.DONKEY and not t.cargo
        )
        return set(ids[:2])

    def _spare_at_home(self, state: RBState, t: Any) -> bool:
        """True when another transporter of ours stays at home besides ``t``."""
        home = state.homes[self.seat]
        return any(
            u.owner == self.seat and u.place == home and u is not t and not u.moved
            for u in state.trans.values()
        )

    def _at_home(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        factory = self._raft_feed(state, t)
        if factory is not None:  # 2 trunks to the raft factory
            if trunks_aboard(t) < 2:
                for a in legal:
                    if isinstance(a, A.Load) and a.place == home and D.G[a.good] == D.TRUNK:
                        return a
            for a in legal:
                if isinstance(a, A.Step) and a.to == factory:
                    return a
            return None
        fetch = self._trunk_fetch(state, t)
        if fetch is not None:
            for a in legal:
                if isinstance(a, A.Step) and a.to == fetch:
                    return a
        if self._trunk_holder(state, t):
            return None  # it keeps its trunks for the raft
        site = self._breeding_site(state)
        if (
            site is not None
            and t.kind == D.DONKEY
            and len(self._breeders(state, site)) < 2
            and self._spare_at_home(state, t)
            and not self._mine_errand(state, t)
        ):
            steps = {a.to: a for a in legal if isinstance(a, A.Step)}
            toward = site if site in steps else self._toward(state, site, steps)
            if toward is not None and toward in steps:
                if t.cargo:
                    return A.Unload(D.GOODS[t.cargo[0] & D.GOOD_MASK], home)
                return steps[toward]
        last = self._last_turn(state, S.END_MARGIN)
        steps = {a.to: a for a in legal if isinstance(a, A.Step)}
        loads = {D.G[a.good]: a for a in legal if isinstance(a, A.Load) and a.place == home}
        capacity = D.TRANSPORTERS[t.kind].capacity
        if last:  # scoring goods onto transporters (in place of other cargo), then stay
            for g in (D.STOCK, D.COINS, D.GOLD):
                if g in loads:
                    if len(t.cargo) < capacity:
                        return loads[g]
                    for c in t.cargo:
                        if c & D.GOOD_MASK not in S.KEEP:
                            return A.Unload(D.GOODS[c & D.GOOD_MASK], home)
        errand = self._errand(state, t)
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        wait = False
        if errand is not None and errand[0] not in steps:
            toward = self._toward(state, errand[0], steps)
            next_door = errand[0] in neighbours(state, home)
            if next_door and S.NEXT_DOOR_WAIT and self._long_plan(state):
                toward = None  # only an off-road step leads there: next turn, straight
                wait = S.ERRAND_WAIT
            if toward is not None:
                steps = {**steps, errand[0]: steps[toward]}
        if errand is not None and errand[0] in steps:
            site, need = errand
            for g in set(cargo):
                if need[g] < cargo.count(g) and not (last and g in S.KEEP):
                    return A.Unload(D.GOODS[g], home)
            if len(cargo) < capacity:
                for g in range(D.NUM_GOODS):
                    if need[g] > cargo.count(g) and g in loads:
                        return loads[g]
            if site in steps and any(need[g] and g in cargo for g in range(D.NUM_GOODS)):
                return steps[site]
        for g in set(cargo):
            if not (last and g in S.KEEP):
                return A.Unload(D.GOODS[g], home)
        if last and any(g in S.KEEP for g in cargo):
            return None
        if wait:
            return None  # no outing: the errand starts from home next turn
        target = self._outing(state, home)
        if target is not None and target in steps and not cargo:
            return steps[target]
        return None

    def _away(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        if (
            self._raft_seats(state)
            and t.place == self._raft_factory(state)
            and trunks_aboard(t) >= 2
            and self._raft_wanted(state)
        ):
            return None  # the raft is made here next production
        site = self._breeding_site(state)
        if site is not None and t.place == site and t.id in self._breeders(state, site):
            return None  # stay and breed
        if (
            S.FAR_BREED
            and site is not None
            and t.kind == D.DONKEY
            and not t.cargo
            and t.place != site
            and len(self._breeders(state, site)) < 2
            and site in neighbours(state, t.place)
        ):
            for a in legal:
                if isinstance(a, A.Step) and a.to == site:
                    return a
            if not any(isinstance(a, A.Load) for a in legal):
                return None  # the off-road step to the pasture next turn
        loads = [a for a in legal if isinstance(a, A.Load)]
        steps = [a for a in legal if isinstance(a, A.Step)]
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        if any(place == t.place for _h, place in self._dry_mines(state)) and (
            D.IRON in cargo or D.FUEL in cargo
        ):
            pool = state.pool(t.place, state.presence(self.seat).get(t.place, []))
            if all(pool[g] >= n for g, n in D.SHAFT_COST):
                return None  # the new shaft is built here this turn
            if self._drop(state):  # leave it on the mine and fetch the rest
                return A.Unload(D.GOODS[D.IRON if D.IRON in cargo else D.FUEL], t.place)
        waiting = False
        for site, kind in self._targets(state):
            cost = D.BUILDINGS[kind].cost
            if site != t.place or not any(cargo.count(g) and n for g, n in cost):
                continue
            mine_here = state.presence(self.seat).get(site, [])
            if not self._drop(state) or all(state.pool(site, mine_here)[g] >= n for g, n in cost):
                waiting = True  # everything is here: build this turn
            else:  # leave the goods on the site and fetch the rest
                for g, _n in cost:
                    if g in cargo:
                        return A.Unload(D.GOODS[g], t.place)
        b = state.buildings.get(state.world.place_hex[t.place])
        if b is not None and b[2] == self.seat and b[0] in S.FEEDS and b[1] == t.place:
            inputs = D.BUILDINGS[b[0]].inputs
            if self._drop(state):  # inputs lie loose there until the set is complete
                home = state.homes[self.seat]
                wanted = self._input_need(
                    state, b[0], t.place, state.pool(home, state.presence(self.seat).get(home, []))
                )
                for g, _n in inputs:
                    if g in cargo and wanted is not None and wanted[1][g]:
                        return A.Unload(D.GOODS[g], t.place)
            elif all(cargo.count(g) >= n for g, n in inputs):
                waiting = True  # produce here next production
        if waiting:
            return None  # building here this turn
        return self._away_onward(state, t, cargo, loads, steps)

    def _away_onward(
        self, state: RBState, t: Any, cargo: list[int], loads: list[Any], steps: list[Any]
    ) -> Any | None:
        """The move of transporter ``t`` away from home when nothing keeps it where it
        stands (``cargo``: its goods; ``loads``, ``steps``: its legal loads and steps):
        goods carried on to a far target, far feeds and piles, a load, else a step home
        (``None``: it stays)."""
        home = state.homes[self.seat]
        step_to = {a.to: a for a in steps}
        near = neighbours(state, home)
        for site, kind in self._targets(state) if S.CARRY_ON else []:
            if site == t.place or site == home:
                continue
            if site in near:
                break  # goods for sites next to home go home first
            have = state.pool(site, [])
            if any(g in cargo and have[g] < n for g, n in D.BUILDINGS[kind].cost):
                toward = self._toward(state, site, step_to)
                dist = self._distances(state, site)
                if toward is not None and dist.get(toward, 99) < dist.get(t.place, 99):
                    return step_to[toward]
                if S.FAR_STAY and self._long_plan(state) and dist.get(t.place, 99) == 1:
                    return None  # off-road, a donkey takes only a first step: next turn
            break
        far_feed = self._far_feed_step(state, t, cargo, step_to)
        if far_feed == S.STAY:
            return None
        if far_feed is not None:
            return far_feed
        if S.OUTING_STAY and len(cargo) < D.TRANSPORTERS[t.kind].capacity:
            fetch = self._far_pile_step(state, t, step_to)
            if fetch == S.STAY:
                return None
            if fetch is not None and not cargo:
                return fetch
        if not cargo and not loads:
            w = state.world
            for q in step_to:
                b = state.buildings.get(w.place_hex[q])
                if (
                    b is not None
                    and b[2] == self.seat
                    and b[1] == q
                    and q != home
                    and (D.BUILDINGS[b[0]].kind == D.PRIMARY or b[0] in S.FEEDS)
                    and self._pile_worth(state, q)
                    and q not in neighbours(state, home)
                ):
                    return step_to[q]  # fetch from a far producer
        if loads and self._drop(state):
            sites = {site for site, _kind in self._targets(state)}
            loads = [a for a in loads if a.place not in sites]  # goods left for a build
        if loads and S.LEAVE_OTHERS_LOADS and self._spared(state, t.place):
            loads = []  # another player's production
        if loads:
            keep = self._inputs_at(state, t.place)
            loads = [a for a in loads if D.G[a.good] not in keep or a.place != t.place]
        if loads:
            return min(loads, key=lambda a: S.LOAD_ORDER.index(D.G[a.good]))
        dist = self._distances(state, home)
        here = dist.get(t.place, 99)
        for a in steps:
            if dist.get(a.to, 99) < here:
                return a
        return None

    def _far_pile_step(self, state: RBState, t: Any, step_to: dict[int, Any]) -> Any | None:
        """For a transporter away from home with room (``OUTING_STAY``): a step to a
        neighbouring producer of ours two steps from the home where a scoring good
        (gold, coins, stock) lies, or ``STAY`` when only an off-road step leads there
        and the transporter has already moved this phase (it arrived along a road: a
        donkey's road step cannot be followed by an off-road one, shared rules §6, so
        it waits there and steps in next turn); None otherwise."""
        w = state.world
        home = state.homes[self.seat]
        near = neighbours(state, home)
        for q in neighbours(state, t.place):
            if q == home or q in near:
                continue
            b = state.buildings.get(w.place_hex[q])
            if b is None or b[2] != self.seat or b[1] != q:
                continue
            if not any(g & D.GOOD_MASK in S.KEEP for g in state.piles.get(q, ())):
                continue
            if q in step_to:
                return step_to[q]
            return S.STAY
        return None

    def _far_feed_step(
        self, state: RBState, t: Any, cargo: list[int], step_to: dict[int, Any]
    ) -> Any | None:
        """A step towards one of our secondary buildings two steps from the home (the
        coal burner of ``FAR_COAL``) that wants goods this transporter carries, or to a
        dry mine of ours for the iron and fuel of a new shaft; ``STAY`` when the place is
        next door but only an off-road step leads there (next turn's first step)."""
        if not cargo:
            return None
        home = state.homes[self.seat]
        near = neighbours(state, home)
        avail = state.pool(home, state.presence(self.seat).get(home, []))
        places: list[int] = []
        for b in state.buildings.values():
            kind, place, owner, _used = b
            if owner != self.seat or kind not in S.FEEDS or place in near or place == t.place:
                continue
            wanted = self._input_need(state, kind, place, avail)
            if wanted is None or not any(wanted[1][g] for g in cargo):
                continue
            places.append(place)
        if D.IRON in cargo or D.FUEL in cargo:  # a new shaft's goods (``SHAFTS``)
            places += [q for _h, q in self._dry_mines(state) if q not in (home, t.place)]
        for place in places:
            toward = self._toward(state, place, step_to)
            dist = self._distances(state, place)
            if toward is not None and dist.get(toward, 99) < dist.get(t.place, 99):
                return step_to[toward]
            if S.FAR_STAY and self._long_plan(state) and dist.get(t.place, 99) == 1:
                return S.STAY  # off-road, a donkey takes only a first step: next turn
        return None

    def _toward(self, state: RBState, site: int, steps: dict[int, Any]) -> int | None:
        """The step destination (a key of ``steps``) closest to ``site``, if closer
        than staying."""
        dist = self._distances(state, site)
        best = min(steps, key=lambda q: dist.get(q, 99), default=None)
        return best if best is not None and dist.get(best, 99) < 99 else None

    def _errand(self, state: RBState, t: Any) -> tuple[int, list[int]] | None:
        """(site, goods still needed there) of the first planned producer that this
        transporter at home can help pay for, or None."""
        if self._turns_left(state) <= S.LATE_TURNS - 1:
            return None
        shaft = self._shaft_errand(state)
        if shaft is not None:
            return shaft
        feed = self._feed(state)
        if feed is not None:
            return feed
        if self._turns_left(state) <= S.LATE_TURNS:
            return None
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        bit = 1 << (self.seat + D.GOOD_BITS)
        loadable = [0] * D.NUM_GOODS
        for g in state.piles.get(home, ()):
            if not g & bit:
                loadable[g & D.GOOD_MASK] += 1
        for g in t.cargo:
            loadable[g & D.GOOD_MASK] += 1
        for site, kind in self._targets(state):
            cost = D.BUILDINGS[kind].cost
            if site == home:
                for g, n in cost:
                    avail[g] -= min(n, avail[g])
                continue
            if self._by_water(state, site):  # the raft carries these from home
                lying = state.pool(site, [])
                for g, n in cost:
                    avail[g] -= min(max(0, n - lying[g]), avail[g])
                continue
            have = state.pool(site, here.get(site, []))
            if S.COUNT_TRANSIT:  # cargo on its way to a far site is not sent twice
                for u in state.trans.values():
                    if u.owner == self.seat and u.place not in (home, site):
                        for g in u.cargo:
                            have[g & D.GOOD_MASK] += 1
            need = [0] * D.NUM_GOODS
            for g, n in cost:
                need[g] = max(0, n - have[g])
            if not any(need):
                continue
            if all(
                avail[g] >= need[g] and loadable[g] >= min(need[g], 1) for g in range(D.NUM_GOODS)
            ):
                return site, need
            return None  # save up for this one first
        return None

    def _outing(self, state: RBState, place: int) -> int | None:
        """A neighbouring land area with goods (or a producer) worth fetching from."""
        w = state.world
        best, best_score = None, 0
        sites = {site for site, _kind in self._targets(state)} if self._drop(state) else set()
        for q in neighbours(state, place):
            score = self._pile_worth(state, q) if q not in sites else 0
            b = state.buildings.get(w.place_hex[q])
            if b is not None and b[1] == q and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                score += 1
            for r in neighbours(state, q):
                m = state.buildings.get(w.place_hex[r])
                ours = m is not None and (D.BUILDINGS[m[0]].kind == D.PRIMARY or m[0] in S.FEEDS)
                far = r != place and r not in neighbours(state, place)
                if ours and m is not None and m[2] == self.seat and m[1] == r and far:
                    score += self._pile_worth(state, r)
            busy = sum(1 for t in state.trans.values() if t.owner == self.seat and t.place == q)
            score -= 2 * busy
            if score > best_score:
                best, best_score = q, score
        return best

    def _spared(self, state: RBState, place: int) -> bool:
        """Whether the goods at ``place`` lie on another player's building in a long
        game (``_long_plan``): what ``LEAVE_OTHERS`` and ``LEAVE_OTHERS_LOADS`` leave
        alone."""
        b = state.buildings.get(state.world.place_hex[place])
        return b is not None and b[2] != self.seat and b[2] >= 0 and self._long_plan(state)

    def _pile_worth(self, state: RBState, place: int) -> int:
        """How much the loose goods at ``place`` are worth fetching: one per good,
        ``SCORING_WEIGHT`` per gold, coin or stock; the inputs lying at one of our
        secondary buildings count nothing (they wait there for the rest of a set)."""
        if S.LEAVE_OTHERS and self._spared(state, place):
            return 0  # another player's production, left to them in a long game
        keep = self._inputs_at(state, place)
        worth = 0
        for g in state.piles.get(place, ()):
            g &= D.GOOD_MASK
            if g in keep:
                continue
            worth += S.SCORING_WEIGHT if g in S.KEEP else 1
        return worth

    def _inputs_at(self, state: RBState, place: int) -> set[int]:
        """Goods left at ``place`` for our secondary building there (inputs of its set)."""
        b = state.buildings.get(state.world.place_hex[place])
        if b is None or b[2] != self.seat or b[0] not in S.FEEDS or b[1] != place:
            return set()
        return {g for g, _n in D.BUILDINGS[b[0]].inputs}
