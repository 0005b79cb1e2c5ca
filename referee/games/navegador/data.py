"""Navegador board data: every printed number the rules engine uses, in one place.

Money is in Cruzados, victory points in VP.  Several tables are *reconstructions*
(the rulebook texts do not print them); they satisfy every worked example of the
rulebook and are marked ``RECONSTRUCTED`` below.  See ``docs/rules/navegador.md``.
Correct a value here and the whole engine follows.
"""

from __future__ import annotations

from typing import Final

# --- goods and colonies -------------------------------------------------------------

GOODS: Final = ("sugar", "gold", "spice")
"""The three goods; index 0..2 is used everywhere (market cubes, colonies, factories)."""

TILE_PRICES: Final = (
    tuple(range(40, 121, 10)),  # sugar: 9 tiles, 40..120
    tuple(range(50, 151, 10)),  # gold: 11 tiles, 50..150
    tuple(range(60, 181, 10)),  # spice: 13 tiles, 60..180
)
"""Printed price of every colony tile per good (rulebook: Colony; unique, steps of 10)."""

# --- the map ----------------------------------------------------------------------
# RECONSTRUCTED: two region names, the stack sizes per region and the borders are not in
# the texts; this graph satisfies every sailing and exploration example of the rulebook.

REGIONS: Final[tuple[str, ...]] = (
    "Portugal",
    "Guiné",
    "Bahia",
    "Rio de Janeiro",
    "Angola",
    "Cabo da Boa Esperança",
    "Moçambique",
    "Goa",
    "Ceilão",
    "Malaca",
    "Timor",
    "Macau",
    "Nagasaki",
)
"""Sea regions; index 0 (Portugal) is the home region without explorer or colonies."""

PORTUGAL: Final = 0
CABO: Final = REGIONS.index("Cabo da Boa Esperança")
GOA: Final = REGIONS.index("Goa")
MALACA: Final = REGIONS.index("Malaca")
MACAU: Final = REGIONS.index("Macau")
NAGASAKI: Final = REGIONS.index("Nagasaki")

REGION_GOOD: Final = (-1, 1, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2)
"""Good (index into GOODS) of the colony stack of each region; -1 for Portugal."""

REGION_TILES: Final = (0, 3, 4, 4, 3, 1, 3, 3, 2, 2, 2, 2, 1)
"""Number of face-down colony tiles dealt to each region (Timor = 2 is printed)."""

BORDERS: Final[tuple[tuple[int, int], ...]] = (
    (0, 1),
    (0, 2),
    (1, 2),
    (1, 4),
    (2, 3),
    (3, 4),
    (4, 5),  # red border into Cabo da Boa Esperança
    (5, 6),
    (6, 7),
    (7, 8),
    (8, 9),  # red border into Malaca
    (9, 10),
    (9, 11),
    (10, 11),
    (11, 12),
)
"""Undirected borders between regions (pairs of region indices)."""

PHASE_REGIONS: Final = {CABO: 2, MALACA: 3}
"""Exploring one of these regions starts the given phase (rulebook: Game phases)."""


def double_loss_regions(seats: int) -> frozenset[int]:
    """Regions where exploring costs 2 ships: Nagasaki, and Macau with 2-3 players."""
    return frozenset({NAGASAKI, MACAU}) if seats <= 3 else frozenset({NAGASAKI})


SAILING_RANGE: Final = (0, 1, 2, 3)
"""Borders a ship may cross in one Sailing action, indexed by phase 1..3."""

# --- market -------------------------------------------------------------------------

MARKET_PRICE: Final = (
    (60, 60, 50, 50, 40, 40, 30, 30, 20, 20),  # sugar
    (70, 70, 60, 60, 50, 50, 40, 40, 30, 30),  # gold
    (80, 80, 70, 70, 60, 60, 50, 50, 40, 40),  # spice
)
"""Selling price of one unit per good and market row (row 0 = top), in Cruzados."""

MARKET_REVENUE: Final = (20, 20, 30, 30, 40, 40, 50, 50, 60, 60)
"""Factory revenue of one processed unit per market row (the red column), Cruzados."""

MARKET_ROWS: Final = len(MARKET_REVENUE)
MARKET_START_ROW: Final = 3
"""All three cubes start on the 4th row from the top."""

# --- rondel -------------------------------------------------------------------------

RONDEL: Final[tuple[str, ...]] = (
    "sailing",
    "workers",
    "market",
    "colony",
    "privilege",
    "ships",
    "market",
    "buildings",
)
"""The eight rondel spaces clockwise.  RECONSTRUCTED: the order of the last two."""

FREE_STEPS: Final = 3
"""Spaces a stone may advance for free; every further space costs one ship."""

# --- buildings ----------------------------------------------------------------------

BUILDINGS: Final = ("sugar", "gold", "spice", "shipyard", "church")
"""The five rows of the building display; rows 0..2 are the factories of GOODS."""

SHIPYARD: Final = 3
CHURCH: Final = 4

BUILDING_COSTS: Final = (
    (40, 70, 100, 130, 160, 190),
    (40, 70, 100, 130, 160, 190),
    (40, 70, 100, 130, 160, 190),
    (100, 150, 200, 250, 300, 350, 400, 450),
    (250, 300, 350, 400, 450, 500, 550, 600),
)
"""Printed cost of each display slot, cheapest first (RECONSTRUCTED), in Cruzados."""

BUILDING_WORKERS: Final = (3, 3, 3, 4, 5)
"""Workers needed in Lisboa per building of each row (summed over one action)."""


def building_row_sizes(seats: int) -> tuple[int, ...]:
    """Buildings on each display row at setup: 6 factories each, 10 - N shipyards/churches."""
    return (6, 6, 6, 10 - seats, 10 - seats)


# --- workers and ships --------------------------------------------------------------

START_MONEY: Final = 200
START_WORKERS: Final = 3
START_SHIPS: Final = 2
MIN_WORKERS: Final = 2
MAX_WORKERS: Final = 9
MAX_SHIPS: Final = 7
CHEAP_PRICE: Final = 50
"""Price of one worker per church (one ship per shipyard) in a single action."""
PHASE_PRICE: Final = 100
"""Price of any further worker or ship, times the phase number."""
VIRTUAL_RESALE: Final = 100
"""What the bank pays back for a virtual worker or ship."""

# --- privileges and scoring ---------------------------------------------------------

COLUMNS: Final = ("colony", "factory", "explorer", "shipyard", "church")
"""Privilege types = player-sheet columns, left to right."""

PRIVILEGE_SLOTS: Final = 3
"""Privilege slots per column (a player takes at most 3 of a type)."""

PRIVILEGE_COINS: Final = (
    (30, 20, 10),
    (30, 20, 10),
    (30, 20, 10),
    (50, 40, 30),
    (50, 40, 30),
)
"""Coin bonus printed on slot 1..3 of each column, per owned item (RECONSTRUCTED)."""

BASE_VP: Final = (1, 2, 4, 3, 3)
"""VP per item printed at the top of each column."""

PRIVILEGE_VP: Final = (1, 1, 1, 2, 2)
"""VP per item added by one privilege tile (or the King's privilege) in each column."""

GALLERY_SUPPLY: Final = 6
"""Privilege tiles of each type in the box."""

GALLERY_REFILL: Final = {
    2: (1, 1, 1),
    3: (1, 1, 2),
    4: (1, 2, 2),
    5: (1, 2, 3),
}
"""Gallery tiles per type at the start of phase I, II, III by player count (3p/4p RECONSTRUCTED)."""

VP_MONEY_UNIT: Final = 200
"""Cruzados per victory point at the end."""
