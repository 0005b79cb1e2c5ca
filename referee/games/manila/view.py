"""What one Manila seat may see: the public board plus its own shares
(:class:`ManilaView`), and :func:`build_view`, which builds it from the full state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from referee.api.engine import View
from referee.games.manila import data as D
from referee.games.manila.phases import DEST_NAMES, PHASE_NAMES

if TYPE_CHECKING:
    from referee.games.manila.state import ManilaState


class ManilaView(View, kw_only=True):
    """One seat's observation.  Money in pesos; seats are 0-based, ``-1`` means nobody.

    Public: cash, share counts, supply, market values, the auction, the punts and
    every placed accomplice.  Secret: which goods the other seats hold (``shares`` and
    ``mortgaged_counts`` give only their counts).

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


_NUTMEG, _SILK, _GINSENG, _JADE = D.GOODS


def _per_good(values: Iterable[int]) -> dict[str, int]:
    """``{good: value}`` from one value per good in board order (a dict display is the
    fastest way to build it; views build several at every decision)."""
    nutmeg, silk, ginseng, jade = values
    return {_NUTMEG: nutmeg, _SILK: silk, _GINSENG: ginseng, _JADE: jade}


def _no_window() -> dict[str, int]:
    """A fresh ``{good: 0}`` (another seat's decision window shows nothing)."""
    return dict.fromkeys(D.GOODS, 0)


def build_view(state: ManilaState, seat: int) -> ManilaView:
    """The public board plus ``seat``'s own shares; other seats' shares only as counts
    (rules/manila.md §9, K10: cash is public)."""
    goods = D.GOODS
    own = state.win_seat == seat
    cargo_names = list(map(goods.__getitem__, state.cargo))
    name_of_punt = cargo_names.__getitem__
    return ManilaView(
        seat=seat,
        seats=state.seats,
        voyage=state.voyage,
        phase=PHASE_NAMES[state.phase],
        step=state.step,
        to_move=state.to_move(),
        cash=state.cash[:],
        hand=_per_good(state.held[seat]),
        mortgaged=_per_good(state.mort[seat]),
        shares=[sum(h) + sum(m) for h, m in zip(state.held, state.mort, strict=True)],
        mortgaged_counts=list(map(sum, state.mort)),
        supply=_per_good(state.supply),
        prices=_per_good(map(D.PRICE_TRACK.__getitem__, state.price)),
        accomplices=state.left[:],
        passed=state.passed[:],
        harbour_master=state.hm,
        opener=state.opener,
        high_bid=state.high,
        high_bidder=state.high_bidder,
        auction_out=state.auc_out[:],
        auction_turn=state.auc_turn,
        cargo=cargo_names,
        positions=state.pos[:],
        destinations=list(map(DEST_NAMES.__getitem__, state.dest)),
        crews=list(map(list.copy, state.crew)),
        plundered=state.plundered[:],
        port=state.port_occ[:],
        shipyard=state.yard_occ[:],
        port_boats=list(map(name_of_punt, state.port_boats)),
        shipyard_boats=list(map(name_of_punt, state.yard_boats)),
        pirates=state.pirates[:],
        small_pilot=state.small_pilot,
        large_pilot=state.large_pilot,
        insurance=state.insurer,
        place_turn=state.place_turn,
        board_stays=state.board_stays,
        board_left=state.board_left,
        just_boarded=list(state.just_boarded),
        pilot_turn=state.pilot_turn,
        plunder_pending=list(map(name_of_punt, state.plunder_pending)),
        debtor=state.debtor,
        debt=state.debt,
        debt_kind=state.debt_kind,
        rolls=state.rolls,
        last_roll=dict(state.last_roll),
        window_mortgaged=_per_good(state.win_m) if own else _no_window(),
        window_redeemed=_per_good(state.win_r) if own else _no_window(),
    )
