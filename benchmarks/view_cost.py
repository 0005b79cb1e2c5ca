"""Where the Roads & Boats view's time goes in the referee's loop.

The view-inclusive random playout of :mod:`benchmarks.engines` (what the referee does
at every decision: the mover's view, the legal actions, every seat's observation,
apply) is played in variants that take one part of the view's work away at a time:

* ``whole``: the view as the referee builds it;
* ``<part> kept``: one memoised part of the view (:mod:`referee.games.roads_and_boats.
  viewmemo`: transporters, piles, buildings, layout, research) returns what it
  returned the first time, so neither its check nor its rebuilds cost anything; the
  difference to ``whole`` is that part's cost per decision in the loop;
* ``every part kept``: all five at once; what is left of the view is the struct, its
  scalar fields and the copies of the small per-step lists;
* ``no view``: no view built (the engine, the observations and the loop alone).

The views of the ``kept`` variants are wrong, of course; only their cost counts.
Parts can be taken away only from the Python build of the engine (a compiled one
calls them directly): where Roads & Boats runs compiled (:mod:`referee.api.native`),
the command runs itself again with ``REFEREE_PURE=1`` and says so.
Each variant runs ``--rounds`` times, the variants alternating within a round, for
``--seconds`` CPU seconds each; the table gives each variant's median (its
microseconds per decision too) and best.

Run: ``python -m benchmarks.view_cost [--seconds 2.5] [--rounds 5] [--seats 2]``.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click
from tabulate import tabulate

from benchmarks.engines import measure
from benchmarks.figures import command_line, load_report
from referee.api import native
from referee.games.roads_and_boats import state as rb_state

PARTS = {
    "transporters": "memo_transporters",
    "piles": "memo_piles",
    "buildings": "memo_buildings",
    "layout": "memo_layout",
    "research": "memo_research",
}
"""A memoised part of the view by name, and the name :mod:`..state` calls it by."""

VARIANTS = ["whole", *(f"{part} kept" for part in PARTS), "every part kept", "no view"]


def _kept(build: Callable[..., Any]) -> Callable[..., Any]:
    """``build`` answering every call with what its first call returned."""
    first: list[Any] = []

    def kept(*args: Any) -> Any:
        if not first:
            first.append(build(*args))
        return first[0]

    return kept


def _no_view(self: Any, seat: int) -> None:
    """The ``no view`` variant's view: nothing built."""


@contextlib.contextmanager
def variant(name: str) -> Iterator[None]:
    """Patch the Roads & Boats view for the ``name`` variant (one of :data:`VARIANTS`)
    for the block, and put everything back after it.  Raises ``KeyError`` for an
    unknown name."""
    if name not in VARIANTS:
        raise KeyError(name)
    saved = {attr: getattr(rb_state, attr) for attr in PARTS.values()}
    view = rb_state.RBState.view
    try:
        for part, attr in PARTS.items():
            if name in (f"{part} kept", "every part kept"):
                setattr(rb_state, attr, _kept(saved[attr]))
        if name == "no view":
            rb_state.RBState.view = _no_view  # type: ignore[method-assign,assignment]
        yield
    finally:
        for attr, original in saved.items():
            setattr(rb_state, attr, original)
        rb_state.RBState.view = view  # type: ignore[method-assign]


def compiled() -> bool:
    """True where Roads & Boats runs compiled, which no variant can patch."""
    return native.status().get(rb_state.__name__.rpartition(".")[0]) == "compiled"


def run(seats: int, seconds: float, rounds: int) -> dict[str, list[float]]:
    """Decisions per CPU second of each variant, one figure per round.  Raises
    :class:`RuntimeError` where the engine runs compiled (see the module docstring)."""
    if compiled():
        raise RuntimeError(f"the Python build only: set {native.PURE_ENV}=1")
    got: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(rounds):
        for name in VARIANTS:
            with variant(name):
                got[name].append(measure("roads-and-boats", seats, seconds, "view")["decisions/s"])
    return got


def report(seats: int, seconds: float, rounds: int) -> None:
    """Print the table (see the module docstring)."""
    with load_report("view_cost"):
        got = run(seats, seconds, rounds)
    whole = 1e6 / statistics.median(got["whole"])
    rows = []
    for name in VARIANTS:
        median = statistics.median(got[name])
        us = 1e6 / median
        rows.append([name, median, max(got[name]), us, whole - us])
    args = ["--seats", str(seats), "--seconds", str(seconds), "--rounds", str(rounds)]
    print(
        f"Roads & Boats, {seats} seats: the view-inclusive random playout with parts of "
        f"the view taken away, {rounds} alternating rounds of {seconds} CPU seconds "
        f"(`{command_line('benchmarks.view_cost', args)}`):"
    )
    headers = [
        "variant",
        "decisions/s (median)",
        "(best)",
        "us/decision (median)",
        "us less than whole (medians)",
    ]
    print(tabulate(rows, headers=headers, floatfmt=".2f"))


@click.command()
@click.option("--seats", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option("--seconds", type=click.FloatRange(0.01), default=2.5, show_default=True)
@click.option("--rounds", type=click.IntRange(1), default=5, show_default=True)
def main(seats: int, seconds: float, rounds: int) -> None:
    """Where the Roads & Boats view's time goes in the referee's loop (see the module)."""
    if compiled():
        print(
            f"(Roads & Boats runs compiled here: measuring its Python build, {native.PURE_ENV}=1)"
        )
        sys.stdout.flush()
        env = {**os.environ, native.PURE_ENV: "1"}
        os.execve(
            sys.executable, [sys.executable, "-m", "benchmarks.view_cost", *sys.argv[1:]], env
        )
    report(seats, seconds, rounds)


if __name__ == "__main__":
    main()
