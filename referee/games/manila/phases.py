"""Manila node kinds (phases) and small shared constants of the state."""

from __future__ import annotations

from referee.games.manila import data as D

# Phases (what kind of node the state is at).
DEAL, AUCTION, DEBT, BUY, LEAVE_OUT, LAUNCH, PLACE, ROLL, BOARD, PILOT, DELIVER, OVER = range(12)
PHASE_NAMES = (
    "deal",
    "auction",
    "debt",
    "buy",
    "leave_out",
    "launch",
    "place",
    "roll",
    "board",
    "pilot",
    "deliver",
    "over",
)
SEA, PORT, YARD = 0, 1, 2
DEST_NAMES = ("sea", "port", "shipyard")
NOBODY = -1
NGOODS = len(D.GOODS)
