"""Tournament throughput: a Manila round robin of the bundled Python bots in the
default configuration (sandbox on, reuse on), with reuse off, and at other
concurrencies, against the baseline as shipped (its own venv), alternating.

CPU per match is that of the whole process tree (referee, sandbox, bots): a bot's CPU
inside bubblewrap reaches the caller's ``RUSAGE_CHILDREN`` like any child's, so the
sandbox stays on.  This is the ``tournament`` section of :mod:`benchmarks.suite`.

Run: ``python -m benchmarks.tournament [--rounds 20] [--repeats 5] [--base REV]
[--concurrency 1 --concurrency 2]``.
"""

from __future__ import annotations

import sys

import click

from benchmarks.figures import command_line, load_report
from benchmarks.suite import run_suite


@click.command()
@click.option("--rounds", default=20, show_default=True, help="Rounds of 3 matches.")
@click.option("--base", default="5031fe4", show_default=True, help="Baseline revision.")
@click.option("--no-base", is_flag=True, help="Measure this checkout only.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--concurrency", type=int, multiple=True, help="Also at these concurrencies.")
def main(rounds: int, base: str, no_base: bool, repeats: int, concurrency: tuple[int, ...]) -> None:
    """Print matches/s and CPU per match, old beside new, medians of ``--repeats``."""
    print(f"command: {command_line('benchmarks.tournament', sys.argv[1:])}")
    with load_report("benchmarks.tournament"):
        run_suite(None if no_base else base, repeats, ["tournament"], rounds, 20, concurrency, True)


if __name__ == "__main__":
    main()
