"""The Roads & Boats heuristic planner: :class:`Planner`, its layers stacked by
inheritance (survey, plan, rafts, production, movement, building), each in its own
module; the plan itself is described in ``bots/roads_and_boats_bot.py``."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import geometry as G
from bots.roads_and_boats.building import Building
from bots.roads_and_boats.geometry import home_value
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats.state import BUILDING, MOVEMENT, PRODUCTION, RBState


class Planner(Building):
    """Chooses among legal actions for one seat given the full state."""

    def choose(self, state: RBState, legal: list[Any]) -> int:
        """Index into ``legal`` of the action to take."""
        G._NEIGHBOURS, self._land_steps, self._target_list = {}, {}, None
        try:
            action = self._pick(state, legal)
        finally:
            G._NEIGHBOURS, self._land_steps, self._target_list = None, None, None
        return legal.index(action) if action is not None else len(legal) - 1

    def _pick(self, state: RBState, legal: list[Any]) -> Any | None:
        first = legal[0]
        if isinstance(first, A.PlaceTile):  # drafted map: the first free cell
            return first
        if isinstance(first, A.Home):
            return self._home(state, legal)
        if isinstance(first, A.NoRequest | A.Pray):
            return first
        if isinstance(first, A.Position):
            return first
        if isinstance(first, A.Agree):  # accept gifts; keep our goods and transporters
            return first if isinstance(state.offer, A.Give) else A.REFUSE
        if state.step == "scrap":  # over the transporter limit: drop the emptiest
            return min(legal, key=lambda a: (len(state.trans[a.transporter].cargo), a.transporter))
        if state.stage == PRODUCTION:
            return self._production(state, legal)
        if state.stage == MOVEMENT:
            return self._movement(state, legal)
        if state.stage == BUILDING:
            return self._building(state, legal)
        return self._wonder(state, legal)

    def _home(self, state: RBState, legal: list[Any]) -> Any:
        w = state.world

        def value(action: A.Home) -> float:
            return home_value(state, action.place) + 0.1 * len(w.area_sides[action.place])

        return max(legal, key=value)
