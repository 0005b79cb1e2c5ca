"""Roads & Boats game options (see docs/rules/roads_and_boats.md)."""

from __future__ import annotations

from typing import Any, Final

from referee.api.engine import Options
from referee.games.roads_and_boats import data as D

RULEBOOK: Final = "rulebook"
LEGACY: Final = "referee-0.1"
V0_2: Final = "referee-0.2"
RULE_SETS: Final = (RULEBOOK, V0_2, LEGACY)
"""Values of the ``rules`` option: the rules version.  ``rulebook`` is the newest
reading (engine rules version 3, issue 35); the others freeze what older referees did."""

LEGACY_KEYS: Final = frozenset(
    {"map", "map_seed", "temple", "mine_limit", "solo_turns", "loaded_boats_restricted"}
)
"""Exactly the option fields of referee 0.1.x: a record header written then lists these
and nothing else, so such a header is replayed with ``rules = "referee-0.1"``."""

V0_2_KEYS: Final = LEGACY_KEYS | {"wall_limit", "desert_bridges", "rules"}
"""Exactly the option fields of referee 0.2.x before issue 35: a record header listing
these and nothing else, with ``rules = "rulebook"``, is replayed with ``"referee-0.2"``."""


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
    * ``primary_onto_transporters`` – primary output (woodcutter, quarry, clay pit, oil
      rig, mine) goes straight onto a transporter with room in the building's area, by
      sequence-chart order of the owners (off: it lies loose until someone takes it,
      the reading of the order-of-play example, where blue 「拿取」 takes the gold).
    * ``sea_geese_last`` – geese at sea follow a transporter leaving their hex only when
      no other transporter stays behind, i.e. the last one to leave (on: the reading of
      the English third edition that the project's rules research recommends; off: the
      literal seed p12 「海上的鹅永远会跟随经过它身边的交通工具」, every transporter leaving
      takes them).
    * ``loans_stay`` – a good lent for building that no building used stays loose on
      the tile (off: it goes back to the lender's transporter when the building phase
      ends; seed p13, the owner only permits its use as building material).
    * ``rules`` – the rules version: ``"rulebook"`` (the newest readings),
      ``"referee-0.2"`` (every reading of referee 0.2 before issue 35: ``put`` only at a
      building, ``borrow`` of any good in the building phase, loose primary output,
      geese at sea following the last transporter, loans staying loose) or
      ``"referee-0.1"`` (those and the readings of 0.1.x: walls of at most 3 tokens,
      desert bridges, an unattended wagon factory eating loose boards, carried land
      transporters released onto an oil rig), so records written by those versions
      replay.
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
    primary_onto_transporters: bool = False
    sea_geese_last: bool = True
    loans_stay: bool = False

    @property
    def legacy(self) -> bool:
        """True when the readings of referee 0.1.x apply (``rules = "referee-0.1"``)."""
        return self.rules == LEGACY

    @property
    def before_0_3(self) -> bool:
        """True under the rules of referee 0.1 or 0.2 (before issue 35)."""
        return self.rules != RULEBOOK

    @property
    def exchange_anywhere(self) -> bool:
        """True when ``put`` works in any area in production, not only at a building."""
        return not self.before_0_3

    @property
    def borrow_materials_only(self) -> bool:
        """True when the building phase lends only goods a building action could use."""
        return not self.before_0_3

    @property
    def output_onto_transporters(self) -> bool:
        """True when primary output goes straight onto a transporter in the area."""
        return self.primary_onto_transporters and not self.before_0_3

    @property
    def geese_follow_last_only(self) -> bool:
        """True when geese at sea follow only the last transporter leaving their hex."""
        return self.sea_geese_last or self.before_0_3

    @property
    def loans_return(self) -> bool:
        """True when unused building loans go back to the lender's transporter."""
        return not self.loans_stay and not self.before_0_3

    @property
    def most_wall_tokens(self) -> int:
        """The wall token cap in force (0 = none)."""
        return 3 if self.legacy else self.wall_limit

    @property
    def bridges_on_deserts(self) -> bool:
        """True when bridges may stand on deserts before irrigation."""
        return self.desert_bridges or self.legacy


def upgrade_raw_options(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with the rules version of the referee that wrote it when it is a complete
    options object of an older version (a record header): exactly :data:`LEGACY_KEYS`
    gets ``rules = "referee-0.1"``; exactly :data:`V0_2_KEYS` with ``rules =
    "rulebook"`` gets ``"referee-0.2"``.  Partial objects (a user's options) are kept."""
    keys = set(raw)
    if keys == LEGACY_KEYS:
        return {**raw, "rules": LEGACY}
    if keys == V0_2_KEYS and raw.get("rules") == RULEBOOK:
        return {**raw, "rules": V0_2}
    return raw
