"""What a slow move costs the referee: stopping a waiting seat's bot and continuing it.

Once the seat on move has thought for 10 ms, the turn guard
(:mod:`referee.process.turns`) stops every other live seat's bot
(:meth:`referee.process.bot.BotProcess.freeze`) and continues each one just before
its next act (:meth:`~referee.process.bot.BotProcess.thaw`).  This benchmark times
that cycle, freeze then thaw (:func:`benchmarks.probe.guard_cycles`, which ``make
bench`` runs on both sides), on one idle bot at a time: a shell bot that has
answered ``start``, alone or with ``--children`` sleeping child processes (a bot with
helpers: a tree to walk), under each sandbox mode this machine runs (``none``, and
``bwrap`` where bubblewrap works).

Per cycle it reports the referee's CPU (its thread's CPU time: the walk of the
bot's processes in ``/proc``, the signals, the reads that wait until each process is
stopped) and the wall time until the bot is stopped and continued.  Where the bot
has a cgroup with a freezer (cgroup v2, the referee running as root), a freeze is
one write to the group instead of a signal per process, and the table says which
mechanism ran.  A slow move in a match of ``n`` seats costs ``n - 1`` such cycles.

Each figure is the median (and minimum) of ``--repeats`` runs of ``--cycles``
cycles, the bots measured in turn, with the load average before and after.

Run: ``python -m benchmarks.turn_guard [--cycles 200] [--repeats 5] [--children 4]``.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass

import click
from tabulate import tabulate

from benchmarks.figures import command_line, load_report
from benchmarks.probe import guard_cycles
from benchmarks.suite import sandbox_modes
from referee.process import loop as event_loop


@dataclass(frozen=True)
class Cycles:
    """One run of stop-and-continue cycles on one bot: referee CPU and wall time per
    cycle (µs), and how the bot was stopped (``"cgroup freezer"`` or ``"signals"``)."""

    cpu_us: float
    wall_us: float
    mechanism: str


async def measure(children: int, count: int, repeats: int) -> dict[tuple[str, int], list[Cycles]]:
    """``repeats`` runs of :func:`benchmarks.probe.guard_cycles` per sandbox mode and
    bot (no children, and ``children``), each run on a fresh bot, the variants in turn."""
    sizes = sorted({0, children})
    got: dict[tuple[str, int], list[Cycles]] = {(m, n): [] for m in sandbox_modes() for n in sizes}
    for _ in range(repeats):
        for mode, size in got:
            got[(mode, size)].append(Cycles(*await guard_cycles(mode, size, count)))
    return got


@click.command()
@click.option("--cycles", "count", type=click.IntRange(min=1), default=200, show_default=True)
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--children", type=click.IntRange(min=0), default=4, show_default=True)
def main(count: int, repeats: int, children: int) -> None:
    """Print the referee's CPU and the wall time of one stop and continue of a bot."""
    print(f"command: {command_line('benchmarks.turn_guard', sys.argv[1:])}")
    with load_report("turn_guard"):
        got = event_loop.run(measure(children, count, repeats))
    rows = []
    for (mode, size), runs in got.items():
        cpu = [r.cpu_us for r in runs]
        wall = [r.wall_us for r in runs]
        rows.append(
            [
                mode,
                f"shell + {size} children" if size else "shell alone",
                runs[0].mechanism,
                statistics.median(cpu),
                min(cpu),
                statistics.median(wall),
                min(wall),
            ]
        )
    print(
        f"One stop and continue of a waiting bot (freeze, then thaw), per cycle; medians "
        f"and minima of {repeats} runs of {count} cycles:"
    )
    headers = [
        "sandbox",
        "bot",
        "stopped by",
        "referee CPU us",
        "(min)",
        "wall us",
        "(min)",
    ]
    print(tabulate(rows, headers=headers, floatfmt=".0f"))


if __name__ == "__main__":
    main()
