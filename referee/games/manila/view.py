"""What one Manila seat may see: the public board plus its own shares
(:class:`ManilaView`); :mod:`.viewbuild` builds it from the full state.

The struct stays in a module of its own, never compiled (:mod:`referee.api.native`):
a compiled module keeps its classes' annotations only as bare classes (``dict`` for
``dict[str, int]``), and msgspec reads a struct's types from them."""

from __future__ import annotations

from typing import Any

from referee.api.engine import View


class ManilaView(View):
    """One seat's observation.  Money in pesos; seats are 0-based, ``-1`` means nobody.

    Public: cash, share counts, supply, market values, the auction, the punts and
    every placed accomplice.  Secret: which goods the other seats hold (``shares`` and
    ``mortgaged_counts`` give only their counts).

    Fields are declared in the order :func:`.viewbuild.build_view` passes them (positionally).
    Per-good dicts are keyed by good name.  Punt lists (``cargo``, ``positions``,
    ``destinations``, ``crews``, ``plundered``) are in punt (lane) order.
    """

    seat: int
    seats: int
    voyage: int
    phase: str
    """auction, debt, buy, leave_out, launch, place, roll, board, pilot, deliver, over."""
    step: int
    """Index into the voyage pacing (place/roll/board/pilots/settle steps), -1 before."""
    to_move: int
    cash: list[int]
    hand: dict[str, int]
    """This seat's unmortgaged shares by good."""
    mortgaged: dict[str, int]
    """This seat's mortgaged (face-down) shares by good."""
    shares: list[int]
    """Shares held by each seat, mortgaged ones included."""
    mortgaged_counts: list[int]
    supply: dict[str, int]
    prices: dict[str, int]
    accomplices: list[int]
    """Accomplices each seat still has in hand this voyage."""
    passed: list[bool]
    harbour_master: int
    opener: int
    high_bid: int
    high_bidder: int
    auction_out: list[bool]
    auction_turn: int
    cargo: list[str]
    positions: list[int]
    destinations: list[str]
    """``sea``, ``port`` or ``shipyard`` per punt."""
    crews: list[list[int]]
    """Seat of each occupied crew seat, cheapest seat first."""
    plundered: list[bool]
    port: list[int]
    """Occupant of port spaces A, B, C."""
    shipyard: list[int]
    port_boats: list[str]
    """Goods docked in port berths A, B, C in order."""
    shipyard_boats: list[str]
    pirates: list[int]
    """Pirate ship crew, captain first."""
    small_pilot: int
    large_pilot: int
    insurance: int
    place_turn: int
    """Position (0 = harbour master) of the placer in the current round."""
    board_stays: int
    board_left: int
    just_boarded: list[int]
    """``[punt, crew seat]`` a pirate just boarded (displacement variant), else -1s."""
    pilot_turn: int
    """0 small pilot, 1 large pilot."""
    plunder_pending: list[str]
    debtor: int
    debt: int
    """Pesos the debtor must raise by mortgaging (winning bid or insurance claims)."""
    debt_kind: int
    """0 winning bid, 1 insurance claims."""
    rolls: int
    """Dice rolls made this voyage (0..3)."""
    last_roll: dict[str, int]
    window_mortgaged: dict[str, int]
    """Own shares mortgaged in the current decision (cannot be redeemed until it ends)."""
    window_redeemed: dict[str, int]


def __getattr__(name: str) -> Any:
    """``build_view`` and ``ViewMemo``, which live in :mod:`.viewbuild`, are still found
    here (imported on first use: that module imports this one)."""
    if name in ("build_view", "ViewMemo"):
        from referee.games.manila import viewbuild

        return getattr(viewbuild, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
