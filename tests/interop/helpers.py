"""Shared pieces of the interop tests: the optional packages, and games played
through each binding with recorded action ids."""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from tests.zoo.procs import require

SEAT_COUNTS = {
    "manila": (3, 4, 5),
    "navegador": (2, 3, 4, 5),
    "puerto-rico": (2, 3, 4, 5),
    "roads-and-boats": (1, 2, 3, 4),
}
"""Every seat count of every game (the engines' ranges)."""


def need(module: str) -> ModuleType:
    """Import ``module`` of the ``interop`` extra; skip without it (fail under CI)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        require(f"{module} is not installed (pip install -e '.[interop]'): {exc}", "interop")
        raise


def play_openspiel(
    name: str, seats: int, seed: int, params: dict[str, Any] | None = None
) -> tuple[Any, list[int]]:
    """A whole game through the OpenSpiel binding, every node (chance pieces too)
    chosen at random from ``seed``: the final state and the action ids played."""
    pyspiel = need("pyspiel")
    binding = importlib.import_module("referee.interop.openspiel")
    from referee.games import get_game

    game = pyspiel.load_game(
        binding.short_name(get_game(name)), {"players": seats, **(params or {})}
    )
    rng = random.Random(seed)
    state = game.new_initial_state()
    ids: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        ids.append(int(action))
        state.apply_action(action)
    return state, ids
