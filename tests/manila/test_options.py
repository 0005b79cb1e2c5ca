"""Rule options for the conflicting readings (K1, K2, K3, K9, K12) and the variant."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, OptionError
from referee.games.manila import GAME
from referee.games.manila.actions import Deliver, Pass, Place
from referee.games.manila.state import AUCTION, DELIVER, PLACE

from .helpers import act, new, place, voyage


def test_options_parse_from_strings_and_reject_unknown() -> None:
    opts = GAME.parse_options({"pass_is_final": "false", "first_opener": "2"})
    assert opts.pass_is_final is False and opts.first_opener == 2
    with pytest.raises(OptionError):
        GAME.parse_options({"first_opener": "x"})
    with pytest.raises(OptionError):
        GAME.new_game(3, GAME.parse_options({"first_opener": 3}))


def test_mortgaged_share_value_readings() -> None:
    """K1: English reading counts a mortgaged share at value - 15; the seed's reading
    counts it at -15 only."""
    for keep, expected in ((True, 30 + 20 - 15), (False, 30 - 15)):
        state = new(3, mortgaged_share_keeps_value=keep)
        state.held[0] = [0, 0, 0, 0]
        state.mort[0] = [1, 0, 0, 0]
        state.price = [3, 0, 0, 0]
        assert state.scores()[0] == expected


def test_pass_is_final_or_only_for_the_round() -> None:
    """K3: by default a pass ends a player's placements for the voyage."""
    for final in (True, False):
        state = new(4, pass_is_final=final)
        voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
        for seat, spot in enumerate(["pass", "insurance", "pass", "pass"]):
            place(state, seat, spot)
        assert state.to_move() == CHANCE
        state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
        assert state.phase == PLACE
        assert state.to_move() == (1 if final else 0)


def test_placing_on_a_filled_berth_only_with_the_option() -> None:
    """K2: a port space whose berth already holds a punt is closed unless allowed."""
    for allowed in (False, True):
        state = new(4, place_on_filled_berth=allowed)
        voyage(state, hm=0, leave_out="jade", starts=(5, 4, 0))
        for seat in range(4):
            place(state, seat, "pass" if seat else "nutmeg")
        state.apply_chance({"nutmeg": 6, "silk": 1, "ginseng": 1})
        act(state, 0, Pass())  # round 2
        state.apply_chance({"nutmeg": 6, "silk": 1, "ginseng": 1})
        assert state.port_boats == [0]
        # round 3: nobody left to place except seat 0 who passed; reopen by hand
        state.passed[0] = False
        state.phase = PLACE
        state.place_turn = 0
        state._legal = None
        legal = state.legal_actions()
        assert (Place("port-a") in legal) is allowed
        assert Place("port-b") in legal


def test_plunder_destination_once_for_all() -> None:
    """K9 alternative: the captain chooses one destination for every plundered punt."""
    for per_punt in (True, False):
        state = new(4, plunder_choice_per_punt=per_punt)
        voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
        for seat in range(4):
            place(state, seat, "pass")
        state.pirates = [1]
        state.apply_chance({"nutmeg": 2, "silk": 2, "ginseng": 2})
        state.apply_chance({"nutmeg": 2, "silk": 2, "ginseng": 2})
        state.apply_chance({"nutmeg": 6, "silk": 6, "ginseng": 1})
        assert state.phase == DELIVER and state.cash[1] == 30 + 24 + 30
        act(state, 1, Deliver("nutmeg", "port"))
        if per_punt:
            assert state.phase == DELIVER
            act(state, 1, Deliver("silk", "shipyard"))
            assert state.price == [1, 0, 0, 0]
        else:
            assert state.price == [1, 1, 0, 0]
        assert state.phase == AUCTION


def test_blind_passenger_threshold_with_insurance_counted() -> None:
    """K12 alternative: counting the free insurance space means nobody is ever broke
    while it is open."""
    state = new(4, blind_counts_insurance=True)
    voyage(state, hm=0, leave_out="ginseng", starts=(3, 3, 3))
    place(state, 0, "pass")
    state.cash[1] = 1
    state.held[1] = [0, 0, 0, 0]
    state.mort[1] = [0, 0, 1, 1]
    assert state.legal_actions() == [Pass(), Place("insurance")]
