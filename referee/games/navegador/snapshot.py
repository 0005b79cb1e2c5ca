"""Deprecated alias: ``make_view`` is now :func:`referee.games.navegador.view.build_view`
and ``from_view`` :func:`referee.games.navegador.state.state_from_view`; this module goes
in the next release."""

import warnings

from referee.games.navegador.state import state_from_view as from_view
from referee.games.navegador.viewbuild import build_view as make_view

warnings.warn(
    "referee.games.navegador.snapshot is deprecated: use build_view from "
    "referee.games.navegador.view and state_from_view from referee.games.navegador.state",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["from_view", "make_view"]
