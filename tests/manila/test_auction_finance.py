"""Auction, harbour master duties, mortgages and the decision window."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.manila.actions import Bid, Buy, Launch, LeaveOut, Mortgage, Pass, Redeem
from referee.games.manila.state import AUCTION, BUY, DEBT, LAUNCH, LEAVE_OUT

from .helpers import act, auction, new


def test_passing_leaves_the_auction_for_good() -> None:
    state = new(4)
    act(state, 0, Bid(3))
    act(state, 1, Pass())
    act(state, 2, Bid(5))
    act(state, 3, Pass())
    assert state.to_move() == 0  # seat 1 is skipped from now on
    act(state, 0, Bid(6))
    assert state.to_move() == 2
    act(state, 2, Pass())
    assert state.phase == BUY and state.hm == 0 and state.cash[0] == 24


def test_no_bid_in_the_first_voyage_gives_the_office_to_the_opener_for_free() -> None:
    state = new(4, first_opener=2)
    assert state.to_move() == 2
    auction(state, 0, None)
    assert state.hm == 2 and state.cash == [30, 30, 30, 30]


def test_last_bidder_left_may_still_bid() -> None:
    state = new(3)
    act(state, 0, Pass())
    act(state, 1, Pass())
    assert state.phase == AUCTION and state.to_move() == 2
    act(state, 2, Bid(1))
    assert state.hm == 2 and state.cash[2] == 29


def test_winning_bid_beyond_cash_forces_mortgages() -> None:
    state = new(4)
    act(state, 0, Bid(50))  # 30 cash + 2 shares
    for seat in (1, 2, 3):
        act(state, seat, Pass())
    assert state.phase == DEBT and state.to_move() == 0
    assert state.legal_actions() == [Mortgage("nutmeg"), Mortgage("silk")]
    act(state, 0, Mortgage("silk"))
    assert state.phase == DEBT
    act(state, 0, Mortgage("nutmeg"))
    assert state.phase == BUY and state.cash[0] == 4 and state.mort[0] == [1, 1, 0, 0]


def test_share_purchase_costs_at_least_5() -> None:
    state = new(4)
    state.price = [0, 3, 2, 1]  # 0, 20, 10, 5 pesos
    auction(state, 1, 1)
    legal = state.legal_actions()
    assert [a for a in legal if isinstance(a, Buy)] == [Buy(g) for g in state_goods()]
    act(state, 1, Buy("silk"))
    assert state.cash[1] == 29 - 20 and state.held[1][1] == 1 and state.supply[1] == 2
    assert state.phase == LEAVE_OUT


def state_goods() -> list[str]:
    return ["nutmeg", "silk", "ginseng", "jade"]


def test_harbour_master_loads_three_goods_and_spreads_nine_steps() -> None:
    state = new(4)
    auction(state, 1, 1)
    act(state, 1, Pass())
    assert [a for a in state.legal_actions() if isinstance(a, LeaveOut)] == [
        LeaveOut(g) for g in state_goods()
    ]
    act(state, 1, LeaveOut("silk"))
    assert state.phase == LAUNCH and state.cargo == [0, 2, 3]
    launches = [a for a in state.legal_actions() if isinstance(a, Launch)]
    assert len(launches) == 25
    assert all(sum(a.starts) == 9 and max(a.starts) <= 5 for a in launches)
    with pytest.raises(IllegalAction):
        state.apply_action(Launch((6, 3, 0)))
    assert state.phase == LAUNCH


def test_mortgage_and_redeem_and_no_undo_in_one_decision() -> None:
    """§4: a loan gives 12 pesos, redemption costs 15; within one decision a share
    cannot be taken back and forth."""
    state = new(4)
    act(state, 0, Mortgage("nutmeg"))
    assert state.cash[0] == 42 and state.to_move() == 0
    legal = state.legal_actions()
    assert Redeem("nutmeg") not in legal and Mortgage("silk") in legal
    act(state, 0, Bid(2))
    act(state, 1, Pass())
    act(state, 2, Pass())
    act(state, 3, Pass())
    assert state.phase == BUY
    assert Redeem("nutmeg") in state.legal_actions()
    act(state, 0, Redeem("nutmeg"))
    assert state.cash[0] == 40 - 15 and state.held[0] == [1, 1, 0, 0]
    assert Mortgage("nutmeg") not in state.legal_actions()


def test_illegal_action_leaves_the_state_unchanged() -> None:
    state = new(4)
    before = state.debug()
    for bad in (Bid(0), Bid(99), Redeem("jade"), Mortgage("jade"), LeaveOut("silk")):
        with pytest.raises(IllegalAction):
            state.apply_action(bad)
    assert state.debug() == before
