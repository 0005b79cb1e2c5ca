"""Referee cost per move, in CPU, against a raw pipe round trip to the same kind of child.

All figures are measured in this run with trivial C children (built here with the
system ``cc``; the benchmark says so and stops where there is none), with Python lines
for comparison:

* **raw echo**: referee-process CPU per round trip of a protocol-sized line through a
  C echo child (write, drain, read one line) with asyncio, nothing else;
* **request path**: referee CPU per :meth:`referee.process.bot.BotProcess.act` to the C random
  bot (a real Manila view and legal list, encoded and validated);
* **real match**: referee CPU per decision over whole 4-seat Manila matches between C
  random bots (spawn, handshake, engine, events, record, close), with a fresh process
  per match and with processes reused across matches (:mod:`referee.process.pool`), and
  beside it the engine's own CPU per decision (view, legal actions, observations,
  apply) for the same games, so the difference is the harness;
* **harness gap**: wall time from a bot's reply being flushed to the next request
  reaching a bot (the bots stamp both with ``CLOCK_MONOTONIC``), the first request of
  each match excluded, for C and Python bots, reused across matches.

Everything is measured with the referee and its children free to run on every
core, and all bound to one core (as a tournament's ``affinity`` binds each match;
see :mod:`referee.process.isolation.affinity`), each on asyncio's own event loop and on uvloop (the
referee's loop where installed, :mod:`referee.process.loop`).  Every ratio divides by the raw
echo **on the same loop** (dividing uvloop's request path by asyncio's echo once made
the request path look faster than a raw echo); the ratio against a blocking echo (no
event loop at all) is printed beside it.  Each figure is the median, and the minimum,
of ``--repeats`` runs; the load average is printed before and after.  A request and
its reply alternate between two processes; when the scheduler puts them on
different cores, each wake-up crosses cores, which on a virtual machine costs
several times a wake-up on the same core, so the "all cores" columns swing with
where the scheduler happens to place the processes.

Run: ``python -m benchmarks.overhead [--acts N] [--matches M] [--repeats R]``.
:mod:`benchmarks.suite` (``make bench``) measures the real-match ratio for every game,
with the sandbox, old beside new.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import click
import msgspec
from tabulate import tabulate

from benchmarks.figures import command_line, load_report
from benchmarks.players import ECHO_C, STAMP_C, STAMP_PY
from benchmarks.probe import act_cpu, echo_cpu, stamp_gaps
from referee.api.engine import CHANCE
from referee.games import get_game
from referee.match.match import Clock, run_match
from referee.process import loop as event_loop
from referee.process.isolation.affinity import pinned
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.pool import BotPool
from referee.process.protocol import Act, MoveClock, encode
from referee.process.spec import BotSpec

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")


# A first-legal-action bot that opts into reuse and stamps, in CLOCK_MONOTONIC ns, when
# each act line was read ("a <id> <ns>") and each reply flushed ("r <ns>"); the stamps
# go to the file named by argv[1] when its input ends.


def build(directory: Path) -> tuple[Path, Path, Path] | None:
    """Compile the echo child, the example C random bot and the stamping C bot;
    ``None`` without ``cc``."""
    cc = shutil.which("cc")
    if cc is None:
        return None
    built = []
    for name, source in (("echo", ECHO_C), ("stamp", STAMP_C)):
        (directory / f"{name}.c").write_text(source)
        subprocess.run(
            [cc, "-O2", "-o", str(directory / name), str(directory / f"{name}.c")], check=True
        )
        built.append(directory / name)
    bot = directory / "random_bot"
    src = ROOT / "bots" / "examples" / "random_bot.c"
    subprocess.run([cc, "-O2", "-o", str(bot), str(src)], check=True)
    return built[0], bot, built[1]


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


def blocking_echo_cpu(echo: Path, line: bytes, n: int) -> float:
    """Referee CPU seconds per raw round trip of ``line`` with blocking ``os.write`` and
    ``os.read`` (no event loop at all): the floor of any referee."""
    proc = subprocess.Popen([str(echo)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    out, inp = proc.stdin.fileno(), proc.stdout.fileno()
    start = time.process_time()
    for _ in range(n):
        os.write(out, line)
        got = os.read(inp, 1 << 21)
        while not got.endswith(b"\n"):
            got += os.read(inp, 1 << 21)
    cpu = time.process_time() - start
    proc.stdin.close()
    proc.wait()
    return cpu / n


async def match_cpu(
    argv: list[str], matches: int, mode: str = "none", reuse: bool = False
) -> tuple[float, int]:
    """Referee CPU seconds per decision over whole matches under sandbox ``mode``
    (with ``reuse``, bots come from one :class:`BotPool`), and the decisions played.
    Records are written (no fsync) to a hidden temporary folder."""
    game = get_game("manila")
    decisions = 0
    pool = BotPool() if reuse else None
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        for seed in range(matches):
            out = await run_match(
                game,
                [BotSpec(f"c{k}", argv) for k in range(4)],
                seed=seed,
                clock=Clock(move_ms=5000),
                sandbox=SandboxPolicy(mode, False, (tmp,)),  # type: ignore[arg-type]
                record_path=Path(tmp) / f"{seed}.jsonl",
                fsync=False,
                pool=pool,
                reuse_tag=str(seed),
            )
            decisions += sum(s.moves for s in out.seats)
        if pool is not None:
            await pool.close()
        cpu = time.process_time() - start
    return cpu / decisions, decisions


async def gap_us(argv: list[str], matches: int, stamps: Path) -> tuple[float, float, int]:
    """Harness gap (median and mean wall microseconds, and count): from a reply flushed
    to the next act read by a bot, over Manila matches of stamping bots reused
    across matches; ``argv`` gets the stamp file's path appended."""
    game = get_game("manila")
    pool = BotPool()
    for seed in range(matches):
        await run_match(
            game,
            [BotSpec(f"s{k}", [*argv, str(stamps / f"seat{k}")]) for k in range(4)],
            seed=seed,
            clock=Clock(move_ms=5000),
            sandbox=SandboxPolicy("none", False, (str(stamps),)),
            fsync=False,
            pool=pool,
            reuse_tag=str(seed),
        )
    await pool.close()
    gaps = stamp_gaps(stamps)
    return statistics.median(gaps), statistics.fmean(gaps), len(gaps)


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


