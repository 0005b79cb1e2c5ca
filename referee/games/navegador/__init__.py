"""Navegador (Mac Gerdts, PD-Verlag 2010): rules engine for 2-5 players.

Modules: ``data`` (every board number), ``actions``, ``views`` (options and view),
``player``, ``sailing`` (sea distances), ``state`` (the rules), ``snapshot`` (view
<-> state) and ``game``.  Rule choices: ``docs/rules/navegador.md``.
"""

from referee.games.navegador.game import Navegador

GAME = Navegador()

__all__ = ["GAME", "Navegador"]
