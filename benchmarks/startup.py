"""Bot start-up cost: spawn to ``ready`` of a trivial bot (a POSIX shell loop, so the
figure is the referee's and the sandbox's, not an interpreter's), without and with the
sandbox, per bot, against the baseline as shipped (its own venv), alternating.

Each run starts ``--bots`` bots in a row (spawn, ``start``, wait for ``ready``,
close) and keeps their median; each figure is the median and minimum of ``--repeats``
runs; the sandbox's cost is the difference of the medians with and without it, run
by run.  This is the ``startup`` section of :mod:`benchmarks.suite`.

The referee's CPU per bot without the sandbox includes closing the bot, whose sweep
for escaped processes once read every process on the host (so it grew with a busy
desktop's hundreds of processes) and now walks the referee's own process tree:
``--crowd 400`` runs 400 idle processes more on the host to show it.

Run: ``python -m benchmarks.startup [--bots 20] [--repeats 5] [--base REV] [--crowd N]``.
"""

from __future__ import annotations

import sys

import click

from benchmarks.figures import command_line, load_report
from benchmarks.suite import run_suite


@click.command()
@click.option("--bots", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--base", default="5031fe4", show_default=True, help="Baseline revision.")
@click.option("--no-base", is_flag=True, help="Measure this checkout only.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option(
    "--crowd",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Idle processes to run on the host meanwhile, outside the referee's tree.",
)
def main(bots: int, base: str, no_base: bool, repeats: int, crowd: int) -> None:
    """Print per-bot start-up figures, old beside new, medians of ``--repeats``."""
    print(f"command: {command_line('benchmarks.startup', sys.argv[1:])}")
    with load_report("benchmarks.startup"):
        run_suite(None if no_base else base, repeats, ["startup"], bots=bots, crowd_size=crowd)


if __name__ == "__main__":
    main()
