"""In-process random playouts of every registered game: games/s and decisions/s.

Run: ``python -m benchmarks.engines [--seconds S] [--game NAME] [--seats N]``
(single process, so the numbers are for one core).
"""

from __future__ import annotations

import random
import time

import click
from tabulate import tabulate

from referee.games import all_games
from referee.playout import random_playout

DEFAULT_SEATS = {"manila": 4, "navegador": 4, "puerto-rico": 4, "roads-and-boats": 2}


def measure(name: str, seats: int, seconds: float) -> dict[str, str | float]:
    """Play random games of ``name`` for about ``seconds``; return rates."""
    game = all_games()[name]
    options = game.parse_options({})
    rng = random.Random(2026)
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        played = random_playout(game, seats, rng, options)
        games += 1
        decisions += played.decisions
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "seats": seats,
        "games": games,
        "games/s": games / elapsed,
        "decisions/s": decisions / elapsed,
        "decisions/game": decisions / games,
    }


@click.command()
@click.option("--seconds", default=5.0, show_default=True, help="Time per game.")
@click.option("--game", "names", multiple=True, help="Only these games.")
@click.option("--seats", type=int, default=None, help="Seat count (default per game).")
def main(seconds: float, names: tuple[str, ...], seats: int | None) -> None:
    """Print a table of random-playout throughput per game."""
    rows = []
    for name in names or tuple(all_games()):
        game = all_games()[name]
        n = seats or DEFAULT_SEATS.get(name, game.min_seats)
        rows.append(measure(name, n, seconds))
    print(tabulate(rows, headers="keys", floatfmt=".1f"))


if __name__ == "__main__":
    main()
