"""Building one Manila seat's :class:`ManilaView` from the full state, reusing the parts
of the last view that did not change (:class:`ViewMemo`).  Compiled where built
(:mod:`referee.api.native`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from referee.games.manila import data as D
from referee.games.manila.phases import DEST_NAMES, PHASE_NAMES
from referee.games.manila.view import ManilaView

if TYPE_CHECKING:
    from referee.games.manila.state import ManilaState


_NUTMEG, _SILK, _GINSENG, _JADE = D.GOODS


def _per_good(values: Iterable[int]) -> dict[str, int]:
    """``{good: value}`` from one value per good in board order (a dict display is the
    fastest way to build it)."""
    nutmeg, silk, ginseng, jade = values
    return {_NUTMEG: nutmeg, _SILK: silk, _GINSENG: ginseng, _JADE: jade}


class ViewMemo:
    """The computed parts of the last views of one game, each with the state it was
    built from, reused while that part of the state is equal (compared by content, in
    C, never by a counter a rule could forget to move).  Shared by a state's clones;
    each entry is one tuple read and written whole, so clones in several threads
    still pair every output with its input.  Parts reused this way are shared between
    views: a view is a read-only snapshot."""

    __slots__ = ("names", "prices", "shares", "supply", "zero")

    def __init__(self) -> None:
        # held and mort (copies); then per seat hand and mortgaged dicts, the shares
        # and mortgaged counts lists
        self.shares: tuple[Any, ...] = ((), (), [], [], [], [])
        self.prices: tuple[list[int], dict[str, int]] = ([], {})
        self.supply: tuple[list[int], dict[str, int]] = ([], {})
        # cargo, dest, port boats, yard boats, plunder (copies); their name lists
        self.names: tuple[Any, ...] = ((), (), (), (), (), [], [], [], [], [])
        self.zero = dict.fromkeys(D.GOODS, 0)


def _shares(memo: ViewMemo, held: list[list[int]], mort: list[list[int]]) -> tuple[Any, ...]:
    """The memo entry for ``held`` and ``mort`` (per seat, per good): ``(copies, copies,
    hand dicts by seat, mortgaged dicts by seat, shares by seat, mortgaged counts by
    seat)``, rebuilt when either changed."""
    entry = memo.shares
    if entry[0] == held and entry[1] == mort:
        return entry
    entry = (
        [h[:] for h in held],
        [m[:] for m in mort],
        [_per_good(h) for h in held],
        [_per_good(m) for m in mort],
        [sum(h) + sum(m) for h, m in zip(held, mort, strict=True)],
        list(map(sum, mort)),
    )
    memo.shares = entry
    return entry


def _names(memo: ViewMemo, state: ManilaState) -> tuple[Any, ...]:
    """The memo entry for the punts: copies of ``cargo``, ``dest``, the port and
    shipyard berths and the plunder queue, then the view's ``cargo``,
    ``destinations``, ``port_boats``, ``shipyard_boats`` and ``plunder_pending``
    (names), rebuilt when any of them changed."""
    entry = memo.names
    cargo, dest = state.cargo, state.dest
    port, yard, plunder = state.port_boats, state.yard_boats, state.plunder_pending
    if (
        entry[0] == cargo
        and entry[1] == dest
        and entry[2] == port
        and entry[3] == yard
        and entry[4] == plunder
    ):
        return entry
    cargo_names = list(map(D.GOODS.__getitem__, cargo))
    name_of_punt = cargo_names.__getitem__
    entry = (
        cargo[:],
        dest[:],
        port[:],
        yard[:],
        plunder[:],
        cargo_names,
        list(map(DEST_NAMES.__getitem__, dest)),
        list(map(name_of_punt, port)),
        list(map(name_of_punt, yard)),
        list(map(name_of_punt, plunder)),
    )
    memo.names = entry
    return entry


def build_view(state: ManilaState, seat: int) -> ManilaView:
    """The public board plus ``seat``'s own shares; other seats' shares only as counts
    (rules/manila.md §9, K10: cash is public).  Raises nothing.

    The shares, prices, supply and the goods' and destinations' names are reused from
    the last view of the same game while their part of the state is unchanged
    (:class:`ViewMemo`), so successive views share those dicts and lists: treat a view
    as read-only.  The struct is built positionally, in the order its fields are
    declared above (keywords cost about 4 us more per view).
    """
    memo = state.memo
    shares = _shares(memo, state.held, state.mort)
    names = _names(memo, state)
    entry = memo.prices
    if entry[0] != state.price:
        entry = memo.prices = (
            state.price[:],
            _per_good(map(D.PRICE_TRACK.__getitem__, state.price)),
        )
    prices = entry[1]
    entry = memo.supply
    if entry[0] != state.supply:
        entry = memo.supply = (state.supply[:], _per_good(state.supply))
    supply = entry[1]
    own = state.win_seat == seat
    zero = memo.zero
    return ManilaView(
        seat,
        state.seats,
        state.voyage,
        PHASE_NAMES[state.phase],
        state.step,
        state.to_move(),
        state.cash[:],
        shares[2][seat],  # hand
        shares[3][seat],  # mortgaged
        shares[4],  # shares
        shares[5],  # mortgaged_counts
        supply,
        prices,
        state.left[:],  # accomplices
        state.passed[:],
        state.hm,  # harbour_master
        state.opener,
        state.high,  # high_bid
        state.high_bidder,
        state.auc_out[:],  # auction_out
        state.auc_turn,  # auction_turn
        names[5],  # cargo
        state.pos[:],  # positions
        names[6],  # destinations
        list(map(list.copy, state.crew)),  # crews
        state.plundered[:],
        state.port_occ[:],  # port
        state.yard_occ[:],  # shipyard
        names[7],  # port_boats
        names[8],  # shipyard_boats
        state.pirates[:],
        state.small_pilot,
        state.large_pilot,
        state.insurer,  # insurance
        state.place_turn,
        state.board_stays,
        state.board_left,
        list(state.just_boarded),
        state.pilot_turn,
        names[9],  # plunder_pending
        state.debtor,
        state.debt,
        state.debt_kind,
        state.rolls,
        dict(state.last_roll),
        _per_good(state.win_m) if own else zero,  # window_mortgaged
        _per_good(state.win_r) if own else zero,  # window_redeemed
    )
