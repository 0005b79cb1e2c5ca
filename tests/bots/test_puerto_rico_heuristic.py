"""Behaviour tests of the Puerto Rico heuristic bot (``bots/puerto_rico_bot.py``).

Builder positions on a fresh seeded 4-seat game: the governor has just taken the builder
and its board is then rewritten by hand.  Role positions come from seeded games played by
the bot.  Each test runs well under a second.
"""

from __future__ import annotations

import copy
import random

import pytest

from bots import puerto_rico_bot
from bots.puerto_rico_bot import (
    FOLLOWING_PICKS,
    PuertoRicoBot,
    choose_action,
    player_value,
    role_index,
    rounds_left,
)
from referee.api.engine import CHANCE, TERMINAL
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.actions import Build, ChooseRole
from referee.games.puerto_rico.data import BUILDINGS, GOOD_NAMES
from referee.games.puerto_rico.state import PuertoRicoState

BUILDING_GOOD = {b.name: b.good for b in BUILDINGS}
LARGE_NAMES = {b.name for b in BUILDINGS if b.large}


def builder_position(tiles: list[int], doubloons: int) -> PuertoRicoState:
    """Seed 1, 4 seats: the governor takes the builder; its island is replaced by
    ``tiles`` (by kind: corn, indigo, sugar, tobacco, coffee, quarry), every tile
    occupied, and it holds ``doubloons``."""
    state = GAME.new_game(4)
    rng = random.Random(1)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    state.apply_action(ChooseRole("builder"))
    player = state.players[state.to_move()]
    player.tiles = list(tiles)
    player.occ = list(tiles)
    player.doubloons = doubloons
    state._legal = None
    return state


def chosen_building(state: PuertoRicoState, seed: int = 0) -> str:
    """The building the bot builds in ``state`` (fails if it passes)."""
    legal = state.legal_actions()
    action = legal[choose_action(state, legal, random.Random(seed))]
    assert isinstance(action, Build), action
    return action.building


@pytest.mark.parametrize(
    ("tiles", "doubloons", "good"),
    [
        ([0, 0, 2, 0, 0, 0], 3, "sugar"),  # v1's weights chose the small market here
        ([0, 1, 1, 0, 0, 0], 2, None),  # and here
        ([0, 0, 1, 0, 0, 1], 3, "sugar"),  # v1 chose the hospice
        ([0, 0, 2, 0, 0, 1], 2, "sugar"),  # and here
        ([0, 2, 0, 0, 0, 0], 3, "indigo"),  # the small market again
    ],
)
def test_builds_production_for_its_plantations(
    tiles: list[int], doubloons: int, good: str | None
) -> None:
    """With occupied plantations and no plant for them, the bot builds a production
    building of a good it grows (not a violet building)."""
    for seed in range(2):
        building = chosen_building(builder_position(tiles, doubloons), seed)
        produced = BUILDING_GOOD[building]
        assert produced is not None, building
        assert tiles[produced] > 0, building
        if good is not None:
            assert GOOD_NAMES[produced] == good


def test_choose_leaves_the_view_unchanged() -> None:
    """``choose`` (used by the search bot as its guide) does not modify the view."""
    state = builder_position([0, 0, 2, 0, 0, 0], 3)
    seat = state.to_move()
    view = state.view(seat)
    before = copy.deepcopy(view)
    bot = PuertoRicoBot(seed=0)
    legal = state.legal_actions()
    index = bot.choose(view, legal, [])
    assert 0 <= index < len(legal)
    assert view == before


def role_position(seed: int, picks: int) -> PuertoRicoState:
    """A seeded 4-seat game played by the bot up to the role choice after ``picks`` role
    picks (counted from the start of the game)."""
    rng = random.Random(seed)
    state = GAME.new_game(4)
    seen = 0
    while True:
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if isinstance(legal[0], ChooseRole):
            if seen == picks:
                return state
            seen += 1
        state.apply_action(legal[choose_action(state, legal, rng)])


