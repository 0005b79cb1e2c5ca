"""Referee cost per move, in CPU, against a raw pipe round trip to the same kind of child.

Three figures, all measured in this run with trivial C children (built here with the
system ``cc``; the benchmark says so and stops where there is none), and a Python
line for comparison:

* **raw echo**: referee-process CPU per round trip of a protocol-sized line through a
  C echo child (write, drain, read one line) with asyncio, nothing else;
* **request path**: referee CPU per :meth:`referee.bot.BotProcess.act` to the C random
  bot (a real Manila view and legal list, encoded and validated);
* **real match**: referee CPU per decision over whole 4-seat Manila matches between C
  random bots (spawn, handshake, engine, events, record, close), and beside it the
  engine's own CPU per decision (view, legal actions, observations, apply) for the
  same games, so the difference is the harness.

Run: ``python -m benchmarks.permove [--acts N] [--matches M]``.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import click
import msgspec
from tabulate import tabulate

from referee.bot import BotProcess, BotSpec
from referee.engine import CHANCE
from referee.games import get_game
from referee.match import Clock, run_match
from referee.protocol import PROTOCOL_VERSION, Act, MoveClock, Start, StartClock, encode
from referee.sandbox import SandboxPolicy, bwrap_problem

ROOT = Path(__file__).resolve().parents[1]
ECHO_C = r"""
#include <stdio.h>
int main(void) {
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) { fputs(line, stdout); fflush(stdout); }
    return 0;
}
"""


def build(directory: Path) -> tuple[Path, Path] | None:
    """Compile the echo child and the example C random bot; ``None`` without ``cc``."""
    cc = shutil.which("cc")
    if cc is None:
        return None
    echo_src = directory / "echo.c"
    echo_src.write_text(ECHO_C)
    echo, bot = directory / "echo", directory / "random_bot"
    subprocess.run([cc, "-O2", "-o", str(echo), str(echo_src)], check=True)
    src = ROOT / "bots" / "examples" / "random_bot.c"
    subprocess.run([cc, "-O2", "-o", str(bot), str(src)], check=True)
    return echo, bot


def sample_act() -> Act:
    """A real Manila decision as the referee sends it (4 seats, after setup)."""
    state = get_game("manila").new_game(4)
    rng = random.Random(1)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    seat = state.to_move()
    return Act(
        id=1,
        ply=0,
        view=state.view(seat),
        legal=state.legal_actions(),
        events=[],
        clock=MoveClock(1000, 0),
    )


async def echo_cpu(echo: Path, line: bytes, n: int) -> float:
    """Referee CPU seconds per raw round trip of ``line``."""
    proc = await asyncio.create_subprocess_exec(
        str(echo), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 21
    )
    assert proc.stdin and proc.stdout
    start = time.process_time()
    for _ in range(n):
        proc.stdin.write(line)
        await proc.stdin.drain()
        await proc.stdout.readline()
    cpu = time.process_time() - start
    proc.stdin.close()
    await proc.wait()
    return cpu / n


async def act_cpu(argv: list[str], act: Act, n: int) -> float:
    """Referee CPU seconds per :meth:`BotProcess.act` round trip."""
    bot = await BotProcess.spawn(BotSpec("bench", argv))
    start_msg = Start(PROTOCOL_VERSION, "bench", "manila", {}, 0, 4, ["b"] * 4, StartClock(1, 1, 0))
    await bot.handshake(start_msg, 10_000)
    start = time.process_time()
    for i in range(1, n + 1):
        act.id = i
        await bot.act(act, 10.0)
    cpu = time.process_time() - start
    await bot.close()
    return cpu / n


async def match_cpu(argv: list[str], matches: int, mode: str = "none") -> tuple[float, int]:
    """Referee CPU seconds per decision over whole matches under sandbox ``mode``, and
    the decisions played."""
    game = get_game("manila")
    decisions = 0
    start = time.process_time()
    for seed in range(matches):
        out = await run_match(
            game,
            [BotSpec(f"c{k}", argv) for k in range(4)],
            seed=seed,
            clock=Clock(move_ms=5000),
            sandbox=SandboxPolicy(mode),  # type: ignore[arg-type]
            fsync=False,
        )
        decisions += sum(s.moves for s in out.seats)
    return (time.process_time() - start) / decisions, decisions


def engine_cpu(matches: int) -> float:
    """Engine CPU seconds per decision doing what the referee asks of it (random play)."""
    game = get_game("manila")
    decisions = 0
    start = time.process_time()
    for seed in range(matches):
        rng = random.Random(seed)
        state = game.new_game(4)
        while (seat := state.to_move()) >= CHANCE:
            if seat == CHANCE:
                outcome = state.sample_chance(rng)
                for viewer in range(4):
                    state.observe_chance(outcome, viewer)
                state.apply_chance(outcome)
                continue
            view, legal = state.view(seat), state.legal_actions()
            msgspec.json.encode(view)
            action = legal[rng.randrange(len(legal))]
            for viewer in range(4):
                state.observe_action(seat, action, viewer)
            state.apply_action(action)
            decisions += 1
    return (time.process_time() - start) / decisions


@click.command()
@click.option("--acts", type=click.IntRange(min=100), default=3000, show_default=True)
@click.option("--matches", type=click.IntRange(min=1), default=10, show_default=True)
def main(acts: int, matches: int) -> None:
    """Print referee CPU per move against the raw echo, in microseconds."""
    with tempfile.TemporaryDirectory() as tmp:
        built = build(Path(tmp))
        if built is None:
            print("(no C compiler: cc not found; nothing measured)")
            return
        echo, c_bot = built
        act = sample_act()
        raw = asyncio.run(echo_cpu(echo, encode(act), acts))
        path = asyncio.run(act_cpu([str(c_bot)], act, acts))
        py_bot = [shutil.which("python3") or "python3", str(ROOT / "bots" / "random_bot.py")]
        path_py = asyncio.run(act_cpu(py_bot, act, acts))
        per_move, decisions = asyncio.run(match_cpu([str(c_bot)], matches))
        boxed = None
        if bwrap_problem() is None:
            boxed, _ = asyncio.run(match_cpu([str(c_bot)], matches, "bwrap"))
    engine = engine_cpu(matches)
    us = 1e6
    rows = [
        ["raw echo round trip (C child)", raw * us, 1.0],
        ["request path, BotProcess.act (C bot)", path * us, path / raw],
        ["request path, BotProcess.act (Python bot)", path_py * us, path_py / raw],
        [f"real match, per decision ({decisions} in {matches} Manila matches)", per_move * us, ""],
        ["  of which the engine (view, legal, observe, apply)", engine * us, ""],
        ["  the harness (match minus engine)", (per_move - engine) * us, ""],
    ]
    if boxed is not None:
        rows.append(["real match under the sandbox, per decision", boxed * us, ""])
        rows.append(["  the harness (match minus engine)", (boxed - engine) * us, ""])
    print(tabulate(rows, headers=["referee CPU", "us per move", "x raw echo"], floatfmt=".1f"))


if __name__ == "__main__":
    main()
