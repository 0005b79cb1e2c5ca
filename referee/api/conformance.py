"""The conformance battery: the engine contract every game must keep, as plain functions.

A game author runs :func:`check_game` on a new :class:`~referee.api.engine.Game` (the
project's tests run it on every registered game).  Each check plays the game through
the engine interface only and raises :class:`ConformanceFailure` at the first breach:

- :func:`check_names`: the name is a command-line name, the seat range is sane;
- :func:`check_random_play`: random games end; every decision node has legal actions;
  every legal list, chance outcome and view round-trips through JSON; scores and ranks
  agree;
- :func:`check_replay`: re-applying a recorded game's chance outcomes and actions
  reproduces its scores and ranks;
- :func:`check_clone`: a clone is independent of its original;
- :func:`check_node_kinds`: asking a decision node for chance, or a chance or terminal
  node for legal actions, raises the typed errors;
- :func:`check_bad_input`: too many seats and unknown options raise ``OptionError``;
- :func:`check_schema`: the game's schema is JSON with ``$defs``.

Every check is deterministic: its random choices come from a fixed seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import msgspec

from referee.api.engine import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    InvalidChance,
    OptionError,
    State,
)
from referee.api.playout import random_playout

MAX_PLIES = 200_000
"""Plies after which a random game counts as one that does not end."""


class ConformanceFailure(AssertionError):
    """A game broke the engine contract; the message says which rule and where."""


@dataclass(frozen=True)
class Failure:
    """One failed check of :func:`check_game`: the check's name, the seat count it
    ran with (``None`` for checks that take none) and the failure's message."""

    check: str
    seats: int | None
    message: str

    def __str__(self) -> str:
        where = "" if self.seats is None else f" ({self.seats} seats)"
        return f"{self.check}{where}: {self.message}"


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceFailure(message)


def _raises(error: type[Exception], call: Callable[[], object], what: str) -> None:
    """Require ``call()`` to raise ``error``; any other outcome is a failure."""
    try:
        call()
    except error:
        return
    except Exception as exc:  # the wrong error is the failure reported
        raise ConformanceFailure(
            f"{what}: raised {type(exc).__name__} ({exc}), not {error.__name__}"
        ) from exc
    raise ConformanceFailure(f"{what}: did not raise {error.__name__}")


def _json(value: object) -> object:
    """``value`` encoded to JSON and decoded again (builtins: lists, dicts, ...)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _step(state: State, rng: random.Random) -> None:
    """Advance ``state`` one ply: a sampled chance outcome or a random legal action."""
    if state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def check_names(game: Game) -> None:
    """The game's name is lower case without spaces or ``_`` (a CLI name, ``-`` between
    words), and ``1 <= min_seats <= max_seats``."""
    name = game.name
    _require(
        name.islower() and " " not in name and "_" not in name,
        f"name {name!r} is not a command-line name (lower case, no space, no '_')",
    )
    _require(
        1 <= game.min_seats <= game.max_seats,
        f"seat range {game.min_seats}..{game.max_seats} is empty or below 1",
    )


def _check_ranks(scores: list[float], ranks: list[int], seats: int) -> None:
    _require(
        len(scores) == len(ranks) == seats,
        f"{len(scores)} scores and {len(ranks)} ranks for {seats} seats",
    )
    _require(min(ranks) == 1 and max(ranks) <= seats, f"ranks {ranks} are not 1..{seats}")
    for a in range(seats):
        for b in range(seats):
            _require(
                not (scores[a] > scores[b] and ranks[a] > ranks[b]),
                f"seat {a} scores more than seat {b} ({scores}) but ranks below it ({ranks})",
            )


def check_random_play(game: Game, seats: int, *, games: int = 3) -> None:
    """Play ``games`` random games with ``seats`` seats (see the module docstring)."""
    rng = random.Random(f"conformance-{game.name}-{seats}")
    for _ in range(games):
        state = game.new_game(seats, game.parse_options({}))
        plies = 0
        while (seat := state.to_move()) != TERMINAL:
            plies += 1
            _require(plies < MAX_PLIES, f"the game does not end within {MAX_PLIES} plies")
            if seat == CHANCE:
                state.apply_chance(_json(state.sample_chance(rng)))
                continue
            _require(0 <= seat < seats, f"to_move() is {seat}, not a seat, CHANCE or TERMINAL")
            legal = state.legal_actions()
            _require(bool(legal), f"a decision node of seat {seat} has no legal action")
            wire = msgspec.json.encode(legal)
            decoded = [game.decode_action(obj) for obj in msgspec.json.decode(wire)]
            _require(decoded == legal, f"legal actions do not round-trip through JSON: {legal}")
            msgspec.json.encode(state.view(seat))
            state.apply_action(legal[rng.randrange(len(legal))])
        _check_ranks(state.scores(), state.ranks(), seats)


def check_replay(game: Game, seats: int) -> None:
    """Replay a recorded random game from its history; the result must be the same."""
    options = game.parse_options({})
    played = random_playout(game, seats, random.Random(7), options, record=True)
    state = game.new_game(seats, game.parse_options({}))
    for ply, (who, what) in enumerate(played.history):
        if who == "chance":
            state.apply_chance(_json(what))
        else:
            _require(
                state.to_move() == who,
                f"ply {ply}: replay has seat {state.to_move()} to move, the record seat {who}",
            )
            state.apply_action(game.decode_action(msgspec.to_builtins(what)))
    _require(state.is_terminal(), "the replayed game is not over where the record ends")
    _require(
        state.scores() == played.state.scores() and state.ranks() == played.state.ranks(),
        f"replay ends with scores {state.scores()}, the record {played.state.scores()}",
    )


def check_clone(game: Game, seats: int, *, plies: int = 60) -> None:
    """For ``plies`` plies, advancing a clone must leave the original's views unchanged."""
    rng = random.Random(11)
    state = game.new_game(seats, game.parse_options({}))
    for ply in range(plies):
        if state.is_terminal():
            break
        copy = state.clone()
        before = msgspec.json.encode([state.view(s) for s in range(seats)])
        _step(copy, rng)
        after = msgspec.json.encode([state.view(s) for s in range(seats)])
        _require(after == before, f"ply {ply}: advancing a clone changed the original")
        _step(state, rng)


