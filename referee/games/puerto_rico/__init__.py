"""Puerto Rico (Andreas Seyfarth, alea 2002): colonists, plantations and shipping, 3-5
players plus the official 2-player variant.

Modules: ``game`` (:class:`PuertoRicoGame`, determinization), ``state`` (the rules),
``actions``, ``options``, ``view`` (the view structs), ``viewbuild`` (``build_view``),
``phases`` (node kinds), ``data`` (tables), ``render`` and ``render.js`` (the viewer), plus
``board`` (one seat's board), ``choices`` (each phase's option lists), ``plantations``
(the plantation draws) and ``scoring``.  Rules and choices: ``docs/rules/puerto_rico.md``.

Deprecated for one release: ``view.make_view`` (now ``build_view``); it warns when used.
"""

from referee.api.native import accelerate

accelerate(__name__, __path__)  # before any module of the package is imported

from referee.games.puerto_rico.game import PuertoRicoGame  # noqa: E402

GAME = PuertoRicoGame()

__all__ = ["GAME", "PuertoRicoGame"]
