"""Golden trajectories: seeded random games whose every engine output is hashed.

A trajectory is the stream of everything a rules engine says during one random game:
at each decision node the view of every seat, the legal actions, the chosen action
and what every seat observes of it; at each chance node the sampled outcome and what
every seat observes of it; at the end the scores and ranks.  Each item is one JSON
line; the SHA-256 of all lines is the game's digest.  The golden files under
``tests/golden/`` were written by ``python -m tests.golden.generate`` before the
engines were optimised, so any change of output shows up as a digest mismatch.

Roads & Boats was added later than the other games (after its rules fixes of engine
version 0.2.0, before its engine was optimised); its digests were generated on their
own (``--game roads-and-boats``) and merged into the same file.  They were generated
again for the rules changes of issue 35 (engine rules version 3: the options object in
every view gained three fields, the view a ``loans`` field, and the rules of items 1-5
change play); the 100 games of before still come out the same under
``rules=referee-0.2`` once those new view fields are taken out.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import msgspec

from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game

MAX_PLIES = 100_000

# (game, seats, options, games): 300 games in all.
CASES: tuple[tuple[str, int, dict[str, Any], int], ...] = (
    ("manila", 3, {}, 20),
    ("manila", 4, {}, 20),
    ("manila", 5, {}, 16),
    ("manila", 4, {"pirate_displacement": True, "place_on_filled_berth": True}, 8),
    ("navegador", 2, {}, 16),
    ("navegador", 3, {}, 14),
    ("navegador", 4, {}, 12),
    ("navegador", 5, {}, 12),
    ("puerto-rico", 2, {}, 16),
    ("puerto-rico", 3, {}, 20),
    ("puerto-rico", 4, {}, 20),
    ("puerto-rico", 5, {}, 16),
    ("puerto-rico", 4, {"hacienda_reshuffle": False, "short_refill": "none"}, 10),
    ("roads-and-boats", 2, {}, 40),
    ("roads-and-boats", 3, {}, 24),
    ("roads-and-boats", 4, {}, 36),
)

_encoder = msgspec.json.Encoder(order="deterministic")


# Games stored in full (xz-compressed JSON lines) to locate a difference: (case, index).
FULL: tuple[tuple[int, int], ...] = (
    (0, 0),
    (2, 1),
    (4, 0),
    (6, 1),
    (9, 0),
    (11, 1),
    (13, 0),
    (14, 1),
)


def case_key(game: str, seats: int, options: dict[str, Any]) -> str:
    """A stable text key of one case, e.g. ``"manila/4/{}"``."""
    return f"{game}/{seats}/{_encoder.encode(options).decode()}"


def game_seed(game: str, seats: int, options: dict[str, Any], index: int) -> int:
    """The RNG seed of game ``index`` of a case (a stable 64-bit int)."""
    text = f"{case_key(game, seats, options)}#{index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def trajectory(game_name: str, seats: int, options: dict[str, Any], seed: int) -> Iterator[bytes]:
    """Play one seeded random game and yield its trajectory, one JSON line per item.

    Items: ``["decision", ply, seat, views_by_seat, legal, index, observed_by_seat]``,
    ``["chance", ply, outcome, observed_by_seat]`` and ``["end", ply, scores, ranks]``.
    Raises ``RuntimeError`` if the game does not end within ``MAX_PLIES`` plies.
    """
    game = get_game(game_name)
    state = game.new_game(seats, game.parse_options(options))
    rng = random.Random(seed)
    everyone = range(seats)
    for ply in range(MAX_PLIES):
        seat = state.to_move()
        if seat == TERMINAL:
            yield _encoder.encode(["end", ply, state.scores(), state.ranks()])
            return
        if seat == CHANCE:
            outcome = state.sample_chance(rng)
            seen = [state.observe_chance(outcome, v) for v in everyone]
            yield _encoder.encode(["chance", ply, outcome, seen])
            state.apply_chance(outcome)
            continue
        views = [state.view(v) for v in everyone]
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        action = legal[index]
        seen = [state.observe_action(seat, action, v) for v in everyone]
        yield _encoder.encode(["decision", ply, seat, views, legal, index, seen])
        state.apply_action(action)
    raise RuntimeError(f"{game_name}: no end after {MAX_PLIES} plies (seed {seed})")


def digest(lines: Iterator[bytes]) -> str:
    """SHA-256 (hex) of the lines, each followed by a newline."""
    h = hashlib.sha256()
    for line in lines:
        h.update(line)
        h.update(b"\n")
    return h.hexdigest()
