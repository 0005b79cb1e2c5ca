"""Setup numbers for every player count (rulebook "游戏准备"; research notes sections 3-4)."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, InvalidChance, OptionError
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.data import CORN, INDIGO, QUARRY
from tests.puerto_rico.helpers import names, new_state

# seats: doubloons, vp chips, supply colonists, ship colonists, ships, face-up, roles
EXPECTED = {
    2: (3, 65, 40, 2, [4, 6], 3, 7),
    3: (2, 75, 55, 3, [4, 5, 6], 4, 6),
    4: (3, 100, 75, 4, [5, 6, 7], 5, 7),
    5: (4, 122, 95, 5, [6, 7, 8], 6, 8),
}


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_numbers(seats: int) -> None:
    doubloons, vp, supply, ship, ships, face_up, roles = EXPECTED[seats]
    state = new_state(seats, governor=1, draw=[4, 3, 2, 1, 0, 0][:face_up])
    assert [p.doubloons for p in state.players] == [doubloons] * seats
    assert state.vp_left == vp
    assert (state.colonist_supply, state.colonist_ship) == (supply, ship)
    assert state.ship_cap == ships
    assert sum(state.face_up) == face_up
    assert len(state.legal_actions()) == roles
    assert state.to_move() == 1  # the governor picks first
    assert state.quarries == (5 if seats == 2 else 8)


def test_starting_plantations_go_clockwise_from_the_governor() -> None:
    state = new_state(5, governor=3)
    tiles = {seat: state.players[seat].tiles.index(1) for seat in range(5)}
    assert tiles == {3: INDIGO, 4: INDIGO, 0: INDIGO, 1: CORN, 2: CORN}
    state = new_state(3, governor=2)
    assert [p.tiles.index(1) for p in state.players] == [INDIGO, CORN, INDIGO]
    state = new_state(2, governor=1)
    assert [p.tiles.index(1) for p in state.players] == [CORN, INDIGO]
    assert all(p.tiles[QUARRY] == 0 for p in state.players)


def test_two_player_variant_plantations_goods_and_buildings() -> None:
    state = new_state(2, draw=[0, 1, 2])
    # corn 7, indigo 9, sugar 8, tobacco 6, coffee 5 in play, minus starters and display
    assert state.stack == [7 - 1 - 1, 9 - 1 - 1, 8 - 1, 6, 5]
    assert state.goods_supply == [8, 9, 9, 7, 7]
    assert state.building_supply[0] == 2 and state.building_supply[6] == 1


def test_setup_starts_at_chance_and_validates_outcomes() -> None:
    state = GAME.new_game(4)
    assert state.to_move() == CHANCE
    for bad in (4, -1, "0", True, [0]):
        with pytest.raises(InvalidChance):
            state.apply_chance(bad)
    state.apply_chance(0)
    for bad in ([0, 0, 0, 0], [0, 0, 0, 0, 9], [4] * 5 + [4], "x", [4] * 9 + [0]):
        with pytest.raises(InvalidChance):
            state.apply_chance(bad)
    # only 8 coffee tiles exist: 9 cannot be drawn even in a longer list
    state.apply_chance([4, 4, 4, 4, 4])
    assert state.face_up == [0, 0, 0, 0, 5]


def test_variant_must_fit_the_seat_count() -> None:
    with pytest.raises(OptionError):
        GAME.new_game(2, GAME.parse_options({"variant": "standard"}))
    with pytest.raises(OptionError):
        GAME.new_game(4, GAME.parse_options({"variant": "2p"}))
    with pytest.raises(OptionError):
        GAME.parse_options({"vp_chips": "-3"})
    assert GAME.new_game(4, GAME.parse_options({"vp_chips": "126"})).vp_pool == 126


def test_role_cards_per_player_count() -> None:
    assert names(new_state(3).legal_actions())[-1] == ("role", "captain")
    assert ("role", "prospector_2") in names(new_state(5).legal_actions())
    assert ("role", "prospector_2") not in names(new_state(4).legal_actions())
