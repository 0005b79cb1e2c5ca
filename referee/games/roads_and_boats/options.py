"""Roads & Boats game options (see docs/rules/roads_and_boats.md)."""

from __future__ import annotations

from referee.engine import Options
from referee.games.roads_and_boats import data as D


class RBOptions(Options, kw_only=True, forbid_unknown_fields=True):
    """Rule options.

    * ``map`` – ``"auto"`` (Lord of the Ring solo, The Pacific for 2, a generated map
      for 3-4), a built-in name (``pacific``, ``dead-sea``, ``mesopotamia``,
      ``lord-of-the-ring``, ``generated``) or the path of a JSON map file.
    * ``map_seed`` – seed of generated maps.
    * ``temple`` – offer the temple procedure before every phase (off: the sequence
      chart never changes; play is still in chart order).
    * ``mine_limit`` – most mines on the map (the box holds 18; 0 = unlimited).
    * ``solo_turns`` – length of a one-player game in turns.
    * ``loaded_boats_restricted`` – the Chinese edition's reading: a boat carrying a
      transporter may not pass a river mouth, dock or undock (English rulebook: it may).
    """

    map: str = "auto"
    map_seed: int = 1
    temple: bool = True
    mine_limit: int = D.MINE_LIMIT_DEFAULT
    solo_turns: int = D.SOLO_TURNS
    loaded_boats_restricted: bool = False
