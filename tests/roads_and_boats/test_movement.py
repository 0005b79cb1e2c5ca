"""Movement phase: the rulebook's movement examples and rules (p10-12)."""

from __future__ import annotations

from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import MOVEMENT, RBState
from referee.games.roads_and_boats.world import DOCK, SEA_PLACE
from tests.roads_and_boats.helpers import add, area, bare, cargo_names, hx, jump, loose_names, put

N, NE, SE, S, SW, NW = range(6)


def road(state: RBState, q: int, r: int, side: int) -> None:
    state.roads.add(state.world.edge_of[hx(state.world, q, r)][side])


def steps(state: RBState) -> list[int]:
    return [a.to for a in state.legal_actions() if isinstance(a, A.Step)]


def moving(
    seats: int = 2, map_name: str = "pacific", options: dict[str, object] | None = None
) -> RBState:
    state = bare(seats, map_name, options=options)
    jump(state, MOVEMENT)
    return state


def test_donkey_moves_two_on_roads_or_one_off_road() -> None:
    state = moving()
    w = state.world
    a, b, c = area(w, 2, 1), area(w, 2, 2), area(w, 2, 3)
    road(state, 2, 1, N)
    road(state, 2, 2, N)
    donkey = add(state, 0, D.DONKEY, a)
    state.apply_action(A.MoveTransporter(donkey.id))
    assert b in steps(state)
    state.apply_action(A.Step(b))
    assert steps(state) == [c, a]  # only roads after a road step
    state.apply_action(A.Step(c))
    assert steps(state) == []  # two road steps used
    state.apply_action(A.STOP)
    # off road: one step, which ends the movement
    other = add(state, 0, D.DONKEY, area(w, 2, 4))
    state.apply_action(A.MoveTransporter(other.id))
    assert sorted(steps(state)) == sorted([c, area(w, 2, 5)])
    state.apply_action(A.Step(area(w, 2, 5)))
    assert steps(state) == []


def test_wagons_and_trucks_only_use_roads() -> None:
    state = moving()
    w = state.world
    for r in (1, 2, 3, 4):
        road(state, 2, r, N)
    truck = add(state, 0, D.TRUCK, area(w, 2, 1))
    state.apply_action(A.MoveTransporter(truck.id))
    for r in (2, 3, 4, 5):
        assert area(w, 2, r) in steps(state)
        state.apply_action(A.Step(area(w, 2, r)))
    assert steps(state) == []  # 4 steps used
    state.apply_action(A.STOP)
    wagon = add(state, 0, D.WAGON, area(w, 3, 5))  # no road at (3,5)
    state.apply_action(A.MoveTransporter(wagon.id))
    assert steps(state) == []


def test_moved_goods_example() -> None:
    """Rulebook p11: the donkey takes a trunk over and brings two stones back; the
    wagon then drops its stock there and takes trunks, but not the moved stones."""
    state = moving()
    w = state.world
    home, upper, far = area(w, 2, 1), area(w, 2, 2), area(w, 2, 3)
    road(state, 2, 1, N)
    road(state, 2, 2, N)
    donkey = add(state, 0, D.DONKEY, home, [D.TRUNK])
    put(state, upper, D.STONE, 2)
    put(state, home, D.TRUNK, 2)
    wagon = add(state, 0, D.WAGON, far, [D.STOCK] * 3)
    state.apply_action(A.MoveTransporter(donkey.id))
    state.apply_action(A.Step(upper))
    state.apply_action(A.Unload("trunk", upper))
    state.apply_action(A.Load("stone", upper))
    state.apply_action(A.Load("stone", upper))
    state.apply_action(A.Step(home))
    state.apply_action(A.Unload("stone", home))
    state.apply_action(A.Unload("stone", home))
    state.apply_action(A.STOP)
    state.apply_action(A.MoveTransporter(wagon.id))
    state.apply_action(A.Step(upper))
    state.apply_action(A.Step(home))
    for _ in range(3):
        state.apply_action(A.Unload("stock", home))
    loads = [a.good for a in state.legal_actions() if isinstance(a, A.Load)]
    assert loads == ["trunk"]  # the stones and the stock were moved by this player
    state.apply_action(A.Load("trunk", home))
    state.apply_action(A.Load("trunk", home))
    assert cargo_names(wagon) == ["trunk", "trunk"]
    assert loose_names(state, home) == ["stock"] * 3 + ["stone"] * 2
    assert loose_names(state, upper) == ["trunk"]


