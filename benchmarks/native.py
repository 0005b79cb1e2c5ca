"""The compiled engines against their Python sources, same checkout, in one run.

For every game (those of :data:`benchmarks.engines.DEFAULT_SEATS`) with a fresh
compiled build (:mod:`referee.api.native`), random playouts
(:mod:`benchmarks.engines`: ``bare`` and ``view``) run in fresh interpreters, one
with ``REFEREE_PURE=1`` (Python) and one without (compiled), alternating, the order
flipping each round, for ``--rounds`` rounds of ``--seconds`` CPU seconds each.  The
table gives decisions per CPU second, median and best of the rounds per side, and
the ratio of the medians; the load average is printed before and after.  A game
whose build is missing or stale says so and is left out.

Run: ``python -m benchmarks.native [--seconds 2] [--rounds 5] [--game NAME]``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from benchmarks.engines import DEFAULT_SEATS
from benchmarks.figures import command_line, load_report
from referee.api import native

ROOT = Path(__file__).resolve().parent.parent


def folder(name: str) -> str:
    """The package folder under ``referee/games`` of the game ``name`` (``-`` read as
    ``_``, as :func:`referee.games.get_game` reads it)."""
    return name.replace("-", "_")


PROBE = """
import json, sys
from benchmarks.engines import measure
from referee.api.native import status
name, seats, loop, seconds, package = sys.argv[1:6]
rate = measure(name, int(seats), float(seconds), loop)["decisions/s"]
print(json.dumps({"rate": rate, "status": status().get(package, "not imported")}))
"""


def run_build(script: str, args: list[str], env: dict[str, str], python: bool) -> dict[str, Any]:
    """The JSON line that ``python -c script args`` prints, run from the repository
    root with ``env`` in a fresh interpreter; its ``status`` (what
    :func:`referee.api.native.status` said of the package measured) must say that it
    ran from Python if ``python``, compiled otherwise.  Raises :class:`RuntimeError`
    if not, and :class:`subprocess.CalledProcessError` if the script fails."""
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    got: dict[str, Any] = json.loads(out.stdout)
    if (got["status"] == "compiled") == python:
        raise RuntimeError(f"ran {got['status']}, asked for Python={python}: {args}")
    return got


def probe(name: str, seats: int, loop: str, seconds: float, pure: bool) -> float:
    """Decisions per CPU second of one fresh interpreter.  Raises :class:`RuntimeError`
    if the interpreter did not run the build asked for."""
    args = [name, str(seats), loop, str(seconds), f"referee.games.{folder(name)}"]
    return float(run_build(PROBE, args, native.environment(python=pure), pure)["rate"])


@click.command()
@click.option("--seconds", type=click.FloatRange(0.05), default=2.0, show_default=True)
@click.option("--rounds", type=click.IntRange(1), default=5, show_default=True)
@click.option("--game", "games", multiple=True, type=click.Choice(sorted(DEFAULT_SEATS)))
def main(seconds: float, rounds: int, games: tuple[str, ...]) -> None:
    """The compiled engines against their Python sources (see the module docstring)."""
    rows = []
    with load_report("native"):
        for name in games or sorted(DEFAULT_SEATS):
            problem = native.problem(ROOT / "referee" / "games" / folder(name))
            if problem is not None:
                print(f"({name}: no compiled build to measure: {problem})")
                continue
            seats = DEFAULT_SEATS[name]
            for loop in ("bare", "view"):
                sides: dict[bool, list[float]] = {True: [], False: []}
                for k in range(rounds):
                    for pure in (True, False) if k % 2 == 0 else (False, True):
                        sides[pure].append(probe(name, seats, loop, seconds, pure))
                python, compiled = (statistics.median(sides[p]) for p in (True, False))
                rows.append(
                    [
                        name,
                        seats,
                        loop,
                        python,
                        max(sides[True]),
                        compiled,
                        max(sides[False]),
                        compiled / python,
                    ]
                )
    args = ["--seconds", str(seconds), "--rounds", str(rounds)]
    args += [a for g in games for a in ("--game", g)]
    print(
        f"Decisions per CPU second, Python (REFEREE_PURE=1) against compiled, {rounds} "
        f"alternating rounds of {seconds} CPU seconds, each in a fresh interpreter "
        f"(`{command_line('benchmarks.native', args)}`):"
    )
    headers = [
        "game",
        "seats",
        "loop",
        "Python (median)",
        "(best)",
        "compiled (median)",
        "(best)",
        "compiled ÷ Python",
    ]
    print(tabulate(rows, headers=headers, floatfmt=".2f"))


if __name__ == "__main__":
    main()
