"""Navegador actions: one atomic decision each, tagged on ``kind``.

A turn is: optionally ``card`` (the Navegador card's extra Sailing, itself a series of
``sail`` steps ending with ``done``), then ``rondel`` (move the stone), then
``scrap`` once per ship owed for extra rondel spaces, then the steps of the chosen
action ending with ``done`` (``done`` right away declines the action).
"""

from __future__ import annotations

from referee.api.engine import Action


class UseCard(Action, frozen=True, tag="card"):
    """Play the Navegador card: an extra Sailing action before the rondel move."""


class Rondel(Action, frozen=True, tag="rondel"):
    """Move the stone to rondel ``space`` (0..7, see ``data.RONDEL``).

    Up to 3 spaces ahead are free (any space on the first turn); each further space
    costs one ship, chosen afterwards with ``scrap``.
    """

    space: int


class Scrap(Action, frozen=True, tag="scrap"):
    """Return one own ship from ``region`` to the supply to pay for a rondel move."""

    region: str


class Sail(Action, frozen=True, tag="sail"):
    """Sailing: move one own ship from region ``src`` to region ``dst``.

    ``dst`` lies within the ship's remaining range over explored regions.  When ``dst``
    is unexplored the ship joins the expedition there; once 2 ships (3 at a
    double-loss region) have entered, the region is explored.
    """

    src: str
    dst: str


class Found(Action, frozen=True, tag="found"):
    """Colony: found a colony in ``region`` with its cheapest tile there."""

    region: str


class Sell(Action, frozen=True, tag="sell"):
    """Market: sell ``count`` units of ``good`` with own colonies."""

    good: str
    count: int


class Process(Action, frozen=True, tag="process"):
    """Market: process ``count`` units of ``good`` in own factories (orange one is wild)."""

    good: str
    count: int


class Build(Action, frozen=True, tag="build"):
    """Buildings: buy the cheapest remaining ``building`` (sugar/gold/spice/shipyard/church)."""

    building: str


class Hire(Action, frozen=True, tag="hire"):
    """Workers: recruit ``count`` workers (church ones at 50 first; above 9 virtual)."""

    count: int


class Launch(Action, frozen=True, tag="launch"):
    """Ships: build ``count`` ships in Portugal (shipyard ones at 50 first; above 7 virtual)."""

    count: int


class TakePrivilege(Action, frozen=True, tag="privilege"):
    """Privilege: pay one worker and take a ``column`` privilege from the gallery."""

    column: str


class ClaimKing(Action, frozen=True, tag="king"):
    """Privilege (variant ``king_at_goa``): claim one's own King's privilege into ``column``."""

    column: str


class Done(Action, frozen=True, tag="done"):
    """End (or decline) the current action."""


NavegadorAction = (
    UseCard
    | Rondel
    | Scrap
    | Sail
    | Found
    | Sell
    | Process
    | Build
    | Hire
    | Launch
    | TakePrivilege
    | ClaimKing
    | Done
)
"""The tagged union of every Navegador action."""

DONE = Done()
USE_CARD = UseCard()
