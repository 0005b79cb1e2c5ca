"""What a seat may see: building a :class:`ManilaView` from the full state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import data as D
from .phases import DEST_NAMES, NGOODS, PHASE_NAMES
from .view import ManilaView

if TYPE_CHECKING:
    from .state import ManilaState


def build_view(state: ManilaState, seat: int) -> ManilaView:
    """The public board plus ``seat``'s own shares; other seats' shares only as counts
    (rules/manila.md §9, K10: cash is public)."""
    goods = D.GOODS
    own = state.win_seat == seat
    cargo_names = [goods[g] for g in state.cargo]
    return ManilaView(
        seat=seat,
        seats=state.seats,
        voyage=state.voyage,
        phase=PHASE_NAMES[state.phase],
        step=state.step,
        to_move=state.to_move(),
        cash=state.cash[:],
        hand=dict(zip(goods, state.held[seat], strict=True)),
        mortgaged=dict(zip(goods, state.mort[seat], strict=True)),
        shares=[sum(state.held[s]) + sum(state.mort[s]) for s in range(state.seats)],
        mortgaged_counts=[sum(m) for m in state.mort],
        supply=dict(zip(goods, state.supply, strict=True)),
        prices={g: D.PRICE_TRACK[p] for g, p in zip(goods, state.price, strict=True)},
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
        destinations=[DEST_NAMES[d] for d in state.dest],
        crews=[row[:] for row in state.crew],
        plundered=state.plundered[:],
        port=state.port_occ[:],
        shipyard=state.yard_occ[:],
        port_boats=[cargo_names[b] for b in state.port_boats],
        shipyard_boats=[cargo_names[b] for b in state.yard_boats],
        pirates=state.pirates[:],
        small_pilot=state.small_pilot,
        large_pilot=state.large_pilot,
        insurance=state.insurer,
        place_turn=state.place_turn,
        board_stays=state.board_stays,
        board_left=state.board_left,
        just_boarded=list(state.just_boarded),
        pilot_turn=state.pilot_turn,
        plunder_pending=[cargo_names[b] for b in state.plunder_pending],
        debtor=state.debtor,
        debt=state.debt,
        debt_kind=state.debt_kind,
        rolls=state.rolls,
        last_roll=dict(state.last_roll),
        window_mortgaged=dict(zip(goods, state.win_m if own else [0] * NGOODS, strict=True)),
        window_redeemed=dict(zip(goods, state.win_r if own else [0] * NGOODS, strict=True)),
    )
