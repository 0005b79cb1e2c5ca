"""Manila (Franz-Benno Delonge, Zoch 2005): smuggling goods to Manila's harbour.

Modules: :mod:`.data` (board tables), :mod:`.actions`, :mod:`.options`, :mod:`.view`,
:mod:`.phases` (node kinds), :mod:`.state` (the rules), :mod:`.information` (views),
:mod:`.game` (the :class:`~referee.api.engine.Game` and determinization).
Rules choices are documented in docs/rules/manila.md.
"""

from .game import ManilaGame

GAME = ManilaGame()

__all__ = ["GAME", "ManilaGame"]
