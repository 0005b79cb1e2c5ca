"""API battery every registered game must pass (in the spirit of PettingZoo's api_test).

The battery itself is :mod:`referee.api.conformance`; here it runs on every registered
game, one test per check and seat count, and on deliberately broken toy games to show
that it catches each fault."""

from __future__ import annotations

from typing import Any, Self

import pytest

from referee.api import conformance
from referee.api.conformance import ConformanceFailure, check_game
from referee.api.engine import Game, State
from tests.conftest import GAME_SEATS, GAMES
from tests.core.toygame import RaceState, SecretRace

pytestmark = pytest.mark.skipif(not GAMES, reason="no game registered")


@pytest.mark.parametrize("check", list(conformance.GAME_CHECKS))
@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_game_check(game: Game, check: str) -> None:
    conformance.GAME_CHECKS[check](game)


@pytest.mark.parametrize("check", list(conformance.SEAT_CHECKS))
@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_seat_check(game: Game, seats: int, check: str) -> None:
    conformance.SEAT_CHECKS[check](game, seats)


def test_every_registered_name_is_its_game_name() -> None:
    assert all(name == game.name for name, game in GAMES.items())


# --- the battery on toy games: a sound one passes, each planted fault is caught ---


class SharedClone(RaceState):
    """Fault: a clone shares its list of additions with the original."""

    def clone(self) -> Self:
        copy = super().clone()
        copy.adds = self.adds
        return copy


class LenientEnd(RaceState):
    """Fault: a finished game still lists legal actions instead of raising."""

    def legal_actions(self) -> list[Any]:
        return super().legal_actions() if self.secrets is None or not self.is_terminal() else []


class Endless(RaceState):
    """Fault: the counter never moves, so the game never ends."""

    def apply_action(self, action: Any) -> None:
        super().apply_action(action)
        self.counter -= action.amount


class Toy(SecretRace):
    """The toy game playing states of class ``state_type``."""

    def __init__(self, state_type: type[RaceState]) -> None:
        self.state_type = state_type

    def new_game(self, seats: int, options: Any = None) -> State:
        self.check_seats(seats)
        return self.state_type(seats, 10)


def test_a_sound_toy_game_conforms() -> None:
    assert check_game(Toy(RaceState)) == []


def test_a_clone_sharing_its_state_is_caught() -> None:
    with pytest.raises(ConformanceFailure, match="advancing a clone changed the original"):
        conformance.check_clone(Toy(SharedClone), 2)
    failures = check_game(Toy(SharedClone), seats=[2, 3])
    assert [(f.check, f.seats) for f in failures] == [("clone", 2), ("clone", 3)]
    assert str(failures[0]).startswith("clone (2 seats): ply ")


def test_legal_actions_at_the_end_is_caught() -> None:
    failures = check_game(Toy(LenientEnd), seats=[2])
    assert [(f.check, f.message) for f in failures] == [
        ("node_kinds", "legal_actions at the end: did not raise IllegalAction")
    ]


def test_a_game_that_never_ends_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance, "MAX_PLIES", 500)
    with pytest.raises(ConformanceFailure, match="does not end within 500 plies"):
        conformance.check_random_play(Toy(Endless), 2)


class BadName(Toy):
    """Fault: a name that is not a command-line name."""

    name = "Secret_Race"


def test_a_bad_name_is_caught() -> None:
    failures = check_game(BadName(RaceState), seats=[])
    assert [f.check for f in failures] == ["names"]
