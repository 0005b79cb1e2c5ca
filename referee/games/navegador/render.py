"""Navegador's drawing for the replay viewer (see :mod:`referee.api.render`).

Navegador has no private information besides face-down colony tiles, which no state
holds before they are drawn, so every perspective shows the same :class:`NavegadorView`.
"""

from __future__ import annotations

from typing import Any

from referee.api.engine import State
from referee.api.render import GameRenderer, Tracker, generic_action
from referee.games.navegador import data as D


class ColonyOwners(Tracker):
    """Who founded which colony (``colonies``: region index -> ``[[seat, price], ...]``;
    a colony takes the cheapest face-up tile of its region)."""

    def __init__(self) -> None:
        self.colonies: dict[str, list[list[int]]] = {}

    def observe(self, state: State, seat: int, action: Any) -> None:
        """Note a founded colony and the tile it took."""
        if not (isinstance(action, dict) and action.get("kind") == "found"):
            return
        regions = state.view(0).regions
        index = next((i for i, r in enumerate(regions) if r.name == action.get("region")), -1)
        if index >= 0 and regions[index].tiles:
            self.colonies.setdefault(str(index), []).append([seat, min(regions[index].tiles)])

    def notes(self) -> dict[str, Any]:
        """``{"colonies": {region index: [[seat, price], ...]}}``."""
        return {"colonies": {k: [list(c) for c in v] for k, v in self.colonies.items()}}


class NavegadorRenderer(GameRenderer):
    """Frames are :class:`NavegadorView` fields; the chart shows VP if the game ended now."""

    progress_label = "VP (if the game ended now)"

    def tracker(self) -> Tracker:
        """Remembers who founded which colony (the view keeps only counts per good)."""
        return ColonyOwners()

    def static(self, state: State) -> dict[str, Any]:
        """Board tables: regions and borders, market prices, rondel, building costs."""
        return {
            "goods": list(D.GOODS),
            "regions": list(D.REGIONS),
            "borders": [list(b) for b in D.BORDERS],
            "market_price": [list(r) for r in D.MARKET_PRICE],
            "market_revenue": list(D.MARKET_REVENUE),
            "rondel": list(D.RONDEL),
            "buildings": list(D.BUILDINGS),
            "building_costs": [list(r) for r in D.BUILDING_COSTS],
            "columns": list(D.COLUMNS),
            "privilege_coins": [list(r) for r in D.PRIVILEGE_COINS],
        }

    def progress(self, state: State, seat: int | None) -> list[float]:
        """Each player's ``score`` (public: VP if the game ended now)."""
        return [float(p.score) for p in state.view(0).players]

    def describe_action(self, action: Any) -> str:
        """Navegador moves in words."""
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "rondel":
            space = action["space"]
            name = D.RONDEL[space] if 0 <= space < len(D.RONDEL) else space
            return f"moves to {name} (space {space})"
        if kind == "card":
            return "plays the Navegador card"
        if kind == "scrap":
            return f"scraps a ship in {action['region']}"
        if kind == "sail":
            return f"sails {action['src']} → {action['dst']}"
        if kind == "found":
            return f"founds a colony in {action['region']}"
        if kind in ("sell", "process"):
            verb = "sells" if kind == "sell" else "processes"
            return f"{verb} {action['count']} {action['good']}"
        if kind == "build":
            return f"builds a {action['building']}"
        if kind == "hire":
            return f"hires {action['count']} workers"
        if kind == "launch":
            return f"builds {action['count']} ships"
        if kind == "privilege":
            return f"takes a {action['column']} privilege"
        if kind == "king":
            return f"claims the King's privilege ({action['column']})"
        if kind == "done":
            return "ends the action"
        return generic_action(action)

    def describe_chance(self, outcome: Any, state: State | None = None) -> str:
        """Tile reveals and other draws."""
        if isinstance(outcome, list):
            return "tiles revealed: " + ", ".join(str(x) for x in outcome)
        return str(outcome)


RENDERER = NavegadorRenderer()
