"""Puerto Rico's drawing for the replay viewer (see :mod:`referee.api.render`).

Every seat sees the same board (the plantation stack's order is held by no state), so
all perspectives show the :class:`PuertoRicoView` fields.
"""

from __future__ import annotations

from typing import Any

from referee.api.engine import State
from referee.api.render import GameRenderer, Tracker, generic_action, words
from referee.games.puerto_rico import data as D


class RoleTakers(Tracker):
    """Who took each role card this round (``role_takers``: role name -> seat)."""

    def __init__(self) -> None:
        self.takers: dict[str, int] = {}

    def observe(self, state: State, seat: int, action: Any) -> None:
        """Note a role choice; the first choice of a round clears the last round's."""
        if isinstance(action, dict) and action.get("kind") == "role":
            if not state.view(0).taken_roles:
                self.takers = {}
            self.takers[str(action.get("role"))] = seat

    def notes(self) -> dict[str, Any]:
        """``{"role_takers": {role: seat}}``."""
        return {"role_takers": dict(self.takers)}


class PuertoRicoRenderer(GameRenderer):
    """Frames are :class:`PuertoRicoView` fields; the chart shows VP if the game ended now."""

    progress_label = "VP (if the game ended now)"

    def tracker(self) -> Tracker:
        """Remembers who took which role this round (the view keeps only the names)."""
        return RoleTakers()

    def static(self, state: State) -> dict[str, Any]:
        """Building table (cost, VP, circles, column, good, large) and goods."""
        return {
            "goods": list(D.GOOD_NAMES),
            "tiles": list(D.TILE_NAMES),
            "buildings": [
                {
                    "name": b.name,
                    "cost": b.cost,
                    "vp": b.vp,
                    "circles": b.circles,
                    "column": b.column,
                    "good": None if b.good is None else D.GOOD_NAMES[b.good],
                    "large": b.large,
                }
                for b in D.BUILDINGS
            ],
        }

    def progress(self, state: State, seat: int | None) -> list[float]:
        """Each player's ``score`` (public)."""
        return [float(p.score) for p in state.view(0).players]

    def describe_action(self, action: Any) -> str:
        """Puerto Rico moves in words."""
        kind = action.get("kind") if isinstance(action, dict) else None
        texts = {
            "role": "takes the {role}",
            "plantation": "takes a {good} plantation",
            "quarry": "takes a quarry",
            "hacienda": "draws a plantation with the hacienda",
            "place": "places a colonist on {spot}",
            "build": "builds a {building}",
            "extra_good": "takes an extra {good}",
            "sell": "sells {good}",
            "load": "loads {good} on ship {ship}",
            "wharf": "ships {good} with the wharf",
            "keep_kind": "stores all {good} in a warehouse",
            "keep_barrel": "keeps one {good} barrel",
            "pass": "passes",
        }
        if kind in texts:
            try:
                return words(texts[kind].format(**action))
            except (KeyError, IndexError):
                pass
        return generic_action(action)

    def describe_chance(self, outcome: Any, state: State | None = None) -> str:
        """Plantation draws by tile name."""
        names = D.TILE_NAMES

        def name(x: Any) -> str:
            return names[x] if isinstance(x, int) and 0 <= x < len(names) else str(x)

        if isinstance(outcome, list):
            return "plantations drawn: " + ", ".join(name(x) for x in outcome)
        if isinstance(outcome, int):
            return f"plantation drawn: {name(outcome)}"
        return str(outcome)


RENDERER = PuertoRicoRenderer()
