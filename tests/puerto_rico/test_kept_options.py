"""Options a transition keeps as the next legal actions (mayor placements worked out
from the previous ones, builder, settler, trader and captain turns) equal the options
worked out from scratch, with actions as decoded from the wire (equal, not the same
objects)."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games.puerto_rico import GAME


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_kept_legal_actions_equal_recomputed_ones(seats: int) -> None:
    rng = random.Random(100 + seats)
    state = GAME.new_game(seats, GAME.parse_options({}))
    decisions = mayor = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        assert legal == state.clone().legal_actions()  # a clone works them out anew
        action = legal[rng.randrange(len(legal))]
        mayor += type(action).__name__ == "Place"
        state.apply_action(GAME.decode_action(msgspec.to_builtins(action)))
        decisions += 1
    assert decisions > 100 and mayor > 20