def test_another_player_may_move_a_moved_good_and_marks_clear() -> None:
    state = moving()
    w = state.world
    here = area(w, 2, 1)
    put(state, here, D.STONE)
    mine = add(state, 0, D.DONKEY, here)
    theirs = add(state, 1, D.DONKEY, here)
    state.apply_action(A.MoveTransporter(mine.id))
    state.apply_action(A.Load("stone", here))
    state.apply_action(A.Unload("stone", here))
    assert not any(isinstance(a, A.Load) for a in state.legal_actions())
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    state.apply_action(A.MoveTransporter(theirs.id))
    assert A.Load("stone", here) in state.legal_actions()
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    assert state.piles[here] == [D.STONE]  # marks are cleared after the phase


def test_capacity_limits_loading() -> None:
    state = moving()
    here = area(state.world, 2, 1)
    put(state, here, D.BOARD, 5)
    donkey = add(state, 0, D.DONKEY, here)
    state.apply_action(A.MoveTransporter(donkey.id))
    state.apply_action(A.Load("board", here))
    state.apply_action(A.Load("board", here))
    assert not any(isinstance(a, A.Load) for a in state.legal_actions())


def test_walls_block_everyone_but_their_owner() -> None:
    state = moving()
    w = state.world
    a, b = area(w, 2, 1), area(w, 2, 2)
    edge = w.edge_of[hx(w, 2, 1)][N]
    state.walls[edge] = [1, 1]
    blocked = add(state, 0, D.DONKEY, a)
    state.apply_action(A.MoveTransporter(blocked.id))
    assert b not in steps(state)
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    owner = add(state, 1, D.DONKEY, a)
    state.apply_action(A.MoveTransporter(owner.id))
    assert b in steps(state)
    state.walls[edge] = [-1, 2]  # a neutral wall stops nobody
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    assert state.stage != MOVEMENT


def test_rivers_block_land_movement_until_bridged() -> None:
    state = moving(2, "mesopotamia")
    w = state.world
    h = hx(w, 5, 1)  # a river (N+SE) splits the hex
    left, right = w.areas[h]
    donkey = add(state, 0, D.DONKEY, left)
    state.apply_action(A.MoveTransporter(donkey.id))
    from_left = set(steps(state))
    state.apply_action(A.STOP)
    other = add(state, 0, D.DONKEY, right)
    state.apply_action(A.MoveTransporter(other.id))
    from_right = set(steps(state))
    # each bank reaches its own side of the river only (the neighbours across the
    # river sides N and SE are split by the same river, bank by bank)
    assert from_left and from_right and not from_left & from_right
    state.apply_action(A.STOP)
    state._merge(left, right)  # a bridge
    third = add(state, 0, D.DONKEY, left)
    state.apply_action(A.MoveTransporter(third.id))
    assert set(steps(state)) == from_left | from_right


def test_river_boats_reach_both_banks_and_go_to_sea() -> None:
    state = moving(2, "dead-sea")
    w = state.world
    h = hx(w, 6, 1)  # the junction, mouth to the inner sea at (6,0)
    raft = add(state, 0, D.RAFT, w.river_place[h], [D.CLAY])
    state.apply_action(A.MoveTransporter(raft.id))
    unload_places = {a.place for a in state.legal_actions() if isinstance(a, A.Unload)}
    assert unload_places == set(w.areas[h])
    assert w.sea_place[hx(w, 6, 0)] in steps(state)
    state.apply_action(A.Step(w.sea_place[hx(w, 6, 0)]))
    assert not any(isinstance(a, A.Unload) for a in state.legal_actions())  # never at sea


def test_steamer_docking_example() -> None:
    """Rulebook p11: a docked steamer first goes back to its sea hex (1 move), then
    may use its other 5; docking ends its move."""
    state = moving()
    w = state.world
    h = hx(w, 2, 2)
    dock = next(p for p in w.docks_of_area[area(w, 2, 2)] if w.place_dir[p] == NE)
    steamer = add(state, 0, D.STEAMER, dock, [D.BOARD])
    state.apply_action(A.MoveTransporter(steamer.id))
    assert steps(state) == [w.sea_place[hx(w, 3, 2)]]  # only into its own sea hex
    assert A.Unload("board", area(w, 2, 2)) in state.legal_actions()
    state.apply_action(A.Step(w.sea_place[hx(w, 3, 2)]))
    assert state.moves_left == 5
    # dock at the coast of (2,3), next door
    target = next(p for p in steps(state) if w.place_kind[p] == DOCK and w.place_hex[p] != h)
    state.apply_action(A.Step(target))
    assert steps(state) == [] and state.moves_left == 0
    assert w.place_kind[w.dock_sea(target)] == SEA_PLACE