@pytest.mark.parametrize("round_no", [1, 3])
def test_role_look_ahead_stays_in_the_round(round_no: int) -> None:
    """The last chooser of a round has no later pick to simulate: with and without the
    look-ahead it takes the same role (the look-ahead does not run into the next round)."""
    state = role_position(3, 4 * round_no + 3)
    assert state.picks == 3
    legal = state.legal_actions()
    plain = role_index(state.clone(), legal, random.Random(5), 0)
    ahead = role_index(state.clone(), legal, random.Random(5), FOLLOWING_PICKS)
    assert plain == ahead


def test_role_look_ahead_changes_some_choices() -> None:
    """Over the first three rounds of a seeded game the look-ahead picks a different
    role from the plain one-phase evaluation at least once (it is switched on and used)."""
    rng = random.Random(0)
    state = GAME.new_game(4)
    differ = 0
    while state.round < 3:
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if isinstance(legal[0], ChooseRole):
            plain = role_index(state.clone(), legal, random.Random(0), 0)
            ahead = role_index(state.clone(), legal, random.Random(0), FOLLOWING_PICKS)
            differ += plain != ahead
        state.apply_action(legal[choose_action(state, legal, rng)])
    assert differ > 0


def test_cached_values_match_direct_values() -> None:
    """The board cache behind ``position_value`` returns what ``player_value`` computes,
    on every position of a seeded random game."""
    rng = random.Random(11)
    state = GAME.new_game(4)
    while state.to_move() != TERMINAL:
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        rem = rounds_left(state)
        for seat in range(4):
            cached = puerto_rico_bot._cached_player_value(state, seat, rem)
            assert cached == player_value(state, seat, rem)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def test_choose_on_a_role_leaves_the_view_unchanged() -> None:
    """The role look-ahead works on copies: ``choose`` leaves the view as it was."""
    state = role_position(2, 5)
    view = state.view(state.to_move())
    before = copy.deepcopy(view)
    legal = state.legal_actions()
    index = PuertoRicoBot(seed=0).choose(view, legal, [])
    assert 0 <= index < len(legal)
    assert view == before


def test_savings_credit_for_a_large_building() -> None:
    """Doubloons count for more once a large building is within reach (at most
    ``SAVINGS_REACH`` short), not when it is far off, and not without two city spaces."""
    state = builder_position([1, 1, 2, 0, 0, 1], 0)
    seat = state.to_move()
    player = state.players[seat]
    rem = 6.0
    cost = 10 - 1 - 1  # the builder's privilege and one occupied quarry
    player.doubloons = cost - puerto_rico_bot.SAVINGS_REACH - 1
    money = min(puerto_rico_bot.MONEY_CAP, 0.06 + 0.05 * rem)
    assert puerto_rico_bot._savings_value(state, player, rem, money) == 0.0
    player.doubloons = cost - 2
    saved = puerto_rico_bot._savings_value(state, player, rem, money)
    assert saved > 0.0
    player.city = 11
    assert puerto_rico_bot._savings_value(state, player, rem, money) == 0.0
    player.city = 0
    assert puerto_rico_bot._savings_value(state, player, 1.0, money) == 0.0


def test_builds_an_affordable_large_building_rather_than_saving() -> None:
    """The savings credit stays below the large building's worth: with the cost in hand,
    building the best large building scores better than passing."""
    state = builder_position([1, 1, 2, 0, 0, 1], 8)
    seat = state.to_move()
    legal = state.legal_actions()
    large = [a for a in legal if isinstance(a, Build) and a.building in LARGE_NAMES]
    assert large
    passed = state.clone()
    passed.apply_action(legal[-1])
    best_large = float("-inf")
    for action in large:
        child = state.clone()
        child.apply_action(action)
        best_large = max(best_large, puerto_rico_bot.position_value(child, seat))
    assert best_large > puerto_rico_bot.position_value(passed, seat)
