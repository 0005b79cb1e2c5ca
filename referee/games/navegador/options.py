"""Navegador rule options (``--option`` on the command line, ``options`` in records)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.api.engine import Options


class NavegadorOptions(Options, kw_only=True, forbid_unknown_fields=True):
    """Rule options.

    ``king_at_goa``: the optional variant, King's privileges are claimed at Goa during a
    Privilege action instead of being dealt.  ``building_end``: ``"display"`` ends the
    game once the whole building display is empty (majority wording of the rulebooks),
    ``"row"`` once any one row is sold out (Chinese game-end section).  ``max_rounds``:
    not a rulebook rule but a safety valve for bot tournaments; when positive, the game
    also ends once every player has taken that many turns (0: no limit).
    """

    king_at_goa: bool = False
    building_end: Literal["display", "row"] = "display"
    max_rounds: Annotated[int, msgspec.Meta(ge=0)] = 0
