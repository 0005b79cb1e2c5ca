"""In-process random playouts of every registered game: games/s and decisions/s.

Two loops per game, both single-process (so the numbers are for one core):

* ``bare`` – what a searching bot does: ``legal_actions()`` and apply;
* ``view`` – what the referee does at every decision: the mover's ``view(seat)``,
  ``legal_actions()``, every seat's ``observe_action`` and apply (chance nodes:
  sample, every seat's ``observe_chance``, apply).  Building the view is part of
  the engine's time per decision; encoding it for the wire is not.

Rates are per second of this process's CPU time (``time.process_time``), which a busy
host disturbs much less than wall time.

With ``--baseline REV`` the same measurements also run against the ``referee`` package
of revision ``REV`` (``git archive REV referee`` into a temporary folder).  Every
measurement then runs in a fresh subprocess, whose ``PYTHONPATH`` puts either that
tree or this checkout first (the child reports which ``referee`` it imported and the
run stops if it is not the expected one); baseline and current runs alternate, the
order flipping each round, for ``--rounds`` rounds, and the best CPU-time rate of each
side is kept.  A second table gives baseline, current and their ratio per game, seat
count and loop.  Without git or that revision one line says so and the comparison is
skipped.

``--case GAME[:SEATS[:LOOPS]]`` (repeatable) picks games with seat counts (``2-5`` or
``2,4``) and loops (``bare``, ``view`` or ``bare,view``); ``--game``, ``--seats`` and
``--loop`` still work for the simple cases.

Run: ``python -m benchmarks.engines [--seconds S] [--game NAME] [--seats N]
[--loop bare|view] [--case GAME:SEATS:LOOPS] [--baseline REV] [--rounds N]``
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from referee.api.engine import CHANCE, TERMINAL, Game
from referee.api.playout import random_playout
from referee.games import all_games, get_game

DEFAULT_SEATS = {"manila": 4, "navegador": 4, "puerto-rico": 4, "roads-and-boats": 2}
ROOT = Path(__file__).resolve().parent.parent

# One (game, seats, loop) measurement per child; prints a JSON line with the rates and
# the folder of the ``referee`` package it imported.
CHILD = """
import json, sys
from pathlib import Path
import referee
from benchmarks.engines import measure
name, seats, seconds, loop = json.loads(sys.argv[1])
row = measure(name, seats, seconds, loop)
row["package"] = str(Path(referee.__file__).resolve().parent)
print(json.dumps(row))
"""


def bare_playout(game: Game, seats: int, rng: random.Random, options: Any) -> int:
    """One random game through ``legal_actions`` and apply; returns its decisions."""
    return random_playout(game, seats, rng, options).decisions


def view_playout(game: Game, seats: int, rng: random.Random, options: Any) -> int:
    """One random game as the referee plays it (views and observations); returns decisions."""
    state = game.new_game(seats, options)
    everyone = range(seats)
    decisions = 0
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            outcome = state.sample_chance(rng)
            for viewer in everyone:
                state.observe_chance(outcome, viewer)
            state.apply_chance(outcome)
            continue
        state.view(seat)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        for viewer in everyone:
            state.observe_action(seat, action, viewer)
        state.apply_action(action)
        decisions += 1
    return decisions


LOOPS: dict[str, Callable[[Game, int, random.Random, Any], int]] = {
    "bare": bare_playout,
    "view": view_playout,
}


def measure(name: str, seats: int, seconds: float, loop: str = "bare") -> dict[str, Any]:
    """Play random games of ``name`` for about ``seconds`` of CPU with ``loop``; return rates
    per CPU second (keys game, seats, loop, games, games/s, decisions/s, decisions/game)."""
    game = get_game(name)
    options = game.parse_options({})
    play = LOOPS[loop]
    rng = random.Random(2026)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        decisions += play(game, seats, rng, options)
        games += 1
    elapsed = time.process_time() - start
    return {
        "game": name,
        "seats": seats,
        "loop": loop,
        "games": games,
        "games/s": games / elapsed,
        "decisions/s": decisions / elapsed,
        "decisions/game": decisions / games,
    }


def measure_in(tree: Path, name: str, seats: int, seconds: float, loop: str) -> dict[str, Any]:
    """:func:`measure` in a fresh interpreter importing ``referee`` from ``tree`` (this
    checkout or an extracted revision) and these benchmarks from this checkout.

    Raises ``click.ClickException`` if the child fails or imported another ``referee``.
    """
    paths = [str(tree)] if tree == ROOT else [str(tree), str(ROOT)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([name, seats, seconds, loop])],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise click.ClickException(f"{name} in {tree} failed:\n{done.stderr[-2000:]}")
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(row.pop("package")) != (tree / "referee").resolve():
        raise click.ClickException(f"expected the referee of {tree}, the child imported another")
    return row


def extract(rev: str, into: Path) -> str | None:
    """``git archive`` of ``rev``'s ``referee`` package into ``into``; ``None`` when done,
    else one line saying why not."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "referee"],
            capture_output=True,
            check=False,
        )
    except OSError:
        return "git is not available"
    if archive.returncode != 0:
        reason = archive.stderr.decode(errors="replace").strip().splitlines()
        return f"git archive {rev} failed ({reason[-1] if reason else 'no output'})"
    try:
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "tar could not unpack the archive"
    return None


