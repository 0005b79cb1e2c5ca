"""Memoised view records: every view equals one built without memos, its scores equal
the rulebook sum per column, and a view taken earlier still shows its own decision
after the match moves on."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games.navegador import GAME, data
from referee.games.navegador.player import Player
from referee.games.navegador.state import NavegadorState


def _score_by_columns(p: Player) -> int:
    """The rulebook's scoring spelled out with the per-column helpers."""
    total = p.workers + p.ships_on_board() + p.money // data.VP_MONEY_UNIT
    total += sum(p.column_vp(c) * p.items(c) for c in range(len(data.COLUMNS)))
    king = p.best_king_column() if p.has_king else -1
    if king >= 0:
        total += data.PRIVILEGE_VP[king] * p.items(king)
    return total


def _fresh_view(state: NavegadorState, seat: int) -> object:
    """The view of ``seat`` from a clone whose memos are all dropped."""
    bare = state.clone()
    bare._regions_memo = None
    for player in bare.players:
        player._view_memo = None
        player._score_key = ()
    return msgspec.to_builtins(bare.view(seat))


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_memoised_views_match_views_built_from_scratch(seats: int) -> None:
    rng = random.Random(seats)
    state = GAME.new_game(seats, GAME.parse_options({}))
    taken: list[tuple[object, object]] = []
    explored = founded = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            explored += 1
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(seat)
        wire = msgspec.to_builtins(view)
        assert [pv.score for pv in view.players] == [_score_by_columns(p) for p in state.players]
        assert wire == _fresh_view(state, seat)
        taken.append((view, wire))
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        founded += type(action).__name__ == "Found"
        state.apply_action(action)
    # The playout went through the cases that change the memoised region records.
    assert explored and founded
    for earlier, its_wire in taken:
        assert msgspec.to_builtins(earlier) == its_wire
