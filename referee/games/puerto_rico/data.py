"""Puerto Rico board data: goods, buildings, roles and setup numbers (alea 2002 base game).

Every number of the game lives here so the rules code holds no literals.  Sources: the
rulebook translation (``shared/seeds/001_cb1d955d6e4a5129.txt``, "游戏组件", "游戏准备" and
"建筑物") and the research notes ``shared/rules/puerto_rico.md`` sections 1-4.

Goods and island tiles are small ints so that per-player tables are plain lists:
``CORN=0, INDIGO=1, SUGAR=2, TOBACCO=3, COFFEE=4``; island tiles use the same numbers for
plantations plus ``QUARRY=5``.  Buildings are indexed ``0..22`` in the order of
:data:`BUILDINGS`.  Money is in doubloons, scores in victory points (VP).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CORN: Final = 0
INDIGO: Final = 1
SUGAR: Final = 2
TOBACCO: Final = 3
COFFEE: Final = 4
QUARRY: Final = 5

GOODS: Final = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
GOOD_NAMES: Final = ("corn", "indigo", "sugar", "tobacco", "coffee")
"""Wire names of the five goods (also the names of their plantations)."""
TILE_NAMES: Final = (*GOOD_NAMES, "quarry")
"""Wire names of the six island tile kinds."""
GOOD_INDEX: Final = {name: i for i, name in enumerate(GOOD_NAMES)}
TILE_INDEX: Final = {name: i for i, name in enumerate(TILE_NAMES)}

TRADE_PRICE: Final = (0, 1, 2, 3, 4)
"""Trading-house price in doubloons by good (corn 0 .. coffee 4)."""
TRADING_HOUSE_SIZE: Final = 4
"""Barrels the trading house holds before it is emptied."""

PLANTATION_TILES: Final = (10, 12, 11, 9, 8)
"""Plantation tiles in the box by kind (corn, indigo, sugar, tobacco, coffee): 50 in all."""
QUARRY_TILES: Final = 8
GOODS_SUPPLY: Final = (10, 11, 11, 9, 9)
"""Goods barrels in the box by kind (corn, indigo, sugar, tobacco, coffee): 50 in all."""
DOUBLOONS_TOTAL: Final = 86
"""Face value of the coins in the box; the bank is treated as unlimited beyond it."""

ISLAND_SPACES: Final = 12
CITY_SPACES: Final = 12
WHARF_CAPACITY: Final = 11
"""Barrels one wharf load may carry (never binding: no good has more than 11 barrels)."""

FACTORY_BONUS: Final = (0, 0, 1, 2, 3, 5)
"""Doubloons for an occupied factory by number of kinds produced (index = kinds)."""


@dataclass(frozen=True, slots=True)
class BuildingType:
    """One building type: ``cost`` in doubloons, ``vp`` printed victory points,
    ``circles`` colonist capacity, ``column`` the quarry-discount cap, ``copies`` in the
    box, ``good`` the good it processes (``None`` for violet buildings), ``large`` if it
    takes two city spaces."""

    name: str
    cost: int
    vp: int
    circles: int
    column: int
    copies: int
    good: int | None = None
    large: bool = False


BUILDINGS: Final = (
    BuildingType("small_indigo_plant", 1, 1, 1, 1, 4, INDIGO),
    BuildingType("small_sugar_mill", 2, 1, 1, 1, 4, SUGAR),
    BuildingType("indigo_plant", 3, 2, 3, 2, 3, INDIGO),
    BuildingType("sugar_mill", 4, 2, 3, 2, 3, SUGAR),
    BuildingType("tobacco_storage", 5, 3, 3, 3, 3, TOBACCO),
    BuildingType("coffee_roaster", 6, 3, 2, 3, 3, COFFEE),
    BuildingType("small_market", 1, 1, 1, 1, 2),
    BuildingType("hacienda", 2, 1, 1, 1, 2),
    BuildingType("construction_hut", 2, 1, 1, 1, 2),
    BuildingType("small_warehouse", 3, 1, 1, 1, 2),
    BuildingType("hospice", 4, 2, 1, 2, 2),
    BuildingType("office", 5, 2, 1, 2, 2),
    BuildingType("large_market", 5, 2, 1, 2, 2),
    BuildingType("large_warehouse", 6, 2, 1, 2, 2),
    BuildingType("factory", 7, 3, 1, 3, 2),
    BuildingType("university", 8, 3, 1, 3, 2),
    BuildingType("harbor", 8, 3, 1, 3, 2),
    BuildingType("wharf", 9, 3, 1, 3, 2),
    BuildingType("guild_hall", 10, 4, 1, 4, 1, large=True),
    BuildingType("residence", 10, 4, 1, 4, 1, large=True),
    BuildingType("fortress", 10, 4, 1, 4, 1, large=True),
    BuildingType("customs_house", 10, 4, 1, 4, 1, large=True),
    BuildingType("city_hall", 10, 4, 1, 4, 1, large=True),
)
"""The 23 building types of the base game (rulebook "建筑物"; research notes section 2)."""

BUILDING_INDEX: Final = {b.name: i for i, b in enumerate(BUILDINGS)}
N_BUILDINGS: Final = len(BUILDINGS)

(
    SMALL_INDIGO_PLANT,
    SMALL_SUGAR_MILL,
    INDIGO_PLANT,
    SUGAR_MILL,
    TOBACCO_STORAGE,
    COFFEE_ROASTER,
    SMALL_MARKET,
    HACIENDA,
    CONSTRUCTION_HUT,
    SMALL_WAREHOUSE,
    HOSPICE,
    OFFICE,
    LARGE_MARKET,
    LARGE_WAREHOUSE,
    FACTORY,
    UNIVERSITY,
    HARBOR,
    WHARF,
    GUILD_HALL,
    RESIDENCE,
    FORTRESS,
    CUSTOMS_HOUSE,
    CITY_HALL,
) = range(N_BUILDINGS)

PRODUCTION_BUILDINGS: Final = tuple(i for i, b in enumerate(BUILDINGS) if b.good is not None)
VIOLET_BUILDINGS: Final = tuple(i for i, b in enumerate(BUILDINGS) if b.good is None)
SMALL_PRODUCTION: Final = (SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL)
LARGE_PRODUCTION: Final = (INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE, COFFEE_ROASTER)
BUILDINGS_FOR_GOOD: Final = tuple(
    tuple(i for i, b in enumerate(BUILDINGS) if b.good == g) for g in GOODS
)
"""Production building indices by good (empty for corn, which needs no building)."""

ROLE_NAMES: Final = (
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
    "prospector_2",
)
"""Role cards; the second prospector is a separate card with its own doubloons."""
SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR, PROSPECTOR_2 = range(8)
ROLE_INDEX: Final = {name: i for i, name in enumerate(ROLE_NAMES)}


@dataclass(frozen=True, slots=True)
class Setup:
    """Setup numbers for one player count.

    ``doubloons`` per player; ``starting_tiles`` by seat clockwise from the governor;
    ``face_up`` plantations displayed; ``quarries``; ``vp_chips`` in play; ``colonists``
    in the supply and ``ship_colonists`` on the colonist ship (also the refill minimum);
    ``cargo_ships`` capacities; ``roles`` card indices; ``plantations`` and ``goods`` in
    play by kind; ``building_copies`` per type; ``role_picks`` per round.
    """

    doubloons: int
    starting_tiles: tuple[int, ...]
    face_up: int
    quarries: int
    vp_chips: int
    colonists: int
    ship_colonists: int
    cargo_ships: tuple[int, ...]
    roles: tuple[int, ...]
    plantations: tuple[int, ...]
    goods: tuple[int, ...]
    building_copies: tuple[int, ...]
    role_picks: int


_ALL_COPIES = tuple(b.copies for b in BUILDINGS)
_BASE_ROLES = (SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)

SETUPS: Final = {
    3: Setup(
        2,
        (INDIGO, INDIGO, CORN),
        4,
        QUARRY_TILES,
        75,
        55,
        3,
        (4, 5, 6),
        _BASE_ROLES,
        PLANTATION_TILES,
        GOODS_SUPPLY,
        _ALL_COPIES,
        3,
    ),
    4: Setup(
        3,
        (INDIGO, INDIGO, CORN, CORN),
        5,
        QUARRY_TILES,
        100,
        75,
        4,
        (5, 6, 7),
        (*_BASE_ROLES, PROSPECTOR),
        PLANTATION_TILES,
        GOODS_SUPPLY,
        _ALL_COPIES,
        4,
    ),
    5: Setup(
        4,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        6,
        QUARRY_TILES,
        122,
        95,
        5,
        (6, 7, 8),
        (*_BASE_ROLES, PROSPECTOR, PROSPECTOR_2),
        PLANTATION_TILES,
        GOODS_SUPPLY,
        _ALL_COPIES,
        5,
    ),
}
"""Base-game setup by player count (rulebook "游戏准备"; research notes section 3)."""

TWO_PLAYER_SETUP: Final = Setup(
    3,
    (INDIGO, CORN),
    3,
    5,
    65,
    40,
    2,
    (4, 6),
    (*_BASE_ROLES, PROSPECTOR),
    (7, 9, 8, 6, 5),
    (8, 9, 9, 7, 7),
    tuple(2 if b.good is not None else 1 for b in BUILDINGS),
    6,
)
"""The official 2-player variant (research notes section 4): each player picks 3 roles."""
