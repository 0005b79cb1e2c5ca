"""Roads & Boats production phase (rulebook p8-9, §3).

Primary output and mine draws, breeding, factories and their inputs, research, taking
goods onto transporters and putting them down, and the transporter limit (scrapping).
"""

from __future__ import annotations

from typing import Any

from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import GOOD_INDEX, StateBase, Transporter, _kinds
from referee.games.roads_and_boats.world import RIVER


@trait
class ProductionRules(StateBase):
    """The production phase: what it yields by itself and what players may do in it."""

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
                t.cargo = (*t.cargo, good)
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
                if n:
                    t.cargo = t.cargo + (btype.output,) * n
                left -= n
            for _ in range(left):
                self._drop(place, btype.output)
            return
        if kind == D.WAGON_FACTORY:
            donkeys = [t for t in own if self._free_donkey(t, place)]
            donkey = min(donkeys, key=_lightest)
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
        t = self.trans[action.transporter]
        t.cargo = (*t.cargo, pile.pop(i) | 1 << (seat + D.GOOD_BITS))
        if not pile:
            del self.piles[action.place]

    def _do_put(self, seat: int, action: A.Put) -> None:
        t = self.trans[action.transporter]
        cargo = t.cargo
        good = GOOD_INDEX[action.good]
        bit = 1 << (seat + D.GOOD_BITS)
        i = next(i for i, g in enumerate(cargo) if g & D.GOOD_MASK == good and not g & bit)
        t.cargo = cargo[:i] + cargo[i + 1 :]
        self._drop(action.place, cargo[i])

    def _do_upgrade(self, seat: int, action: A.Upgrade) -> None:
        self.buildings[action.hex][0] = D.B[action.building]


def _lightest(t: Transporter) -> tuple[int, int]:
    """The donkey a wagon factory takes first: the least laden, then the lowest id."""
    return len(t.cargo), t.id
