"""Helpers that drive a Manila state through explicit chance outcomes and actions."""

from __future__ import annotations

from typing import Any

from referee.games.manila import GAME
from referee.games.manila.actions import Bid, Launch, LeaveOut, Pass, Place
from referee.games.manila.state import AUCTION, BUY, ManilaState

HANDS = {
    3: [["nutmeg", "silk"], ["ginseng", "jade"], ["nutmeg", "jade"]],
    4: [["nutmeg", "silk"], ["ginseng", "jade"], ["nutmeg", "jade"], ["silk", "ginseng"]],
    5: [
        ["nutmeg", "silk"],
        ["ginseng", "jade"],
        ["nutmeg", "jade"],
        ["silk", "ginseng"],
        ["silk", "jade"],
    ],
}


def new(seats: int = 4, hands: list[list[str]] | None = None, **options: Any) -> ManilaState:
    """A dealt game (at the first auction) with the given rule options."""
    state = GAME.new_game(seats, GAME.parse_options(options))
    assert isinstance(state, ManilaState)
    state.apply_chance(hands if hands is not None else HANDS[seats])
    return state


def act(state: ManilaState, seat: int, action: Any) -> None:
    """Apply ``action`` after checking that ``seat`` is to move."""
    assert state.to_move() == seat, (state.to_move(), seat)
    state.apply_action(action)


def auction(state: ManilaState, winner: int, bid: int | None) -> None:
    """Run the auction so that ``winner`` bids ``bid`` (or nobody bids if None)."""
    assert state.phase == AUCTION
    while state.phase == AUCTION:
        seat = state.to_move()
        if bid is not None and seat == winner and state.high_bidder != winner:
            state.apply_action(Bid(bid))
        else:
            state.apply_action(Pass())


def voyage(
    state: ManilaState,
    hm: int,
    leave_out: str,
    starts: tuple[int, int, int],
    bid: int | None = 1,
    buy: Any = None,
) -> None:
    """Auction (``hm`` wins with ``bid``), optional purchase, cargo and launch."""
    auction(state, hm, bid)
    assert state.hm == hm and state.phase == BUY
    act(state, hm, buy if buy is not None else Pass())
    act(state, hm, LeaveOut(leave_out))
    act(state, hm, Launch(starts))


def place(state: ManilaState, seat: int, spot: str) -> None:
    """``seat`` places an accomplice on ``spot`` (``"pass"`` passes)."""
    act(state, seat, Pass() if spot == "pass" else Place(spot))


def total_shares(state: ManilaState) -> int:
    """Shares in hands (mortgaged or not) plus the supply: always 20."""
    return sum(map(sum, state.held)) + sum(map(sum, state.mort)) + sum(state.supply)
