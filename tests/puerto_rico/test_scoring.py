"""Final scoring and large buildings (rulebook "游戏结束" and the large-building examples;
research notes 6.23-6.25, 7)."""

from __future__ import annotations

from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import BUILDING_INDEX
from referee.games.puerto_rico.scoring import (
    city_hall_bonus,
    customs_house_bonus,
    fortress_bonus,
    guild_hall_bonus,
    player_score,
    residence_bonus,
)
from referee.games.puerto_rico.state import PuertoRicoState
from tests.puerto_rico.helpers import give, new_state


def owned(*names: str) -> list[int]:
    bld = [-1] * len(BUILDING_INDEX)
    for name in names:
        bld[BUILDING_INDEX[name]] = 0
    return bld


def test_rulebook_guild_hall_example() -> None:
    bld = owned("small_sugar_mill", "sugar_mill", "small_indigo_plant", "coffee_roaster")
    assert guild_hall_bonus(bld) == 6


def test_rulebook_residence_example() -> None:
    assert residence_bonus(10) == 5
    assert [residence_bonus(n) for n in (0, 9, 11, 12)] == [4, 4, 6, 7]


def test_rulebook_fortress_example() -> None:
    assert fortress_bonus(20) == 6


def test_rulebook_customs_house_example() -> None:
    assert customs_house_bonus(23) == 5


def test_rulebook_city_hall_example() -> None:
    bld = owned(
        "hacienda",
        "construction_hut",
        "office",
        "large_warehouse",
        "harbor",
        "residence",
        "city_hall",
    )
    assert city_hall_bonus(bld) == 7


def test_large_building_bonus_only_when_occupied_but_printed_vp_always() -> None:
    p = Player()
    p.vp = 10
    give(p, buildings={"residence": 0, "fortress": 0, "harbor": 0})
    p.tiles = [3, 3, 3, 1, 0, 0]
    assert player_score(p) == 10 + 4 + 4 + 3
    give(p, buildings={"residence": 1})
    assert player_score(p) == 10 + 4 + 4 + 3 + 5


def test_fortress_counts_san_juan_and_customs_counts_paper_vp() -> None:
    p = Player()
    give(p, buildings={"fortress": 1, "customs_house": 1})
    p.san_juan = 4
    p.occ = [1, 0, 0, 0, 0, 0]
    p.tiles = [1, 0, 0, 0, 0, 0]
    p.vp = 9
    # 7 colonists: 1 on each large building, 1 on corn, 4 in San Juan
    assert p.colonists() == 7
    assert player_score(p) == 9 + 8 + 2 + 2


def ended(state: PuertoRicoState) -> PuertoRicoState:
    state.phase = 11
    return state


def test_tie_break_by_doubloons_plus_goods_then_shared() -> None:
    state = ended(new_state(4))
    for p in state.players:
        p.vp, p.doubloons, p.goods = 10, 0, [0] * 5
    state.players[0].doubloons = 2
    state.players[1].goods = [1, 1, 0, 0, 0]
    state.players[2].doubloons = 1
    state.players[3].vp = 11
    assert state.scores() == [10.0, 10.0, 10.0, 11.0]
    assert state.ranks() == [2, 2, 4, 1]
