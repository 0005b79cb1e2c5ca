"""Rulebook readings that referee 0.1 got wrong (issue 15), each built from the
rulebook's situation; every test here fails on the 0.1 engine.

Sources: the 3rd-edition rulebook (Chinese translation ``shared/seeds/004_…``; English
pages cited as p<n>) and ``shared/rules/roads_and_boats.md`` (§n).
"""

from __future__ import annotations

import random

from referee.api.engine import CHANCE
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import BUILDING, MOVEMENT, PRODUCTION, RBState
from tests.roads_and_boats.helpers import (
    add,
    area,
    bare,
    building,
    cargo_names,
    hx,
    jump,
    loose_names,
    put,
    totals,
)

N, NE, SE, S, SW, NW = range(6)


def at(stage: int, map_name: str = "dead-sea", **options: object) -> RBState:
    state = bare(2, map_name, options=dict(options))
    jump(state, stage)
    return state


def steps(state: RBState) -> list[int]:
    return [a.to for a in state.legal_actions() if isinstance(a, A.Step)]


# --- 1. roads along a river bank ------------------------------------------------


def test_a_river_source_is_passed_on_either_bank() -> None:
    """Seed p13 「河的两岸可以建造两条相互平行的道路」 and the Sample Road Network: a river
    splits a hex into areas, but an edge the river meets still has land on both sides of
    the river's point; from the source hex 3,3 of the Dead Sea a donkey steps onto both
    banks of 4,3 across the river side."""
    state = at(MOVEMENT)
    w = state.world
    south, north = w.areas[hx(w, 4, 3)]  # 4,3 WOO[SE+SW]: area 0 holds S, area 1 the rest
    donkey = add(state, 0, D.DONKEY, area(w, 3, 3))
    state.apply_action(A.MoveTransporter(donkey.id))
    assert {south, north} <= set(steps(state))


def test_parallel_roads_on_both_banks_carry_wagons() -> None:
    """Seed p13: parallel roads on both banks. Roads from the source across the river
    side are offered on each bank; a wagon (roads only) then runs along the north bank
    from 3,3 through 4,3 to 5,2."""
    state = at(BUILDING)
    w = state.world
    source = area(w, 3, 3)
    add(state, 0, D.DONKEY, source)
    put(state, source, D.STONE, 2)
    roads = {(a.side, a.bank) for a in state.legal_actions() if isinstance(a, A.Road)}
    assert {(NE, 0), (NE, 1)} <= roads
    state.apply_action(A.Road(source, NE, 0))
    state.apply_action(A.Road(source, NE, 1))
    north = area(w, 4, 3, 1)
    state.roads.add(w.crossing(hx(w, 4, 3), SE, 0))  # the north bank on to 5,2
    jump(state, MOVEMENT)
    wagon = add(state, 0, D.WAGON, source)
    state.apply_action(A.MoveTransporter(wagon.id))
    assert set(steps(state)) == {area(w, 4, 3, 0), north}
    state.apply_action(A.Step(north))
    state.apply_action(A.Step(area(w, 5, 2, 1)))
    assert wagon.place == area(w, 5, 2, 1) and state.moves_left == 1
    view = state.view(0)
    assert len(view.bank_roads) == 3 and view.roads == []


# --- 2. walls on river edges --------------------------------------------------


def test_walls_on_river_edges_from_land_and_from_a_docked_raft() -> None:
    """Seed p14 「石墙可以建造在任何两个陆地板块之间」; English wall example p14: the docked
    rafts build on the two "F" edges the river crosses."""
    state = at(BUILDING)
    w = state.world
    h = hx(w, 4, 3)
    south = area(w, 4, 3, 0)
    dock = next(p for p in w.docks_of_area[south] if w.place_dir[p] == S)
    add(state, 0, D.RAFT, dock, [D.STONE] * 3)
    legal = state.legal_actions()
    assert A.Wall(south, SE) in legal and A.Wall(south, SW) in legal
    state.apply_action(A.Wall(south, SE))
    assert state.walls[w.edge_of[h][SE]] == [0, 1]
    # from land: a donkey on the far bank of 5,2 raises the same wall
    state.apply_action(A.DONE)
    far = area(w, 5, 2, 1)
    add(state, 1, D.DONKEY, far)
    put(state, far, D.STONE, 2)
    assert A.Wall(far, NW) not in state.legal_actions()  # another player's wall
    state.walls[w.edge_of[h][SE]] = [-1, 1]
    assert A.Wall(far, NW) in state.legal_actions()


