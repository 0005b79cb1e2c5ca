"""In-process random playouts of every registered game: games/s and decisions/s.

Two loops per game, both single-process (so the numbers are for one core):

* ``bare`` – what a searching bot does: ``legal_actions()`` and apply;
* ``view`` – what the referee does at every decision: the mover's ``view(seat)``,
  ``legal_actions()``, every seat's ``observe_action`` and apply (chance nodes:
  sample, every seat's ``observe_chance``, apply).  Building the view is part of
  the engine's time per decision; encoding it for the wire is not.

Rates are per second of this process's CPU time (``time.process_time``), which a busy
host disturbs much less than wall time.

With ``--baseline REV`` the same measurements also run against revision ``REV`` as
shipped: built once in its own venv from its own ``pyproject.toml`` under ``.bench/``
(:mod:`benchmarks.baseline`).  Every measurement then runs in a fresh interpreter of
one side (:mod:`benchmarks.probe`, which checks the ``referee`` it imported); the
sides alternate, the order flipping each round, for ``--rounds`` rounds, and each
figure is the median (and the best) of its rounds.  A second table gives baseline,
current and the ratio of the medians per game, seat count and loop.  Where the
baseline cannot be built one line says why and the comparison is skipped.

``--case GAME[:SEATS[:LOOPS]]`` (repeatable) picks games with seat counts (``2-5`` or
``2,4``) and loops (``bare``, ``view`` or ``bare,view``); ``--game``, ``--seats`` and
``--loop`` still work for the simple cases.

Run: ``python -m benchmarks.engines [--seconds S] [--game NAME] [--seats N]
[--loop bare|view] [--case GAME:SEATS:LOOPS] [--baseline REV] [--rounds N]``
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from benchmarks import baseline
from benchmarks.figures import command_line, load_report
from referee.api.engine import CHANCE, TERMINAL, Game
from referee.api.playout import random_playout
from referee.games import all_games, get_game

DEFAULT_SEATS = {"manila": 4, "navegador": 4, "puerto-rico": 4, "roads-and-boats": 2}
ROOT = Path(__file__).resolve().parent.parent


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
    """Alternating baseline/current runs of every case, each in a fresh interpreter of
    its side; returns (median current rows, comparison rows) or ``None`` (after
    printing why) when the baseline cannot be built."""
    try:
        sides = [baseline.prepare(rev), baseline.current()]
    except baseline.BaselineError as error:
        print(f"(baseline {rev} skipped: {error})")
        return None
    current, table = [], []
    for name, seats, loop in cases:
        args = {"game": name, "seats": seats, "loop": loop, "seconds": seconds}
        got = baseline.alternate(
            sides, rounds, functools.partial(baseline.run_probe, kind="engine", args=args)
        )
        old, new = ([r["decisions_per_s"] for r in got[side.label]] for side in sides)
        current.append(
            {"game": name, "seats": seats, "loop": loop, "decisions/s": statistics.median(new)}
        )
        table.append(
            {
                "game": name,
                "seats": seats,
                "loop": loop,
                f"{rev} median/s": statistics.median(old),
                f"{rev} best/s": max(old),
                "current median/s": statistics.median(new),
                "current best/s": max(new),
                "ratio of medians": statistics.median(new) / statistics.median(old),
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
    "--rounds", default=5, show_default=True, help="Runs per case (alternating with --baseline)."
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
    print(f"command: {command_line('benchmarks.engines', sys.argv[1:])}")
    with load_report("engines"):
        run(seconds, names, seats, loops, case_texts, baseline, rounds)


def run(
    seconds: float,
    names: tuple[str, ...],
    seats: int | None,
    loops: tuple[str, ...],
    case_texts: tuple[str, ...],
    baseline: str | None,
    rounds: int,
) -> None:
    """What :func:`main` prints, between its load lines."""
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
            _, table = compared
            print(f"\n{rounds} alternating rounds per side, decisions per CPU second:")
            print(tabulate(table, headers="keys", floatfmt=".2f"))
            return
    rows = []
    for name, n, loop in cases:
        runs = [measure(name, n, seconds, loop) for _ in range(max(rounds, 1))]
        rates = [r["decisions/s"] for r in runs]
        row = runs[0] | {"runs": len(runs), "decisions/s": statistics.median(rates)}
        rows.append(row | {"best decisions/s": max(rates)})
    print(f"{max(rounds, 1)} runs per case, median and best:")
    print(tabulate(rows, headers="keys", floatfmt=".1f"))


if __name__ == "__main__":
    main()
