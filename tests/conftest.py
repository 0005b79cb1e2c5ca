"""Shared fixtures."""

from __future__ import annotations

import pytest

from referee.api.engine import Game
from referee.games import all_games

GAMES: dict[str, Game] = all_games()


def seat_counts(game: Game) -> list[int]:
    """Every legal seat count of ``game``."""
    return list(range(game.min_seats, game.max_seats + 1))


GAME_SEATS = [
    pytest.param(game, seats, id=f"{name}-{seats}")
    for name, game in GAMES.items()
    for seats in seat_counts(game)
]
