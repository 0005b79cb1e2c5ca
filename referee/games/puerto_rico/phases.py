"""Phases of a Puerto Rico round and the "no role" marker (shared by the rules and views)."""

from __future__ import annotations

from typing import Final

# Phases.  Chance phases first.
P_GOVERNOR: Final = 0
P_DRAW: Final = 1
P_HACIENDA_DRAW: Final = 2
P_ROLE: Final = 3
P_SETTLER: Final = 4
P_MAYOR: Final = 5
P_BUILDER: Final = 6
P_CRAFTSMAN: Final = 7
P_TRADER: Final = 8
P_CAPTAIN: Final = 9
P_STORAGE: Final = 10
P_OVER: Final = 11
PHASE_NAMES: Final = (
    "setup",
    "plantation_draw",
    "hacienda_draw",
    "role",
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "storage",
    "over",
)
CHANCE_PHASES: Final = (P_GOVERNOR, P_DRAW, P_HACIENDA_DRAW)
NO_ROLE: Final = -1
