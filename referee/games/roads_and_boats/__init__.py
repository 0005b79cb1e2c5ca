"""Roads & Boats (Splotter Spellen, 3rd edition, 2003): transport networks and a wonder,
1-4 players.

Modules: ``game`` (:class:`RoadsAndBoatsGame`, determinization), ``state`` (the rules,
put together from ``base``, ``flow``, ``chance``, ``production``, ``consent``,
``movement``, ``building`` and ``wonder``), ``actions``, ``options``, ``view`` (the view
structs and ``build_view``), ``phases`` (the phases of a turn), ``data`` (tables),
``render`` and ``render.js`` (the viewer), plus ``world`` (maps and their geometry) and
``fields`` (the view's field documentation).  Rules and choices:
``docs/rules/roads_and_boats.md``.

Deprecated for one release: ``RoadsAndBoats`` (now :class:`RoadsAndBoatsGame`); it warns
when used.
"""

from referee.api.native import accelerate

accelerate(__name__, __path__)  # before any module of the package is imported

from referee.api.deprecation import renamed  # noqa: E402
from referee.games.roads_and_boats.game import RoadsAndBoatsGame  # noqa: E402

GAME = RoadsAndBoatsGame()

__all__ = ["GAME", "RoadsAndBoatsGame"]


__getattr__ = renamed(__name__, {"RoadsAndBoats": ("RoadsAndBoatsGame", RoadsAndBoatsGame)})