def measure(
    built: tuple[Path, Path, Path],
    work: Path,
    acts: int,
    matches: int,
    factory: event_loop.Factory,
) -> dict[str, float]:
    """Every figure once, in seconds (CPU per round trip or decision) or microseconds
    (``gap_*``), with the children started here (so they share this process's
    cores), each asynchronous one on a fresh loop from ``factory``."""

    def run(main: Coroutine[Any, Any, T]) -> T:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(main)

    python = shutil.which("python3") or sys.executable
    echo, c_bot, stamp = built
    act = sample_act()
    py_bot = [python, str(ROOT / "bots" / "random_bot.py")]
    got: dict[str, float] = {}
    got["raw"] = run(echo_cpu(str(echo), encode(act), acts, warm=0))
    got["blocking"] = blocking_echo_cpu(echo, encode(act), acts)
    got["path"] = run(act_cpu([str(c_bot)], act, acts, warm=0))
    got["path_py"] = run(act_cpu(py_bot, act, acts, warm=0))
    got["fresh"], got["fresh_n"] = run(match_cpu([str(c_bot)], matches))
    got["reused"], got["reused_n"] = run(match_cpu([str(c_bot)], matches * 4, reuse=True))
    got["reused_py"], _ = run(match_cpu(py_bot, matches * 4, reuse=True))
    if bwrap_problem() is None:
        got["boxed"], _ = run(match_cpu([str(c_bot)], matches, "bwrap"))
        got["boxed_reused"], _ = run(match_cpu([str(c_bot)], matches * 4, "bwrap", True))
    for name, argv in (("c", [str(stamp)]), ("py", [python, "-c", STAMP_PY])):
        stamps = Path(tempfile.mkdtemp(dir=work))
        got[f"gap_{name}"], got[f"gap_{name}_mean"], got[f"gap_{name}_n"] = run(
            gap_us(argv, matches, stamps)
        )
    got["engine"] = engine_cpu(matches * 4)
    return got


