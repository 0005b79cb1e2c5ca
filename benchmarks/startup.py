"""Bot start-up cost: spawn to ``ready`` and close, with and without the sandbox and
with process reuse.

For each sandbox mode, ``--bots`` times in a row: spawn a trivial bot (a POSIX shell
loop, so the figure is the referee's and the sandbox's, not an interpreter's), send
``start``, wait for ``ready``, then close it (stdin closed, process group ended,
reaped).  Prints per bot: wall ms from spawn to ``ready`` (mean and median), wall
ms of the close, the referee's own CPU ms and the children's CPU ms (bwrap, the
launcher and the bot).
The *reused* lines start one process and then give it ``--bots`` matches' worth of
``start``/``ready`` exchanges, as a reused bot costs the referee between matches
(:meth:`BotProcess.next_match` and the handshake; nothing to close).

Run: ``python -m benchmarks.startup [--bots N]``.
"""

from __future__ import annotations

import resource
import statistics
import time
from typing import Any

import click
from tabulate import tabulate

from referee.process import loop as event_loop
from referee.process.bot import BotProcess
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.protocol import PROTOCOL_VERSION, Start, StartClock
from referee.process.spec import BotLimits, BotSpec

TRIVIAL = [
    "/bin/sh",
    "-c",
    'while read l; do case "$l" in *\'"start"\'*) echo \'{"type":"ready","reuse":true}\';; '
    "esac; done",
]
START = Start(
    protocol=PROTOCOL_VERSION,
    match="bench",
    game="manila",
    options={},
    seat=0,
    seats=1,
    players=["bench"],
    clock=StartClock(10_000, 1000, 0),
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def measure(policy: SandboxPolicy, bots: int) -> dict[str, float]:
    """Mean per-bot figures (ms) over ``bots`` sequential start-ups under ``policy``."""
    spec = BotSpec("bench", TRIVIAL)
    limits = BotLimits(exit_grace_s=1.0)
    readies: list[float] = []
    closing = 0.0
    cpu0, child0 = time.process_time(), _children_cpu()
    for _ in range(bots):
        t0 = time.perf_counter()
        bot = await BotProcess.spawn(spec, limits=limits, sandbox=policy)
        await bot.handshake(START, 10_000)
        t1 = time.perf_counter()
        await bot.close()
        t2 = time.perf_counter()
        readies.append(t1 - t0)
        closing += t2 - t1
    cpu, child = time.process_time() - cpu0, _children_cpu() - child0
    return {
        "spawn to ready ms": 1000 * sum(readies) / bots,
        "median ms": 1000 * statistics.median(readies),
        "close ms": 1000 * closing / bots,
        "referee CPU ms": 1000 * cpu / bots,
        "children CPU ms": 1000 * child / bots,
    }


async def measure_reuse(policy: SandboxPolicy, bots: int) -> dict[str, float]:
    """Mean per-match figures (ms) of one reused process over ``bots`` handshakes."""
    bot = await BotProcess.spawn(BotSpec("bench", TRIVIAL), sandbox=policy)
    await bot.handshake(START, 10_000)
    readies: list[float] = []
    cpu0, child0 = time.process_time(), _children_cpu()
    for _ in range(bots):
        t0 = time.perf_counter()
        bot.next_match(None)
        await bot.handshake(START, 10_000)
        readies.append(time.perf_counter() - t0)
    cpu, child = time.process_time() - cpu0, _children_cpu() - child0
    await bot.close()
    return {
        "spawn to ready ms": 1000 * sum(readies) / bots,
        "median ms": 1000 * statistics.median(readies),
        "close ms": 0.0,
        "referee CPU ms": 1000 * cpu / bots,
        "children CPU ms": 1000 * child / bots,
    }


@click.command()
@click.option("--bots", type=click.IntRange(min=1), default=40, show_default=True)
def main(bots: int) -> None:
    """Print per-bot start-up and close costs without and with the sandbox."""
    rows: list[dict[str, Any]] = []
    modes = ["none"] + (["bwrap"] if bwrap_problem() is None else [])
    for mode in modes:
        figures = event_loop.run(measure(SandboxPolicy(mode), bots))  # type: ignore[arg-type]
        rows.append({"sandbox": mode, **{k: round(v, 2) for k, v in figures.items()}})
    if len(rows) == 2:
        extra = rows[1]["spawn to ready ms"] - rows[0]["spawn to ready ms"]
        median = rows[1]["median ms"] - rows[0]["median ms"]
        rows.append(
            {
                "sandbox": "bwrap - none",
                "spawn to ready ms": round(extra, 2),
                "median ms": round(median, 2),
            }
        )
    else:
        print(f"(no bwrap line: {bwrap_problem()})")
    for mode in modes:
        figures = event_loop.run(measure_reuse(SandboxPolicy(mode), bots))  # type: ignore[arg-type]
        rows.append({"sandbox": f"{mode}, reused", **{k: round(v, 2) for k, v in figures.items()}})
    print(tabulate(rows, headers="keys"))
    fixed = rows[0]["referee CPU ms"]
    print(f"fixed referee CPU per bot, no sandbox: {fixed:.2f} ms (target <= 5)")


if __name__ == "__main__":
    main()
