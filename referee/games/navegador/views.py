"""Deprecated alias: the options are now in :mod:`referee.games.navegador.options`, the
view structs in :mod:`referee.games.navegador.view`; this module goes in the next release."""

import warnings

from referee.games.navegador.options import NavegadorOptions
from referee.games.navegador.view import NavegadorView, PlayerView, RegionView

warnings.warn(
    "referee.games.navegador.views is deprecated: import from "
    "referee.games.navegador.options and referee.games.navegador.view",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["NavegadorOptions", "NavegadorView", "PlayerView", "RegionView"]
