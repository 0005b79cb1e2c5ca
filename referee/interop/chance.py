"""Engine chance events as sequences of small explicit chance nodes (for OpenSpiel).

An engine draws a whole chance outcome at once (a deal of every hand, all the dice
of a roll, a map seed below 2**31).  OpenSpiel wants each chance node's outcomes
listed with their probabilities, so each event is dealt one piece at a time, as
card games deal one card at a time; the pieces' distribution is exactly the
engine's.  Each game describes its own decomposition in its package's ``interop``
module (:mod:`referee.api.interop`); :func:`chance_model` gives it; ``partial`` is
the list of piece ids chosen so far for the pending event.
"""

from __future__ import annotations

from referee.api.engine import Game
from referee.api.interop import ChanceModel, Outcomes, interop_of

__all__ = ["ChanceModel", "Outcomes", "chance_model"]


def chance_model(game: Game) -> ChanceModel:
    """The chance decomposition of ``game``; raises :class:`LookupError` for a game
    without an ``interop`` module."""
    model: ChanceModel = interop_of(game).CHANCE()
    return model
