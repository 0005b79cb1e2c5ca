"""Manila board data: goods, seat costs, payouts, offices, price track, pacing.

All money is in pesos.  Sources: rules/manila.md §1-§6 (costs and payouts checked
against the English rulebook by several independent sources).
"""

from __future__ import annotations

from typing import Final

GOODS: Final[tuple[str, ...]] = ("nutmeg", "silk", "ginseng", "jade")
"""The four goods, in price-track order (left to right on the board)."""

GOOD_INDEX: Final = {name: i for i, name in enumerate(GOODS)}

SEAT_COSTS: Final = ((2, 3, 4), (3, 4, 5), (1, 2, 3), (3, 4, 5, 5))
"""Cost of each crew seat of a punt by good, cheapest (first to fill) first."""

CARGO_PAYOUT: Final = (24, 30, 18, 36)
"""Pesos shared equally by the crew of a punt of that good that reaches the port."""

PRICE_TRACK: Final = (0, 5, 10, 20, 30)
"""Share values; a marker moves one space per voyage its good reaches the port."""

END_PRICE_STEP: Final = len(PRICE_TRACK) - 1
"""The game ends once any marker reaches this step (30 pesos)."""

MIN_SHARE_PRICE: Final = 5
"""The harbour master pays max(5, market value) for a share."""

OFFICE_COSTS: Final = (4, 3, 2)
"""Cost of the A, B, C spaces of the port and of the shipyard."""

OFFICE_PAYOUTS: Final = (6, 8, 15)
"""Payout of the A, B, C spaces (port: bank pays; shipyard: insurance agent or bank)."""

BERTHS: Final = ("a", "b", "c")

PIRATE_COST: Final = 5
SMALL_PILOT_COST: Final = 2
LARGE_PILOT_COST: Final = 5
INSURANCE_PREMIUM: Final = 10
"""Paid by the bank to whoever takes the insurance space, at once."""

MORTGAGE_LOAN: Final = 12
REDEEM_COST: Final = 15
START_CASH: Final = 30
SHARES_PER_GOOD: Final = 5
DEALT_PER_GOOD: Final = 3
"""Of each good 3 shares are shuffled into the deal; the rest start in the supply."""
HAND_SIZE: Final = 2

ACCOMPLICES: Final = {3: 4, 4: 3, 5: 3}
"""Accomplices per player by player count."""

HARBOUR_LENGTH: Final = 13
"""Space 13 is the pirates' space; a punt moved past it (14 or more) arrives."""
START_TOTAL: Final = 9
START_MAX: Final = 5

# Spot indices of the placement board (actions name them by SPOT_NAMES).
BOAT_SPOTS: Final = (0, 1, 2, 3)  # one per good, by good index
PORT_SPOTS: Final = (4, 5, 6)
YARD_SPOTS: Final = (7, 8, 9)
PIRATE_SPOT: Final = 10
SMALL_PILOT_SPOT: Final = 11
LARGE_PILOT_SPOT: Final = 12
INSURANCE_SPOT: Final = 13
SPOT_NAMES: Final = (
    *GOODS,
    "port-a",
    "port-b",
    "port-c",
    "shipyard-a",
    "shipyard-b",
    "shipyard-c",
    "pirate",
    "pilot-small",
    "pilot-large",
    "insurance",
)
SPOT_INDEX: Final = {name: i for i, name in enumerate(SPOT_NAMES)}

# Voyage pacing (rules/manila.md §6): one entry per step after the harbour master's duties.
PLACE, ROLL, BOARD, PILOTS, SETTLE = "place", "roll", "board", "pilots", "settle"
SCHEDULES: Final = {
    3: (PLACE, PLACE, ROLL, PLACE, ROLL, BOARD, PLACE, PILOTS, ROLL, SETTLE),
    4: (PLACE, ROLL, PLACE, ROLL, BOARD, PLACE, PILOTS, ROLL, SETTLE),
    5: (PLACE, ROLL, PLACE, ROLL, BOARD, PLACE, PILOTS, ROLL, SETTLE),
}


def launch_layouts() -> tuple[tuple[int, int, int], ...]:
    """Every legal start layout: three spaces 0..5 adding up to exactly 9 (25 layouts)."""
    return tuple(
        (a, b, START_TOTAL - a - b)
        for a in range(START_MAX + 1)
        for b in range(START_MAX + 1)
        if 0 <= START_TOTAL - a - b <= START_MAX
    )


LAUNCH_LAYOUTS: Final = launch_layouts()
