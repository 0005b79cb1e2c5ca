"""The second rulebook audit (issue 35): engine rules version 3.

Items 1 and 2 are departures from the rulebook (each test fails on the engine of
referee 0.2); items 3-5 are readings where the sources allow two answers: the default
and the option are tested side by side.  ``rules=referee-0.2`` keeps every reading of
0.2, so records written before these changes replay (tested at the end).

Sources: the 3rd-edition rulebook (Chinese translation ``shared/seeds/004_…``; English
pages cited as p<n>) and ``shared/rules/roads_and_boats.md`` (§n).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path

import msgspec
import pytest

from referee.api.engine import CHANCE
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import BUILDING, MOVEMENT, PRODUCTION, WONDER, RBState
from referee.match.replay import ReplayError, replay
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

OLD = {"rules": "referee-0.2"}
RECORD = Path(__file__).parent / "records" / "referee-0.2-4-seats.jsonl"


def at(
    stage: int, options: Mapping[str, object] | None = None, sequence: list[int] | None = None
) -> RBState:
    """Two seats on The Pacific at the acting step of ``stage`` with ``options``."""
    state = bare(2, "pacific", sequence=sequence, options=dict(options or {}))
    jump(state, stage)
    return state


def puts(state: RBState, transporter: int) -> list[A.Put]:
    return [
        a for a in state.legal_actions() if isinstance(a, A.Put) and a.transporter == transporter
    ]


def borrowed(state: RBState, transporter: int) -> set[str]:
    return {
        a.good
        for a in state.legal_actions()
        if isinstance(a, A.Borrow) and a.transporter == transporter
    }


# --- 1. exchange during production needs no building --------------------------------


def test_goods_are_handed_between_own_donkeys_anywhere_in_production() -> None:
    """RB3 p9, "Exchange of goods": during the entire production phase, transporters on
    the same tile may freely exchange goods with the tile and with each other.  Two of
    seat 0's donkeys share a pasture area with no building; one carries 2 boards and
    hands them to the other through the ground (referee 0.2 offered only ``done``)."""
    state = at(PRODUCTION)
    place = area(state.world, 2, 1)  # 2,1 PAS, no building
    first = add(state, 0, D.DONKEY, place, [D.BOARD, D.BOARD])
    second = add(state, 0, D.DONKEY, place)
    assert puts(state, first.id) == [A.Put(first.id, "board", place)]
    state.apply_action(A.Put(first.id, "board", place))
    state.apply_action(A.Put(first.id, "board", place))
    state.apply_action(A.Take(second.id, "board", place))
    state.apply_action(A.Take(second.id, "board", place))
    assert first.cargo == () and cargo_names(second) == ["board", "board"]
    assert puts(state, second.id) == []  # taken goods are not set down again: no loop

    old = at(PRODUCTION, OLD)
    place = area(old.world, 2, 1)
    add(old, 0, D.DONKEY, place, [D.BOARD, D.BOARD])
    add(old, 0, D.DONKEY, place)
    assert old.legal_actions() == [A.DONE]  # the 0.2 reading: only at a building


def test_a_good_is_still_put_down_at_a_building() -> None:
    """Next to a woodcutter ``put`` was offered before and still is, under both rules."""
    for options in ({}, OLD):
        state = at(PRODUCTION, options)
        woods = area(state.world, 2, 2)
        building(state, D.WOODCUTTER, woods)
        donkey = add(state, 0, D.DONKEY, woods, [D.BOARD, D.BOARD])
        assert puts(state, donkey.id) == [A.Put(donkey.id, "board", woods)], options


def test_a_boat_puts_goods_on_either_bank_but_never_at_sea() -> None:
    """A river boat touches every area of its hex, so it exchanges with both banks; a
    boat at sea touches no ground (goods are never left at sea, p12)."""
    state = bare(2, "dead-sea")
    w = state.world
    h = hx(w, 4, 3)  # 4,3 WOO[SE+SW]: two banks
    raft = add(state, 0, D.RAFT, w.river_place[h], [D.STONE])
    assert {a.place for a in puts(state, raft.id)} == set(w.areas[h])
    sea = w.sea_place[hx(w, 4, 2)]
    boat = add(state, 0, D.RAFT, sea, [D.STONE])
    assert puts(state, boat.id) == []


# --- 2. borrowing covers building materials only -------------------------------------


def test_building_loans_offer_only_materials_a_building_action_could_use() -> None:
    """Seed p13 (建筑物) 「建造建筑物时需要提供相应的原料…取得对方的许可之后便可使用对方交通工具上的
    资源」: another player's goods may be used, with permission, as building materials.
    On a free pasture only boards and stone (the costs of buildings, roads and walls)
    are offered, never gold, coins, stock or geese (referee 0.2 offered every good)."""
    state = at(BUILDING)
    place = area(state.world, 2, 1)
    add(state, 0, D.DONKEY, place)
    goods = [D.GOLD, D.COINS, D.STOCK, D.GOOSE, D.BOARD, D.STONE]
    truck = add(state, 1, D.TRUCK, place, goods)
    assert borrowed(state, truck.id) == {"board", "stone"}

    old = at(BUILDING, OLD)
    add(old, 0, D.DONKEY, place)
    truck = add(old, 1, D.TRUCK, place, goods)
    assert borrowed(old, truck.id) == {"gold", "coins", "stock", "goose", "board", "stone"}


def test_building_loans_follow_the_actions_open_on_the_tile() -> None:
    """On a mine's hex no building can go up: stone still serves roads and walls, boards
    only to demolish another player's wall, iron and fuel only for a new shaft (which
    needs the research)."""
    state = at(BUILDING)
    w = state.world
    mountain = area(w, 4, 3)  # 4,3 MTN
    h = building(state, D.MINE, mountain)
    add(state, 0, D.DONKEY, mountain)
    truck = add(state, 1, D.TRUCK, mountain, [D.IRON, D.FUEL, D.BOARD, D.STONE])
    assert borrowed(state, truck.id) == {"stone"}
    state.research[0] |= 1 << D.NEW_SHAFTS
    assert borrowed(state, truck.id) == {"stone", "iron", "fuel"}
    state.walls[w.edge_of[h][0]] = [1, 1]  # seat 1's wall on the N side
    assert borrowed(state, truck.id) == {"stone", "iron", "fuel", "board"}


def test_production_still_exchanges_any_good_with_consent() -> None:
    """RB3 p9: in production transporters exchange goods freely if their owners agree,
    so ``borrow`` there still covers every good (a gift of gold included)."""
    state = at(PRODUCTION)
    place = area(state.world, 2, 1)
    add(state, 0, D.DONKEY, place)
    theirs = add(state, 1, D.DONKEY, place, [D.GOLD, D.GOOSE])
    assert borrowed(state, theirs.id) == {"gold", "goose"}


def test_a_lent_good_cannot_pay_wonder_bricks() -> None:
    """Issue 35: under 0.2 a good lent at the asker's home (gold, here a board) lay
    loose there and paid for bricks in the wonder phase.  Now an unused loan returns to
    the lender when the building phase ends, so no brick is offered; option
    ``loans_stay`` (item 5's other reading) leaves it loose and payable."""
    for options, payable in (({}, False), ({"loans_stay": True}, True)):
        state = at(BUILDING, options)
        home = area(state.world, 2, 1)
        state.homes = [home, area(state.world, 10, -3)]
        add(state, 0, D.DONKEY, home)
        lender = add(state, 1, D.DONKEY, home, [D.BOARD])
        state.apply_action(A.Borrow(lender.id, "board", home))
        state.apply_action(A.AGREE)
        state.apply_action(A.DONE)
        state.apply_action(A.DONE)
        assert state.stage == WONDER and state.to_move() == 0
        assert (A.BRICK in state.legal_actions()) == payable, options
        assert cargo_names(lender) == ([] if payable else ["board"])


# --- 3. primary output: loose, or onto a transporter ---------------------------------


def woodcutter_turn(**options: object) -> tuple[RBState, int, list[int]]:
    """A woodcutter and a mine on The Pacific with seat 0's and seat 1's donkeys at
    each (sequence: seat 1 first), production begun (mine draws pending)."""
    state = at(WONDER, options, sequence=[1, 0])
    w = state.world
    woods, mountain = area(w, 2, 2), area(w, 4, 3)
    building(state, D.WOODCUTTER, woods)
    mine = building(state, D.MINE, mountain)
    ids = []
    for place in (woods, mountain):
        ids += [add(state, 0, D.DONKEY, place).id, add(state, 1, D.DONKEY, place).id]
    state._begin_stage(PRODUCTION)
    assert state.to_move() == CHANCE
    state.apply_chance([[mine, "gold"]])
    return state, woods, ids


def test_primary_output_lies_loose_until_taken() -> None:
    """Default reading: the order-of-play example has blue 「拿取」 (take) the gold from
    the mine and the trunk from the woodcutter, and mine draws come before the order is
    set: output lies loose, and anyone there may ``take`` it (in sequence order)."""
    state, woods, ids = woodcutter_turn()
    assert all(state.trans[i].cargo == () for i in ids)
    assert loose_names(state, woods) == ["trunk"]
    mountain = area(state.world, 4, 3)
    assert loose_names(state, mountain) == ["gold"]
    assert state.to_move() == 1 and A.Take(ids[3], "gold", mountain) in state.legal_actions()


def test_option_puts_primary_output_onto_a_transporter() -> None:
    """Option ``primary_onto_transporters``: seed 「若该板块上有交通工具，则放在交通工具上。若有顺位
    冲突，请参考顺位规则」 read literally: the good goes onto a transporter on the tile; of
    two players' transporters, the one whose owner comes first in the sequence chart
    (seat 1 here), skipping a full one."""
    state, woods, ids = woodcutter_turn(primary_onto_transporters=True)
    assert [cargo_names(state.trans[i]) for i in ids] == [[], ["trunk"], [], ["gold"]]
    assert loose_names(state, woods) == []
    assert sum(totals(state)) == 2

    state = at(WONDER, {"primary_onto_transporters": True}, sequence=[1, 0])
    woods = area(state.world, 2, 2)
    building(state, D.WOODCUTTER, woods)
    mine = add(state, 0, D.DONKEY, woods)
    full = add(state, 1, D.DONKEY, woods, [D.STONE, D.STONE])
    state._begin_stage(PRODUCTION)
    assert cargo_names(mine) == ["trunk"] and cargo_names(full) == ["stone", "stone"]


def test_primary_output_option_is_off_under_the_0_2_rules() -> None:
    state, woods, ids = woodcutter_turn(primary_onto_transporters=True, **OLD)
    assert loose_names(state, woods) == ["trunk"]
    assert all(state.trans[i].cargo == () for i in ids)


# --- 4. geese at sea -----------------------------------------------------------------


def sea_pair(**options: object) -> tuple[RBState, int, int, A.MoveTransporter, int]:
    """Two geese at sea on (3,4) of The Pacific with a raft of each seat there; seat 0's
    raft starts moving."""
    state = at(MOVEMENT, options)
    w = state.world
    sea, far = w.sea_place[hx(w, 3, 4)], w.sea_place[hx(w, 4, 4)]
    put(state, sea, D.GOOSE, 2)
    raft = add(state, 0, D.RAFT, sea)
    other = add(state, 1, D.RAFT, sea)
    state.apply_action(A.MoveTransporter(raft.id))
    return state, sea, far, A.MoveTransporter(other.id), raft.id


def test_option_geese_at_sea_follow_every_transporter_leaving_their_hex() -> None:
    """Option ``sea_geese_last = false``, the literal seed p12 「海上的鹅永远会跟随经过它身边的交通
    工具」 — geese at sea always follow a transporter that passes by: they leave with seat
    0's raft although seat 1's raft stays on the hex."""
    state, sea, far, _other, raft = sea_pair(sea_geese_last=False)
    state.apply_action(A.Step(far))
    assert len(state.herd) == 2 and sea not in state.piles and state.active == raft
    state.apply_action(A.STOP)
    assert loose_names(state, far) == ["goose", "goose"]  # at sea with the raft


def test_option_geese_at_sea_join_a_boat_passing_through() -> None:
    """Option ``sea_geese_last = false``: a boat that only passes through their hex takes
    them along too, although another transporter stays there."""
    state = at(MOVEMENT, {"sea_geese_last": False})
    w = state.world
    west, sea, far = (w.sea_place[hx(w, q, 4)] for q in (3, 4, 5))
    put(state, sea, D.GOOSE, 1)
    add(state, 1, D.RAFT, sea)  # stays
    raft = add(state, 0, D.RAFT, west)
    state.apply_action(A.MoveTransporter(raft.id))
    state.apply_action(A.Step(sea))
    assert state.herd == []
    state.apply_action(A.Step(far))
    assert len(state.herd) == 1


def test_geese_at_sea_follow_only_the_last_to_leave() -> None:
    """Default reading (``sea_geese_last``, RB3 as the rules research gives it: a goose at
    sea must follow a transporter leaving its hex if no other transporter stays behind;
    also ``rules=referee-0.2``): a transporter staying on the hex keeps the geese there;
    they follow the last one to leave."""
    for options in ({}, {"sea_geese_last": True}, OLD):
        state, sea, far, other, _raft = sea_pair(**options)
        state.apply_action(A.Step(far))
        assert state.herd == [] and loose_names(state, sea) == ["goose", "goose"], options
        state.apply_action(A.STOP)
        state.apply_action(A.DONE)
        state.apply_action(other)
        state.apply_action(A.Step(far))
        assert len(state.herd) == 2, options


# --- 5. an unused loan -----------------------------------------------------------------


def lend_two_boards(**options: object) -> tuple[RBState, int, int]:
    """Building phase: seat 0 borrows both boards of seat 1's donkey on the woods 2,2,
    where one board of its own already lies, and builds a woodcutter (1 board)."""
    state = at(BUILDING, options)
    woods = area(state.world, 2, 2)
    add(state, 0, D.DONKEY, woods)
    put(state, woods, D.BOARD)
    lender = add(state, 1, D.DONKEY, woods, [D.BOARD, D.BOARD])
    for _ in range(2):
        state.apply_action(A.Borrow(lender.id, "board", woods))
        state.apply_action(A.AGREE)
    state.apply_action(A.Build("woodcutter", woods))
    return state, woods, lender.id


def test_an_unused_loan_goes_back_to_the_lender() -> None:
    """Default reading: the owner permits the use of its goods as building materials
    (seed p13), so it only lends: a lent board that no building used goes back onto
    the lender's transporter when the building phase ends.  The building used a lent
    board first; the asker's own board stays loose."""
    state, woods, lender = lend_two_boards()
    assert state.loans == [[woods, D.BOARD, lender], [woods, D.BOARD, lender]]
    view = state.view(0)
    copy = GAME.determinize(view, random.Random(0))  # loans are part of the state
    assert msgspec.json.encode(copy.view(0)) == msgspec.json.encode(view)
    assert view.loans == state.loans and D.BOARD | D.LENT in state.piles[woods]
    state.apply_action(A.DONE)
    state.apply_action(A.DONE)
    assert state.stage == WONDER and state.loans == []
    assert cargo_names(state.trans[lender]) == ["board"]
    assert state.piles[woods] == [D.BOARD]  # the asker's own, unmarked


def test_option_an_unused_loan_stays_loose() -> None:
    """Option ``loans_stay`` (and ``rules=referee-0.2``): the lent good lies loose on
    the tile after the building phase, as any good set down there."""
    for options in ({"loans_stay": True}, OLD):
        state, woods, lender = lend_two_boards(**options)
        assert state.loans == []
        state.apply_action(A.DONE)
        state.apply_action(A.DONE)
        assert state.trans[lender].cargo == (), options
        assert state.piles[woods] == [D.BOARD, D.BOARD], options


# --- rules versions ----------------------------------------------------------------------


def test_a_record_of_referee_0_2_replays_under_its_rules() -> None:
    """A 0.2 header lists exactly the nine options of 0.2 with ``rules = "rulebook"``, so
    it is read with ``rules = "referee-0.2"``: the record, written by referee 0.2 before
    issue 35, replays."""
    result = replay(RECORD)
    assert result.header.referee == "0.2.0"
    assert result.state.options.rules == "referee-0.2"  # type: ignore[attr-defined]


def test_a_record_of_referee_0_2_breaks_under_the_new_rules(tmp_path: Path) -> None:
    """The same record with a header of today (the new options listed, so the newest
    rules) fails where a random bot borrowed a goose in the building phase (item 2):
    the old rules are needed, not merely allowed."""
    lines = RECORD.read_text().splitlines()
    header = json.loads(lines[0])
    header["options"] = GAME.options_dict(GAME.parse_options({"map_seed": None}))
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ReplayError, match=r'"borrow".*not legal'):
        replay(path)


def test_options_objects_pick_their_rules_version() -> None:
    """0.1 and 0.2 headers get their rules; a partial object and a header written now
    (it lists the new options) get the newest; the 0.2 rules ignore the new options."""
    v02 = GAME.options_dict(GAME.parse_options({}))
    for key in ("primary_onto_transporters", "sea_geese_last", "loans_stay"):
        del v02[key]
    assert GAME.parse_options(v02).rules == "referee-0.2"
    assert GAME.parse_options({**v02, "rules": "referee-0.1"}).rules == "referee-0.1"
    now = GAME.options_dict(GAME.parse_options({}))
    assert GAME.parse_options(now).rules == "rulebook"
    assert GAME.parse_options({"loans_stay": True}).rules == "rulebook"
    old = GAME.parse_options({**OLD, "primary_onto_transporters": True})
    assert old.before_0_3 and not old.output_onto_transporters
    assert old.geese_follow_last_only and not old.loans_return and not old.exchange_anywhere
    new = GAME.parse_options({})
    assert new.exchange_anywhere and new.borrow_materials_only and new.loans_return
    assert not new.output_onto_transporters and new.geese_follow_last_only
