"""Manila (Franz-Benno Delonge, Zoch 2005): smuggling goods to Manila's harbour, 3-5 players.

Modules: ``game`` (:class:`ManilaGame`, determinization), ``state`` (the rules),
``actions``, ``options``, ``view`` (:class:`ManilaView` and ``build_view``), ``phases``
(node kinds), ``data`` (board tables), ``render`` and ``render.js`` (the viewer).
Rules and choices: ``docs/rules/manila.md``.

``state``, ``view``, ``phases``, ``data`` and ``information`` also run compiled when
``make setup`` has built them and they match their sources (:mod:`referee.api.native`).
"""

from referee.api.native import accelerate

accelerate(__name__, __path__)  # before any module of the package is imported

from referee.games.manila.game import ManilaGame  # noqa: E402

GAME = ManilaGame()

__all__ = ["GAME", "ManilaGame"]
