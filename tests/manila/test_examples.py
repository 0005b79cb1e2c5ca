"""The worked examples of the Manila rulebook seed (and rules/manila.md), one test each."""

from __future__ import annotations

import random

from referee.api.engine import CHANCE
from referee.games.manila.actions import Bid, Board, Deliver, Mortgage, Pass, Pilot, Place
from referee.games.manila.options import ManilaOptions
from referee.games.manila.state import AUCTION, BOARD, DEBT, DELIVER, PILOT, ROLL, ManilaState

from .helpers import act, new, place, voyage


def test_bid_ceiling_is_cash_plus_12_per_unmortgaged_share() -> None:
    """Seed §A: with 20 pesos and 2 unmortgaged shares you may bid at most 44."""
    state = new(3)
    state.cash[0] = 20
    legal = state.legal_actions()
    assert Bid(44) in legal and Bid(45) not in legal
    assert legal[0] == Pass() and Bid(1) in legal
    # a mortgaged share no longer counts towards the ceiling
    state.held[0][0] -= 1
    state.mort[0][0] += 1
    state._legal = None
    assert Bid(32) in state.legal_actions() and Bid(33) not in state.legal_actions()


def test_full_voyage_crews_offices_and_market() -> None:
    """Seed examples: a jade punt with 3 accomplices pays 12 each (24 to the player with
    two); port A and B pay 6 and 8; shipyard A pays 6; arrived goods rise one step."""
    state = new(4)
    voyage(state, hm=0, leave_out="ginseng", starts=(4, 0, 5), bid=1)
    assert state.cargo == [0, 1, 3]  # nutmeg, silk, jade in lane order
    place(state, 0, "jade")  # seat 0 of jade costs 3
    place(state, 1, "jade")  # 4
    place(state, 2, "port-a")  # 4
    place(state, 3, "shipyard-a")  # 4
    assert state.to_move() == CHANCE
    state.apply_chance({"nutmeg": 3, "silk": 3, "jade": 4})
    assert state.pos == [7, 3, 9]
    place(state, 0, "jade")  # 5
    place(state, 1, "port-b")  # 3
    place(state, 2, "pass")
    place(state, 3, "pass")
    state.apply_chance({"nutmeg": 6, "silk": 2, "jade": 5})
    assert [state.pos[0], state.pos[2]] == [13, 14]
    assert state.port_boats == [2]  # jade arrived: berth A
    # jade is in port: seat 0 may no longer join its crew
    assert Place("jade") not in state.legal_actions()
    place(state, 0, "pass")
    place(state, 1, "pass")
    assert state.phase == ROLL
    state.apply_chance({"nutmeg": 1, "silk": 3})
    # settled at once: crews, offices, market (nutmeg port B, silk shipyard A)
    assert state.cash == [45, 43, 32, 32]
    assert state.price == [1, 0, 0, 1]  # nutmeg and jade rose to 5 pesos, silk stays 0
    assert state.phase == AUCTION and state.to_move() == 0 and state.voyage == 2


def test_three_players_place_twice_before_the_first_roll() -> None:
    """Seed §B pacing: with 3 players two placement rounds come before roll 1."""
    state = new(3)
    voyage(state, hm=1, leave_out="jade", starts=(3, 3, 3))
    assert state.left == [4, 4, 4]
    for seat, spot in [(1, "pirate"), (2, "insurance"), (0, "port-a")]:
        place(state, seat, spot)
    assert state.phase != ROLL
    for seat, spot in [(1, "pilot-small"), (2, "pass"), (0, "shipyard-a")]:
        place(state, seat, spot)
    assert state.phase == ROLL and state.rolls == 0 and state.left == [2, 2, 3]
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    place(state, 1, "nutmeg")
    assert state.to_move() == 0  # seat 2 passed for the rest of the voyage


