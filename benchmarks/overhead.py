"""Referee overhead: moves/s through the full protocol vs a raw pipe echo round trip.

Both use the same asyncio subprocess machinery and a Python child process:

* protocol: a 2-seat match of the toy "secret race" game (long target), both
  seats played by ``bots/random_bot.py`` – every move is an ``act`` with a view,
  legal list and events, validated and recorded;
* echo: one child that echoes each line; one line written, one line read.

Run: ``python -m benchmarks.overhead [--moves N]``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

import click
from tabulate import tabulate

from referee.bot import BotSpec
from referee.match import Clock, run_match
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[1]
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"


async def echo_rate(n: int) -> float:
    """Round trips per second through a Python echo child."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ECHO, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdin and proc.stdout
    line = b'{"type":"action","id":1,"index":0}\n'
    start = time.perf_counter()
    for _ in range(n):
        proc.stdin.write(line)
        await proc.stdin.drain()
        await proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.stdin.close()
    await proc.wait()
    return n / elapsed


async def protocol_rate(n: int) -> float:
    """Moves per second of a full match between two random bots (record written)."""
    bot = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        out = await run_match(
            GAME,
            [BotSpec("a", bot), BotSpec("b", bot)],
            seed=1,
            options=GAME.parse_options({"target": int(n * 1.5)}),
            clock=Clock(move_ms=5000),
            record_path=Path(tmp) / "m.jsonl",
            fsync=False,
        )
        elapsed = time.perf_counter() - start
    return sum(s.moves for s in out.seats) / elapsed


@click.command()
@click.option("--moves", default=5000, show_default=True, help="Moves (and echoes) to time.")
def main(moves: int) -> None:
    """Print moves/s through the protocol, echo round trips/s, and their ratio."""
    echo = asyncio.run(echo_rate(moves))
    proto = asyncio.run(protocol_rate(moves))
    rows = [
        {"path": "raw pipe echo (round trips/s)", "rate": echo},
        {"path": "referee protocol (moves/s)", "rate": proto},
        {"path": "protocol / echo", "rate": proto / echo},
    ]
    print(tabulate(rows, headers="keys", floatfmt=".2f"))


if __name__ == "__main__":
    main()
