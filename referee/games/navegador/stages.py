"""Deprecated alias of :mod:`referee.games.navegador.phases`; this module goes in the
next release."""

import warnings

from referee.games.navegador.phases import (
    BUILDINGS,
    COLONY,
    MARKET,
    OVER,
    PRIVILEGE,
    RONDEL_STAGE,
    SAILING,
    SCRAP,
    SHIPS,
    STAGE_NAMES,
    START,
    WORKERS,
)

warnings.warn(
    "referee.games.navegador.stages is deprecated: import from referee.games.navegador.phases",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "BUILDINGS",
    "COLONY",
    "MARKET",
    "OVER",
    "PRIVILEGE",
    "RONDEL_STAGE",
    "SAILING",
    "SCRAP",
    "SHIPS",
    "STAGE_NAMES",
    "START",
    "WORKERS",
]
