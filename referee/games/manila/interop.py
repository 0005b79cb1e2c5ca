"""Manila for the OpenSpiel and PettingZoo bindings (:mod:`referee.api.interop`).

Chance: a deal is ``2 * seats`` shares dealt one at a time from the 12 (id = good
index 0-3, probability by shares left); a roll is one die per punt at sea in punt
order (id = face - 1, probability 1/6).  Actions: an id table of every action, with
bids up to :data:`MAX_BID` pesos."""

from __future__ import annotations

import itertools
from typing import Any, Final

from referee.api.engine import Game
from referee.api.interop import ChanceModel, Outcomes, product_table, weighted

MAX_BID: Final = 400
"""Highest bid in the id table (bids are 0..400 pesos)."""

TENSOR_SIZE: Final = 1024
"""Entries of the observation tensor (:mod:`referee.interop.encoding`)."""


class ManilaChance(ChanceModel):
    """Deal share by share; roll die by die."""

    max_outcomes = 6

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL, ROLL, SEA

        if state.phase == DEAL:
            if len(partial) >= D.HAND_SIZE * state.seats:
                return []
            left = [D.DEALT_PER_GOOD] * len(D.GOODS)
            for g in partial:
                left[g] -= 1
            return weighted(left)
        if state.phase == ROLL:
            at_sea = sum(1 for b in range(3) if state.dest[b] == SEA)
            return [] if len(partial) >= at_sea else [(f, 1 / 6) for f in range(6)]
        raise ValueError("not at a Manila chance node")

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL, SEA

        if state.phase == DEAL:
            n = D.HAND_SIZE
            return [[D.GOODS[g] for g in partial[n * s : n * s + n]] for s in range(state.seats)]
        punts = [b for b in range(3) if state.dest[b] == SEA]
        return {D.GOODS[state.cargo[b]]: partial[i] + 1 for i, b in enumerate(punts)}

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL

        if state.phase == DEAL:
            return f"deal:{D.GOODS[piece]}"
        return f"die:{piece + 1}"


CHANCE = ManilaChance
"""The chance decomposition (:class:`referee.api.interop.ChanceModel`)."""


def action_table(game: Game) -> list[Any]:
    """Every action of ``game``, in id order."""
    from referee.games.manila import data as D

    goods = D.GOODS
    singles = [((g, d),) for g in goods for d in (-2, -1, 1, 2)]
    pairs = [
        ((g1, d1), (g2, d2))
        for g1, g2 in itertools.permutations(goods, 2)
        for d1 in (-1, 1)
        for d2 in (-1, 1)
    ]
    crew = max(len(costs) for costs in D.SEAT_COSTS)
    return product_table(
        game,
        {
            "amount": range(MAX_BID + 1),
            "good": goods,
            "starts": D.LAUNCH_LAYOUTS,
            "spot": D.SPOT_NAMES,
            "bump": [None, *range(crew)],
            "moves": singles + pairs,
            "to": ("port", "shipyard"),
        },
        {},
    )
