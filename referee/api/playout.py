"""In-process random playouts through the engine interface (tests, benchmarks, bots)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.api.engine import CHANCE, TERMINAL, Game, State


class PlayoutLimit(RuntimeError):
    """A playout exceeded its ply budget (the engine probably loops)."""


@dataclass
class Playout:
    """The result of :func:`random_playout`.

    ``history`` lists ``("chance", outcome)`` and ``(seat, action)`` pairs in ply
    order when recorded; ``decisions`` counts seat decisions, ``chances`` chance nodes.
    """

    state: State
    decisions: int = 0
    chances: int = 0
    history: list[tuple[Any, Any]] = field(default_factory=list)


def random_playout(
    game: Game,
    seats: int,
    rng: random.Random,
    options: Any = None,
    *,
    max_plies: int = 1_000_000,
    record: bool = False,
) -> Playout:
    """Play one game to the end choosing uniformly among legal actions.

    Chance outcomes and actions both come from ``rng``.  Raises :class:`PlayoutLimit`
    after ``max_plies`` plies.
    """
    state = game.new_game(seats, options)
    result = Playout(state)
    for _ in range(max_plies):
        seat = state.to_move()
        if seat == TERMINAL:
            return result
        if seat == CHANCE:
            outcome = state.sample_chance(rng)
            if record:
                result.history.append(("chance", outcome))
            state.apply_chance(outcome)
            result.chances += 1
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if record:
                result.history.append((seat, action))
            state.apply_action(action)
            result.decisions += 1
    raise PlayoutLimit(f"{game.name}: no end after {max_plies} plies")
