"""Puerto Rico (alea 2002): rules engine for 3-5 players plus the official 2-player variant.

Modules: :mod:`.data` (tables), :mod:`.actions`, :mod:`.options`, :mod:`.state` (rules),
:mod:`.scoring`, :mod:`.view`, :mod:`.game`.  Rules and choices: ``docs/rules/puerto_rico.md``.
"""

from referee.games.puerto_rico.game import PuertoRicoGame

__all__ = ["GAME", "PuertoRicoGame"]

GAME = PuertoRicoGame()
