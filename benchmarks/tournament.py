"""Tournament throughput (matches/s) at concurrency 1 and 2 with random bots.

Run: ``python -m benchmarks.tournament [--game manila] [--rounds 4]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import click
from tabulate import tabulate

from referee.config import BotEntry, TournamentConfig
from referee.tournament import create_run, run_tournament

ROOT = Path(__file__).resolve().parents[1]


def throughput(game: str, seats: int, rounds: int, concurrency: int) -> tuple[int, float]:
    """(matches, matches/s) of a fresh round robin of random bots."""
    bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    config = TournamentConfig(
        name="bench",
        game=game,
        seats=seats,
        rounds=rounds,
        move_ms=10_000,
        bots=[BotEntry(f"random{i}", bot) for i in range(seats)],
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        create_run(config, ROOT, out)
        start = time.perf_counter()
        rows = run_tournament(out, concurrency=concurrency)
        return len(rows), len(rows) / (time.perf_counter() - start)


@click.command()
@click.option("--game", default="manila", show_default=True)
@click.option("--seats", default=3, show_default=True)
@click.option("--rounds", default=6, show_default=True)
def main(game: str, seats: int, rounds: int) -> None:
    """Print matches/s at concurrency 1 and 2 and the scaling ratio."""
    n1, r1 = throughput(game, seats, rounds, 1)
    n2, r2 = throughput(game, seats, rounds, 2)
    rows = [
        {"concurrency": 1, "matches": n1, "matches/s": r1},
        {"concurrency": 2, "matches": n2, "matches/s": r2},
    ]
    print(tabulate(rows, headers="keys", floatfmt=".2f"))
    print(f"scaling ratio (2 vs 1): {r2 / r1:.2f}")


if __name__ == "__main__":
    main()