@click.command()
@click.option("--acts", type=click.IntRange(min=100), default=3000, show_default=True)
@click.option("--matches", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
def main(acts: int, matches: int, repeats: int) -> None:
    """Print referee CPU per move against the raw echo, in microseconds: once with the
    referee and its children free to run on every core, once all bound to one core
    (as a tournament's ``affinity`` does; on virtual machines a wake-up across cores
    costs far more than one on the same core, and the scheduler decides which)."""
    print(f"command: {command_line('benchmarks.overhead', sys.argv[1:])}")
    with load_report("overhead"):
        report(acts, matches, repeats)


def report(acts: int, matches: int, repeats: int) -> None:
    """Measure ``repeats`` times and print the tables (see :func:`main`)."""
    with tempfile.TemporaryDirectory() as tmp:
        built = build(Path(tmp))
        if built is None:
            print("(no C compiler: cc not found; nothing measured)")
            return
        every: dict[str, list[dict[str, float]]] = {}
        for _ in range(repeats):
            for cores in ("all cores", "one core"):
                with pinned(cores == "one core"):
                    for loop, factory in event_loop.installed().items():
                        label = f"{cores}, {loop}"
                        got = measure(built, Path(tmp), acts, matches, factory)
                        every.setdefault(label, []).append(got)
    if len(every) < 4:
        print("(uvloop is not installed: asyncio's loop only)")
    us = 1e6

    def spread(label: str, key: str, minus: str = "", over: str = "") -> list[float]:
        """Per-run values of ``key`` (minus ``minus``, divided by ``over``)."""
        values = []
        for got in every[label]:
            value = got[key] - (got[minus] if minus else 0.0)
            values.append(value / got[over] if over else value * us)
        return values

    def cell(label: str, key: str, minus: str = "") -> str:
        if key not in every[label][0]:
            return "-"
        values = spread(label, key, minus)
        return f"{statistics.median(values):.1f} ({min(values):.1f})"

    def row(label: str, key: str, minus: str = "") -> list[str]:
        return [label] + [cell(name, key, minus) for name in every]

    first = next(iter(every.values()))[0]
    rows = [
        row("raw echo round trip (C child), asyncio streams", "raw"),
        row("raw echo round trip (C child), blocking os.write/os.read", "blocking"),
        row("request path, BotProcess.act (C bot)", "path"),
        row("request path, BotProcess.act (Python bot)", "path_py"),
        row(f"real match, fresh bots ({int(first['fresh_n'])} decisions)", "fresh"),
        row(f"real match, reused bots ({int(first['reused_n'])} decisions)", "reused"),
        row("real match, reused Python random bots", "reused_py"),
        row("  the engine alone (view, legal, observe, apply)", "engine"),
        row("  harness, fresh bots (match minus engine)", "fresh", "engine"),
        row("  harness, reused bots (match minus engine)", "reused", "engine"),
        row("real match under the sandbox, fresh bots", "boxed"),
        row("real match under the sandbox, reused bots", "boxed_reused"),
        row("  harness, sandbox, reused bots", "boxed_reused", "engine"),
    ]
    headers = ["referee CPU, us per move: median (min)", *every]
    print(f"{repeats} runs of each figure:")
    print(tabulate(rows, headers=headers))
    for label in every:
        path = spread(label, "path", over="raw")
        blocking = spread(label, "path", over="blocking")
        harness = spread(label, "reused", "engine")
        print(
            f"{label}: request path / raw echo on the same loop: median "
            f"{statistics.median(path):.2f}x, min {min(path):.2f}x (against the blocking "
            f"echo {statistics.median(blocking):.2f}x); harness per decision, reused bots: "
            f"median {statistics.median(harness):.0f} us, min {min(harness):.0f} us"
        )
    print(
        tabulate(
            [
                [
                    f"{kind} stamping bots, {label}",
                    statistics.median(spread(label, f"gap_{k}")) / us,
                    min(spread(label, f"gap_{k}")) / us,
                    int(every[label][0][f"gap_{k}_n"]),
                ]
                for k, kind in (("c", "C"), ("py", "Python"))
                for label in every
            ],
            headers=["harness gap (wall)", "median of run medians, us", "min", "gaps per run"],
            floatfmt=".1f",
        )
    )


if __name__ == "__main__":
    main()
