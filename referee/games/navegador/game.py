"""The Navegador :class:`~referee.api.engine.Game`: metadata, factory and determinization."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.api.deprecation import renamed
from referee.api.engine import Game, OptionError
from referee.games.navegador.actions import NavegadorAction
from referee.games.navegador.options import NavegadorOptions
from referee.games.navegador.state import NavegadorState, state_from_view
from referee.games.navegador.view import NavegadorView


class NavegadorGame(Game[NavegadorOptions]):
    """Navegador (Mac Gerdts, PD-Verlag 2010) for 2-5 players; seat 0 starts."""

    name: ClassVar[str] = "navegador"
    title: ClassVar[str] = "Navegador"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    action_type: ClassVar[Any] = NavegadorAction
    view_type: ClassVar[Any] = NavegadorView
    options_type: ClassVar[type[NavegadorOptions]] = NavegadorOptions

    def new_game(self, seats: int, options: NavegadorOptions | None = None) -> NavegadorState:
        """A match set up for ``seats`` players, at seat 0's first decision.

        Raises :class:`OptionError` for a seat count outside 2-5 or bad options.
        """
        self.check_seats(seats)
        if options is None:
            options = NavegadorOptions()
        if not isinstance(options, NavegadorOptions):
            raise OptionError(f"navegador: options must be NavegadorOptions, not {options!r}")
        return NavegadorState(seats, options)

    def chance_schema(self) -> dict[str, Any]:
        """The colony tiles an exploration turns up: their prices, sorted."""
        return {
            "description": "The explored region's colony tiles turned up: their prices, sorted.",
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
        }

    def determinize(self, view: NavegadorView, rng: random.Random) -> NavegadorState:
        """The state behind ``view``.  Nothing is sampled: face-down tiles are only
        decided when explored, so the view already holds every fact."""
        return state_from_view(view)


__getattr__ = renamed(__name__, {"Navegador": ("NavegadorGame", NavegadorGame)})
