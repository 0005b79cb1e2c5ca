"""How a match's final ranks follow from the engine's and the faults: pure functions
that the match and the replay both apply (and nothing else of the match)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from referee.api.engine import State

Adjudication = Literal["scores", "draw"]
"""How a match cut short by a ply limit is ranked: by the engine's ranking of the
position reached (its current scores and tie-breaks), or as a draw (every seat 1st)."""


def adjudicated_ranks(state: State, adjudication: Adjudication) -> list[int]:
    """Engine ranks (1 = best, one per seat) of a position that is not over, by
    ``adjudication``."""
    if adjudication == "draw":
        return [1] * len(state.scores())
    return state.ranks()


def final_ranks(engine_ranks: Sequence[int], fault_plies: Sequence[int | None]) -> list[int]:
    """Ranks after the forfeit policy: every faulted seat ranks below every clean seat.

    Clean seats keep the engine's order; faulted seats are ordered by when they
    faulted (earlier fault ranks lower); equal keys share a rank (1 = best).
    """
    keys = [
        (0, rank) if ply is None else (1, -ply)
        for rank, ply in zip(engine_ranks, fault_plies, strict=True)
    ]
    return [1 + sum(1 for other in keys if other < key) for key in keys]