# --- 3. walls have no maximum ---------------------------------------------------


def test_walls_grow_past_three_tokens_unless_the_option_caps_them() -> None:
    """p14: 1 stone, 2 more for the second token, "an additional three for a third, etc."
    No maximum: a fourth token costs 4. Option wall_limit=3 restores the old cap."""
    cases: list[tuple[dict[str, object], bool]] = [({}, True), ({"wall_limit": 3}, False)]
    for options, offered in cases:
        state = at(BUILDING, "pacific", **options)
        w = state.world
        here = area(w, 2, 1)
        state.walls[w.edge_of[hx(w, 2, 1)][N]] = [0, 3]
        add(state, 0, D.DONKEY, here)
        put(state, here, D.STONE, 4)
        assert (A.Wall(here, N) in state.legal_actions()) == offered
    state = at(BUILDING, "pacific")
    w = state.world
    here = area(w, 2, 1)
    edge = w.edge_of[hx(w, 2, 1)][N]
    state.walls[edge] = [-1, 3]  # a demolished wall of three is rebuilt higher
    add(state, 0, D.DONKEY, here)
    put(state, here, D.STONE, 4)
    state.apply_action(A.Wall(here, N))
    assert state.walls[edge] == [0, 4] and loose_names(state, here) == []


# --- 4. an unattended wagon factory --------------------------------------------


def test_loose_boards_at_a_wagon_factory_stay_without_a_donkey() -> None:
    """Seed p9 「即用小毛驴换一辆小货车」: a wagon is a donkey plus boards, so boards alone
    are no complete input set and an unattended factory leaves them. The old reading
    (boards eaten) stays with rules=referee-0.1."""
    old = {"rules": "referee-0.1"}
    for options, left in (({}, ["board", "board"]), (old, [])):
        state = at(PRODUCTION, "pacific", **options)
        place = area(state.world, 2, 2)
        building(state, D.WAGON_FACTORY, place)
        put(state, place, D.BOARD, 2)
        before = sum(totals(state))
        state.apply_action(A.DONE)
        state.apply_action(A.DONE)
        assert state.stage == MOVEMENT
        assert loose_names(state, place) == left, options
        assert sum(totals(state)) == before - (2 - len(left))


# --- 5. swapping at the transporter limit ---------------------------------------


def test_a_factory_produces_at_the_limit_and_one_transporter_is_destroyed() -> None:
    """English p9: "If the newly built transporter and the one that delivered the input
    goods are the only transporters at a transporter factory, one of them must be
    destroyed." At 8 transporters the raft factory still produces; then the player
    picks the transporter to destroy among those at the factory."""
    state = at(PRODUCTION, "pacific")
    w = state.world
    place = area(w, 2, 2)
    h = building(state, D.RAFT_FACTORY, place)
    donkey = add(state, 0, D.DONKEY, place, [D.TRUNK, D.TRUNK])
    far = area(w, 10, -3)
    for _ in range(4):
        add(state, 0, D.DONKEY, far)
    sea = w.sea_place[hx(w, 4, 0)]
    for _ in range(3):
        add(state, 0, D.RAFT, sea)
    launch = state.launch_places(h, 0)[0]
    assert A.Produce(h, launch) in state.legal_actions()
    state.apply_action(A.Produce(h, launch))
    raft = max(state.trans.values(), key=lambda t: t.id)
    assert raft.kind == D.RAFT and len(state.trans) == 9 and state.step == "scrap"
    choice = state.legal_actions()
    assert set(choice) == {A.Scrap(donkey.id), A.Scrap(raft.id)}  # only those at the factory
    state.apply_action(A.Scrap(donkey.id))
    assert state.step == "act" and len(state.trans) == 8 and raft.id in state.trans
    assert loose_names(state, place) == []  # the trunks became the raft