def test_geese_follow_a_land_transporter_without_using_capacity() -> None:
    state = moving()
    w = state.world
    a, b, c = area(w, 2, 1), area(w, 2, 2), area(w, 2, 3)
    road(state, 2, 1, N)
    road(state, 2, 2, N)
    put(state, a, D.GOOSE, 2)
    put(state, a, D.BOARD, 2)
    donkey = add(state, 0, D.DONKEY, a)
    state.apply_action(A.MoveTransporter(donkey.id))
    state.apply_action(A.Lead(a))
    state.apply_action(A.Lead(a))
    assert A.Lead(a) not in state.legal_actions()
    state.apply_action(A.Load("board", a))
    state.apply_action(A.Load("board", a))
    state.apply_action(A.Step(b))
    state.apply_action(A.Step(c))
    state.apply_action(A.STOP)
    assert loose_names(state, c) == ["goose", "goose"]
    assert cargo_names(donkey) == ["board", "board"] and state.herd == []


def test_boats_lead_geese_and_set_them_down_on_a_bank() -> None:
    """Rulebook p12: geese may follow any transporter; a river boat touches both banks,
    so its followers are set down on a bank of the owner's choosing before it stops."""
    state = moving(2, "mesopotamia")
    w = state.world
    h = hx(w, 5, 1)
    left, right = w.areas[h]
    put(state, left, D.GOOSE, 1)
    raft = add(state, 0, D.RAFT, w.river_place[h])
    state.apply_action(A.MoveTransporter(raft.id))
    assert A.Load("goose", left) in state.legal_actions()
    state.apply_action(A.Lead(left))
    assert raft.cargo == () and len(state.herd) == 1
    legal = state.legal_actions()
    assert A.STOP not in legal and {A.Settle(left), A.Settle(right)} <= set(legal)
    state.apply_action(A.Settle(right))
    assert loose_names(state, right) == ["goose"] and state.legal_actions()[-1] == A.STOP
    assert A.Lead(right) not in state.legal_actions()  # it has moved for seat 0


def sea_and_dock(state: RBState) -> tuple[int, int, int]:
    """Pacific: the sea places of (3,4) and (4,4), and the dock of (2,4) on (3,4)."""
    w = state.world
    sea, far = w.sea_place[hx(w, 3, 4)], w.sea_place[hx(w, 4, 4)]
    dock = next(d for d in w.docks_of_area[area(w, 2, 4)] if w.dock_sea(d) == sea)
    return sea, far, dock


def test_geese_at_sea_follow_the_last_transporter_to_leave() -> None:
    """The default ``sea_geese_last`` (also the reading of ``rules=referee-0.2``): a goose
    at sea must follow a transporter leaving its hex unless another transporter stays;
    followers of a boat that stops at sea stay at sea.  The other reading (every leaving
    transporter) is tested in test_second_audit.py."""
    state = moving()
    sea, far, dock = sea_and_dock(state)
    put(state, sea, D.GOOSE, 2)
    raft = add(state, 0, D.RAFT, sea)
    other = add(state, 1, D.RAFT, sea)
    state.apply_action(A.MoveTransporter(raft.id))
    assert A.Lead(sea) in state.legal_actions()
    state.apply_action(A.Step(far))
    assert state.herd == [] and loose_names(state, sea) == ["goose", "goose"]  # one stays
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    state.apply_action(A.MoveTransporter(other.id))
    state.apply_action(A.Step(far))
    assert len(state.herd) == 2 and sea not in state.piles  # the last one leaves
    state.apply_action(A.STOP)
    assert loose_names(state, far) == ["goose", "goose"]  # geese at sea
    jump(state, MOVEMENT)
    state._clear_moved()
    state.apply_action(A.MoveTransporter(raft.id))
    state.apply_action(A.Step(sea))
    assert state.herd == []  # `other` stays at `far` with them
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    state.apply_action(A.MoveTransporter(other.id))
    state.apply_action(A.Step(sea))
    assert len(state.herd) == 2
    state.apply_action(A.Step(dock))
    state.apply_action(A.STOP)  # docking sets the followers down on the land area
    assert loose_names(state, area(state.world, 2, 4)) == ["goose", "goose"]


def test_own_hand_over_respects_the_moved_once_rule() -> None:
    """Rulebook p11: goods may pass between transporters that meet; one player's good
    moves on one of its transporters per phase, so a hand-over goes to a transporter
    that has finished moving, and goods that moved cannot be taken back."""
    state = moving()
    w = state.world
    a, b = area(w, 2, 1), area(w, 2, 2)
    road(state, 2, 1, N)
    done = add(state, 0, D.DONKEY, a, [D.STONE])
    fresh = add(state, 0, D.DONKEY, a, [D.CLAY])
    mover = add(state, 0, D.WAGON, a, [D.BOARD])
    state.apply_action(A.MoveTransporter(done.id))
    state.apply_action(A.STOP)
    state.apply_action(A.MoveTransporter(mover.id))
    legal = state.legal_actions()
    assert A.Give("board", done.id) in legal and A.Give("board", fresh.id) not in legal
    assert A.Receive("clay", fresh.id) in legal  # unmoved goods
    assert A.Receive("stone", done.id) not in legal  # it moved on `done`
    state.apply_action(A.Receive("clay", fresh.id))
    state.apply_action(A.Give("board", done.id))
    assert cargo_names(mover) == ["clay"] and cargo_names(done) == ["board", "stone"]
    assert A.Receive("board", done.id) not in state.legal_actions()
    state.apply_action(A.Step(b))
    assert not any(isinstance(x, A.Give | A.Receive) for x in state.legal_actions())


