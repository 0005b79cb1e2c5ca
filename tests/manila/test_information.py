"""Hidden information: views, redacted events, determinization."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import InvalidChance
from referee.api.playout import random_playout
from referee.games.manila import GAME
from referee.games.manila.actions import Bid, Mortgage, Pass
from referee.games.manila.state import ManilaState

from .helpers import HANDS, act, new


def test_setup_cash_accomplices_and_supply() -> None:
    """Seed, setup: 30 pesos each; 4 accomplices with 3 players, 3 with 4-5; the
    shares not dealt (2 per good plus the undealt ones) lie face up."""
    for seats, accomplices in ((3, 4), (4, 3), (5, 3)):
        state = new(seats)
        assert state.cash == [30] * seats
        assert state.left == [accomplices] * seats
        assert sum(state.supply) == 20 - 2 * seats
    assert new(4).supply == [3, 3, 3, 3]


@pytest.mark.parametrize(
    "outcome",
    [
        [["nutmeg", "silk"]] * 3,  # wrong number of hands
        [["nutmeg"], ["silk", "jade"], ["silk", "jade"], ["silk", "jade"]],
        [["nutmeg", "tea"], ["silk", "jade"], ["silk", "jade"], ["ginseng", "jade"]],
        [["jade", "jade"], ["jade", "jade"], ["silk", "silk"], ["nutmeg", "nutmeg"]],
        {"nutmeg": 3},
    ],
)
def test_bad_deals_are_rejected(outcome: object) -> None:
    state = GAME.new_game(4)
    with pytest.raises(InvalidChance):
        state.apply_chance(outcome)
    assert state.to_move() == -1 and state.held == [[0] * 4] * 4


def test_bad_rolls_are_rejected() -> None:
    state = new(4)
    with pytest.raises(InvalidChance):
        state.apply_chance({"nutmeg": 1})  # not at a chance node
    state = _first_roll()
    for bad in ({"nutmeg": 1}, {"nutmeg": 0, "silk": 1, "ginseng": 1}, {"jade": 1, "silk": 1}):
        with pytest.raises(InvalidChance):
            state.apply_chance(bad)
    assert state.rolls == 0


def _first_roll() -> ManilaState:
    from .helpers import place, voyage

    state = new(4)
    voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
    for seat in range(4):
        place(state, seat, "pass")
    return state


def test_deal_is_seen_only_by_its_owner() -> None:
    state = GAME.new_game(4)
    hands = HANDS[4]
    assert state.observe_chance(hands, 2) == [None, None, hands[2], None]
    state.apply_chance(hands)
    view = state.view(2)
    assert view.hand == {"nutmeg": 1, "silk": 0, "ginseng": 0, "jade": 1}
    assert view.shares == [2, 2, 2, 2]
    encoded = msgspec.json.encode(view)
    assert b"ginseng" in encoded  # supply/prices keys are public, hands are not listed
    assert msgspec.json.encode(state.view(1)) != encoded


def test_mortgage_hides_the_good_from_others() -> None:
    state = new(4)
    assert state.observe_action(0, Mortgage("silk"), 1) == {"kind": "mortgage"}
    assert state.observe_action(0, Mortgage("silk"), 0) == Mortgage("silk")
    assert state.observe_action(0, Bid(3), 1) == Bid(3)
    act(state, 0, Mortgage("silk"))
    assert state.view(1).mortgaged_counts == [1, 0, 0, 0]
    assert state.view(1).mortgaged == {"nutmeg": 0, "silk": 0, "ginseng": 0, "jade": 0}
    assert state.view(0).mortgaged["silk"] == 1


def test_determinize_keeps_the_view_and_public_state() -> None:
    rng = random.Random(5)
    for seed in range(15):
        played = random_playout(GAME, 4, random.Random(seed), record=True)
        state = GAME.new_game(4)
        cut = rng.randrange(len(played.history))
        for who, what in played.history[:cut]:
            if who == "chance":
                state.apply_chance(what)
            else:
                state.apply_action(what)
        if state.is_terminal() or state.to_move() < 0:
            continue
        seat = state.to_move()
        view = state.view(seat)
        guess = GAME.determinize(view, rng)
        assert msgspec.json.encode(guess.view(seat)) == msgspec.json.encode(view)
        assert guess.legal_actions() == state.legal_actions()
        for other in range(4):
            assert guess.view(other).shares == state.view(other).shares
        while not guess.is_terminal():  # and it plays on
            if guess.to_move() < 0:
                guess.apply_chance(guess.sample_chance(rng))
            else:
                legal = guess.legal_actions()
                guess.apply_action(legal[rng.randrange(len(legal))])


def test_pass_action_round_trips() -> None:
    assert GAME.decode_action({"kind": "pass"}) == Pass()


def test_views_do_not_depend_on_other_seats_hidden_shares() -> None:
    """Two deals that differ only in seat 0's hand look the same to seats 1-3, even
    after seat 0 mortgages a share."""
    a = new(
        4, hands=[["nutmeg", "silk"], ["ginseng", "jade"], ["nutmeg", "jade"], ["silk", "ginseng"]]
    )
    b = new(
        4, hands=[["jade", "ginseng"], ["ginseng", "jade"], ["nutmeg", "jade"], ["silk", "ginseng"]]
    )
    act(a, 0, Mortgage("silk"))
    act(b, 0, Mortgage("jade"))
    for seat in (1, 2, 3):
        va, vb = msgspec.to_builtins(a.view(seat)), msgspec.to_builtins(b.view(seat))
        assert va.pop("supply") != vb.pop("supply")  # the face-up supply is public
        assert va == vb
        assert a.observe_action(0, Mortgage("silk"), seat) == b.observe_action(
            0, Mortgage("jade"), seat
        )
    assert a.view(0).hand != b.view(0).hand


def test_debug_is_json_and_rolls_are_public() -> None:
    played = random_playout(GAME, 3, random.Random(2))
    msgspec.json.encode(played.state.debug())
    state = _first_roll()
    roll = {"nutmeg": 2, "silk": 3, "ginseng": 4}
    assert all(state.observe_chance(roll, v) == roll for v in range(4))
