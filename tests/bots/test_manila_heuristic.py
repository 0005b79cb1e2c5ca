"""Behaviours of the heuristic Manila bot (``bots/manila_bot.py``) fixed in issue 16.

Hand-built positions: the pirate space is worth the exact expected loot of each
punt, a pilot space is worth what its best move adds to the placer's own stake, the
harbour master buys a cheap share even with its last pesos (on a mortgage when its
cash falls short, never when it has nothing left to mortgage), bids rise in jumps
that never eat the price of that share, the rivals' possible bid limits contain the
frozen copy's real ones, and from voyage 2 on a tie is claimed by bidding the whole
limit at once.
"""

from __future__ import annotations

import copy
import random

import msgspec

from bots.manila_bot import Forecast, ManilaBot
from referee.games.manila import GAME
from referee.games.manila.actions import Bid, Buy, Mortgage, Pass
from referee.games.manila.state import ManilaState
from tests.manila.helpers import auction, new, place, voyage


def _third_round() -> ManilaState:
    """4 seats, seat 0 harbour master; nutmeg, silk and jade stand on 12, 7 and 12
    after two rolls; seat 0 is alone on the pirate ship; seat 1 has two seats on the
    silk punt, seat 3 one on the jade punt.  Third placement round, seat 0 to move."""
    state = new(4)
    voyage(state, 0, "ginseng", (5, 2, 2))
    for seat, spot in enumerate(("jade", "silk", "nutmeg", "jade")):
        place(state, seat, spot)
    state.apply_chance({"nutmeg": 3, "silk": 4, "jade": 4})
    for seat, spot in enumerate(("pirate", "silk", "port-a", "insurance")):
        place(state, seat, spot)
    state.apply_chance({"nutmeg": 4, "silk": 1, "jade": 6})
    assert state.view(0).positions == [12, 7, 12]
    return state


def test_pirate_space_is_worth_the_expected_loot_of_each_punt() -> None:
    state = _third_round()
    view = state.view(1)
    bot = ManilaBot()
    # one roll left: each punt lands on 13 with 1/6 (nutmeg 24, silk 30, jade 36);
    # the second pirate shares the loot with the captain and pays 5
    expected = (24 + 30 + 36) / 6 / 2 - 5
    assert abs(bot.spot_value(view, Forecast(view), "pirate", 5) - expected) < 1e-9


def test_pilot_space_is_worth_its_best_move_for_this_seat() -> None:
    state = _third_round()
    bot = ManilaBot()
    gains = {}
    for seat in (0, 1):
        view = state.view(seat)
        fc = Forecast(view)
        gains[seat] = (bot.pilot_gain(view, fc, False), bot.pilot_gain(view, fc, True))
    # seat 1's silk punt (7) reaches port only if pushed: +1 gives 1/6, +2 gives 1/3
    small, large = gains[1]
    assert small > 2.0 and large > 1.8 * small
    # seat 0 has no crew there: the same spaces are worth much less to it
    assert gains[0][0] < small / 2 and gains[0][1] < large / 2
    view = state.view(1)
    assert bot.spot_value(view, Forecast(view), "pilot-large", 5) == large - 5


def test_harbour_master_buys_a_cheap_share_with_its_last_pesos() -> None:
    state = new(4)
    auction(state, 0, 25)
    view = state.view(0)
    assert view.phase == "buy" and view.cash[0] == 5
    legal = state.legal_actions()
    choice = legal[ManilaBot().choose(view, legal, [])]
    assert isinstance(choice, Buy)


def test_harbour_master_short_of_cash_mortgages_then_buys() -> None:
    state = new(4)
    auction(state, 0, 28)
    bot = ManilaBot()
    view = state.view(0)
    assert view.phase == "buy" and view.cash[0] == 2
    legal = state.legal_actions()
    assert not any(isinstance(a, Buy) for a in legal)
    # a 5-peso share is expected to end near 19: worth a loan that costs 3 in the end
    first = legal[bot.choose(view, legal, [])]
    assert isinstance(first, Mortgage)
    state.apply_action(first)
    view = state.view(0)
    assert view.phase == "buy" and view.cash[0] == 14
    legal = state.legal_actions()
    assert isinstance(legal[bot.choose(view, legal, [])], Buy)


def test_harbour_master_with_nothing_to_mortgage_passes() -> None:
    state = new(4)
    auction(state, 0, 28)
    view = state.view(0)
    legal = state.legal_actions()
    # the same position with every share already mortgaged: no loan, no purchase
    held = sum(view.hand.values())
    broke = msgspec.structs.replace(
        view,
        hand=dict.fromkeys(view.hand, 0),
        mortgaged={g: view.mortgaged[g] + view.hand[g] for g in view.hand},
    )
    assert held > 0
    only_pass = [a for a in legal if not isinstance(a, Mortgage)]
    assert only_pass == [Pass()]
    assert only_pass[ManilaBot().choose(broke, only_pass, [])] == Pass()


def test_first_bid_jumps_but_keeps_the_share_price() -> None:
    state = new(4)
    view = state.view(state.to_move())
    legal = state.legal_actions()
    choice = legal[ManilaBot().choose(view, legal, [])]
    assert isinstance(choice, Bid) and choice.amount > 1
    assert choice.amount <= view.cash[view.seat] - 5
    # with only 5 pesos the bot cannot bid without losing the share: it passes
    poor = msgspec.structs.replace(view, cash=[5, 30, 30, 30])
    assert legal[ManilaBot().choose(poor, legal, [])] == Pass()


def test_choose_leaves_the_view_unchanged() -> None:
    rng = random.Random(4)
    state = GAME.new_game(4)
    bots = [ManilaBot() for _ in range(4)]
    while not state.is_terminal():
        who = state.to_move()
        if who < 0:
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(who)
        before = copy.deepcopy(msgspec.to_builtins(view))
        legal = state.legal_actions()
        index = bots[who].choose(view, legal, [])
        assert msgspec.to_builtins(view) == before
        state.apply_action(legal[index])
