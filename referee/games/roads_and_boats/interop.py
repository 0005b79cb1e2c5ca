"""Roads & Boats for the OpenSpiel and PettingZoo bindings (:mod:`referee.api.interop`).

Chance: a map or rivers seed below 2**31 as four base-256 digits, low digit first (the
last below 128); a drafted land tile (id = terrain index, by the terrain weights); the
temple order seat by seat; one mine draw per bag (id 0 gold, 1 iron, weighted by the
bag).  Actions name places of a generated map, so their ids are indices into the
legal actions, below :data:`MAX_LEGAL`."""

from __future__ import annotations

from typing import Any, Final

from referee.api.engine import Game
from referee.api.interop import ChanceModel, Outcomes, weighted

SEED_DIGITS: Final = (256, 256, 256, 128)
"""Roads & Boats map seeds (below 2**31) as base-256 digits, low digit first."""

MAX_LEGAL: Final = 1024
"""Bound of the legal-index ids (random games offer at most ~50 actions)."""

TENSOR_SIZE: Final = 8192
"""Entries of the observation tensor (:mod:`referee.interop.encoding`)."""


class RoadsAndBoatsChance(ChanceModel):
    """Seeds digit by digit; land tiles, temple order and mine draws one at a time."""

    max_outcomes = 256

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            if len(partial) >= len(SEED_DIGITS):
                return []
            base = SEED_DIGITS[len(partial)]
            return [(d, 1 / base) for d in range(base)]
        if step == "deal":
            if len(partial) >= state._deal_size():
                return []
            return weighted([w for _t, w in D.GEN_TERRAIN_WEIGHTS])
        if step == "setup":
            left = [s for s in range(state.seats) if s not in partial]
            return [(s, 1 / len(left)) for s in left] if left else []
        if step == "draw":
            if len(partial) >= len(state.draws):
                return []
            gold, iron = state.bags[state.draws[len(partial)]]
            return weighted([gold, iron])
        raise ValueError("not at a Roads & Boats chance node")

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            seed, scale = 0, 1
            for digit, base in zip(partial, SEED_DIGITS, strict=True):
                seed += digit * scale
                scale *= base
            return seed
        if step == "deal":
            return [D.GEN_TERRAIN_WEIGHTS[t][0] for t in partial]
        if step == "setup":
            return list(partial)
        return [
            [h, "gold" if g == 0 else "iron"] for h, g in zip(state.draws, partial, strict=True)
        ]

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            return f"seed-digit:{piece}"
        if step == "deal":
            return f"land:{D.GEN_TERRAIN_WEIGHTS[piece][0]}"
        if step == "setup":
            return f"temple:{piece}"
        return f"mine:{'gold' if piece == 0 else 'iron'}"


CHANCE = RoadsAndBoatsChance
"""The chance decomposition (:class:`referee.api.interop.ChanceModel`)."""


def action_table(game: Game) -> list[Any] | None:
    """None: the ids are indices into the legal actions (below :data:`MAX_LEGAL`)."""
    return None
