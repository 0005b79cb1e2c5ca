"""Stages of a Navegador turn, the game's node kinds (one module so views and rules share
them without a cycle)."""

from __future__ import annotations

from referee.games.navegador import data

# Stages of a turn.
START, SCRAP, SAILING, COLONY, MARKET, PRIVILEGE, WORKERS, SHIPS, BUILDINGS, OVER = range(10)
STAGE_NAMES = (
    "start",
    "scrap",
    "sailing",
    "colony",
    "market",
    "privilege",
    "workers",
    "ships",
    "buildings",
    "over",
)
_SPACE_STAGE = {
    "sailing": SAILING,
    "workers": WORKERS,
    "market": MARKET,
    "colony": COLONY,
    "privilege": PRIVILEGE,
    "ships": SHIPS,
    "buildings": BUILDINGS,
}
RONDEL_STAGE = tuple(_SPACE_STAGE[name] for name in data.RONDEL)
"""Stage entered from each rondel space."""
