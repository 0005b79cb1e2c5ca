"""Behaviour tests of the Puerto Rico heuristic bot (``bots/puerto_rico_bot.py``).

Builder positions on a fresh seeded 4-seat game: the governor has just taken the builder
and its board is then rewritten by hand.  Each test runs well under a second.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bots"))

from puerto_rico_bot import PuertoRicoBot, choose_action

from referee.engine import CHANCE
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.actions import Build, ChooseRole
from referee.games.puerto_rico.data import BUILDINGS, GOOD_NAMES
from referee.games.puerto_rico.state import PuertoRicoState

BUILDING_GOOD = {b.name: b.good for b in BUILDINGS}


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
