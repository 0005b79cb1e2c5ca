"""Rule options of Puerto Rico (see ``docs/rules/puerto_rico.md``)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.api.engine import Options


class PuertoRicoOptions(Options, kw_only=True):
    """Rule options; every field has the recommended default.

    * ``variant`` – ``"auto"`` (2 seats play the official 2-player variant, 3-5 seats the
      base game), ``"standard"`` (3-5 seats only) or ``"2p"`` (2 seats only).
    * ``wharf_captain_bonus`` – the captain's +1 VP also counts when his first load of
      the phase is a wharf load (research notes 6.6, unresolved; default yes).
    * ``hacienda_reshuffle`` – an occupied hacienda may still draw when the face-down
      stack is empty, by first shuffling the discards into a new stack (research notes
      6.14, unresolved; default yes); ``False`` makes the hacienda do nothing then.
    * ``short_refill`` – when the colonist supply cannot refill the ship, ``"remainder"``
      puts what is left on the ship, ``"none"`` leaves the ship empty (research notes
      6.11, unresolved; default remainder).
    * ``vp_chips`` – VP chips in play; ``0`` means the 2002 numbers (65/75/100/122 for
      2/3/4/5 players); later printings use 126 for five players.
    """

    variant: Literal["auto", "standard", "2p"] = "auto"
    wharf_captain_bonus: bool = True
    hacienda_reshuffle: bool = True
    short_refill: Literal["remainder", "none"] = "remainder"
    vp_chips: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