def test_insurance_premium_and_shipyard_claims() -> None:
    """Seed, insurance: 10 pesos at once; the agent pays 6+8+15 for three punts in the
    shipyard, to the space holders (here shipyard A) or to the bank."""
    state = new(4)
    voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
    place(state, 0, "insurance")
    assert state.cash[0] == 29 + 10
    place(state, 1, "shipyard-a")
    place(state, 2, "pass")
    place(state, 3, "pass")
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    place(state, 0, "pass")
    place(state, 1, "pass")
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    assert state.cash[0] == 39 - 29
    assert state.cash[1] == 26 + 6
    assert state.phase == AUCTION


def test_insurance_shortfall_forces_mortgages_then_the_bank_pays() -> None:
    """Seed, insurance: an agent short of cash must mortgage; what is still missing
    after every share is mortgaged is covered by the bank."""
    state = new(4)
    voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
    place(state, 0, "insurance")
    for seat in (1, 2, 3):
        place(state, seat, "pass")
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    place(state, 0, "pass")
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    state.cash[0] = 5
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    assert state.phase == DEBT and state.to_move() == 0 and state.debt == 29
    assert state.legal_actions() == [Mortgage("nutmeg"), Mortgage("silk")]
    act(state, 0, Mortgage("nutmeg"))
    assert state.phase == DEBT and state.cash[0] == 17
    act(state, 0, Mortgage("silk"))
    # 29 > 29? no: 5 + 24 = 29 pays exactly
    assert state.cash[0] == 0 and state.phase == AUCTION
    assert state.mort[0] == [1, 1, 0, 0]


def test_insurance_bank_covers_when_nothing_to_mortgage() -> None:
    state = new(4)
    voyage(state, hm=0, leave_out="jade", starts=(3, 3, 3))
    place(state, 0, "insurance")
    for seat in (1, 2, 3):
        place(state, seat, "pass")
    state.held[0] = [0, 0, 0, 0]
    state.mort[0] = [1, 1, 0, 0]
    state.cash[0] = 7
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    place(state, 0, "pass")
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    state.apply_chance({"nutmeg": 1, "silk": 1, "ginseng": 1})
    assert state.cash[0] == 0 and state.phase == AUCTION


def _to_roll_two(seats: int = 4, leave_out: str = "silk") -> ManilaState:
    """A voyage where everybody passes, stopped at roll 2."""
    state = new(seats)
    voyage(state, hm=0, leave_out=leave_out, starts=(3, 3, 3))
    for seat in range(seats):
        place(state, seat, "pass")
    state.apply_chance({g: 1 for g in ("nutmeg", "silk", "ginseng", "jade") if g != leave_out})
    assert state.phase == ROLL and state.rolls == 1
    return state


def test_boarding_only_onto_a_punt_with_an_empty_seat() -> None:
    """Seed, pirates: two punts on 13, the green (jade) one full; red (the captain) can
    only board the beige (ginseng) one; after that blue cannot board and becomes
    captain."""
    state = _to_roll_two()
    # cargo nutmeg, ginseng, jade; ginseng has one empty seat, jade is full
    state.crew = [[], [0, 1], [0, 1, 0, 1]]
    state.pirates = [2, 3]
    state.pos = [4, 8, 9]
    state.apply_chance({"nutmeg": 1, "ginseng": 5, "jade": 4})
    assert state.phase == BOARD and state.to_move() == 2
    assert [a for a in state.legal_actions() if isinstance(a, Board)] == [Board("ginseng")]
    act(state, 2, Board("ginseng"))
    assert state.crew[1] == [0, 1, 2]
    assert state.pirates == [3]  # blue moved to the bow: captain now
    assert state.phase != BOARD


def test_captain_may_stay_and_then_the_second_pirate_chooses() -> None:
    state = _to_roll_two()
    state.crew = [[], [0, 1], [0, 1, 0, 1]]
    state.pirates = [2, 3]
    state.pos = [4, 8, 9]
    state.apply_chance({"nutmeg": 1, "ginseng": 5, "jade": 4})
    act(state, 2, Pass())
    assert state.phase == BOARD and state.to_move() == 3
    act(state, 3, Board("ginseng"))
    assert state.pirates == [2] and state.crew[1] == [0, 1, 3]


