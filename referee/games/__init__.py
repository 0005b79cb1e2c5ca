"""Registry of games.

Every subpackage of ``referee.games`` that exposes a module attribute ``GAME`` (an
instance of :class:`referee.engine.Game`) is a game; its ``GAME.name`` is the name used
on the command line, in records and in the protocol's ``game`` field.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from referee.engine import Game


class UnknownGame(KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:
        return str(self.args[0])


@cache
def all_games() -> dict[str, Game]:
    """All registered games by name, sorted by name."""
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.name] = game
    return dict(sorted(found.items()))


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame` with the known names."""
    games = all_games()
    try:
        return games[name]
    except KeyError:
        known = ", ".join(games) or "none"
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None
