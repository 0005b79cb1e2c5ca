"""The production phase: which goods our transporters load where they stand, the raft
factory's output and the research project; the errand that gives a dry mine its new
shaft.

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import settings as S
from bots.roads_and_boats.rafts import Rafts
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState


class Production(Rafts):
    """The production phase and new shafts."""

    def _production(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        last = self._last_turn(state, S.END_MARGIN)
        for action in legal:
            if isinstance(action, A.Breed):
                return action  # more donkeys (offered only within the transporter limit)
            if (
                isinstance(action, A.Take)
                and (last or (S.TAKE_GOLD and action.place != home))
                and D.G[action.good] in S.KEEP
            ):
                return action  # scoring goods onto our transporters before others move
        if S.TAKE_OWN:
            w = state.world
            for action in legal:
                if not isinstance(action, A.Take) or action.place == home:
                    continue
                b = state.buildings.get(w.place_hex[action.place])
                if b is None or b[2] != self.seat or b[1] != action.place:
                    continue
                if S.RAFTS and state.trans[action.transporter].water:
                    continue  # a boat's room is kept for gold
                if D.BUILDINGS[b[0]].kind == D.PRIMARY:
                    return action  # our producer's good onto our donkey there
        raft = self._raft_production(state, legal)
        if raft is not None:
            return raft
        for action in legal:
            if isinstance(action, A.Produce):
                kind = state.buildings[action.hex][0]
                if kind in S.FEEDS and self._wants_output(state, kind):
                    return action
        for action in legal:
            if isinstance(action, A.Research) and action.project == self._project(state):
                return action
        return None

    def _project(self, state: RBState) -> str:
        """The research project to take: new shafts in a long game (``SHAFTS``), else
        specialisation (4/0 mines, all gold)."""
        if self._shafts(state):
            return D.RESEARCH[D.NEW_SHAFTS]
        return D.RESEARCH[D.SPECIALISATION]

    def _shaft_errand(self, state: RBState) -> tuple[int, list[int]] | None:
        """(mine, goods) of a new shaft for one of our dry mines whose iron and fuel lie at
        home, or None (also when such goods are already on their way)."""
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        for _h, place in self._dry_mines(state):
            if place == home:
                continue
            have = state.pool(place, here.get(place, []))
            for u in state.trans.values():
                if u.owner == self.seat and u.place not in (home, place):
                    for g in u.cargo:
                        have[g & D.GOOD_MASK] += 1
            need = [0] * D.NUM_GOODS
            for g, n in D.SHAFT_COST:
                need[g] = max(0, n - have[g])
            if not any(need):
                continue
            if all(avail[g] >= need[g] for g in range(D.NUM_GOODS)):
                return place, need
        return None
