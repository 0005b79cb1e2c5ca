"""Roads & Boats' drawing for the replay viewer (see :mod:`referee.api.render`).

Roads & Boats has no secrets, so every perspective shows the same :class:`RBView`
fields (goods decoded to names by the script).  The hex geometry (hex centres,
terrain, rivers, a point for every place, the two ends of every edge) is computed once
from the final map with :func:`world.world_from_spec`; the view refers to places and
edges by id, and the script draws them at those points.  Everything is read
defensively, since the view grows as the engine does.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

from referee.api.engine import State
from referee.api.render import GameRenderer, generic_action
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats import world as W

SIZE = 40.0
"""Hex circumradius in drawing units."""

# screen angle (degrees, y down) of the middle of each side N NE SE S SW NW
SIDE_ANGLE = (-90.0, -30.0, 30.0, 90.0, 150.0, 210.0)


def _centre(q: int, r: int) -> tuple[float, float]:
    return 1.5 * SIZE * q, -math.sqrt(3) * SIZE * (r + q / 2)


def _toward(x: float, y: float, angle: float, dist: float) -> tuple[float, float]:
    a = math.radians(angle)
    return x + dist * math.cos(a), y + dist * math.sin(a)


def _mean_angle(sides: tuple[int, ...] | list[int]) -> float | None:
    if not sides:
        return None
    vx = sum(math.cos(math.radians(SIDE_ANGLE[d])) for d in sides)
    vy = sum(math.sin(math.radians(SIDE_ANGLE[d])) for d in sides)
    if abs(vx) < 1e-9 and abs(vy) < 1e-9:
        return SIDE_ANGLE[sides[0]]
    return math.degrees(math.atan2(vy, vx))


def layout(name: str, spec: str) -> dict[str, Any]:
    """Geometry of a map: ``hexes`` ``[x, y, terrain, river sides]``, ``places``
    ``[x, y, kind]``, ``edges`` ``[x1, y1, x2, y2, ax, ay, bx, by]`` (the side's two
    corners and the land points on either side, for roads), ``box`` the bounds."""
    world = W.world_from_spec(name, spec)
    inner = math.sqrt(3) / 2 * SIZE
    centres = [_centre(h.q, h.r) for h in world.hexes]
    hexes = [
        [round(x, 1), round(y, 1), h.terrain, list(h.rivers)]
        for (x, y), h in zip(centres, world.hexes, strict=True)
    ]
    places: list[list[Any]] = []
    kinds = W.PLACE_KINDS
    for p, kind in enumerate(world.place_kind):
        i = world.place_hex[p]
        x, y = centres[i]
        h = world.hexes[i]
        if kind == W.LAND and h.rivers:
            angle = _mean_angle(world.area_sides[p])
            if angle is not None:
                x, y = _toward(x, y, angle, 0.45 * SIZE)
        elif kind == W.DOCK:
            side = world.place_dir[p]
            x, y = _toward(x, y, SIDE_ANGLE[side], 0.78 * inner)
            area = world.dock_area[p]
            if side in h.rivers and 0 <= area < len(world.area_sides):
                angle = _mean_angle(world.area_sides[area])
                if angle is not None:
                    x, y = _toward(x, y, angle, 0.25 * SIZE)
        places.append([round(x, 1), round(y, 1), kinds[kind] if kind < len(kinds) else "?"])

    def land_point(i: int, d: int) -> tuple[float, float]:
        area = world.area_of_side[i][d] if world.hexes[i].land else -1
        if area >= 0:
            return places[area][0], places[area][1]
        return centres[i]

    edges = []
    for i, d, j, d2 in world.edges:
        x, y = centres[i]
        x1, y1 = _toward(x, y, SIDE_ANGLE[d] - 30, SIZE)
        x2, y2 = _toward(x, y, SIDE_ANGLE[d] + 30, SIZE)
        ax, ay = land_point(i, d)
        bx, by = land_point(j, d2)
        edges.append([round(v, 1) for v in (x1, y1, x2, y2, ax, ay, bx, by)])
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    box = [min(xs) - SIZE - 4, min(ys) - SIZE - 4, max(xs) + SIZE + 4, max(ys) + SIZE + 4]
    return {
        "size": SIZE,
        "hexes": hexes,
        "places": places,
        "edges": edges,
        "box": [round(v, 1) for v in box],
    }


PHRASES = {
    "home": "puts its home at place {place}",
    "request_order": "asks to change the turn order",
    "no_request": "no request",
    "pray": "prays at the temple",
    "position": "takes turn-order slot {slot}",
    "take": "transporter {transporter} picks up {good} at place {place}",
    "borrow": "asks to borrow {good} at place {place}",
    "move": "moves transporter {transporter}",
    "step": "steps to place {to}",
    "load": "loads {good}",
    "unload": "unloads {good} at place {place}",
    "build": "builds a {building} at place {place}",
    "upgrade": "upgrades hex {hex} to a {building}",
    "road": "builds a road from place {place}, side {side}",
    "bridge": "builds a bridge in hex {hex}, side {side}",
    "wall": "builds a wall from place {place}, side {side}",
    "demolish": "demolishes a wall from place {place}, side {side}",
    "brick": "lays a wonder brick",
    "release": "releases transporter {transporter} at place {to}",
    "agree": "agrees",
    "refuse": "refuses",
    "stop": "stops",
    "done": "done",
}
"""Phrases of the common actions (``str.format`` with the action's fields)."""


class RoadsAndBoatsRenderer(GameRenderer):
    """Frames are :class:`RBView` fields; the chart shows wealth points so far."""

    progress_label = "wealth points so far"

    def static(self, state: State) -> dict[str, Any]:
        """Goods names and the final map's geometry (see :func:`layout`)."""
        out: dict[str, Any] = {"goods": list(D.GOODS), "good_bits": D.GOOD_BITS}
        try:
            view = state.view(0)
            out["map_name"] = view.map_name
            out["map"] = view.map
            out["layout"] = layout(view.map_name, view.map)
        except (W.MapError, AttributeError, IndexError, ValueError) as exc:
            out["layout_error"] = str(exc)
        return out

    def describe_action(self, action: Any) -> str:
        """Roads & Boats moves in words (places and hexes by id, as on the wire); kinds
        without a phrase here are spelled out field by field."""
        kind = action.get("kind") if isinstance(action, dict) else None
        phrase = PHRASES.get(kind or "")
        if phrase is not None:
            try:
                return phrase.format(**action).replace("_", " ")
            except (KeyError, IndexError, ValueError):
                pass
        return generic_action(action)

    def describe_chance(self, outcome: Any, state: State | None = None) -> str:
        """What a chance outcome means, by the step it is drawn at (``state``): the
        map drawn from its seed, the temple order, the land tiles dealt, the rivers of a
        drafted map, the mines' draws; anything else field by field."""
        step = getattr(state, "step", None)
        seats = getattr(state, "seats", 0)
        if step in ("map", "rivers") and isinstance(outcome, int):
            what = "map drawn" if step == "map" else "rivers drawn"
            if step == "map":
                try:
                    return f"{what}: {map_summary(*W.generate_map(seats, outcome))}"
                except (W.MapError, ValueError):
                    pass
            return f"{what} (seed {outcome})"
        if step == "setup" and isinstance(outcome, list):
            order = ", ".join(f"seat {s}" for s in outcome)
            return f"temple order drawn, closest first: {order}"
        if step == "deal" and isinstance(outcome, list):
            tiles = ", ".join(TERRAIN_WORDS.get(str(t), str(t)) for t in outcome)
            return f"land tiles dealt: {tiles}"
        if isinstance(outcome, list) and all(isinstance(x, list) and len(x) == 2 for x in outcome):
            draws = ", ".join(f"the mine on hex {h} yields {good}" for h, good in outcome)
            return f"mine draws: {draws}" if draws else "mine draws: none"
        if isinstance(outcome, list):
            return ", ".join(str(x) for x in outcome)
        return str(outcome)


TERRAIN_WORDS = {
    D.WOODS: "woods",
    D.PASTURE: "pasture",
    D.ROCK: "rock",
    D.MOUNTAIN: "mountains",
    D.DESERT: "desert",
    D.SEA: "sea",
}
"""Terrain codes in words."""


@functools.lru_cache(maxsize=16)
def map_summary(name: str, spec: str) -> str:
    """A map in words: its land hexes by terrain and its river hexes, and its name
    (which holds the seat count and seed of a generated map).  Raises :class:`W.MapError`
    for a spec that does not parse."""
    hexes = W.parse_spec(spec)
    land = [h for h in hexes if h.land]
    counts = Counter(h.terrain for h in land)
    terrains = ", ".join(
        f"{counts[t]} {TERRAIN_WORDS.get(t, t)}" for t in TERRAIN_WORDS if counts[t]
    )
    rivers = sum(1 for h in land if h.rivers)
    return f"{len(land)} land hexes ({terrains}), {rivers} with rivers; map {name}"


RENDERER = RoadsAndBoatsRenderer()
