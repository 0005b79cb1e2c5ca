"""Production phase: the rulebook's production example and the production rules."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, InvalidChance
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import MOVEMENT, PRODUCTION
from tests.roads_and_boats.helpers import (
    add,
    area,
    bare,
    building,
    cargo_names,
    kinds,
    loose_names,
    put,
)


def test_sawmill_limit_example() -> None:
    """Rulebook p17-18: blue feeds 1 trunk (2 boards), yellow 2 trunks (4 boards);
    the sawmill's limit of 6 leaves yellow's third trunk unused."""
    state = bare(2, sequence=[0, 1])  # 0 = blue acts first, 1 = yellow
    mill = area(state.world, 2, 3)
    h = building(state, D.SAWMILL, mill)
    blue = add(state, 0, D.WAGON, mill, [D.TRUNK])
    yellow = add(state, 1, D.TRUCK, mill, [D.TRUNK] * 3)
    assert A.Produce(h) in state.legal_actions()
    state.apply_action(A.Produce(h))
    assert cargo_names(blue) == ["board", "board"]
    state.apply_action(A.DONE)
    assert state.to_move() == 1
    state.apply_action(A.Produce(h))
    state.apply_action(A.Produce(h))
    assert cargo_names(yellow) == ["board"] * 4 + ["trunk"]
    assert A.Produce(h) not in state.legal_actions()  # 6 boards made this turn
    assert state.buildings[h][3] == 6


def test_papermill_limit_goes_to_the_earlier_player() -> None:
    """Rulebook p18: the papermill makes 1 paper a turn; yellow acts before red, so
    red may use it only if yellow does not."""
    for yellow_uses in (True, False):
        state = bare(2, sequence=[1, 0])  # 1 = yellow first, 0 = red
        mill = area(state.world, 2, 4)
        h = building(state, D.PAPERMILL, mill)
        add(state, 1, D.DONKEY, mill, [D.BOARD, D.BOARD])
        red = add(state, 0, D.DONKEY, mill, [D.TRUNK, D.BOARD])
        if yellow_uses:
            state.apply_action(A.Produce(h))
        state.apply_action(A.DONE)
        assert state.to_move() == 0
        assert (A.Produce(h) in state.legal_actions()) is not yellow_uses
        if not yellow_uses:
            state.apply_action(A.Produce(h))
            assert cargo_names(red) == ["paper"]


def test_primary_producers_and_mine_draws_are_chance() -> None:
    state = bare(2)
    wood = area(state.world, 2, 2)
    building(state, D.WOODCUTTER, wood)
    mine_place = area(state.world, 4, 3)
    mine = building(state, D.MINE, mine_place)
    state._begin_stage(PRODUCTION)
    assert loose_names(state, wood) == ["trunk"]
    assert state.to_move() == CHANCE
    state.bags[mine] = [0, 3]
    with pytest.raises(InvalidChance):
        state.apply_chance([[mine, "gold"]])
    with pytest.raises(InvalidChance):
        state.apply_chance([[mine, "silver"]])
    with pytest.raises(InvalidChance):
        state.apply_chance([])
    assert state.to_move() == CHANCE and loose_names(state, mine_place) == []
    state.apply_chance([[mine, "iron"]])
    assert loose_names(state, mine_place) == ["iron"]
    assert state.bags[mine] == [0, 2]
    assert state.to_move() == 0


def test_empty_bag_produces_nothing() -> None:
    state = bare(2)
    mine = building(state, D.MINE, area(state.world, 4, 3))
    state.bags[mine] = [0, 0]
    state._begin_stage(PRODUCTION)
    assert state.to_move() == 0


def test_solo_mines_give_the_majority_type() -> None:
    state = bare(1, "lord-of-the-ring")
    place = area(state.world, 4, 2)
    mine = building(state, D.MINE, place)
    state.bags[mine] = [2, 2]
    state._begin_stage(PRODUCTION)
    assert loose_names(state, place) == ["gold"]  # tie -> gold
    state.bags[mine] = [1, 2]
    state._begin_stage(PRODUCTION)
    assert loose_names(state, place) == ["gold", "iron"]


def test_unattended_factories_process_loose_goods_boards_first() -> None:
    state = bare(2)
    mill = area(state.world, 2, 3)
    building(state, D.SAWMILL, mill)
    put(state, mill, D.TRUNK, 4)
    burner = area(state.world, 2, 4)
    building(state, D.COAL_BURNER, burner)
    put(state, burner, D.TRUNK, 2)
    put(state, burner, D.BOARD, 1)
    rest = area(state.world, 2, 2)
    put(state, rest, D.GOOSE, 2)
    put(state, rest, D.PAPER, 1)
    put(state, rest, D.TRUNK, 1)
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    assert state.stage == MOVEMENT
    assert loose_names(state, mill) == ["board"] * 6 + ["trunk"]  # limit 6
    assert loose_names(state, burner) == ["fuel", "trunk"]  # the board went first
    assert loose_names(state, rest) == ["trunk"]  # unattended research used them


def test_breeding_on_empty_pastures() -> None:
    """Rulebook p9: two geese, or two donkeys of one player, alone on a pasture without
    a building breed one more; geese always, donkeys only if their owner wants."""
    state = bare(2)
    w = state.world
    geese = area(w, 2, 1)
    put(state, geese, D.GOOSE, 2)
    crowd = area(w, 4, 5)
    put(state, crowd, D.GOOSE, 3)
    donkeys = area(w, 8, 3)
    add(state, 1, D.DONKEY, donkeys)
    add(state, 1, D.DONKEY, donkeys)
    busy = area(w, 10, -3)
    put(state, busy, D.GOOSE, 2)
    add(state, 0, D.DONKEY, busy)
    state._begin_stage(PRODUCTION)
    assert loose_names(state, geese) == ["goose"] * 3
    assert loose_names(state, crowd) == ["goose"] * 3
    assert loose_names(state, busy) == ["goose"] * 2
    assert state.to_move() == 0
    assert not any(isinstance(a, A.Breed) for a in state.legal_actions())  # not seat 0's
    state.apply_action(A.DONE)
    assert A.Breed(donkeys) in state.legal_actions()
    state.apply_action(A.Breed(donkeys))
    assert A.Breed(donkeys) not in state.legal_actions()  # once per turn
    assert sum(1 for t in state.trans.values() if t.place == donkeys) == 3
    assert all(t.owner == 1 for t in state.trans.values() if t.place == donkeys)


def test_donkey_breeding_may_be_declined() -> None:
    state = bare(2)
    donkeys = area(state.world, 8, 3)
    add(state, 0, D.DONKEY, donkeys)
    add(state, 0, D.DONKEY, donkeys)
    state._begin_stage(PRODUCTION)
    assert A.Breed(donkeys) in state.legal_actions()
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    assert state.stage == MOVEMENT and state.breeders == []
    assert sum(1 for t in state.trans.values() if t.place == donkeys) == 2


def test_donkeys_do_not_breed_past_the_transporter_limit() -> None:
    state = bare(2)
    donkeys = area(state.world, 8, 3)
    add(state, 1, D.DONKEY, donkeys)
    add(state, 1, D.DONKEY, donkeys)
    for _ in range(3):
        add(state, 1, D.DONKEY, area(state.world, 2, 2))
    state._begin_stage(PRODUCTION)
    state.apply_action(A.DONE)
    assert state.to_move() == 1
    assert not any(isinstance(a, A.Breed) for a in state.legal_actions())
    assert sum(1 for t in state.trans.values() if t.owner == 1) == 5


def test_research_and_factory_upgrade() -> None:
    state = bare(2)
    place = area(state.world, 2, 2)
    h = building(state, D.WAGON_FACTORY, place)
    add(state, 0, D.DONKEY, place)
    put(state, place, D.GOOSE, 2)
    put(state, place, D.PAPER, 1)
    legal = state.legal_actions()
    assert [a.project for a in legal if isinstance(a, A.Research)] == list(D.RESEARCH)
    assert not any(isinstance(a, A.Upgrade) for a in legal)
    state.apply_action(A.Research(place, "trucking"))
    assert state.research[0] == 1 << D.TRUCKING
    assert loose_names(state, place) == []
    assert A.Upgrade(h, "truck_factory") in state.legal_actions()
    state.apply_action(A.Upgrade(h, "truck_factory"))
    assert state.buildings[h][0] == D.TRUCK_FACTORY


def test_wagon_factory_turns_a_donkey_into_a_wagon() -> None:
    state = bare(2)
    place = area(state.world, 2, 2)
    h = building(state, D.WAGON_FACTORY, place)
    donkey = add(state, 0, D.DONKEY, place, [D.STONE])
    put(state, place, D.BOARD, 2)
    state.apply_action(A.Produce(h))
    assert donkey.id not in state.trans
    (wagon,) = state.trans.values()
    assert (wagon.kind, wagon.owner, wagon.place) == (D.WAGON, 0, place)
    assert loose_names(state, place) == ["stone"]
    assert A.Produce(h) not in state.legal_actions()


def test_boats_are_launched_on_the_factory_coast() -> None:
    state = bare(2)
    w = state.world
    place = area(w, 2, 2)
    h = building(state, D.RAFT_FACTORY, place)
    add(state, 0, D.DONKEY, place, [D.TRUNK, D.TRUNK])
    launches = [a.launch for a in state.legal_actions() if isinstance(a, A.Produce)]
    assert len(launches) == 2  # the NE and SE coasts face the sea
    assert all(w.place_kind[p] == 3 and w.place_hex[p] == h for p in launches)
    state.apply_action(A.Produce(h, launches[0]))
    raft = next(t for t in state.trans.values() if t.kind == D.RAFT)
    assert raft.place == launches[0] and raft.owner == 0


def test_a_transporter_at_a_factory_may_be_scrapped_to_make_room() -> None:
    state = bare(2)
    place = area(state.world, 2, 2)
    h = building(state, D.TRUCK_FACTORY, place)
    for _ in range(5):
        add(state, 0, D.DONKEY, place)
    put(state, place, D.IRON)
    put(state, place, D.FUEL)
    assert kinds(state.legal_actions())[-1] == "Done"
    # a transporter standing at a transporter factory may be scrapped to make room
    donkey = next(iter(state.trans.values()))
    donkey.cargo = (D.CLAY,)
    scraps = [a for a in state.legal_actions() if isinstance(a, A.Scrap)]
    assert len(scraps) == 5
    state.apply_action(A.Scrap(donkey.id))
    assert donkey.id not in state.trans and loose_names(state, place) == ["clay", "fuel", "iron"]
    state.apply_action(A.Produce(h))
    assert sorted(t.kind for t in state.trans.values()) == [D.DONKEY] * 4 + [D.TRUCK]


def test_a_transporter_may_take_goods_off_a_factory_hex() -> None:
    """Rulebook p9: in production a transporter may take the goods lying at a factory
    instead of feeding it."""
    state = bare(2)
    mill = area(state.world, 2, 3)
    h = building(state, D.SAWMILL, mill)
    put(state, mill, D.BOARD, 2)
    put(state, mill, D.TRUNK, 1)
    donkey = add(state, 0, D.DONKEY, mill)
    takes = [a for a in state.legal_actions() if isinstance(a, A.Take)]
    assert {a.good for a in takes} == {"board", "trunk"}
    state.apply_action(A.Take(donkey.id, "trunk", mill))
    assert A.Produce(h) in state.legal_actions()  # its own trunk may still be fed
    state.apply_action(A.Take(donkey.id, "board", mill))
    assert not any(isinstance(a, A.Take) for a in state.legal_actions())  # full
    assert cargo_names(donkey) == ["board", "trunk"]
