"""Where a sandboxed bot's start-up time goes: spawn to ``ready`` of a trivial shell
bot with the sandbox taken apart, one piece at a time.

Variants, run bot by bot in turn (none, full, ..., none, full, ...) so that all see
the same load:

* ``none``: no sandbox;
* ``bwrap``: the sandbox as the referee runs it;
* ``bwrap, no /proc copies``: without the constant copies bound over the host-wide
  counter files of ``/proc`` (``referee.process.isolation.sandbox.HOST_COUNTERS``, one bind mount
  each);
* ``bwrap, no seccomp filter``: without the system-call filter;
* ``bwrap, neither``.

The variants without a piece are weaker sandboxes, measured only to find the cost;
the referee never runs them.  Prints the median, lower quartile and minimum wall ms
per variant, and each piece's cost as the difference of medians, with the load
average before and after.

Run: ``python -m benchmarks.sandbox_cost [--bots 40]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from tabulate import tabulate

from benchmarks.figures import command_line, load_report
from benchmarks.probe import TRIVIAL, start_message
from referee.process import bot as bot_module
from referee.process import loop as event_loop
from referee.process.bot import BotProcess
from referee.process.isolation import sandbox as sandbox_module
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.spec import BotLimits, BotSpec


@contextmanager
def without(masks: bool, seccomp: bool) -> Iterator[None]:
    """Take the ``/proc`` copies and/or the seccomp filter out of the sandbox while
    inside (benchmark only: the module attributes the referee reads are swapped)."""
    swaps: list[tuple[dict[str, Any], str, Callable[[], Any]]] = []
    if masks:
        swaps.append((vars(sandbox_module), "host_masks", lambda: []))
    if seccomp:
        swaps.append((vars(bot_module), "bot_filter", lambda: None))
    saved = [(names, name, names[name]) for names, name, _ in swaps]
    for names, name, value in swaps:
        names[name] = value
    try:
        yield
    finally:
        for names, name, value in saved:
            names[name] = value


VARIANTS = {
    "none": ("none", False, False),
    "bwrap": ("bwrap", False, False),
    "bwrap, no /proc copies": ("bwrap", True, False),
    "bwrap, no seccomp filter": ("bwrap", False, True),
    "bwrap, neither": ("bwrap", True, True),
}


async def measure(bots: int) -> dict[str, list[float]]:
    """Spawn-to-ready wall ms of ``bots`` bots per variant, interleaved."""
    got: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(bots):
        for name, (mode, masks, seccomp) in VARIANTS.items():
            with without(masks, seccomp):
                t0 = time.perf_counter()
                bot = await BotProcess.spawn(
                    BotSpec("bench", TRIVIAL),
                    limits=BotLimits(exit_grace_s=1.0),
                    sandbox=SandboxPolicy(mode),  # type: ignore[arg-type]
                )
                await bot.handshake(start_message(), 10_000)
                got[name].append(1000 * (time.perf_counter() - t0))
                await bot.close()
    return got


@click.command()
@click.option("--bots", type=click.IntRange(min=4), default=40, show_default=True)
def main(bots: int) -> None:
    """Print the start-up time of each variant and the cost of each piece."""
    if bwrap_problem() is not None:
        raise SystemExit(f"no sandbox here: {bwrap_problem()}")
    print(f"command: {command_line('benchmarks.sandbox_cost', sys.argv[1:])}")
    with load_report("sandbox_cost"):
        got = event_loop.run(measure(bots))
        rows = [
            [name, len(v), statistics.median(v), statistics.quantiles(v, n=4)[0], min(v)]
            for name, v in got.items()
        ]
        print(
            tabulate(
                rows,
                headers=["variant", "bots", "median ms", "lower quartile ms", "min ms"],
                floatfmt=".2f",
            )
        )
        med = {name: statistics.median(v) for name, v in got.items()}
        print(f"sandbox, all of it: {med['bwrap'] - med['none']:.2f} ms (difference of medians)")
        print(f"  the /proc copies: {med['bwrap'] - med['bwrap, no /proc copies']:.2f} ms")
        print(f"  the seccomp filter: {med['bwrap'] - med['bwrap, no seccomp filter']:.2f} ms")
        rest = med["bwrap, neither"] - med["none"]
        print(f"  the rest (namespaces, mounts, launchers): {rest:.2f} ms")


if __name__ == "__main__":
    main()
