"""Registry of games.

Every subpackage of ``referee.games`` that exposes a module attribute ``GAME`` (an
instance of :class:`referee.api.engine.Game`) is a game; its ``GAME.name`` is the name used
on the command line, in records and in the protocol's ``game`` field.

Lookup is lazy: :func:`get_game` imports only the package of the game asked for (the
package named like the game, ``-`` read as ``_``: ``puerto-rico`` is
``referee.games.puerto_rico``), so a bot that plays one game does not pay for
importing the others.  :func:`all_games` imports every game package once.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

from referee.api.engine import Game
from referee.errors import RefereeError


class UnknownGame(RefereeError, KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:
        return str(self.args[0])


_loaded: dict[str, Game] = {}
"""Games whose package has been imported, by name."""

_every: dict[str, Game] | None = None
"""The table :func:`all_games` returns once every package has been imported."""


def _load(package: str) -> None:
    """Import ``referee.games.<package>`` and register its ``GAME``, if it has one."""
    module = importlib.import_module(f"{__name__}.{package}")
    game = getattr(module, "GAME", None)
    if isinstance(game, Game):
        _loaded[game.name] = game


def all_games() -> dict[str, Game]:
    """All registered games by name, sorted by name (imports every game package).

    Always the same dict object, so a test may register a game in it.
    """
    global _every
    if _every is None:
        for info in pkgutil.iter_modules(__path__):
            if info.ispkg:
                _load(info.name)
        _every = dict(sorted(_loaded.items()))
    return _every


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame` with the known names.

    Imports only that game's package when its name follows the package naming
    convention; otherwise (or for an unknown name) falls back to :func:`all_games`.
    """
    if _every is not None:
        game = _every.get(name)
    else:
        game = _loaded.get(name)
        package = name.replace("-", "_")
        if (
            game is None
            and package.isidentifier()
            and not package.startswith("_")
            and importlib.util.find_spec(f"{__name__}.{package}") is not None
        ):
            _load(package)
            game = _loaded.get(name)
    if game is None:
        games = all_games()
        game = games.get(name)
        if game is None:
            known = ", ".join(games) or "none"
            raise UnknownGame(f"unknown game {name!r} (known: {known})") from None
    return game