def test_displacement_variant() -> None:
    """Seed variant: with no empty seat on 13 a pirate throws an accomplice overboard;
    the second pirate may not throw out the captain who just boarded."""
    state = _to_roll_two()
    state.opts = ManilaOptions(pirate_displacement=True)
    state.crew = [[], [0, 1, 0], [0, 1, 0, 1]]
    state.pirates = [2, 3]
    state.pos = [4, 8, 9]
    state.apply_chance({"nutmeg": 1, "ginseng": 5, "jade": 4})
    boards = [a for a in state.legal_actions() if isinstance(a, Board)]
    assert Board("ginseng", 0) in boards and Board("jade", 3) in boards and len(boards) == 7
    left_before = state.left[1]
    act(state, 2, Board("jade", 3))
    assert state.crew[2] == [0, 1, 0, 2] and state.left[1] == left_before + 1
    boards = [a for a in state.legal_actions() if isinstance(a, Board)]
    assert Board("jade", 3) not in boards and Board("jade", 0) in boards


def test_plunder_splits_the_cargo_and_the_captain_chooses_the_destination() -> None:
    """Seed, plunder: everyone on the punt goes home unpaid; two pirates get 12 each
    from a nutmeg punt (24); the captain sends it to port or shipyard; the pirates are
    not paid again in port."""
    state = _to_roll_two()
    state.crew = [[0, 1], [], []]
    state.pirates = [2, 3]
    state.pos = [6, 4, 4]
    state.apply_chance({"nutmeg": 1, "ginseng": 1, "jade": 1})
    # nobody boards (nothing on 13); all passed, no pilots: roll 3
    assert state.phase == ROLL and state.rolls == 2
    cash = state.cash[:]
    state.apply_chance({"nutmeg": 6, "ginseng": 1, "jade": 1})
    assert state.phase == DELIVER and state.to_move() == 2
    assert state.legal_actions()[:2] == [Deliver("nutmeg", "port"), Deliver("nutmeg", "shipyard")]
    assert state.cash[2] == cash[2] + 12 and state.cash[3] == cash[3] + 12
    assert state.crew[0] == []
    act(state, 2, Deliver("nutmeg", "port"))
    assert state.cash[0] == cash[0] and state.cash[1] == cash[1]
    assert state.cash[2] == cash[2] + 12 and state.cash[3] == cash[3] + 12
    assert state.price[0] == 1  # nutmeg reached the port and rose


def test_pilot_onto_13_is_safe_from_pirates() -> None:
    """Seed, pilots: the small pilot moves first (+-1), then the large one; a punt
    moved onto 13 by a pilot is not attacked and arrives."""
    state = _to_roll_two()
    state.pirates = [3]
    state.small_pilot = 1
    state.large_pilot = 2
    state.pos = [6, 4, 4]
    state.apply_chance({"nutmeg": 6, "ginseng": 1, "jade": 1})  # nutmeg on 12
    assert state.phase == PILOT and state.to_move() == 1
    legal = state.legal_actions()
    assert Pilot((("nutmeg", 1),)) in legal and Pilot((("jade", -1),)) in legal
    assert not any(isinstance(a, Pilot) and abs(a.moves[0][1]) == 2 for a in legal)
    act(state, 1, Pilot((("nutmeg", 1),)))
    assert state.pos[0] == 13 and state.to_move() == 2
    large = [a for a in state.legal_actions() if isinstance(a, Pilot)]
    assert Pilot((("jade", 2),)) in large and Pilot((("ginseng", 1), ("jade", -1))) in large
    assert len(large) == 3 * 4 + 3 * 4
    act(state, 2, Pilot((("ginseng", 2),)))
    assert state.pos[1] == 7
    cash = state.cash[:]
    state.apply_chance({"nutmeg": 1, "ginseng": 1, "jade": 1})
    assert state.phase == AUCTION and state.price == [1, 0, 0, 0]
    assert state.cash[3] == cash[3]  # the pirate got nothing


