"""Property tests: random legal play ends, never raises, conserves shares, no debts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.engine import CHANCE, TERMINAL
from referee.games.manila import GAME
from referee.games.manila.state import ManilaState

from .helpers import total_shares

OPTION_SETS = [
    {},
    {"mortgaged_share_keeps_value": False, "pass_is_final": False},
    {"place_on_filled_berth": True, "plunder_choice_per_punt": False},
    {"pirate_displacement": True, "blind_counts_insurance": True},
]


def _check_invariants(state: ManilaState) -> None:
    assert total_shares(state) == 20
    assert all(c >= 0 for c in state.cash)
    assert all(min(row) >= 0 for row in state.held + state.mort)
    assert all(0 <= p <= 4 for p in state.price)
    assert all(0 <= n <= 4 for n in state.left)
    assert len(state.pirates) <= 2


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(min_value=3, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    options=st.sampled_from(OPTION_SETS),
)
def test_random_play_terminates_and_keeps_invariants(
    seats: int, seed: int, options: dict[str, bool]
) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(seats, GAME.parse_options(options))
    assert isinstance(state, ManilaState)
    for _ply in range(20_000):
        who = state.to_move()
        if who == TERMINAL:
            break
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            state.apply_action(legal[rng.randrange(len(legal))])
        _check_invariants(state)
    assert state.is_terminal()
    assert max(state.price) == 4
    assert len(state.scores()) == seats and min(state.ranks()) == 1