# --- 6. upgrading a factory that produced -----------------------------------------


def test_a_factory_that_produced_this_turn_may_be_upgraded() -> None:
    """English p16: right after the research, "all (or some)" factories of that kind
    may be upgraded; having produced this turn does not matter."""
    state = at(PRODUCTION, "pacific")
    place = area(state.world, 2, 2)
    h = building(state, D.RAFT_FACTORY, place)
    add(state, 0, D.DONKEY, place, [D.TRUNK, D.TRUNK])
    launch = state.launch_places(h, 0)[0]
    state.apply_action(A.Produce(h, launch))
    put(state, place, D.GOOSE, 2)
    put(state, place, D.PAPER)
    state.apply_action(A.Research(place, "rowing"))
    assert A.Upgrade(h, "rowboat_factory") in state.legal_actions()
    state.apply_action(A.Upgrade(h, "rowboat_factory"))
    assert state.buildings[h][0] == D.ROWBOAT_FACTORY


# --- 7. a carried donkey is released only on land --------------------------------


def test_a_carried_donkey_is_not_released_onto_an_oil_rig() -> None:
    """English p12: a carried land transporter is set down in a land area its carrier
    touches; an oil rig at sea is no such area (the donkey would be stranded)."""
    old = {"rules": "referee-0.1"}
    for options, stranded in (({}, False), (old, True)):
        state = at(MOVEMENT, "pacific", **options)
        w = state.world
        sea = w.sea_place[hx(w, 3, 4)]
        building(state, D.OIL_RIG, sea)
        raft = add(state, 0, D.RAFT, sea)
        donkey = add(state, 0, D.DONKEY, sea)
        donkey.carrier = raft.id
        assert (A.Release(donkey.id, sea) in state.legal_actions()) == stranded, options
        assert state.release_places(donkey) == ([sea] if stranded else [])


# --- 8. bridges on deserts -----------------------------------------------------------


def test_no_bridge_on_a_desert_before_irrigation() -> None:
    """Seed p15 「在那之前，只有道路可以建造在沙漠上」 (English: roads and walls): no bridge
    on a desert until brick 45; option desert_bridges restores the old reading."""

    def bridges(state: RBState) -> list[A.Bridge]:
        return [a for a in state.legal_actions() if isinstance(a, A.Bridge)]

    cases: list[dict[str, object]] = [{}, {"desert_bridges": True}]
    for options in cases:
        desert_bridges = bool(options)
        state = at(BUILDING, "mesopotamia", **options)
        w = state.world
        bank = area(w, 4, 1, 0)  # 4,1 DES[N+SE]
        add(state, 0, D.DONKEY, bank)
        put(state, bank, D.STONE)
        assert bool(bridges(state)) == desert_bridges
        state.wonder = [-1] * D.IRRIGATION_AT
        assert bridges(state)


# --- 9. free exchange during production ------------------------------------------


def test_goods_are_exchanged_with_the_ground_at_a_building_in_production() -> None:
    """English p9: during production goods may be exchanged between transporters and the
    ground: a donkey puts its boards down, another takes them; a good taken is not put
    down again the same production (no loop).  Issue 35: anywhere, not only at a
    building (test_second_audit.py); ``rules=referee-0.2`` keeps the building."""
    state = at(PRODUCTION, "pacific", rules="referee-0.2")
    place = area(state.world, 2, 2)
    building(state, D.SAWMILL, place)
    first = add(state, 0, D.DONKEY, place, [D.BOARD, D.CLAY])
    second = add(state, 0, D.DONKEY, place)
    legal = state.legal_actions()
    assert A.Put(first.id, "board", place) in legal and A.Put(first.id, "clay", place) in legal
    state.apply_action(A.Put(first.id, "board", place))
    state.apply_action(A.Take(second.id, "board", place))
    assert cargo_names(first) == ["clay"] and cargo_names(second) == ["board"]
    assert not any(
        isinstance(a, A.Put) and a.transporter == second.id for a in state.legal_actions()
    )
    away = area(state.world, 10, -3)  # no building there: nothing to exchange with (0.2)
    lone = add(state, 0, D.DONKEY, away, [D.STONE])
    assert not any(isinstance(a, A.Put) and a.transporter == lone.id for a in state.legal_actions())


