"""Role selection, unused-role doubloons, prospectors and rounds (rulebook "角色", "新的一轮")."""

from __future__ import annotations

import pytest

from referee.api.engine import IllegalAction
from referee.games.puerto_rico.actions import ChooseRole, Pass
from referee.games.puerto_rico.data import PROSPECTOR, PROSPECTOR_2, ROLE_INDEX
from referee.games.puerto_rico.state import PuertoRicoState
from tests.puerto_rico.helpers import finish_role, names, new_state


def play_picks(state: PuertoRicoState, picks: list[str]) -> None:
    """Every seat picks the named role in turn; optional steps are passed."""
    for role in picks:
        state.apply_action(ChooseRole(role))
        finish_role(state)


def test_untaken_roles_gain_a_doubloon_and_governor_moves() -> None:
    state = new_state(4, governor=2)
    assert state.to_move() == 2
    play_picks(state, ["prospector", "trader", "builder", "craftsman"])
    assert state.governor == 3 and state.to_move() == 3
    coins = {name: state.role_coins[ROLE_INDEX[name]] for name in ("settler", "mayor", "captain")}
    assert coins == {"settler": 1, "mayor": 1, "captain": 1}
    assert state.players[2].doubloons == 3 + 1  # prospector privilege


def test_chooser_collects_the_coins_and_privilege() -> None:
    # rulebook: a prospector carrying 2 doubloons pays 3 in total
    state = new_state(4, governor=0)
    state.role_coins[PROSPECTOR] = 2
    state.apply_action(ChooseRole("prospector"))
    assert state.players[0].doubloons == 3 + 3
    assert state.role_coins[PROSPECTOR] == 0
    with pytest.raises(IllegalAction):
        state.apply_action(ChooseRole("prospector"))  # taken this round


def test_five_player_prospectors_keep_their_own_coins() -> None:
    state = new_state(5, governor=0)
    state.role_coins[PROSPECTOR] = 1
    state.role_coins[PROSPECTOR_2] = 3
    state.apply_action(ChooseRole("prospector_2"))
    assert state.players[0].doubloons == 4 + 3 + 1
    assert state.role_coins[PROSPECTOR] == 1
    assert ("role", "prospector") in names(state.legal_actions())


def test_two_player_variant_alternates_three_picks_each() -> None:
    state = new_state(2, governor=1)
    seen = []
    for role in ["prospector", "trader", "builder", "craftsman", "settler", "mayor"]:
        seen.append(state.to_move())
        state.apply_action(ChooseRole(role))
        finish_role(state)
    assert seen == [1, 0, 1, 0, 1, 0]
    assert state.governor == 0
    assert state.role_coins[ROLE_INDEX["captain"]] == 1
    assert sum(state.role_coins) == 1


def test_illegal_action_leaves_state_unchanged() -> None:
    state = new_state(3)
    before = state.debug()
    with pytest.raises(IllegalAction):
        state.apply_action(ChooseRole("prospector"))  # no prospector with 3 players
    with pytest.raises(IllegalAction):
        state.apply_action(Pass())
    assert state.debug() == before
