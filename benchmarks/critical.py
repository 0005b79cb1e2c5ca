"""Where a decision's time goes on the referee's critical path, in a real match and
in a warm loop.

The critical path runs from a bot's reply reaching the referee (the pipe's
``data_received``) to the next ``act`` being handed to the kernel (the write): the
part of the harness gap the referee controls.  This benchmark plays real matches of
reused C random bots (``bots/examples/random_bot.c``, built here with ``cc``) and
times, per decision, that whole path (wall and the referee thread's CPU) and each
named piece on it: the engine's ``to_move``, ``legal_actions``, ``view``,
``observe_action`` and ``apply_action``, the act's encoding and the reply's
decoding.  It then times the same engine calls and the encoding in a warm loop
(random playouts of the same game, no bots, nothing else running between two
calls), as :mod:`benchmarks.engines` does.

The two columns differ because a match is not a warm loop: between two decisions
the bots run, on this core or the other, and the referee comes back to caches and
branch predictors that no longer hold all of its code and data.  On the 2-core
virtual machine this project is measured on, a piece costs 1.1-1.4 times its
warm-loop time in a match on a quiet machine, and up to about twice under load
(the act's encoding and the view the most).  The table also shows
what no piece accounts for: the event loop's dispatch of the reply and the
bookkeeping of a decision, 23 of 63 µs of the path for Manila with the match loop
compiled, 28 November 2026 (the reply is taken in the event
loop's callback, where the next ply is played: no task is woken).

Every timed call goes through a Python wrapper (about 0.3 us, in both columns), and
a piece's time counts only its calls made outside another piece: the ``to_move`` a
view calls is the view's time, the cached ``legal_actions`` an ``apply_action``
checks against is the apply's, so the pieces add up.
The whole path is timed in one series of matches with only the act's encoding
wrapped, the pieces in a second series of the same matches with all of them
wrapped; ``rest of the path`` is the first minus the pieces: the event loop's
dispatch, the match's bookkeeping of the reply and the next act, the turn guard, the
events, the record and the clocks.

Run: ``python -m benchmarks.critical [--game manila] [--decisions 3000] [--sandbox none]
[--repeats 5] [--no-record]``.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from benchmarks.figures import command_line, load_report
from benchmarks.probe import matches_cpu
from benchmarks.suite import build
from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game
from referee.process import bot as bot_module
from referee.process import lines
from referee.process import loop as event_loop
from referee.process.protocol import Act, MoveClock

SEATS = {"manila": 4, "navegador": 4, "puerto-rico": 4, "roads-and-boats": 2}
ENGINE = ("to_move", "legal_actions", "view", "observe_action", "apply_action")
Timings = dict[str, list[int]]
_INHERITED = object()


class Patches:
    """Timing wrappers put on attributes, taken off again by :meth:`undo`.  Only the
    outermost of nested timed calls is counted (the ``to_move`` a view calls is the
    view's time), so the pieces never overlap and add up."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []
        self._inside = False

    def time(self, owner: Any, name: str, label: str, into: Timings) -> None:
        """Wrap ``owner.name`` so that each call's ns go to ``into[label]``."""
        inner = getattr(owner, name)
        clock = time.perf_counter_ns
        sink = into[label]

        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._inside:
                return inner(*args, **kwargs)
            self._inside = True
            start = clock()
            try:
                return inner(*args, **kwargs)
            finally:
                sink.append(clock() - start)
                self._inside = False

        self._saved.append((owner, name, vars(owner).get(name, _INHERITED)))
        setattr(owner, name, timed)

    def replace(self, owner: Any, name: str, value: Any) -> None:
        """Set ``owner.name`` to ``value`` until :meth:`undo`."""
        self._saved.append((owner, name, vars(owner).get(name, _INHERITED)))
        setattr(owner, name, value)

    def undo(self) -> None:
        """Put every wrapped attribute back (an inherited one by deleting the wrapper)."""
        for owner, name, original in reversed(self._saved):
            if original is _INHERITED:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
        self._saved.clear()


def build_bot(directory: Path) -> Path:
    """The example C random bot compiled in ``directory`` (:func:`benchmarks.suite.build`);
    raises ClickException without ``cc``."""
    built = build(directory)
    if built is None:
        raise click.ClickException("no C compiler (cc): this benchmark plays C random bots")
    return Path(built["random_bot"])


def time_engine(game: str, patches: Patches, into: Timings) -> None:
    """Time :data:`ENGINE`'s methods of ``game``'s state class into ``into``."""
    g = get_game(game)
    state_type = type(g.new_game(SEATS[game], g.parse_options({})))
    for name in ENGINE:
        patches.time(state_type, name, name, into)


def in_matches(
    game: str, bot: Path, decisions: int, sandbox: str, pieces: bool, record: bool = True
) -> tuple[Timings, int]:
    """Per-call ns of the whole critical path (``path wall``, ``path cpu``) and, with
    ``pieces``, of each piece on it, over matches of reused C random bots until
    ``decisions`` are played (as the ``match`` section of ``make bench`` plays them:
    :func:`benchmarks.probe.matches_cpu`, records written unless not ``record``); and
    the acts sent."""
    timings: Timings = defaultdict(list)
    patches = Patches()
    if pieces:
        time_engine(game, patches, timings)
        patches.time(bot_module, "decode_bot_line", "decode the reply", timings)
    arrived = [0, 0]
    received = lines._Lines.data_received
    write = bot_module.BotProcess._write
    encode = bot_module.encode
    encodings = timings["encode the act"]

    def encode_timed(message: Any) -> bytes:
        start = time.perf_counter_ns()
        data = encode(message)
        if isinstance(message, Act):  # not start or end
            encodings.append(time.perf_counter_ns() - start)
        return data

    def data_received(self: lines._Lines, data: bytes) -> None:
        arrived[0], arrived[1] = time.perf_counter_ns(), time.thread_time_ns()
        received(self, data)

    def written(self: bot_module.BotProcess, data: bytes) -> bool:
        # From a reply to an act: the first act of a match follows a ready instead,
        # and the path to an end is no decision's.
        if arrived[0] and data.startswith(b'{"type":"act"'):
            timings["path wall"].append(time.perf_counter_ns() - arrived[0])
            timings["path cpu"].append(time.thread_time_ns() - arrived[1])
        arrived[0] = 0
        return write(self, data)

    patches.replace(bot_module, "encode", encode_timed)
    patches.replace(lines._Lines, "data_received", data_received)
    patches.replace(bot_module.BotProcess, "_write", written)

    try:
        with asyncio.Runner(loop_factory=event_loop.installed()[event_loop.name()]) as runner:
            runner.run(matches_cpu(game, SEATS[game], str(bot), decisions, sandbox, True, record))
    finally:
        patches.undo()
    return timings, len(timings["encode the act"])


def in_a_warm_loop(game: str, decisions: int) -> Timings:
    """Per-call ns of the engine pieces, of encoding the act and of decoding a reply
    (``{"type":"action","id":N,"index":K}``) in random playouts of ``game`` (every
    seat's observation, as the referee asks), ``decisions`` decisions in all."""
    timings: Timings = defaultdict(list)
    g = get_game(game)
    seats = SEATS[game]
    patches = Patches()
    time_engine(game, patches, timings)
    encode, decode = bot_module.encode, bot_module.decode_bot_line
    rng = random.Random(2026)
    done = 0
    try:
        while done < decisions:
            state = g.new_game(seats, g.parse_options({}))
            while (seat := state.to_move()) != TERMINAL and done < decisions:
                if seat == CHANCE:
                    state.apply_chance(state.sample_chance(rng))
                    continue
                legal = state.legal_actions()
                act = Act(done + 1, done, state.view(seat), legal, [], MoveClock(5000, 0))
                start = time.perf_counter_ns()
                encode(act)
                timings["encode the act"].append(time.perf_counter_ns() - start)
                index = rng.randrange(len(legal))
                reply = b'{"type":"action","id":%d,"index":%d}\n' % (done + 1, index)
                start = time.perf_counter_ns()
                decode(reply)
                timings["decode the reply"].append(time.perf_counter_ns() - start)
                action = legal[index]
                for viewer in range(seats):
                    state.observe_action(seat, action, viewer)
                state.apply_action(action)
                done += 1
    finally:
        patches.undo()
    return timings


PIECES = ("decode the reply", *ENGINE, "encode the act")


def one_run(
    game: str, bot: Path, decisions: int, sandbox: str, record: bool = True
) -> dict[str, list[float]]:
    """One repetition: per piece ``[calls per decision, us per call in a match
    (median), us per call in a warm loop (median), us per decision in a match
    (mean)]``, and ``path`` ``[wall us mean, wall us median, CPU us mean]``."""
    clean, _ = in_matches(game, bot, decisions, sandbox, False, record)
    real, acts = in_matches(game, bot, decisions, sandbox, True, record)
    warm = in_a_warm_loop(game, acts)
    per = max(acts, 1)
    out: dict[str, list[float]] = {}
    for piece in PIECES:
        calls = real.get(piece, [])
        quiet = warm.get(piece, [])
        out[piece] = [
            len(calls) / per,
            statistics.median(calls) / 1000 if calls else float("nan"),
            statistics.median(quiet) / 1000 if quiet else float("nan"),
            # mean per decision: observe_action runs once per seat, and the
            # engine's pieces also run at chance nodes
            sum(calls) / per / 1000,
        ]
    wall, cpu = clean["path wall"], clean["path cpu"]
    out["path"] = [
        statistics.fmean(wall) / 1000,
        statistics.median(wall) / 1000,
        statistics.fmean(cpu) / 1000,
        float(acts),
    ]
    return out


def report(game: str, decisions: int, sandbox: str, repeats: int, record: bool = True) -> None:
    """Print the table (see the module docstring): each figure the median of
    ``repeats`` repetitions, the path's also with its minimum."""
    with tempfile.TemporaryDirectory() as tmp, load_report("critical"):
        bot = build_bot(Path(tmp))
        runs = [one_run(game, bot, decisions, sandbox, record) for _ in range(repeats)]

    def med(key: str, i: int) -> float:
        return statistics.median(run[key][i] for run in runs)

    args = ["--game", game] + ([] if record else ["--no-record"])
    rows: list[list[Any]] = []
    named = 0.0
    for piece in PIECES:
        real, warm = med(piece, 1), med(piece, 2)
        named += med(piece, 3)
        rows.append([piece, med(piece, 0), real, warm, real / warm, med(piece, 3)])
    path = med("path", 0)
    rows.append(["rest of the path", None, None, None, None, path - named])
    rows.append(["whole path, wall", None, med("path", 1), None, None, path])
    low = min(run["path"][0] for run in runs)
    rows.append(["whole path, wall (fastest run)", None, None, None, None, low])
    rows.append(["whole path, CPU", None, None, None, None, med("path", 2)])
    print(
        f"{game}, {SEATS[game]} seats: the referee's critical path, about "
        f"{med('path', 3):.0f} decisions a run in matches of reused C random bots "
        f"(sandbox {sandbox}, loop {event_loop.name()}, records "
        f"{'written' if record else 'not written'}), each piece in the match and in a "
        f"warm loop; medians of {repeats} runs "
        f"(`{command_line('benchmarks.critical', args)}`):"
    )
    headers = [
        "piece",
        "calls/decision",
        "in a match us/call (median)",
        "warm loop us/call (median)",
        "match ÷ warm",
        "in a match us/decision (mean)",
    ]
    print(tabulate(rows, headers=headers, floatfmt=".2f"))


@click.command()
@click.option("--game", type=click.Choice(sorted(SEATS)), default="manila", show_default=True)
@click.option("--decisions", type=click.IntRange(1), default=3000, show_default=True)
@click.option("--sandbox", type=click.Choice(["none", "bwrap"]), default="none", show_default=True)
@click.option("--repeats", type=click.IntRange(1), default=5, show_default=True)
@click.option(
    "--record/--no-record",
    default=True,
    show_default=True,
    help="Write each match's record, as a tournament does.",
)
def main(game: str, decisions: int, sandbox: str, repeats: int, record: bool) -> None:
    """Where a decision's time goes on the referee's critical path (see the module)."""
    report(game, decisions, sandbox, repeats, record)


if __name__ == "__main__":
    main()
