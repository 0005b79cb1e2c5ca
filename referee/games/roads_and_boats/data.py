"""Roads & Boats board data: goods, transporters, buildings, research, wonder, maps.

Every number of the rules lives here (sources: the 3rd-edition rulebook, ©2003,
and ``shared/rules/roads_and_boats.md`` sections 4, 5, 8, 9, 10 and 12).
"""

from __future__ import annotations

from typing import Final, NamedTuple

# --- terrain -----------------------------------------------------------------

WOODS: Final = "WOO"
PASTURE: Final = "PAS"
ROCK: Final = "ROC"
MOUNTAIN: Final = "MTN"
DESERT: Final = "DES"
SEA: Final = "SEA"
TERRAINS: Final = (WOODS, PASTURE, ROCK, MOUNTAIN, DESERT, SEA)

DIRECTIONS: Final = ("N", "NE", "SE", "S", "SW", "NW")
"""Hex sides of a flat-top hex, clockwise; index ``d`` faces ``DELTAS[d]``."""
DELTAS: Final = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
"""Axial (dq, dr) of the neighbour across side ``d`` (+r is north)."""

# --- goods -------------------------------------------------------------------

GOODS: Final = (
    "trunk",
    "board",
    "paper",
    "goose",
    "clay",
    "stone",
    "fuel",
    "iron",
    "gold",
    "coins",
    "stock",
)
"""Goods by index; a good is stored as ``index | moved_mask << 4``."""
G: Final = {name: i for i, name in enumerate(GOODS)}
NUM_GOODS: Final = len(GOODS)
"""Kinds of goods: the length of a per-good count list."""
TRUNK, BOARD, PAPER, GOOSE, CLAY, STONE, FUEL, IRON, GOLD, COINS, STOCK = range(NUM_GOODS)
GOOD_BITS: Final = 4
GOOD_MASK: Final = 15
LENT: Final = 1 << 8
"""Marks a good lying loose because its owner lent it for building this building phase
(above the four moved bits ``1 << (seat + GOOD_BITS)``); cleared when the phase ends."""

SCORE_VALUE: Final = {GOLD: 10, COINS: 40, STOCK: 120}
"""Points for gold, coins and stock carried on one's own transporters at the end."""

PAY_ORDER: Final = (TRUNK, CLAY, GOOSE, BOARD, STONE, PAPER, FUEL, IRON, GOLD, COINS, STOCK)
"""Cheapest-first order used when the engine must choose goods on a player's behalf."""

# --- transporters ------------------------------------------------------------


class TransporterType(NamedTuple):
    """A kind of transporter: ``capacity`` goods at once, ``moves`` steps per phase."""

    name: str
    water: bool
    capacity: int
    moves: int
    roads_only: bool


TRANSPORTERS: Final = (
    TransporterType("donkey", False, 2, 2, False),
    TransporterType("wagon", False, 3, 3, True),
    TransporterType("truck", False, 6, 4, True),
    TransporterType("raft", True, 3, 3, False),
    TransporterType("rowboat", True, 5, 4, False),
    TransporterType("steamer", True, 8, 6, False),
)
T: Final = {t.name: i for i, t in enumerate(TRANSPORTERS)}
DONKEY, WAGON, TRUCK, RAFT, ROWBOAT, STEAMER = range(6)
MAX_TRANSPORTERS: Final = 8
MAX_LAND: Final = 5
MAX_WATER: Final = 5

START_DONKEYS: Final = 3
START_GOODS: Final = ((BOARD, 5), (STONE, 1), (GOOSE, 2))

# --- research ----------------------------------------------------------------

RESEARCH: Final = (
    "rowing",
    "trucking",
    "shipping",
    "drilling",
    "specialisation",
    "enlargement",
    "new_shafts",
)
"""The seven real projects (the 'bright idea' slot has no effect and is not offered)."""
ROWING, TRUCKING, SHIPPING, DRILLING, SPECIALISATION, ENLARGEMENT, NEW_SHAFTS = range(7)
RESEARCH_COST: Final = ((GOOSE, 2), (PAPER, 1))