# --- 10. another player's goods with permission -----------------------------------


def test_another_players_goods_are_used_with_consent() -> None:
    """Seed p13 「取得对方的许可之后便可使用对方交通工具上的资源」: when building, a player
    asks the owner of a transporter for a good; the owner agrees or refuses."""
    state = at(BUILDING, "pacific")
    w = state.world
    woods = area(w, 2, 2)
    add(state, 0, D.DONKEY, woods)
    theirs = add(state, 1, D.DONKEY, woods, [D.BOARD, D.STONE])
    assert not any(isinstance(a, A.Build) for a in state.legal_actions())
    state.apply_action(A.Borrow(theirs.id, "board", woods))
    assert state.step == "consent" and state.to_move() == 1
    state.apply_action(A.AGREE)
    assert state.to_move() == 0 and loose_names(state, woods) == ["board"]
    state.apply_action(A.Build("woodcutter", woods))
    assert state.buildings[hx(w, 2, 2)][0] == D.WOODCUTTER
    state.apply_action(A.Borrow(theirs.id, "stone", woods))
    state.apply_action(A.REFUSE)
    assert cargo_names(theirs) == ["stone"]
    assert not any(isinstance(a, A.Borrow) for a in state.legal_actions())  # asked once


# --- 12. the map is part of the match's chance -------------------------------------


def test_every_match_seed_draws_its_own_map() -> None:
    """Issue 15 item 12: a generated map's seed is a chance outcome at setup (drawn from
    the match's random source, so it is recorded and replayed); map_seed pins one map;
    two seats may play a generated map too (map=generated) or the official ones."""
    names = set()
    for seed in range(6):
        state = GAME.new_game(3, GAME.parse_options({}))
        assert state.to_move() == CHANCE and state.step == "map"
        state.apply_chance(state.sample_chance(random.Random(seed)))
        names.add(state.world.spec)
        assert state.step == "setup" and state.to_move() == CHANCE  # then the temple
    assert len(names) == 6
    duel = GAME.new_game(2, GAME.parse_options({"map": "generated"}))
    duel.apply_chance(123)
    assert duel.world.name == "generated-2-123" and len(duel.world.land_hexes()) == 20
    for name in ("pacific", "dead-sea"):
        assert GAME.new_game(2, GAME.parse_options({"map": name})).step == "setup"
    pinned = [GAME.new_game(4, GAME.parse_options({"map_seed": 9})).world.spec for _ in "ab"]
    assert pinned[0] == pinned[1]


def test_another_players_goods_feed_a_factory_with_consent() -> None:
    """Seed p13, in production: the sawmill runs on a trunk another player agrees to give."""
    state = at(PRODUCTION, "pacific")
    mill = area(state.world, 2, 2)
    h = building(state, D.SAWMILL, mill)
    add(state, 0, D.DONKEY, mill)
    theirs = add(state, 1, D.DONKEY, mill, [D.TRUNK])
    assert A.Produce(h) not in state.legal_actions()  # their trunk is theirs
    state.apply_action(A.Borrow(theirs.id, "trunk", mill))
    assert state.to_move() == 1 and state.legal_actions() == [A.AGREE, A.REFUSE]
    state.apply_action(A.AGREE)
    state.apply_action(A.Produce(h))
    assert theirs.cargo == () and loose_names(state, mill) == []
    assert sum(totals(state)) == 2  # one trunk became two boards, on seat 0's donkey
