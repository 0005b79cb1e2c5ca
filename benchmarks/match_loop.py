"""The compiled match loop against its Python source, same checkout, in one run.

``make setup`` compiles ``referee/match/match.py`` (the match loop: a decision's
bookkeeping from a reply to the next act) as it compiles the engines
(:mod:`referee.api.native`).  This benchmark plays whole Manila matches of reused C
random bots (``bots/examples/random_bot.c``, built here with ``cc``; no sandbox,
records written, as :func:`benchmarks.probe.matches_cpu` plays them for ``make
bench``) in fresh interpreters, one with ``REFEREE_PURE=referee.match`` (the match
loop from its Python source, the engines still compiled) and one without,
alternating, the order flipping each round.  It prints the referee's CPU per
decision (the bots' excluded), median and minimum of the rounds per side, their
ratio, and the load average before and after.

Run: ``python -m benchmarks.match_loop [--decisions 6000] [--rounds 7] [--game manila]``.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

import click
from tabulate import tabulate

from benchmarks.critical import SEATS, build_bot
from benchmarks.figures import command_line, load_report
from benchmarks.native import run_build
from referee.api import native

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "referee" / "match"

PROBE = """
import asyncio, json, sys
from benchmarks.probe import matches_cpu
from referee.api.native import status
from referee.process import loop
game, seats, bot, decisions = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
got = loop.run(matches_cpu(game, seats, bot, decisions, "none", True))
print(json.dumps({"cpu": got.cpu, "status": status().get("referee.match", "not imported")}))
"""


def probe(game: str, bot: str, decisions: int, python: bool) -> float:
    """Referee CPU µs per decision in one fresh interpreter, the match loop compiled or
    (``python``) from its source.  Raises :class:`RuntimeError` if the interpreter
    did not run the build asked for."""
    env = native.environment(python=False)
    if python:
        env[native.PURE_ENV] = "referee.match"
    args = [game, str(SEATS[game]), bot, str(decisions)]
    return float(run_build(PROBE, args, env, python)["cpu"]) * 1e6


@click.command()
@click.option("--decisions", type=click.IntRange(100), default=6000, show_default=True)
@click.option("--rounds", type=click.IntRange(1), default=7, show_default=True)
@click.option("--game", type=click.Choice(sorted(SEATS)), default="manila", show_default=True)
def main(decisions: int, rounds: int, game: str) -> None:
    """The compiled match loop against its Python source (see the module docstring)."""
    problem = native.problem(MATCH, "referee.match")
    if problem is not None:
        raise click.ClickException(f"no compiled match loop to measure: {problem}")
    sides: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp, load_report("match_loop"):
        bot = str(build_bot(Path(tmp)))
        for k in range(rounds):
            for pure in (True, False) if k % 2 == 0 else (False, True):
                sides[pure].append(probe(game, bot, decisions, pure))
    python, compiled = (statistics.median(sides[p]) for p in (True, False))
    args = ["--decisions", str(decisions), "--rounds", str(rounds), "--game", game]
    print(
        f"{game}: referee CPU us per decision in matches of reused C random bots (no "
        f"sandbox, records written), the match loop from its source "
        f"(REFEREE_PURE=referee.match) against compiled, {rounds} alternating rounds of "
        f"{decisions} decisions, each in a fresh interpreter "
        f"(`{command_line('benchmarks.match_loop', args)}`):"
    )
    rows = [
        ["Python", python, min(sides[True])],
        ["compiled", compiled, min(sides[False])],
    ]
    print(tabulate(rows, headers=["match loop", "median", "min"], floatfmt=".1f"))
    print(f"compiled ÷ Python: {compiled / python:.3f} (medians)")


if __name__ == "__main__":
    main()
