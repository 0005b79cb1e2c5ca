"""Manila (Franz-Benno Delonge, Zoch 2005): smuggling goods to Manila's harbour, 3-5 players.

Modules: ``game`` (:class:`ManilaGame`, determinization), ``state`` (the rules),
``actions``, ``options``, ``view`` (:class:`ManilaView` and ``build_view``), ``phases``
(node kinds), ``data`` (board tables), ``render`` and ``render.js`` (the viewer).
Rules and choices: ``docs/rules/manila.md``.
"""

from referee.games.manila.game import ManilaGame

GAME = ManilaGame()

__all__ = ["GAME", "ManilaGame"]
