"""Building phase: buildings, roads, bridges, walls, mines (rulebook p12-14)."""

from __future__ import annotations

from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import BUILDING, RBState
from tests.roads_and_boats.helpers import add, area, bare, hx, jump, loose_names, put

N, NE, SE, S, SW, NW = range(6)


def building_phase(seats: int = 2, map_name: str = "pacific") -> RBState:
    state = bare(seats, map_name)
    jump(state, BUILDING)
    return state


def builds(state: RBState) -> list[tuple[str, str]]:
    return [(a.building, a.mix) for a in state.legal_actions() if isinstance(a, A.Build)]


def mines(state: RBState) -> list[tuple[str, str]]:
    return [b for b in builds(state) if b[0] == "mine"]


def test_costs_and_terrain_restrictions() -> None:
    state = building_phase()
    w = state.world
    woods = area(w, 2, 2)
    add(state, 0, D.DONKEY, woods)
    put(state, woods, D.BOARD, 1)
    assert builds(state) == [("woodcutter", "")]
    put(state, woods, D.BOARD, 1)
    put(state, woods, D.STONE, 1)
    names = {b for b, _ in builds(state)}
    assert names == {"woodcutter", "sawmill", "papermill", "stone_factory", "wagon_factory",
                     "raft_factory", "mint"}  # fmt: skip
    state.apply_action(A.Build("sawmill", woods))
    assert loose_names(state, woods) == []
    assert state.buildings[hx(w, 2, 2)][0] == D.SAWMILL
    put(state, woods, D.BOARD, 5)
    assert builds(state) == []  # one building per hex


def test_desert_takes_only_roads_and_walls_until_irrigated() -> None:
    state = building_phase()
    w = state.world
    desert = area(w, 4, -1)
    add(state, 0, D.DONKEY, desert)
    put(state, desert, D.BOARD, 5)
    put(state, desert, D.STONE, 2)
    assert builds(state) == []
    assert any(isinstance(a, A.Wall) for a in state.legal_actions())
    state.wonder = [-1] * D.IRRIGATION_AT
    assert ("sawmill", "") in builds(state)


def test_wall_costs_one_two_three_and_demolition() -> None:
    """Rulebook p14: 1 stone, +2, +3 (6 in all) "etc."; demolishing costs one board more
    than the tokens and leaves neutral tokens."""
    state = building_phase()
    w = state.world
    south, north = area(w, 2, 1), area(w, 2, 2)
    edge = w.edge_of[hx(w, 2, 1)][N]
    add(state, 0, D.DONKEY, south)
    put(state, south, D.STONE, 6)
    for tokens, left in ((1, 5), (2, 3), (3, 0)):
        state.apply_action(A.Wall(south, N))
        assert state.walls[edge] == [0, tokens]
        assert loose_names(state, south).count("stone") == left
    put(state, south, D.STONE, 3)
    assert A.Wall(south, N) not in state.legal_actions()  # a fourth token costs 4
    put(state, south, D.STONE, 1)
    state.apply_action(A.Wall(south, N))  # no maximum: "an additional three ... etc."
    assert state.walls[edge] == [0, 4]
    state.apply_action(A.DONE)
    add(state, 1, D.DONKEY, north)
    put(state, north, D.BOARD, 4)
    assert A.Demolish(north, S) not in state.legal_actions()  # needs 5 boards
    assert A.Wall(north, S) not in state.legal_actions()  # another player's wall
    put(state, north, D.BOARD, 1)
    state.apply_action(A.Demolish(north, S))
    assert state.walls[edge] == [-1, 4]
    assert loose_names(state, north) == []


def test_building_on_neutral_tokens_is_strengthening() -> None:
    state = building_phase()
    w = state.world
    here = area(w, 2, 1)
    edge = w.edge_of[hx(w, 2, 1)][N]
    state.walls[edge] = [-1, 1]
    add(state, 0, D.DONKEY, here)
    put(state, here, D.STONE, 1)
    assert A.Wall(here, N) not in state.legal_actions()
    put(state, here, D.STONE, 1)
    state.apply_action(A.Wall(here, N))
    assert state.walls[edge] == [0, 2]


def test_walls_from_sea_cost_two_more_and_push_docked_boats() -> None:
    state = building_phase()
    w = state.world
    sea = w.sea_place[hx(w, 3, 2)]
    add(state, 0, D.STEAMER, sea, [D.STONE] * 3)
    side = next(d for d in range(6) if w.nbr[hx(w, 3, 2)][d] == hx(w, 2, 2))
    dock = next(p for p in w.docks_of_area[area(w, 2, 2)] if w.place_dir[p] == NE)
    raft = add(state, 1, D.RAFT, dock)
    assert A.Wall(sea, side) in state.legal_actions()
    state.apply_action(A.Wall(sea, side))
    assert state.walls[w.edge_of[hx(w, 2, 2)][NE]] == [0, 1]
    assert raft.place == sea  # pushed back into the sea hex


