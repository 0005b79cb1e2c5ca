"""docs/ are enough for a bot author in any language (issue 33, item 14): they cite no
file outside the repository and no developer's machine; ``referee schema
roads-and-boats`` gives every view and action field a meaning; and
docs/roads_and_boats_wire.md names every action and field and numbers the map's ids
exactly as the engine does (checked by an implementation written from the page alone)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.games import get_game
from referee.games.roads_and_boats import data
from referee.games.roads_and_boats.world import (
    DOCK,
    LAND,
    RIVER,
    SEA_PLACE,
    generate_map,
    world_from_spec,
)
from referee.process.wire_schema import wire_schema

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
WIRE = (ROOT / "docs" / "roads_and_boats_wire.md").read_text()
OWNED_ELSEWHERE = {ROOT / "docs" / "rules" / "roads_and_boats.md"}
"""Pages another change is rewriting at the same time (their citations are its to fix)."""


@pytest.mark.parametrize("page", [p for p in DOCS if p not in OWNED_ELSEWHERE], ids=str)
def test_docs_cite_nothing_outside_the_repository(page: Path) -> None:
    text = page.read_text()
    assert not re.search(r"(?<![\w.])/?shared/(rules|seeds)/", text), "cites shared/ notes"
    assert not re.search(r"shared rules §", text), "cites the shared/ notes by section"
    assert not re.search(r"(?<![\w.])/(work|home|root|Users|tmp/[a-z])/\w", text), "a host path"


def schema() -> dict[str, Any]:
    return wire_schema(get_game("roads-and-boats"))


def described(entry: dict[str, Any]) -> bool:
    return bool(entry.get("description", "").strip())


def test_every_view_field_has_a_meaning() -> None:
    defs = schema()["$defs"]
    view = defs["RBView"]
    missing = [f for f, p in view["properties"].items() if not described(p)]
    for name in ("TransporterView", "BuildingView", "WallView", "PileView"):
        missing += [
            f"{name}[{i}]" for i, p in enumerate(defs[name]["prefixItems"]) if not described(p)
        ]
    assert missing == []


def action_defs() -> dict[str, dict[str, Any]]:
    defs = schema()["$defs"]
    union = defs["wire.Action"]
    names = [x["$ref"].rsplit("/", 1)[1] for x in union.get("anyOf", union.get("oneOf", []))]
    return {defs[n]["properties"]["kind"]["enum"][0]: defs[n] for n in names}


def test_every_action_field_has_a_meaning() -> None:
    missing = [
        f"{kind}.{field}"
        for kind, d in action_defs().items()
        for field, p in d["properties"].items()
        if not described(p)
    ]
    assert missing == []


def test_the_wire_page_lists_every_action_with_its_fields_and_every_view_field() -> None:
    actions = WIRE[WIRE.index("\n## Actions\n") : WIRE.index("\n## View\n")]
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)` \| (.*?) \|", actions, re.M)}
    for kind, d in action_defs().items():
        assert kind in rows, kind
        fields = [f for f in d["properties"] if f != "kind"]
        assert re.findall(r"`(\w+)` \(", rows[kind]) == fields, kind
    view_fields = schema()["$defs"]["RBView"]["properties"]
    for field in view_fields:
        assert f"| `{field}` |" in WIRE, field
    for word in ("world_from_spec", "data.GOODS", "state.py"):
        assert word not in WIRE


def ids_from_the_page(spec: str) -> tuple[list[tuple[int, int, int, int]], list[tuple[str, int]]]:
    """Edges and places of ``spec`` numbered as docs/roads_and_boats_wire.md says
    (written from the page, not from the engine): ``(hex, side, hex, side)`` per edge,
    ``(kind, hex)`` per place."""
    deltas = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]
    names = ["N", "NE", "SE", "S", "SW", "NW"]
    hexes: list[tuple[int, int, str, list[int]]] = []
    for item in filter(None, (x.strip() for x in spec.split(";"))):
        coords, rest = item.split(None, 1)
        q, r = map(int, coords.split(","))
        terrain, _, river_text = rest.partition("[")
        sides = [names.index(x) for x in river_text.rstrip("]").split("+")] if river_text else []
        hexes.append((q, r, terrain.strip(), sorted(sides)))
    at = {(q, r): i for i, (q, r, _, _) in enumerate(hexes)}
    edges: list[tuple[int, int, int, int]] = []
    seen = set()
    for i, (q, r, _, _) in enumerate(hexes):
        for d, (dq, dr) in enumerate(deltas):
            j = at.get((q + dq, r + dr))
            if j is not None and (i, d) not in seen:
                edges.append((i, d, j, (d + 3) % 6))
                seen |= {(i, d), (j, (d + 3) % 6)}
    places: list[tuple[str, int]] = []
    area_of: dict[tuple[int, int], int] = {}
    banks: dict[tuple[int, int], list[int]] = {}
    for i, (_, _, terrain, rivers) in enumerate(hexes):
        if terrain == "SEA":
            places.append(("sea", i))
            continue
        if len(rivers) <= 1:
            arcs = [[d for d in range(6) if d not in rivers]]
        else:
            arcs = []
            for k, start in enumerate(rivers):
                stop, d, arc = rivers[(k + 1) % len(rivers)], (start + 1) % 6, []
                while d != stop:
                    arc.append(d)
                    d = (d + 1) % 6
                arcs.append(arc)
        areas = []
        for arc in arcs:
            areas.append(len(places))
            places.append(("land", i))
            for d in arc:
                area_of[(i, d)] = areas[-1]
        for k, d in enumerate(rivers):  # the areas either side of river side d
            banks[(i, d)] = sorted({areas[(k - 1) % len(areas)], areas[k % len(areas)]})
        if rivers:
            places.append(("river", i))
    for i, (q, r, terrain, rivers) in enumerate(hexes):
        if terrain == "SEA":
            continue
        for d, (dq, dr) in enumerate(deltas):
            j = at.get((q + dq, r + dr))
            if j is None or hexes[j][2] != "SEA":
                continue
            for _area in banks[(i, d)] if d in rivers else [area_of[(i, d)]]:
                places.append(("dock", i))
    return edges, places


MAP_SPECS = [pytest.param(spec, id=name) for name, (_title, spec) in sorted(data.MAPS.items())]
MAP_SPECS += [
    pytest.param(generate_map(players, seed)[1], id=f"generated-{players}-{seed}")
    for players, seed in [(2, 1), (3, 7), (4, 11), (4, 12)]
]


def test_the_generated_maps_checked_have_rivers_with_banks_and_docks() -> None:
    worlds = [world_from_spec("m", p.values[0]) for p in MAP_SPECS[len(data.MAPS) :]]
    assert all(any(len(h.rivers) >= 2 for h in w.hexes) for w in worlds)
    assert all(DOCK in w.place_kind for w in worlds)


@pytest.mark.parametrize("spec", MAP_SPECS)
def test_the_pages_numbering_of_ids_is_the_engines(spec: str) -> None:
    world = world_from_spec("m", spec)
    edges, places = ids_from_the_page(world.spec)
    assert edges == [tuple(e) for e in world.edges]
    kinds = {LAND: "land", RIVER: "river", SEA_PLACE: "sea", DOCK: "dock"}
    engine = [(kinds[k], h) for k, h in zip(world.place_kind, world.place_hex, strict=True)]
    assert places == engine
