"""Manila rule options (``--option name=value``); defaults follow rules/manila.md."""

from __future__ import annotations

from referee.api.engine import Options


class ManilaOptions(Options, kw_only=True, forbid_unknown_fields=True):
    """Rule variants and readings of conflicting sources (K-numbers of rules/manila.md).

    * ``mortgaged_share_keeps_value`` (K1): at game end a mortgaged share counts at
      market value minus 15 (default) rather than just minus 15.
    * ``place_on_filled_berth`` (K2): allow placing on a port/shipyard space whose
      berth already holds a punt (default forbidden).
    * ``pass_is_final`` (K3): a placement pass ends the player's placements for the
      voyage (default) rather than only for that round.
    * ``first_opener`` (K6): the seat that opens the first auction (the "oldest").
    * ``plunder_choice_per_punt`` (K9): the pirate captain chooses port or shipyard
      for each plundered punt (default) or once for all of them.
    * ``blind_counts_insurance`` (K12): count the free insurance space when deciding
      whether a player is broke (default not).
    * ``pirate_displacement``: the official variant where a boarding pirate may throw
      an accomplice off a full punt on 13.
    """

    mortgaged_share_keeps_value: bool = True
    place_on_filled_berth: bool = False
    pass_is_final: bool = True
    first_opener: int = 0
    plunder_choice_per_punt: bool = True
    blind_counts_insurance: bool = False
    pirate_displacement: bool = False
