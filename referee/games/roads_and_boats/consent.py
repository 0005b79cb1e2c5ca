"""Roads & Boats offers that need another player's consent (rulebook p11-13).

A player may borrow goods from other players' transporters (in production, and in
building as materials), hand goods to another transporter or take goods from it, and
pick up an empty transporter with the moving one; when that transporter belongs to
someone else, its owner agrees or refuses in the ``consent`` step.
"""

from __future__ import annotations

from typing import Any

from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import GOOD_INDEX, StateBase, Transporter, _kinds
from referee.games.roads_and_boats.phases import BUILDING
from referee.games.roads_and_boats.world import LAND, SEA_PLACE


@trait
class ConsentRules(StateBase):
    """Offers to other players' transporters, the consent step and its outcome."""

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
                src.cargo = src.cargo[:i] + src.cargo[i + 1 :]
                dst.cargo = (*dst.cargo, g | bit if src is t else g)
                return

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
            g = u.cargo[i] & D.GOOD_MASK
            u.cargo = u.cargo[:i] + u.cargo[i + 1 :]
            if self.stage == BUILDING and self.options.loans_return:
                self.loans.append([offer.place, g, u.id])  # back if unused (phase end)
                g |= D.LENT
            self._drop(offer.place, g)
        else:
            self._apply_offer(offer)