def parse_seats(text: str) -> list[int]:
    """``"2-5"`` -> [2, 3, 4, 5]; ``"2,4"`` -> [2, 4]; ``"3"`` -> [3]."""
    seats: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seats.extend(range(int(low), int(high or low) + 1))
    return seats


def parse_case(text: str) -> list[tuple[str, int, str]]:
    """``GAME[:SEATS[:LOOPS]]`` -> (game, seats, loop) triples; seats default per game,
    loops default to both."""
    name, _, rest = text.partition(":")
    seats_text, _, loops_text = rest.partition(":")
    game = get_game(name)
    seats = parse_seats(seats_text) if seats_text else [DEFAULT_SEATS.get(name, game.min_seats)]
    loops = loops_text.split(",") if loops_text else ["bare", "view"]
    for loop in loops:
        if loop not in LOOPS:
            raise click.BadParameter(f"unknown loop {loop!r} in {text!r}")
    return [(name, n, loop) for n in seats for loop in loops]


def compare(
    cases: list[tuple[str, int, str]], seconds: float, rev: str, rounds: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """Alternating baseline/current child runs of every case; returns (best current rows,
    comparison rows) or ``None`` (after printing why) when ``rev`` cannot be extracted."""
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        base = Path(tmp)
        problem = extract(rev, base)
        if problem:
            print(f"(baseline {rev} skipped: {problem})")
            return None
        best: dict[tuple[str, int, str, str], dict[str, Any]] = {}
        for round_ in range(rounds):
            for case in cases:
                order = [("baseline", base), ("current", ROOT)]
                if round_ % 2:
                    order.reverse()
                for side, tree in order:
                    row = measure_in(tree, *case[:2], seconds, case[2])
                    key = (*case, side)
                    if key not in best or row["decisions/s"] > best[key]["decisions/s"]:
                        best[key] = row
    current = [best[(*case, "current")] for case in cases]
    table = []
    for name, seats, loop in cases:
        old = best[(name, seats, loop, "baseline")]["decisions/s"]
        new = best[(name, seats, loop, "current")]["decisions/s"]
        table.append(
            {
                "game": name,
                "seats": seats,
                "loop": loop,
                f"{rev} decisions/s": old,
                "current decisions/s": new,
                "ratio": new / old,
            }
        )
    return current, table


@click.command()
@click.option("--seconds", default=5.0, show_default=True, help="CPU seconds per game and loop.")
@click.option("--game", "names", multiple=True, help="Only these games.")
@click.option("--seats", type=int, default=None, help="Seat count (default per game).")
@click.option(
    "--loop",
    "loops",
    type=click.Choice(sorted(LOOPS)),
    multiple=True,
    help="Only these loops (default both).",
)
@click.option(
    "--case",
    "case_texts",
    multiple=True,
    help="GAME[:SEATS[:LOOPS]], e.g. navegador:2-5 or roads-and-boats:2,4:bare (repeatable).",
)
@click.option("--baseline", default=None, help="Also measure this revision's referee.")
@click.option(
    "--rounds", default=2, show_default=True, help="Alternating rounds per side (--baseline)."
)
def main(
    seconds: float,
    names: tuple[str, ...],
    seats: int | None,
    loops: tuple[str, ...],
    case_texts: tuple[str, ...],
    baseline: str | None,
    rounds: int,
) -> None:
    """Print a table of random-playout throughput per game and loop, and with
    ``--baseline`` the ratio of each to that revision's."""
    cases: list[tuple[str, int, str]] = []
    for text in case_texts:
        cases.extend(parse_case(text))
    if not case_texts or names:
        for name in names or tuple(all_games()):
            game = get_game(name)
            n = seats or DEFAULT_SEATS.get(name, game.min_seats)
            cases.extend((name, n, loop) for loop in loops or ("bare", "view"))
    if baseline:
        compared = compare(cases, seconds, baseline, max(rounds, 1))
        if compared:
            rows, table = compared
            print(tabulate(rows, headers="keys", floatfmt=".1f"))
            print(f"\nBest of {rounds} alternating rounds, decisions per CPU second:")
            print(tabulate(table, headers="keys", floatfmt=".2f"))
            return
    rows = [measure(name, n, seconds, loop) for name, n, loop in cases]
    print(tabulate(rows, headers="keys", floatfmt=".1f"))


if __name__ == "__main__":
    main()
