"""Roads & Boats movement phase (rulebook p10-12).

Starting a transporter, its steps over roads, rivers and sea, loading and unloading,
geese that follow it, and carried transporters set down again.
"""

from __future__ import annotations

from typing import Any

from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import GOOD_INDEX, StateBase, Transporter, _kinds
from referee.games.roads_and_boats.world import DOCK, LAND, RIVER, SEA_PLACE


@trait
class MovementRules(StateBase):
    """The movement phase: starting a transporter, its steps, goods and followers."""

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
                t.cargo = (*t.cargo, g)
                break
        if not pile:
            del self.piles[place]

    def _apply_unload(self, t: Transporter, good: int, place: int) -> None:
        cargo = t.cargo
        for i in range(len(cargo) - 1, -1, -1):
            if cargo[i] & D.GOOD_MASK == good:
                g = cargo[i]
                t.cargo = cargo[:i] + cargo[i + 1 :]
                self._drop(place, g | 1 << (t.owner + D.GOOD_BITS))
                return

    def _do_step(self, seat: int, action: A.Step) -> None:
        self._apply_step(self.trans[self.active], action.to)

    def _do_load(self, seat: int, action: A.Load) -> None:
        self._apply_load(self.trans[self.active], GOOD_INDEX[action.good], action.place)

    def _do_unload(self, seat: int, action: A.Unload) -> None:
        self._apply_unload(self.trans[self.active], GOOD_INDEX[action.good], action.place)

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
        if cargo := t.cargo:  # everything aboard has moved (unchanged: the same stamp)
            marked = tuple([g | bit for g in cargo])
            if marked != cargo:
                t.cargo = marked
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

    def _do_release(self, seat: int, action: A.Release) -> None:
        u = self.trans[action.transporter]
        u.carrier = -1
        u.moved = False
        u.place = action.to
