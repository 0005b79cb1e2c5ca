"""Navegador for the OpenSpiel and PettingZoo bindings (:mod:`referee.api.interop`).

Chance: a region's tiles are turned up one at a time without replacement from the
good's unseen tiles (id = price // 10).  Actions: an id table of every action, with
counts up to :data:`MAX_COUNT`."""

from __future__ import annotations

from typing import Any, Final

from referee.api.engine import Game
from referee.api.interop import ChanceModel, Outcomes, product_table

MAX_COUNT: Final = 30
"""Highest ``count`` of a sell, process, hire and launch in the id table."""

TENSOR_SIZE: Final = 2048
"""Entries of the observation tensor (:mod:`referee.interop.encoding`)."""


class NavegadorChance(ChanceModel):
    """Turn up a region's tiles one at a time."""

    max_outcomes = 19

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.navegador import data as D

        region = state.reveal
        if region < 0:
            raise ValueError("not at a Navegador chance node")
        if len(partial) >= D.REGION_TILES[region]:
            return []
        taken = {10 * p for p in partial}
        left = [p for p in state.unseen[D.REGION_GOOD[region]] if p not in taken]
        return [(p // 10, 1 / len(left)) for p in sorted(left)]

    def assemble(self, state: Any, partial: list[int]) -> Any:
        return sorted(10 * p for p in partial)

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        return f"tile:{10 * piece}"


CHANCE = NavegadorChance
"""The chance decomposition (:class:`referee.api.interop.ChanceModel`)."""


def action_table(game: Game) -> list[Any]:
    """Every action of ``game``, in id order."""
    from referee.games.navegador import data as D

    counts = range(1, MAX_COUNT + 1)
    return product_table(
        game,
        {
            "space": range(len(D.RONDEL)),
            "region": D.REGIONS,
            "src": D.REGIONS,
            "dst": D.REGIONS,
            "good": D.GOODS,
            "count": counts,
            "building": D.BUILDINGS,
            "column": D.COLUMNS,
        },
        {},
    )
