"""Manila actions: frozen msgspec Structs tagged on ``kind``.

Goods are named ``nutmeg``, ``silk``, ``ginseng``, ``jade``; money is in pesos.
"""

from __future__ import annotations

from typing import Literal

from referee.api.engine import Action


class Pass(Action, frozen=True, tag="pass"):
    """Decline: leave the auction, buy no share, place no more accomplices this voyage,
    stay on the pirate ship, or leave the pilot unused."""


class Bid(Action, frozen=True, tag="bid"):
    """Bid ``amount`` pesos for the harbour master's office (more than the high bid,
    at most cash + 12 per unmortgaged share)."""

    amount: int


class Buy(Action, frozen=True, tag="buy"):
    """Harbour master buys one share of ``good`` from the supply at max(5, value)."""

    good: str


class LeaveOut(Action, frozen=True, tag="leave_out"):
    """Harbour master: ``good`` sits out this voyage; the other three are loaded."""

    good: str


class Launch(Action, frozen=True, tag="launch"):
    """Harbour master: start spaces of the three punts (view ``cargo`` order), each
    0..5, adding up to 9."""

    starts: tuple[int, int, int]


class Place(Action, frozen=True, tag="place"):
    """Place one accomplice on ``spot`` and pay its cost.

    Spots: a good's name (next free crew seat of that punt), ``port-a|b|c``,
    ``shipyard-a|b|c``, ``pirate``, ``pilot-small``, ``pilot-large``, ``insurance``.
    """

    spot: str


class Board(Action, frozen=True, tag="board"):
    """Pirate leaves the pirate ship for the punt of ``good`` on space 13.

    ``bump`` is ``None`` for an empty seat; with the displacement variant it is the
    crew seat index whose accomplice is thrown overboard.
    """

    good: str
    bump: int | None = None


class Pilot(Action, frozen=True, tag="pilot"):
    """Move sailing punts: ``moves`` is a tuple of ``(good, delta)``.

    Small pilot: one punt by +-1.  Large pilot: one punt by +-1 or +-2, or two
    different punts by +-1 each.
    """

    moves: tuple[tuple[str, int], ...]


class Deliver(Action, frozen=True, tag="deliver"):
    """Pirate captain sends the plundered punt of ``good`` to ``to``."""

    good: str
    to: Literal["port", "shipyard"]


class Mortgage(Action, frozen=True, tag="mortgage"):
    """Take a 12-peso loan on one unmortgaged share of ``good`` (it turns face down)."""

    good: str


class Redeem(Action, frozen=True, tag="redeem"):
    """Pay 15 pesos to redeem one mortgaged share of ``good``."""

    good: str


ManilaAction = (
    Pass | Bid | Buy | LeaveOut | Launch | Place | Board | Pilot | Deliver | Mortgage | Redeem
)
"""The tagged union of every Manila action."""

FINANCE = (Mortgage, Redeem)
