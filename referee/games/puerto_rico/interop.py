"""Puerto Rico for the OpenSpiel and PettingZoo bindings (:mod:`referee.api.interop`).

Chance: the governor (id = seat); a display refill one tile at a time, from the stack
while it lasts and then from the discards (id = tile kind 0-4, weighted by the pile's
counts); a hacienda tile likewise.  Actions: an id table of every action."""

from __future__ import annotations

from typing import Any, Final

from referee.api.engine import Game
from referee.api.interop import ChanceModel, Outcomes, product_table, weighted

TENSOR_SIZE: Final = 2048
"""Entries of the observation tensor (:mod:`referee.interop.encoding`)."""


class PuertoRicoChance(ChanceModel):
    """The governor; display and hacienda tiles one at a time."""

    max_outcomes = 5

    def _piles(self, state: Any, partial: list[int]) -> tuple[list[int], list[int], int]:
        """(stack, discard) after ``partial`` was drawn, and the tiles still to draw."""
        from referee.games.puerto_rico.phases import P_DRAW
        from referee.games.puerto_rico.plantations import display_draw_size

        stack, discard = list(state.stack), list(state.discard)
        if state.phase == P_DRAW:
            need = display_draw_size(state.setup.face_up, stack, discard)
        else:
            need = 1
        for kind in partial:
            if sum(stack) == 0:
                stack, discard = discard, [0] * len(discard)
            stack[kind] -= 1
        if sum(stack) == 0:
            stack, discard = discard, [0] * len(discard)
        return stack, discard, need - len(partial)

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.puerto_rico.phases import P_DRAW, P_GOVERNOR, P_HACIENDA_DRAW

        if state.phase == P_GOVERNOR:
            return [] if partial else [(s, 1 / state.seats) for s in range(state.seats)]
        if state.phase not in (P_DRAW, P_HACIENDA_DRAW):
            raise ValueError("not at a Puerto Rico chance node")
        stack, _discard, todo = self._piles(state, partial)
        return weighted(stack) if todo > 0 else []

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.puerto_rico.phases import P_DRAW

        if state.phase == P_DRAW:
            return list(partial)
        return partial[0]

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.puerto_rico import data as D
        from referee.games.puerto_rico.phases import P_GOVERNOR

        if state.phase == P_GOVERNOR:
            return f"governor:{piece}"
        return f"tile:{D.TILE_NAMES[piece]}"


CHANCE = PuertoRicoChance
"""The chance decomposition (:class:`referee.api.interop.ChanceModel`)."""


def action_table(game: Game) -> list[Any]:
    """Every action of ``game``, in id order."""
    from referee.games.puerto_rico import data as D

    buildings = [b.name for b in D.BUILDINGS]
    ships = max(len(s.cargo_ships) for s in (*D.SETUPS.values(), D.TWO_PLAYER_SETUP))
    return product_table(
        game,
        {
            "role": D.ROLE_NAMES,
            "good": D.GOOD_NAMES,
            "spot": [*D.TILE_NAMES, *buildings],
            "building": buildings,
            "ship": range(ships),
        },
        {},
    )
