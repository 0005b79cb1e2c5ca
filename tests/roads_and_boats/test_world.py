"""Map data and the hex/area world model."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from referee.api.engine import CHANCE, InvalidChance, OptionError
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.actions import PlaceTile
from referee.games.roads_and_boats.world import (
    DOCK,
    LAND,
    RIVER,
    MapError,
    World,
    generate_map,
    parse_spec,
    world_from_spec,
)
from tests.roads_and_boats.helpers import hx


def world(name: str) -> World:
    return world_from_spec(name, D.MAPS[name][1])


def test_pacific_counts_match_the_rules_file() -> None:
    w = world("pacific")
    terrains = [h.terrain for h in w.hexes]
    assert len(terrains) == 59
    assert {t: terrains.count(t) for t in D.TERRAINS} == {
        "WOO": 12, "PAS": 4, "ROC": 2, "MTN": 7, "DES": 4, "SEA": 30,
    }  # fmt: skip
    assert not any(h.rivers for h in w.hexes)
    assert all(len(w.areas[i]) == 1 for i in w.land_hexes())


def test_dead_sea_rivers_split_hexes_into_banks() -> None:
    w = world("dead-sea")
    assert len(w.hexes) == 37
    junction = hx(w, 6, 1)  # NE+S+NW: three banks
    assert len(w.areas[junction]) == 3
    assert len(w.areas[hx(w, 5, 2)]) == 2  # SE+NW: straight, two banks
    source = hx(w, 3, 3)
    assert len(w.areas[source]) == 1 and w.river_place[source] >= 0
    # the junction's S side is the mouth into the inner sea at (6,0)
    river = w.river_place[junction]
    assert w.sea_place[hx(w, 6, 0)] in [q for _e, q, _d in w.boat_links[river]]
    # a land area never links across a river side
    for a in w.areas[junction]:
        assert not set(w.area_sides[a]) & set(w.hexes[junction].rivers)


def test_every_place_kind_exists_and_docks_face_the_sea() -> None:
    w = world("dead-sea")
    kinds = set(w.place_kind)
    assert kinds == {0, 1, 2, 3}
    for p, kind in enumerate(w.place_kind):
        if kind == DOCK:
            sea = w.dock_sea(p)
            assert not w.hexes[w.place_hex[sea]].land
            assert w.place_kind[w.dock_area[p]] == LAND
        if kind == RIVER:
            assert w.hexes[w.place_hex[p]].rivers


def test_mouth_offers_a_dock_on_each_bank() -> None:
    w = world("dead-sea")
    junction = hx(w, 6, 1)
    south = D.DIRECTIONS.index("S")
    docks = [p for p in range(len(w.place_kind)) if w.place_kind[p] == DOCK
             and w.place_hex[p] == junction and w.place_dir[p] == south]  # fmt: skip
    assert len(docks) == 2
    assert len({w.dock_area[p] for p in docks}) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0,0 PAS[N]", "off the map"),
        ("0,0 PAS[N]; 0,1 WOO", "dry land"),
        ("0,0 MTN[N]; 0,1 PAS[S]", "never reaches the sea"),
        ("0,0 XYZ", "unknown terrain"),
        ("0,0 SEA", "no land"),
        ("0,0 PAS; 0,0 WOO", "twice"),
        ("nonsense", "bad map hex"),
    ],
)
def test_invalid_maps_are_rejected_with_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        world_from_spec("bad", spec)


def test_spec_round_trips() -> None:
    hexes = parse_spec(D.MAPS["mesopotamia"][1])
    w = world("mesopotamia")
    assert parse_spec(w.spec) == hexes


@pytest.mark.parametrize("players", [3, 4])
def test_generated_maps_follow_the_custom_map_rules(players: int) -> None:
    for seed in range(15):
        name, spec = generate_map(players, seed)
        assert generate_map(players, seed) == (name, spec)
        w = world_from_spec(name, spec)  # validates rivers
        land = w.land_hexes()
        assert len(land) == 10 * players
        # land is one touching blob
        seen, todo = {land[0]}, [land[0]]
        while todo:
            i = todo.pop()
            for j in w.nbr[i]:
                if j >= 0 and w.hexes[j].land and j not in seen:
                    seen.add(j)
                    todo.append(j)
        assert seen == set(land)
        assert any(w.hexes[i].terrain == D.WOODS for i in land)
        assert any(w.hexes[i].terrain == D.ROCK for i in land)
    assert generate_map(players, 1) != generate_map(players, 2)


def test_generated_rivers_are_real_tiles_and_some_fork() -> None:
    """Sources are mountains with one river side; two sides make a straight or a bend;
    three sides only as the junction tile (every other side); tributaries do fork."""
    junctions = 0
    for players in (3, 4):
        for seed in range(20):
            w = world_from_spec(*generate_map(players, seed))
            for h in w.hexes:
                sides = set(h.rivers)
                assert len(sides) <= 3
                if len(sides) == 1:
                    assert h.terrain == D.MOUNTAIN
                if len(sides) == 3:
                    assert sides in ({0, 2, 4}, {1, 3, 5})
                    assert len(w.areas[w.index[(h.q, h.r)]]) == 3  # three banks
                    junctions += 1
    assert junctions >= 10


def test_default_maps_per_player_count() -> None:
    states = [GAME.new_game(n, GAME.parse_options({})) for n in (1, 2, 3, 4)]
    assert [s.world.name for s in states[:2]] == ["lord-of-the-ring", "pacific"]
    for n, state in ((3, states[2]), (4, states[3])):
        assert state.to_move() == CHANCE and state.step == "map"  # drawn at setup
        state.apply_chance(77)
        assert state.world.name == f"generated-{n}-77" and state.step == "setup"
    pinned = GAME.new_game(3, GAME.parse_options({"map_seed": 5}))
    assert pinned.step == "setup" and pinned.world.name == "generated-3-5"


def test_map_file_option(tmp_path: Path) -> None:
    good = tmp_path / "tiny.json"
    hexes = [[0, 0, "PAS"], [0, 1, "SEA"], [1, 0, "MTN", ["SW"]]]
    good.write_text(json.dumps({"name": "tiny", "hexes": hexes}))
    # the river of (1,0) runs into (0,0), which has no river: invalid
    with pytest.raises(OptionError, match="dry land"):
        GAME.new_game(2, GAME.parse_options({"map": str(good)}))
    good.write_text(json.dumps({"name": "tiny", "hexes": "0,0 PAS; 0,1 SEA; 1,0 WOO; 3,3 ROC"}))
    state = GAME.new_game(2, GAME.parse_options({"map": str(good)}))
    assert state.world.name == "tiny" and len(state.world.hexes) == 4
    with pytest.raises(OptionError, match="cannot read"):
        GAME.new_game(2, GAME.parse_options({"map": str(tmp_path / "missing.json")}))
    with pytest.raises(OptionError, match="unknown map"):
        GAME.new_game(2, GAME.parse_options({"map": "atlantis"}))


def test_drafted_map_is_laid_by_the_players_from_drawn_tiles() -> None:
    """Seed p5 (set-up for experienced players): about 10 land tiles per player; the first
    player places the first tile, then the next player clockwise draws two tiles and
    places them next to the map, and so on. Draws are chance outcomes, placements
    decisions."""
    state = GAME.new_game(2, GAME.parse_options({"map": "drafted"}))
    state.apply_chance([1, 0])  # temple order: seat 0 acts first
    assert state.step == "deal" and state.to_move() == CHANCE
    with pytest.raises(InvalidChance):
        state.apply_chance(["WOO", "ROC"])  # the opening draw is one tile
    state.apply_chance(["MTN"])
    assert state.to_move() == 0 and state.legal_actions() == [PlaceTile(0, 0, "MTN")]
    state.apply_action(PlaceTile(0, 0, "MTN"))
    state.apply_chance(["WOO", "PAS"])
    assert state.to_move() == 1
    legal = state.legal_actions()
    assert len(legal) == 12 and PlaceTile(0, 1, "PAS") in legal  # 6 cells x 2 tiles
    view = state.view(1)
    assert view.map == "" and view.tiles == [[0, 0, "MTN"]] and view.hand == ["WOO", "PAS"]
    assert GAME.determinize(view, random.Random(0)).legal_actions() == legal
    state.apply_action(PlaceTile(0, 1, "PAS"))
    assert state.legal_actions()[0].terrain == "WOO" and state.to_move() == 1
    state.apply_action(PlaceTile(1, 0, "WOO"))
    rng = random.Random(4)
    while state.step != "rivers":
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    placed = {(q, r): t for q, r, t in state.tiles}
    assert len(placed) == 20
    state.apply_chance(7)
    w = state.world
    assert w.name == "drafted-2-7" and state.step == "homes"
    assert {(h.q, h.r): h.terrain for h in w.hexes if h.land} == placed
