"""Navegador (Mac Gerdts, PD-Verlag 2010): Portuguese voyages of discovery, 2-5 players.

Modules: ``game`` (:class:`NavegadorGame`, determinization), ``state`` (the rules),
``actions``, ``options``, ``view`` (the view structs and ``build_view``), ``phases``
(stages of a turn), ``data`` (every board number), ``render`` and ``render.js`` (the
viewer), plus ``player`` (one seat's holdings) and ``sailing`` (sea distances).
Rules and choices: ``docs/rules/navegador.md``.

Deprecated for one release: ``Navegador`` (now :class:`NavegadorGame`) and the modules
``views``, ``stages`` and ``snapshot`` (now ``options``/``view``, ``phases`` and
``view``/``state``); each warns when used.
"""

from referee.api.native import accelerate

accelerate(__name__, __path__)  # before any module of the package is imported

from referee.api.deprecation import renamed  # noqa: E402
from referee.games.navegador.game import NavegadorGame  # noqa: E402

GAME = NavegadorGame()

__all__ = ["GAME", "NavegadorGame"]


__getattr__ = renamed(__name__, {"Navegador": ("NavegadorGame", NavegadorGame)})
