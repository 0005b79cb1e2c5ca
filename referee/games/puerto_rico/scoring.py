"""Final scoring of Puerto Rico (rulebook "游戏结束" and the five large buildings).

A player's score is his chip VP (paper VP included) plus the printed VP of all his
buildings, occupied or not, plus the bonus of each *occupied* large building.  Ties are
broken by doubloons + goods barrels (1 barrel = 1 doubloon); beyond that players share.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import (
    BUILDINGS,
    CITY_HALL,
    CUSTOMS_HOUSE,
    FORTRESS,
    GUILD_HALL,
    LARGE_PRODUCTION,
    RESIDENCE,
    SMALL_PRODUCTION,
    VIOLET_BUILDINGS,
)


def guild_hall_bonus(bld: Sequence[int]) -> int:
    """+1 VP per small and +2 VP per large production building owned (occupied or not).

    ``bld[b]`` is -1 when building ``b`` is not owned.  Rulebook example: small sugar mill,
    sugar mill, small indigo plant and coffee roaster give 6.
    """
    return sum(1 for b in SMALL_PRODUCTION if bld[b] >= 0) + sum(
        2 for b in LARGE_PRODUCTION if bld[b] >= 0
    )


def residence_bonus(island_tiles: int) -> int:
    """VP for filled island spaces: up to 9 give 4, 10 give 5, 11 give 6, 12 give 7."""
    return 4 + max(0, island_tiles - 9)


def fortress_bonus(colonists: int) -> int:
    """+1 VP per 3 colonists on the player's board (San Juan included), rounded down."""
    return colonists // 3


def customs_house_bonus(chip_vp: int) -> int:
    """+1 VP per 4 VP of chips (and paper VP), rounded down."""
    return chip_vp // 4


def city_hall_bonus(bld: Sequence[int]) -> int:
    """+1 VP per violet building owned, small or large, the city hall included."""
    return sum(1 for b in VIOLET_BUILDINGS if bld[b] >= 0)


BUILDING_VP = tuple(b.vp for b in BUILDINGS)
"""Printed VP by building index."""


def player_score(p: Player) -> int:
    """Total VP of one player's board."""
    bld = p.bld
    total = p.vp + sum([vp for vp, c in zip(BUILDING_VP, bld, strict=True) if c >= 0])
    if bld[GUILD_HALL] > 0:
        total += guild_hall_bonus(bld)
    if bld[RESIDENCE] > 0:
        total += residence_bonus(sum(p.tiles))
    if bld[FORTRESS] > 0:
        total += fortress_bonus(p.colonists())
    if bld[CUSTOMS_HOUSE] > 0:
        total += customs_house_bonus(p.vp)
    if bld[CITY_HALL] > 0:
        total += city_hall_bonus(bld)
    return total


def final_scores(players: Sequence[Player]) -> list[int]:
    """VP by seat."""
    return [player_score(p) for p in players]


def tie_breaks(players: Sequence[Player]) -> list[int]:
    """Doubloons + goods barrels by seat (the official tie-breaker)."""
    return [p.doubloons + sum(p.goods) for p in players]