def check_node_kinds(game: Game, seats: int) -> None:
    """Wrong-node calls raise ``InvalidChance`` / ``IllegalAction`` over a random game."""
    state = game.new_game(seats, game.parse_options({}))
    rng = random.Random(3)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    if state.to_move() != TERMINAL:
        _raises(InvalidChance, lambda: state.sample_chance(rng), "sample_chance at a decision")
    while state.to_move() != TERMINAL:
        if state.to_move() == CHANCE:
            _raises(IllegalAction, state.legal_actions, "legal_actions at a chance node")
        _step(state, rng)
    _raises(IllegalAction, state.legal_actions, "legal_actions at the end")


def check_bad_input(game: Game) -> None:
    """One seat too many and an unknown option both raise ``OptionError``."""
    _raises(
        OptionError,
        lambda: game.new_game(game.max_seats + 1, game.parse_options({})),
        f"new_game with {game.max_seats + 1} seats",
    )
    _raises(OptionError, lambda: game.parse_options({"no-such-option": "1"}), "an unknown option")


def check_schema(game: Game) -> None:
    """``game.schema()`` encodes to JSON and has ``$defs``."""
    schema = game.schema()
    msgspec.json.encode(schema)
    _require("$defs" in schema, "the schema has no '$defs'")


GAME_CHECKS: dict[str, Callable[[Game], None]] = {
    "names": check_names,
    "bad_input": check_bad_input,
    "schema": check_schema,
}
"""Checks that take the game only, by name."""

SEAT_CHECKS: dict[str, Callable[[Game, int], None]] = {
    "random_play": check_random_play,
    "replay": check_replay,
    "clone": check_clone,
    "node_kinds": check_node_kinds,
}
"""Checks that take the game and a seat count, by name."""


def _run(check: str, seats: int | None, call: Callable[[], None]) -> Failure | None:
    try:
        call()
    except ConformanceFailure as exc:
        return Failure(check, seats, str(exc))
    except Exception as exc:  # a crash of the game is a failure to report
        return Failure(check, seats, f"raised {type(exc).__name__}: {exc}")
    return None


def check_game(game: Game, seats: list[int] | None = None) -> list[Failure]:
    """Run the whole battery on ``game``; the failures, empty when the game conforms.

    ``seats``: the seat counts to play (default every count from ``min_seats`` to
    ``max_seats``).  A check that raises anything (a breach or a crash of the game)
    is one :class:`Failure`; the other checks still run.  Cost: a few random games per
    seat count (seconds for the bundled games).
    """
    counts = seats if seats is not None else list(range(game.min_seats, game.max_seats + 1))
    found = [_run(name, None, partial(check, game)) for name, check in GAME_CHECKS.items()]
    for count in counts:
        found.extend(
            _run(name, count, partial(check, game, count)) for name, check in SEAT_CHECKS.items()
        )
    return [failure for failure in found if failure is not None]