def test_a_coastal_wall_pushes_other_players_boats_with_their_passengers_only() -> None:
    """p14: only another player's docked *boat* goes back to sea, with what it carries;
    a land transporter of another player aboard the builder's own boat is cargo and
    stays with that boat (found by the property test, seed 361 on Dead Sea)."""
    state = building_phase(3)
    w = state.world
    woods = area(w, 2, 2)
    sea = w.sea_place[hx(w, 3, 2)]
    dock = next(p for p in w.docks_of_area[woods] if w.place_dir[p] == NE)
    own_raft = add(state, 0, D.RAFT, dock)
    guest = add(state, 1, D.DONKEY, dock)
    guest.carrier = own_raft.id
    their_raft = add(state, 2, D.RAFT, dock)
    passenger = add(state, 2, D.DONKEY, dock)
    passenger.carrier = their_raft.id
    add(state, 0, D.DONKEY, woods)
    put(state, woods, D.STONE, 1)
    state.apply_action(A.Wall(woods, NE))
    assert (own_raft.place, guest.place) == (dock, dock)
    assert (their_raft.place, passenger.place) == (sea, sea)


def test_roads_and_bridges() -> None:
    state = building_phase(2, "mesopotamia")
    w = state.world
    h = hx(w, 5, 1)
    left, right = w.areas[h]
    add(state, 0, D.DONKEY, right)
    put(state, right, D.STONE, 2)
    put(state, left, D.CLAY, 1)
    roads = [a for a in state.legal_actions() if isinstance(a, A.Road)]
    land_sides = {d for d in w.area_sides[right] if w.hexes[w.nbr[h][d]].land}
    assert land_sides == {S, SW}  # NW faces the sea
    # and along its bank across the river sides N and SE (p13: parallel roads)
    assert {(a.side, a.bank) for a in roads} == {(S, -1), (SW, -1), (N, 0), (SE, 1)}
    state.apply_action(A.Road(right, SW))
    assert w.edge_of[h][SW] in state.roads
    bridges = [a for a in state.legal_actions() if isinstance(a, A.Bridge)]
    assert len(bridges) == 1  # N and SE separate the same two banks; one is offered
    state.apply_action(bridges[0])
    assert state.root[left] == state.root[right] == min(left, right)
    assert sorted(loose_names(state, min(left, right))) == ["clay"]
    assert not any(isinstance(a, A.Bridge) for a in state.legal_actions())


def test_mines_bags_follow_research() -> None:
    state = building_phase()
    w = state.world
    mtn = area(w, 4, 3)
    add(state, 0, D.DONKEY, mtn)
    put(state, mtn, D.BOARD, 3)
    put(state, mtn, D.STONE, 1)
    assert mines(state) == [("mine", "3/3")]
    state.research[0] = 1 << D.SPECIALISATION | 1 << D.ENLARGEMENT
    assert mines(state) == [("mine", m) for m in ("3/3", "4/0", "0/4", "5/5")]
    state.apply_action(A.Build("mine", mtn, "4/0"))
    h = hx(w, 4, 3)
    assert state.bags[h] == [4, 0] and state.mines == 1
    put(state, mtn, D.IRON)
    put(state, mtn, D.FUEL)
    assert not any(isinstance(a, A.Shaft) for a in state.legal_actions())
    state.research[0] |= 1 << D.NEW_SHAFTS
    state.apply_action(A.Shaft(h, "5/5"))
    assert state.bags[h] == [9, 5]


def test_mine_limit_option() -> None:
    state = building_phase()
    state.options.mine_limit = 1
    state.mines = 1
    mtn = area(state.world, 4, 3)
    add(state, 0, D.DONKEY, mtn)
    put(state, mtn, D.BOARD, 3)
    put(state, mtn, D.STONE, 1)
    assert mines(state) == []


def test_oil_rig_needs_drilling_and_carried_goods() -> None:
    state = building_phase()
    w = state.world
    sea = w.sea_place[hx(w, 3, 2)]
    add(state, 0, D.STEAMER, sea, [D.BOARD] * 3 + [D.STONE])
    assert builds(state) == []
    state.research[0] = 1 << D.DRILLING
    assert builds(state) == [("oil_rig", "")]
    state.apply_action(A.Build("oil_rig", sea))
    assert state.buildings[hx(w, 3, 2)][0] == D.OIL_RIG
