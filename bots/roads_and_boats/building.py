"""The building phase (producers, roads, breeding) and the wonder phase (bricks bought by
the pace and the goods kept back).

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import settings as S
from bots.roads_and_boats.movement import Movement
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState


class Building(Movement):
    """The building and wonder phases."""

    def _mix(self, state: RBState) -> str:
        """Bag filling of our next mine: 4/0 (all gold) once specialisation is ours."""
        return "4/0" if state.research[self.seat] >> D.SPECIALISATION & 1 else "3/3"

    def _building(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        w = state.world
        mix = self._mix(state)
        builds = {
            (a.place, D.B[a.building]): a
            for a in legal
            if isinstance(a, A.Build) and (a.building != "mine" or a.mix == mix)
        }
        dry = {h for h, _place in self._dry_mines(state)}
        for a in legal:
            if isinstance(a, A.Shaft) and a.hex in dry and a.mix == mix:
                return a  # refill our mine (1 iron + 1 fuel)
        if self._turns_left(state) > S.LATE_TURNS:
            # goods at home still owed to earlier targets are not spent on later ones
            held = state.pool(home, state.presence(self.seat).get(home, []))
            for site, kind in self._targets(state):
                cost = D.BUILDINGS[kind].cost
                action = builds.get((site, kind))
                if action is not None:
                    if site != home:
                        return action
                    if all(held[g] >= n for g, n in cost):
                        return action
                have = state.pool(site, state.presence(self.seat).get(site, []))
                started = site != home and any(have[g] for g, _n in cost)
                if S.KEEP_FOR_EARLIER or started:
                    for g, n in cost:
                        owed = n if site == home else max(0, n - have[g])
                        held[g] -= min(held[g], owed)
        # roads from home to neighbouring producers, with stone to spare
        spare = state.pool(home, state.presence(self.seat).get(home, []))[D.STONE]
        spare -= self._reserve(state)[D.STONE]
        if spare > 0 and S.ROADS and not self._raft_pending(state):
            for a in legal:
                if isinstance(a, A.Road) and a.place == home:
                    j = w.nbr[w.place_hex[home]][a.side]
                    b = state.buildings.get(j)
                    if b is None or b[2] != self.seat:
                        continue
                    fed = S.ROADS_TO_INDUSTRY and b[0] in S.FEEDS and self._long_plan(state)
                    if D.BUILDINGS[b[0]].kind == D.PRIMARY or fed:
                        return a
        return None

    def _keep_for_industry(self, state: RBState, reserve: list[int], counts: list[int]) -> None:
        """Raise ``reserve`` (in place) by what the economy plan needs from home: the two
        geese and the paper of a pending research point, fuel for the mint."""
        own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
        planned = {kind for _q, kind in self._targets(state)}
        long = S.LONG_INDUSTRY and self._pacing(state)
        keep_geese = long and S.KEEP_GEESE
        if (D.PAPERMILL in own | planned or keep_geese) and self._research_pending(state):
            reserve[D.GOOSE] = max(reserve[D.GOOSE], 2)
            reserve[D.PAPER] = max(reserve[D.PAPER], 1)
        if self._shafts(state) and state.turn > S.SHAFT_GEESE_FROM:
            early = S.SHAFT_GEESE_EARLY or not S.SHAFT_KEEP_LATE
            if self._research_pending(state) and (D.MINE in own or early):
                reserve[D.GOOSE] = max(reserve[D.GOOSE], 2)
            if S.SHAFT_IRON_EARLY or state.research[self.seat] >> D.NEW_SHAFTS & 1:
                reserve[D.IRON] = max(reserve[D.IRON], min(counts[D.IRON], 2))
            if state.research[self.seat] >> D.NEW_SHAFTS & 1 or not S.SHAFT_KEEP_LATE:
                reserve[D.IRON] = max(reserve[D.IRON], min(counts[D.IRON], 2))
                reserve[D.FUEL] = max(reserve[D.FUEL], min(counts[D.FUEL], 2))
        if (S.INDUSTRY or long) and (D.MINT in own or D.MINT in planned):
            reserve[D.FUEL] = counts[D.FUEL]

    def _wonder(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        own = state.presence(self.seat).get(home, [])
        counts = state.pool(home, own)
        last = self._last_turn(state)
        reserve = [0] * D.NUM_GOODS if last else self._reserve(state)
        b = state.buildings.get(state.world.place_hex[home])
        if not last and b is not None and b[0] == D.SAWMILL and b[1] == home:
            reserve[D.TRUNK] = max(reserve[D.TRUNK], 3)  # boards (twice as many) next turn
        if not last:
            self._keep_for_industry(state, reserve, counts)
        if state.paying:
            pays = {D.G[a.good]: a for a in legal if isinstance(a, A.Pay)}
            for spare in (True, False):
                for g in S.PAY_ORDER:
                    if g in pays and (counts[g] > reserve[g] or not spare):
                        return pays[g]
            return legal[0]
        if A.BRICK not in legal:
            return None
        price = state.brick_price()
        if price > S.MAX_PRICE and not last:
            return None
        pacing = not last and self._pacing(state)
        if pacing and (state.bricks_now or not self._behind_schedule(state)):
            return None  # a long game: one brick a turn, on the schedule
        spendable = sum(
            max(0, counts[g] - reserve[g]) for g in range(D.NUM_GOODS) if g not in S.KEEP
        )
        return A.BRICK if spendable >= price else None
