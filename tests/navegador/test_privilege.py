"""Privilege action, gallery refill and the King's privilege variant."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.navegador.actions import DONE, ClaimKing, Sail, TakePrivilege

from .helpers import R, enter, new_state, set_tiles


def rulebook_player():
    """Rulebook example: one church, explorer and factory privilege already taken."""
    state = new_state()
    player = state.players[0]
    player.churches, player.explorers, player.shipyards = 2, 5, 1
    player.colonies = [1, 0, 0]
    player.privileges = [0, 1, 1, 0, 1]
    player.workers = 5
    player.money = 0
    enter(state, "privilege")
    return state, player


@pytest.mark.parametrize(
    ("column", "bonus"),
    [("church", 80), ("explorer", 100), ("shipyard", 50), ("colony", 30), ("factory", 20)],
)
def test_rulebook_privilege_bonuses(column: str, bonus: int) -> None:
    state, player = rulebook_player()
    state.apply_action(TakePrivilege(column=column))
    assert player.money == bonus
    assert player.workers == 4
    assert state.current == 1  # one privilege per action, then the turn ends


def test_quick_intro_explorer_privilege() -> None:
    state = new_state()
    player = state.players[0]
    player.explorers, player.money = 3, 0
    enter(state, "privilege")
    state.apply_action(TakePrivilege(column="explorer"))
    assert player.money == 90
    assert state.gallery[2] == 0


def test_no_privilege_with_two_workers_or_a_full_column() -> None:
    state = new_state()
    state.players[0].workers = 2
    enter(state, "privilege")
    assert state.legal_actions() == [DONE]
    state = new_state()
    state.players[0].workers = 5
    state.players[0].privileges[1] = 3
    enter(state, "privilege")
    assert TakePrivilege(column="factory") not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply_action(TakePrivilege(column="factory"))


def test_gallery_refill_five_players_phase_two() -> None:
    """Exploring Cabo with 5 players tops every type up to 2 after the Sailing action."""
    state = new_state(5)
    state.gallery = [0, 1, 0, 1, 1]
    for region in ("Guiné", "Angola"):
        set_tiles(state, region, [])
    state.players[0].ships[R["Portugal"]] = 0
    state.players[0].ships[R["Angola"]] = 2
    enter(state, "sailing")
    state.apply_action(Sail(src="Angola", dst="Cabo da Boa Esperança"))
    state.apply_action(Sail(src="Angola", dst="Cabo da Boa Esperança"))
    state.apply_chance([90])
    assert state.phase == 1 and state.phase_pending == 2
    state.apply_action(DONE)
    assert state.phase == 2
    assert state.gallery == [2, 2, 2, 2, 2]


def test_variant_king_at_goa() -> None:
    state = new_state(king_at_goa=True)
    player = state.players[0]
    assert not player.has_king
    player.churches, player.money, player.workers = 2, 0, 2
    enter(state, "privilege")
    assert state.legal_actions() == [DONE]  # no ship in Goa, 2 workers
    state = new_state(king_at_goa=True)
    player = state.players[0]
    player.churches, player.money, player.workers = 2, 0, 2
    player.ships[R["Goa"]] = 1
    enter(state, "privilege")
    state.apply_action(ClaimKing(column="church"))
    assert player.money == 100 and player.workers == 2 and player.king_col == 4
    assert player.column_vp(4) == 5
    enter(state, "privilege")
    assert not any(isinstance(a, ClaimKing) for a in state.legal_actions())
