"""A tiny game for testing the referee core independently of the real games.

"Secret race": setup deals each seat a secret number 0..9 (one chance outcome);
then seats take turns adding 1 or 2 to a shared counter until it reaches ``target``.
Score = secret + number of own additions.  Secrets are hidden from other seats.
"""

from __future__ import annotations

import random
from typing import Any, Self

from referee.api.engine import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalAction,
    InvalidChance,
    Options,
    State,
    View,
)


class Add(Action, frozen=True, tag="add"):
    amount: int


class RaceView(View):
    seat: int
    counter: int
    my_secret: int
    adds: list[int]


class RaceOptions(Options):
    target: int = 10


class RaceState(State):
    def __init__(self, seats: int, target: int) -> None:
        self.seats = seats
        self.target = target
        self.secrets: list[int] | None = None
        self.counter = 0
        self.turn = 0
        self.adds = [0] * seats

    def to_move(self) -> int:
        if self.secrets is None:
            return CHANCE
        if self.counter >= self.target:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list[Any]:
        if self.to_move() < 0:
            raise IllegalAction("no decision")
        return [Add(1), Add(2)]

    def apply_action(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"illegal {action!r}")
        self.counter += action.amount
        self.adds[self.turn] += 1
        self.turn = (self.turn + 1) % self.seats

    def sample_chance(self, rng: random.Random) -> Any:
        if self.to_move() != CHANCE:
            raise InvalidChance("no chance node")
        return [rng.randrange(10) for _ in range(self.seats)]

    def apply_chance(self, outcome: Any) -> None:
        if self.to_move() != CHANCE:
            raise InvalidChance("no chance node")
        if not (isinstance(outcome, list) and len(outcome) == self.seats):
            raise InvalidChance(f"bad deal {outcome!r}")
        if not all(isinstance(x, int) and 0 <= x <= 9 for x in outcome):
            raise InvalidChance(f"bad deal {outcome!r}")
        self.secrets = list(outcome)

    def view(self, seat: int) -> Any:
        return RaceView(
            seat=seat,
            counter=self.counter,
            my_secret=self.secrets[seat] if self.secrets else -1,
            adds=list(self.adds),
        )

    def observe_chance(self, outcome: Any, viewer: int) -> Any | None:
        return {"my_secret": outcome[viewer]}

    def scores(self) -> list[float]:
        assert self.secrets is not None
        return [float(s + a) for s, a in zip(self.secrets, self.adds, strict=True)]

    def clone(self) -> Self:
        copy = type(self)(self.seats, self.target)
        copy.secrets = None if self.secrets is None else list(self.secrets)
        copy.counter, copy.turn, copy.adds = self.counter, self.turn, list(self.adds)
        return copy

    def debug(self) -> Any:
        return {"secrets": self.secrets, "counter": self.counter, "adds": self.adds}


class SecretRace(Game[RaceOptions]):
    name = "secret-race"
    title = "Secret race"
    min_seats = 2
    max_seats = 4
    action_type = Add
    view_type = RaceView
    options_type = RaceOptions

    def new_game(self, seats: int, options: RaceOptions | None = None) -> State:
        self.check_seats(seats)
        return RaceState(seats, (options or RaceOptions()).target)


GAME = SecretRace()
