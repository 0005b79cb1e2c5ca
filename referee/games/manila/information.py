"""What a seat may see: building a :class:`ManilaView` from the full state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import data as D
from .phases import DEST_NAMES, PHASE_NAMES
from .view import ManilaView

if TYPE_CHECKING:
    from .state import ManilaState


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
