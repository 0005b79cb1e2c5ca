"""Memoised view records: every view equals one built without memos, and a view taken
earlier still shows its own decision after the match moves on."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.state import PuertoRicoState


def _fresh_view(state: PuertoRicoState, seat: int) -> object:
    """The view of ``seat`` from a clone whose memos are all dropped."""
    bare = state.clone()
    bare._roles_memo = bare._supply_memo = bare._ships_memo = None
    for player in bare.players:
        player._view_memo = ()
    return msgspec.to_builtins(bare.view(seat))


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_memoised_views_match_views_built_from_scratch(seats: int) -> None:
    rng = random.Random(seats)
    state = GAME.new_game(seats, GAME.parse_options({}))
    taken: list[tuple[object, object]] = []
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(seat)
        wire = msgspec.to_builtins(view)
        assert wire == _fresh_view(state, seat)
        taken.append((view, wire))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert len(taken) > 100
    for earlier, its_wire in taken:
        assert msgspec.to_builtins(earlier) == its_wire