MINE_MIXES: Final = {"3/3": (3, 3), "4/0": (4, 0), "0/4": (0, 4), "5/5": (5, 5)}
"""Bag fillings (gold, iron) of a new mine or shaft; 4/0 and 0/4 need specialisation,
5/5 needs enlargement."""
MIX_RESEARCH: Final = {
    "3/3": None,
    "4/0": SPECIALISATION,
    "0/4": SPECIALISATION,
    "5/5": ENLARGEMENT,
}
SHAFT_COST: Final = ((IRON, 1), (FUEL, 1))
MINE_LIMIT_DEFAULT: Final = 18

# --- buildings ---------------------------------------------------------------

PRIMARY: Final = "primary"
SECONDARY: Final = "secondary"
FACTORY: Final = "factory"
"""Building classes: primary producers, secondary producers, transporter factories."""

LAND: Final = "land"
SHORE: Final = "shore"
"""Site rules besides a terrain code: any (irrigated) land, or land touching water."""


class BuildingType(NamedTuple):
    """A building: cost (good, count) pairs, where it may stand, what it makes.

    ``inputs`` is one input set; ``output`` the good or transporter index made per
    set; ``out_count`` goods per set; ``limit`` the most goods (or transporters) per
    production phase; ``research`` the project index needed to build, or None.
    ``alt_inputs`` lists goods that may replace each other (trunk/board mixes).
    """

    name: str
    cost: tuple[tuple[int, int], ...]
    site: str
    kind: str
    inputs: tuple[tuple[int, int], ...]
    output: int
    out_count: int
    limit: int
    research: int | None


BUILDINGS: Final = (
    BuildingType("woodcutter", ((BOARD, 1),), WOODS, PRIMARY, (), TRUNK, 1, 1, None),
    BuildingType("quarry", ((BOARD, 2),), ROCK, PRIMARY, (), STONE, 1, 1, None),
    BuildingType("clay_pit", ((BOARD, 3),), SHORE, PRIMARY, (), CLAY, 1, 1, None),
    BuildingType("mine", ((BOARD, 3), (STONE, 1)), MOUNTAIN, PRIMARY, (), -1, 1, 1, None),
    BuildingType("oil_rig", ((BOARD, 3), (STONE, 1)), SEA, PRIMARY, (), FUEL, 1, 1, DRILLING),
    BuildingType(
        "sawmill", ((BOARD, 2), (STONE, 1)), LAND, SECONDARY, ((TRUNK, 1),), BOARD, 2, 6, None
    ),
    BuildingType("coal_burner", ((BOARD, 3),), LAND, SECONDARY, ((BOARD, 2),), FUEL, 1, 6, None),
    BuildingType(
        "papermill", ((BOARD, 1), (STONE, 1)), LAND, SECONDARY, ((BOARD, 2),), PAPER, 1, 1, None
    ),
    BuildingType("stone_factory", ((BOARD, 2),), LAND, SECONDARY, ((CLAY, 1),), STONE, 2, 6, None),
    BuildingType(
        "mint", ((BOARD, 2), (STONE, 1)), LAND, SECONDARY, ((FUEL, 1), (GOLD, 2)), COINS, 1, 1, None
    ),
    BuildingType(
        "stock_exchange",
        ((STONE, 3),),
        LAND,
        SECONDARY,
        ((PAPER, 1), (COINS, 2)),
        STOCK,
        1,
        6,
        None,
    ),
    BuildingType(
        "wagon_factory", ((BOARD, 2), (STONE, 1)), LAND, FACTORY, ((BOARD, 2),), WAGON, 1, 1, None
    ),
    BuildingType(
        "truck_factory",
        ((BOARD, 2), (STONE, 2)),
        LAND,
        FACTORY,
        ((IRON, 1), (FUEL, 1)),
        TRUCK,
        1,
        1,
        TRUCKING,
    ),
    BuildingType(
        "raft_factory", ((BOARD, 1), (STONE, 1)), SHORE, FACTORY, ((TRUNK, 2),), RAFT, 1, 1, None
    ),
    BuildingType(
        "rowboat_factory",
        ((BOARD, 2), (STONE, 1)),
        SHORE,
        FACTORY,
        ((BOARD, 5),),
        ROWBOAT,
        1,
        1,
        ROWING,
    ),
    BuildingType(
        "steamer_factory",
        ((BOARD, 2), (STONE, 2)),
        SHORE,
        FACTORY,
        ((FUEL, 2), (IRON, 1)),
        STEAMER,
        1,
        1,
        SHIPPING,
    ),
)
B: Final = {b.name: i for i, b in enumerate(BUILDINGS)}
(
    WOODCUTTER,
    QUARRY,
    CLAY_PIT,
    MINE,
    OIL_RIG,
    SAWMILL,
    COAL_BURNER,
    PAPERMILL,
    STONE_FACTORY,
    MINT,
    STOCK_EXCHANGE,
    WAGON_FACTORY,
    TRUCK_FACTORY,
    RAFT_FACTORY,
    ROWBOAT_FACTORY,
    STEAMER_FACTORY,
) = range(16)
WOOD_FED: Final = frozenset({COAL_BURNER, PAPERMILL})
"""Buildings whose 2 wood may be any mix of boards and trunks (boards used first)."""
UPGRADES: Final = {
    TRUCKING: ((WAGON_FACTORY,), TRUCK_FACTORY),
    ROWING: ((RAFT_FACTORY, STEAMER_FACTORY), ROWBOAT_FACTORY),
    SHIPPING: ((RAFT_FACTORY, ROWBOAT_FACTORY), STEAMER_FACTORY),
}
"""Research project -> (factories that may convert, the factory they become)."""