def test_hand_over_with_another_player_needs_consent() -> None:
    """Rulebook p11: goods pass to or from another player's transporter only if its
    owner agrees; a refusal is final for this moving transporter."""
    state = moving()
    w = state.world
    a = area(w, 2, 1)
    mine = add(state, 0, D.DONKEY, a, [D.BOARD])
    theirs = add(state, 1, D.DONKEY, a, [D.GOLD])
    state.apply_action(A.MoveTransporter(mine.id))
    state.apply_action(A.Give("board", theirs.id))
    assert state.step == "consent" and state.to_move() == 1
    assert state.legal_actions() == [A.AGREE, A.REFUSE]
    state.apply_action(A.AGREE)
    assert state.to_move() == 0 and cargo_names(theirs) == ["board", "gold"] and not mine.cargo
    state.apply_action(A.Receive("gold", theirs.id))
    state.apply_action(A.REFUSE)
    assert cargo_names(theirs) == ["board", "gold"] and state.refused == [theirs.id]
    assert not any(isinstance(x, A.Give | A.Receive | A.Carry) for x in state.legal_actions())
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    # the board moved for seat 0, not for seat 1: its new owner may carry it on
    state.apply_action(A.MoveTransporter(theirs.id))
    assert A.Unload("board", a) in state.legal_actions()


def test_carrying_another_players_transporter_needs_consent() -> None:
    """Rulebook p12: any unmoved transporter may be carried; we ask its owner.  The
    carrier's owner sets it down at the start of a later movement phase."""
    state = moving(2, "mesopotamia")
    w = state.world
    h = hx(w, 5, 1)
    left, right = w.areas[h]
    raft = add(state, 0, D.RAFT, w.river_place[h])
    donkey = add(state, 1, D.DONKEY, right)
    state.apply_action(A.MoveTransporter(raft.id))
    state.apply_action(A.Carry(donkey.id))
    assert state.to_move() == 1
    state.apply_action(A.AGREE)
    assert donkey.carrier == raft.id and donkey.moved
    state.apply_action(A.STOP)
    state.apply_action(A.DONE)
    assert not any(isinstance(x, A.MoveTransporter | A.Release) for x in state.legal_actions())
    state.apply_action(A.DONE)
    jump(state, MOVEMENT)
    state._clear_moved()
    assert A.Release(donkey.id, left) in state.legal_actions()  # seat 0 acts first
    state.apply_action(A.Release(donkey.id, left))
    assert donkey.place == left and donkey.carrier == -1 and donkey.owner == 1


def test_a_raft_ferries_a_donkey_across_the_river() -> None:
    """Rulebook p12: a transporter carries another that has not moved; the passenger
    is set down at the start of a later movement phase."""
    state = moving(2, "mesopotamia")
    w = state.world
    h = hx(w, 5, 1)
    left, right = w.areas[h]
    raft = add(state, 0, D.RAFT, w.river_place[h])
    donkey = add(state, 0, D.DONKEY, right)
    state.apply_action(A.MoveTransporter(raft.id))
    state.apply_action(A.Carry(donkey.id))
    assert donkey.carrier == raft.id and donkey.moved
    assert not any(isinstance(a, A.Load | A.Carry) for a in state.legal_actions())
    state.apply_action(A.STOP)
    assert not any(isinstance(a, A.Release) for a in state.legal_actions())  # not this phase
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    jump(state, MOVEMENT)
    state._clear_moved()
    releases = [a for a in state.legal_actions() if isinstance(a, A.Release)]
    assert {a.to for a in releases} == {left, right}
    state.apply_action(A.Release(donkey.id, left))
    assert donkey.place == left and donkey.carrier == -1
    assert A.MoveTransporter(donkey.id) in state.legal_actions()


def test_loaded_boats_restricted_option() -> None:
    for restricted, expect in ((False, True), (True, False)):
        state = bare(2, "mesopotamia")
        state.options.loaded_boats_restricted = restricted
        jump(state, MOVEMENT)
        w = state.world
        h = hx(w, 5, 2)  # its NW river side is a mouth into (4,3)
        raft = add(state, 0, D.RAFT, w.river_place[h])
        donkey = add(state, 0, D.DONKEY, w.areas[h][0])
        state.apply_action(A.MoveTransporter(raft.id))
        state.apply_action(A.Carry(donkey.id))
        assert (w.sea_place[hx(w, 4, 3)] in steps(state)) is expect
        assert donkey.place == raft.place
