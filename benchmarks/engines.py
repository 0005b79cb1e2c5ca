"""In-process random playouts of every registered game: games/s and decisions/s.

Two loops per game, both single-process (so the numbers are for one core):

* ``bare`` – what a searching bot does: ``legal_actions()`` and apply;
* ``view`` – what the referee does at every decision: the mover's ``view(seat)``,
  ``legal_actions()``, every seat's ``observe_action`` and apply (chance nodes:
  sample, every seat's ``observe_chance``, apply).  Building the view is part of
  the engine's time per decision; encoding it for the wire is not.

Rates are per second of this process's CPU time (``time.process_time``), which a busy
host disturbs much less than wall time.

Run: ``python -m benchmarks.engines [--seconds S] [--game NAME] [--seats N] [--loop bare|view]``
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import click
from tabulate import tabulate

from referee.engine import CHANCE, TERMINAL, Game
from referee.games import all_games, get_game
from referee.playout import random_playout

DEFAULT_SEATS = {"manila": 4, "navegador": 4, "puerto-rico": 4, "roads-and-boats": 2}


def bare_playout(game: Game, seats: int, rng: random.Random, options: Any) -> int:
    """One random game through ``legal_actions`` and apply; returns its decisions."""
    return random_playout(game, seats, rng, options).decisions


def view_playout(game: Game, seats: int, rng: random.Random, options: Any) -> int:
    """One random game as the referee plays it (views and observations); returns decisions."""
    state = game.new_game(seats, options)
    everyone = range(seats)
    decisions = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            outcome = state.sample_chance(rng)
            for viewer in everyone:
                state.observe_chance(outcome, viewer)
            state.apply_chance(outcome)
            continue
        state.view(seat)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        for viewer in everyone:
            state.observe_action(seat, action, viewer)
        state.apply_action(action)
        decisions += 1
    return decisions


LOOPS: dict[str, Callable[[Game, int, random.Random, Any], int]] = {
    "bare": bare_playout,
    "view": view_playout,
}


def measure(name: str, seats: int, seconds: float, loop: str = "bare") -> dict[str, str | float]:
    """Play random games of ``name`` for about ``seconds`` of CPU with ``loop``; return rates
    per CPU second."""
    game = get_game(name)
    options = game.parse_options({})
    play = LOOPS[loop]
    rng = random.Random(2026)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        decisions += play(game, seats, rng, options)
        games += 1
    elapsed = time.process_time() - start
    return {
        "game": name,
        "seats": seats,
        "loop": loop,
        "games": games,
        "games/s": games / elapsed,
        "decisions/s": decisions / elapsed,
        "decisions/game": decisions / games,
    }


@click.command()
@click.option("--seconds", default=5.0, show_default=True, help="CPU seconds per game and loop.")
@click.option("--game", "names", multiple=True, help="Only these games.")
@click.option("--seats", type=int, default=None, help="Seat count (default per game).")
@click.option(
    "--loop",
    "loops",
    type=click.Choice(sorted(LOOPS)),
    multiple=True,
    help="Only these loops (default both).",
)
def main(seconds: float, names: tuple[str, ...], seats: int | None, loops: tuple[str, ...]) -> None:
    """Print a table of random-playout throughput per game and loop."""
    rows = []
    for name in names or tuple(all_games()):
        game = get_game(name)
        n = seats or DEFAULT_SEATS.get(name, game.min_seats)
        for loop in loops or ("bare", "view"):
            rows.append(measure(name, n, seconds, loop))
    print(tabulate(rows, headers="keys", floatfmt=".1f"))


if __name__ == "__main__":
    main()