# --- infrastructure ----------------------------------------------------------

ROAD_COST: Final = ((STONE, 1),)
BRIDGE_COST: Final = ((STONE, 1),)
WALL_FROM_SEA_EXTRA: Final = 2
MAX_WALL: Final = 3


def wall_build_cost(tokens: int) -> int:
    """Stones to raise a wall from ``tokens`` to ``tokens + 1`` (1, 2, 3 ...)."""
    return tokens + 1


def wall_demolish_cost(tokens: int) -> int:
    """Boards to demolish a wall of ``tokens`` tokens (2, 3, 4)."""
    return tokens + 1


# --- wonder ------------------------------------------------------------------

WONDER_ROWS: Final = (4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7)
WONDER_SLOTS: Final = sum(WONDER_ROWS)  # 83
PRICE_STEP_AT: Final = 17
"""Once this many bricks stand (first four rows), every brick costs one more good."""
IRRIGATION_AT: Final = 45
"""Placing brick number 45 irrigates every desert (it becomes pasture)."""
END_MARK: Final = {1: WONDER_SLOTS, 2: 62, 3: 66, 4: 69, 5: 76, 6: 83}
NEUTRAL_BRICKS: Final = 33
ROW_POINTS: Final = 10
SOLO_TURNS: Final = 20
SOLO_PREFILL: Final = 17


def row_share(own: int, total: int) -> int:
    """Points of a row for ``own`` of ``total`` player bricks: floor(10 * own / total)."""
    return ROW_POINTS * own // total if total else 0


SCORE_TABLE: Final = (
    (10, 5, 3, 2, 2, 1),
    (10, 6, 5, 4, 3, 2),
    (10, 7, 6, 5, 4),
    (10, 8, 6, 5),
    (10, 8, 7),
)
"""The printed wonder table (rulebook back cover): [own-1][others] -> points."""

# --- maps --------------------------------------------------------------------

