"""Sailing and exploration (rulebook: Sailing, Exploration, Game phases)."""

from __future__ import annotations

import pytest

from referee.api.engine import CHANCE, IllegalAction, InvalidChance
from referee.games.navegador.actions import DONE, Sail
from referee.games.navegador.sailing import distances

from .helpers import R, enter, new_state, set_tiles

CABO = "Cabo da Boa Esperança"


def test_map_satisfies_the_example_distances() -> None:
    table = distances(1 << R["Portugal"] | (1 << 13) - 1)
    assert table[R["Portugal"]][R[CABO]] == 3
    assert table[R["Guiné"]][R[CABO]] == 2
    assert table[R["Portugal"]][R["Angola"]] == 2
    assert table[R["Angola"]][R["Guiné"]] == table[R["Angola"]][R["Rio de Janeiro"]] == 1


def test_phase_two_sailing_example() -> None:
    """3 ships in Portugal and 1 in Guiné: only the Guiné ship reaches Cabo."""
    state = new_state()
    state.phase = 2
    for region in ("Guiné", "Bahia", "Rio de Janeiro", "Angola", CABO):
        set_tiles(state, region, [])
    player = state.players[0]
    player.ships[R["Portugal"]] = 3
    player.ships[R["Guiné"]] = 1
    enter(state, "sailing")
    legal = state.legal_actions()
    assert Sail(src="Portugal", dst=CABO) not in legal
    assert Sail(src="Guiné", dst=CABO) in legal
    state.apply_action(Sail(src="Guiné", dst=CABO))
    state.apply_action(Sail(src="Portugal", dst="Angola"))
    state.apply_action(Sail(src="Portugal", dst="Angola"))
    state.apply_action(Sail(src="Portugal", dst="Bahia"))
    assert player.ships[R[CABO]] == 1 and player.ships[R["Angola"]] == 2
    assert player.ships[R["Bahia"]] == 1 and player.ships[R["Portugal"]] == 0
    # the Bahia ship still has one border left; the Angola ships have none
    assert not any(a.src == "Angola" for a in state.legal_actions() if isinstance(a, Sail))
    assert any(a.src == "Bahia" for a in state.legal_actions() if isinstance(a, Sail))


def test_exploring_angola_example() -> None:
    """From Guiné and Rio de Janeiro into Angola: lose 1 ship, explorer, bonus 70."""
    state = new_state()
    set_tiles(state, "Guiné", [80])
    set_tiles(state, "Rio de Janeiro", [60])
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Guiné"]] = 1
    player.ships[R["Rio de Janeiro"]] = 1
    enter(state, "sailing")
    money = player.money
    state.apply_action(Sail(src="Guiné", dst="Angola"))
    assert state.legal_actions() == [Sail(src="Rio de Janeiro", dst="Angola")]  # must finish
    state.apply_action(Sail(src="Rio de Janeiro", dst="Angola"))
    assert state.to_move() == CHANCE
    with pytest.raises(IllegalAction):
        state.legal_actions()
    with pytest.raises(InvalidChance):
        state.apply_chance([70, 90])  # Angola holds 3 tiles
    with pytest.raises(InvalidChance):
        state.apply_chance([70, 90, 80])  # 80 is already face up in Guiné
    state.apply_chance([120, 70, 90])
    assert player.money == money + 70
    assert player.explorers == 1
    assert player.ships_on_board() == 1 and player.ships[R["Angola"]] == 1
    assert state.tiles[R["Angola"]] == [70, 90, 120]
    assert state.legal_actions() == [DONE]  # the explorer stays in Angola


def test_a_single_ship_cannot_enter_unexplored_waters() -> None:
    state = new_state()
    state.players[0].ships[0] = 1
    enter(state, "sailing")
    assert state.legal_actions() == [DONE]


def test_one_exploration_per_sailing_action() -> None:
    state = new_state()
    state.players[0].ships[R["Portugal"]] = 4
    enter(state, "sailing")
    state.apply_action(Sail(src="Portugal", dst="Guiné"))
    state.apply_action(Sail(src="Portugal", dst="Guiné"))
    state.apply_chance(state.sample_chance(__import__("random").Random(1)))
    assert Sail(src="Portugal", dst="Bahia") not in state.legal_actions()


def test_double_loss_at_nagasaki_needs_three_ships_and_ends_the_game() -> None:
    state = new_state(4)
    for region in ("Guiné", "Angola", CABO, "Moçambique", "Goa", "Ceilão", "Malaca", "Timor"):
        set_tiles(state, region, [])
    set_tiles(state, "Macau", [60, 70])
    state.phase = 3
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Macau"]] = 2
    enter(state, "sailing")
    assert Sail(src="Macau", dst="Nagasaki") not in state.legal_actions()
    player.ships[R["Timor"]] = 1
    enter(state, "sailing")
    state.apply_action(Sail(src="Macau", dst="Nagasaki"))
    state.apply_action(Sail(src="Timor", dst="Nagasaki"))
    state.apply_action(Sail(src="Macau", dst="Nagasaki"))
    state.apply_chance([180])
    assert player.ships_on_board() == 1 and player.explorers == 1
    assert state.end_seat == 0


def test_macau_is_double_loss_only_with_two_or_three_players() -> None:
    assert R["Macau"] in new_state(3).double_loss
    assert R["Macau"] not in new_state(4).double_loss


def test_new_phase_applies_after_the_sailing_action() -> None:
    state = new_state()
    set_tiles(state, "Guiné", [])
    set_tiles(state, "Angola", [])
    player = state.players[0]
    player.ships = [0] * 13
    player.ships[R["Angola"]] = 3
    enter(state, "sailing")
    state.apply_action(Sail(src="Angola", dst=CABO))
    state.apply_action(Sail(src="Angola", dst=CABO))
    state.apply_chance([70])
    # the third ship still sails with the phase I range of 1 border
    assert Sail(src="Angola", dst="Moçambique") not in state.legal_actions()
    assert Sail(src="Angola", dst=CABO) in state.legal_actions()
    state.apply_action(DONE)
    assert state.phase == 2