def test_pilot_past_13_docks_at_once() -> None:
    state = _to_roll_two()
    state.large_pilot = 2
    state.pos = [6, 4, 4]
    state.apply_chance({"nutmeg": 6, "ginseng": 1, "jade": 1})
    act(state, 2, Pilot((("nutmeg", 2),)))
    assert state.port_boats == [0] and state.phase == ROLL
    assert set(state.sample_chance(random.Random(1))) == {"ginseng", "jade"}


def test_blind_passenger() -> None:
    """Seed, blind passenger: a player whose cash and loans cannot pay the cheapest
    space places anywhere but the insurance, handing over what cash he has."""
    state = new(4)
    voyage(state, hm=0, leave_out="ginseng", starts=(3, 3, 3))
    place(state, 0, "pass")
    state.cash[1] = 1
    state.held[1] = [0, 0, 0, 0]
    state.mort[1] = [0, 0, 1, 1]
    legal = state.legal_actions()
    assert Place("jade") in legal and Place("port-a") in legal and Place("pirate") in legal
    act(state, 1, Place("jade"))
    assert state.cash[1] == 0 and state.crew[2] == [1]


def test_game_ends_when_a_good_reaches_30() -> None:
    """Seed, game end: when a marker reaches 30 the game ends at once; score = cash +
    shares at value - 15 per mortgaged share."""
    state = new(4)
    state.price = [3, 2, 1, 0]
    state.cash = [10, 20, 30, 40]
    voyage(state, hm=0, leave_out="jade", starts=(5, 4, 0), bid=None)
    for seat in range(4):
        place(state, seat, "pass")
    state.apply_chance({"nutmeg": 6, "silk": 1, "ginseng": 1})
    state.apply_chance({"nutmeg": 6, "silk": 1, "ginseng": 1})
    assert state.port_boats == [0]
    state.apply_chance({"silk": 1, "ginseng": 1})
    assert state.is_terminal() and state.price == [4, 2, 1, 0]
    # seat 0 holds nutmeg + silk: 10 + 30 + 10
    assert state.scores()[0] == 50.0
    assert state.scores() == [50.0, 25.0, 60.0, 55.0]
    assert state.ranks() == [3, 4, 1, 2]


def test_dice_example_and_simultaneous_arrivals() -> None:
    """Seed §B pictures: brown (nutmeg) +4, blue (silk) +2, green (jade) +5 into port;
    punts arriving in the same roll take berths A, B, ... in turn."""
    state = _to_roll_two(leave_out="ginseng")  # cargo nutmeg, silk, jade
    state.pos = [5, 6, 9]
    state.apply_chance({"nutmeg": 4, "silk": 2, "jade": 5})
    assert state.pos == [9, 8, 14]
    assert state.dest == [0, 0, 1] and state.port_boats == [2]
    assert state.view(0).port_boats == ["jade"]
    # roll 3: two punts dock together, in lane order
    state.apply_chance({"nutmeg": 6, "silk": 6})
    assert state.price == [1, 1, 0, 1]  # all three reached the port


def test_three_punts_to_the_shipyard_fill_a_b_c() -> None:
    """Seed §B: punts that never pass 13 go to the shipyard A, B, C in turn."""
    state = _to_roll_two(leave_out="ginseng")
    state.yard_occ = [1, 2, 3]
    cash = state.cash[:]
    state.apply_chance({"nutmeg": 1, "silk": 1, "jade": 1})
    state.apply_chance({"nutmeg": 1, "silk": 1, "jade": 1})
    assert [state.cash[s] - cash[s] for s in (1, 2, 3)] == [6, 8, 15]