MAPS: Final = {
    "pacific": (
        "The Pacific (255)",
        "2,5 ROC; 3,5 WOO; 4,5 PAS; 5,5 WOO; 2,4 WOO; 3,4 SEA; 4,4 SEA; 5,4 SEA; 6,4 SEA; "
        "7,4 WOO; 2,3 WOO; 3,3 SEA; 4,3 MTN; 5,3 SEA; 6,3 MTN; 7,3 SEA; 8,3 PAS; 2,2 WOO; "
        "3,2 SEA; 4,2 SEA; 5,2 SEA; 6,2 SEA; 7,2 SEA; 8,2 SEA; 9,2 WOO; 2,1 PAS; 3,1 SEA; "
        "4,1 MTN; 5,1 SEA; 6,1 MTN; 7,1 SEA; 8,1 MTN; 9,1 SEA; 10,1 ROC; 3,0 WOO; 4,0 SEA; "
        "5,0 SEA; 6,0 SEA; 7,0 SEA; 8,0 SEA; 9,0 SEA; 10,0 WOO; 4,-1 DES; 5,-1 SEA; 6,-1 MTN; "
        "7,-1 SEA; 8,-1 MTN; 9,-1 SEA; 10,-1 WOO; 5,-2 DES; 6,-2 SEA; 7,-2 SEA; 8,-2 SEA; "
        "9,-2 SEA; 10,-2 WOO; 7,-3 DES; 8,-3 DES; 9,-3 WOO; 10,-3 PAS",
    ),
    "dead-sea": (
        "Dead Sea (256)",
        "3,4 WOO; 4,4 ROC; 5,4 WOO; 6,4 DES; 3,3 MTN[NE]; 4,3 WOO[SE+SW]; 5,3 WOO; 6,3 MTN; "
        "7,3 WOO; 3,2 ROC; 4,2 SEA; 5,2 PAS[SE+NW]; 6,2 PAS; 7,2 WOO; 8,2 ROC; 3,1 MTN; "
        "4,1 SEA; 5,1 SEA; 6,1 PAS[NE+S+NW]; 7,1 PAS[NE+SW]; 8,1 WOO[SE+SW]; 9,1 WOO; 4,0 MTN; "
        "5,0 MTN; 6,0 SEA; 7,0 SEA; 8,0 SEA; 9,0 MTN[NW]; 5,-1 DES; 6,-1 SEA; 7,-1 MTN; "
        "8,-1 SEA; 9,-1 ROC; 6,-2 DES; 7,-2 DES; 8,-2 MTN; 9,-2 MTN",
    ),
    "mesopotamia": (
        "Mesopotamia (solo puzzle)",
        "4,3 SEA; 5,3 SEA; 6,3 DES; 4,2 SEA; 5,2 PAS[NE+S+NW]; 6,2 WOO[S+SW]; 7,2 ROC; "
        "4,1 DES[N+SE]; 5,1 WOO[N+SE]; 6,1 PAS[N+NE]; 7,1 WOO[NE+SW]; 8,1 MTN[SW]; "
        "5,0 ROC[SE+NW]; 6,0 WOO[NE+NW]; 7,0 WOO[SE+SW]; 8,0 MTN; 6,-1 MTN[NW]; 7,-1 MTN; "
        "8,-1 MTN[NW]",
    ),
    "lord-of-the-ring": (
        "Lord of the Ring (solo puzzle)",
        "4,4 WOO; 5,4 PAS; 6,4 ROC; 4,3 WOO; 5,3 SEA; 6,3 SEA; 7,3 ROC; 4,2 MTN; 5,2 SEA; "
        "6,2 DES; 7,2 SEA; 8,2 ROC; 5,1 MTN; 6,1 SEA; 7,1 SEA; 8,1 WOO; 6,0 MTN; 7,0 PAS; "
        "8,0 WOO",
    ),
}
"""Decoded Splotter maps: name -> (title, "q,r TER[rivers]; ...") in axial coordinates."""

DEFAULT_MAP: Final = {1: "lord-of-the-ring", 2: "pacific"}
"""Default map per player count; 3 and 4 players get a generated map."""

GEN_LAND_PER_PLAYER: Final = 10
GEN_TERRAIN_WEIGHTS: Final = ((WOODS, 5), (PASTURE, 4), (ROCK, 3), (MOUNTAIN, 3), (DESERT, 2))
"""Land terrain mix of generated maps (roughly the 1st/2nd-edition tile counts)."""
GEN_RIVERS_PER_PLAYER: Final = 0.5
GEN_TRIBUTARIES: Final = 1
"""Tributaries a generated map tries to add (each joins a river through a junction)."""
