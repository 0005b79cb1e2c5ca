"""Roads & Boats game options (see docs/rules/roads_and_boats.md)."""

from __future__ import annotations

from typing import Any, Final

from referee.engine import Options
from referee.games.roads_and_boats import data as D

RULEBOOK: Final = "rulebook"
LEGACY: Final = "referee-0.1"
RULE_SETS: Final = (RULEBOOK, LEGACY)
"""Values of the ``rules`` option."""

LEGACY_KEYS: Final = frozenset(
    {"map", "map_seed", "temple", "mine_limit", "solo_turns", "loaded_boats_restricted"}
)
"""Exactly the option fields of referee 0.1.x: a record header written then lists these
and nothing else, so such a header is replayed with ``rules = "referee-0.1"``."""


class RBOptions(Options, kw_only=True, forbid_unknown_fields=True):
    """Rule options.

    * ``map`` – ``"auto"`` (Lord of the Ring solo, The Pacific for 2, a generated map
      for 3-4), a built-in name (``pacific``, ``dead-sea``, ``mesopotamia``,
      ``lord-of-the-ring``, ``generated``), ``drafted`` (the players lay the map from
      drawn tiles) or the path of a JSON map file.
    * ``map_seed`` – pins the seed of a generated map; ``None`` (default): the seed is
      a chance outcome drawn at setup, so every match seed gives its own map.
    * ``temple`` – offer the temple procedure before every phase (off: the sequence
      chart never changes; play is still in chart order).
    * ``mine_limit`` – most mines on the map (the box holds 18; 0 = unlimited).
    * ``solo_turns`` – length of a one-player game in turns.
    * ``loaded_boats_restricted`` – the Chinese edition's reading: a boat carrying a
      transporter may not pass a river mouth, dock or undock (English rulebook: it may).
    * ``wall_limit`` – most tokens in one wall (0 = no limit, the rulebook; 3 = the
      engine's old reading).
    * ``desert_bridges`` – allow bridges on deserts before irrigation (off: the
      rulebook, only roads and walls).
    * ``rules`` – ``"rulebook"`` or ``"referee-0.1"``: every reading of referee 0.1.x
      at once (walls of at most 3 tokens, desert bridges, an unattended wagon factory
      eating loose boards, carried land transporters released onto an oil rig), so
      records written by that version replay.
    """

    map: str = "auto"
    map_seed: int | None = None
    temple: bool = True
    mine_limit: int = D.MINE_LIMIT_DEFAULT
    solo_turns: int = D.SOLO_TURNS
    loaded_boats_restricted: bool = False
    wall_limit: int = 0
    desert_bridges: bool = False
    rules: str = RULEBOOK

    @property
    def legacy(self) -> bool:
        """True when the readings of referee 0.1.x apply (``rules = "referee-0.1"``)."""
        return self.rules == LEGACY

    @property
    def most_wall_tokens(self) -> int:
        """The wall token cap in force (0 = none)."""
        return 3 if self.legacy else self.wall_limit

    @property
    def bridges_on_deserts(self) -> bool:
        """True when bridges may stand on deserts before irrigation."""
        return self.desert_bridges or self.legacy


def upgrade_raw_options(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with ``rules = "referee-0.1"`` added when it is a complete 0.1.x options
    object (a record header of that version: exactly :data:`LEGACY_KEYS`)."""
    if set(raw) == LEGACY_KEYS:
        return {**raw, "rules": LEGACY}
    return raw
