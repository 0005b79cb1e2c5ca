"""What the referee's own work costs per decision, over the least any referee must do.

The *floor* is a minimal referee written for this measurement: the same game, the
same reused C random bots (``bots/examples/random_bot.c``), the same pipes on the
same event loop, and per decision only what no referee can skip: decode the reply,
give every seat its observation of the move (and of chance outcomes), apply the
move, then the next seat's view, legal actions and act, encoded and written.  It
plays each reply in the pipe's callback, as :class:`referee.match.match.Match` now
does, and keeps no record, no clocks, no turn guard, no fault handling, no pool, no
sandbox.  Beside it, the real referee plays the same matches (:func:`benchmarks.probe.matches_cpu`:
no sandbox, reused bots), without and with its record.  Referee CPU per decision
(the bots' excluded), medians of ``--repeats`` runs, the three alternating in one
process, each on a fresh event loop of the referee's kind.

What the real referee adds over the floor is its bookkeeping per decision (clocks,
the turn guard, statistics) and per match (``start``/``ready``, ``end``, the pool,
the record's file): the share a faster referee could still win without a faster
engine or encoder.  Run: ``python -m benchmarks.floor [--game manila]
[--decisions 3000] [--repeats 5]``.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from benchmarks.critical import SEATS, build_bot
from benchmarks.figures import command_line, load_report
from benchmarks.probe import matches_cpu
from referee.api.engine import CHANCE, TERMINAL, Game
from referee.games import get_game
from referee.match.walk import event, observe
from referee.process import loop as event_loop
from referee.process.protocol import (
    PROTOCOL_VERSION,
    Act,
    ActionReply,
    MoveClock,
    Start,
    StartClock,
    decode_bot_line,
    encode,
)


class _Reader(asyncio.Protocol):
    """One bot's stdout: whole lines handed to the floor referee as they arrive."""

    def __init__(self, floor: Floor) -> None:
        self._floor = floor
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            self._floor.heard(line)


class Floor:
    """The minimal referee (see the module docstring): ``seats`` reused bots running
    ``bot``, matches of ``game`` played until :attr:`decisions` reach a target."""

    def __init__(self, game: Game, seats: int, bot: str) -> None:
        self.game, self.seats, self.bot = game, seats, bot
        self.decisions = 0
        self._writers: list[asyncio.WriteTransport] = []
        self._procs: list[subprocess.Popen[bytes]] = []
        self._done: asyncio.Future[None] | None = None

    async def start(self) -> None:
        """Start the bots and attach their pipes to the running loop."""
        loop = asyncio.get_running_loop()
        for _ in range(self.seats):
            proc = subprocess.Popen([self.bot], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdin is not None and proc.stdout is not None
            await loop.connect_read_pipe(lambda: _Reader(self), proc.stdout)
            writer, _ = await loop.connect_write_pipe(asyncio.Protocol, proc.stdin)
            self._writers.append(writer)
            self._procs.append(proc)

    async def play(self, seed: int) -> None:
        """One match: ``start`` to every seat, then plies until the game ends."""
        options = self.game.parse_options({})
        self.state = self.game.new_game(self.seats, options)
        self.rng = random.Random(seed)
        self.events: list[list[Any]] = [[] for _ in range(self.seats)]
        self.ply = self.act_id = 0
        self.readies = self.seats
        self._done = asyncio.get_running_loop().create_future()
        players = ["floor"] * self.seats
        for seat, writer in enumerate(self._writers):
            start = Start(
                PROTOCOL_VERSION,
                f"floor-{seed}",
                self.game.name,
                self.game.options_dict(options),
                seat,
                self.seats,
                players,
                StartClock(10_000, 5000, 0),
            )
            writer.write(encode(start))
        await self._done

    def heard(self, line: bytes) -> None:
        """A bot's line: a ``ready`` (until all are in), else the reply to the act."""
        if self.readies:
            self.readies -= 1
            if not self.readies:
                self._next()
            return
        reply = decode_bot_line(line)
        assert isinstance(reply, ActionReply) and reply.index is not None
        state, mover = self.state, self.mover
        action = self.legal[reply.index]
        for viewer in range(self.seats):
            seen = state.observe_action(mover, action, viewer)
            if seen is not None:
                self.events[viewer].append({"ply": self.ply, "seat": mover, "action": seen})
        state.apply_action(action)
        self.ply += 1
        self.decisions += 1
        self._next()

    def _next(self) -> None:
        """Play chance plies, then write the next act (or end the match)."""
        state = self.state
        while (mover := state.to_move()) == CHANCE:
            outcome = state.sample_chance(self.rng)
            for viewer, seen in enumerate(observe(state, self.seats, chance=outcome)):
                if seen is not None:
                    self.events[viewer].append(event(self.ply, seen))
            state.apply_chance(outcome)
            self.ply += 1
        if mover == TERMINAL:
            assert self._done is not None
            self._done.set_result(None)
            return
        self.mover, self.legal = mover, state.legal_actions()
        self.act_id += 1
        events, self.events[mover] = self.events[mover], []
        act = Act(self.act_id, self.ply, state.view(mover), self.legal, events, MoveClock(5000, 0))
        self._writers[mover].write(encode(act))

    async def close(self) -> None:
        """Close the bots' input and reap them (killed after 10 s)."""
        for writer in self._writers:
            writer.close()
        for proc in self._procs:
            for _ in range(10_000):
                if proc.poll() is not None:
                    break
                await asyncio.sleep(0.001)
            else:
                proc.kill()
                proc.wait()


async def floor_cpu(game: str, bot: str, decisions: int) -> float:
    """Referee CPU seconds per decision of the floor referee, matches until
    ``decisions`` are played, its bots' start and end included (as the real
    referee's runs include its pool's)."""
    start = time.process_time()
    floor = Floor(get_game(game), SEATS[game], bot)
    await floor.start()
    seed = 0
    while floor.decisions < decisions:
        await floor.play(seed)
        seed += 1
    await floor.close()
    return (time.process_time() - start) / floor.decisions


def run(kind: str, game: str, bot: str, decisions: int) -> float:
    """One repetition of ``kind`` (``floor``, ``referee`` or ``referee+record``),
    on a fresh loop of the referee's kind: µs of referee CPU per decision."""
    with asyncio.Runner(loop_factory=event_loop.loop_factory()) as runner:
        if kind == "floor":
            return 1e6 * runner.run(floor_cpu(game, bot, decisions))
        record = kind == "referee+record"
        cpu = runner.run(matches_cpu(game, SEATS[game], bot, decisions, "none", True, record)).cpu
        return 1e6 * cpu


KINDS = ("floor", "referee", "referee+record")


@click.command()
@click.option("--game", type=click.Choice(sorted(SEATS)), default="manila", show_default=True)
@click.option("--decisions", type=click.IntRange(min=50), default=3000, show_default=True)
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
def main(game: str, decisions: int, repeats: int) -> None:
    """Print referee CPU per decision: the floor against the real referee."""
    args = ["--game", game, "--decisions", str(decisions), "--repeats", str(repeats)]
    with tempfile.TemporaryDirectory() as tmp, load_report("floor"):
        bot = str(build_bot(Path(tmp)))
        got: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for _ in range(repeats):
            for kind in KINDS:
                got[kind].append(run(kind, game, bot, decisions))
    floor = statistics.median(got["floor"])
    rows = [
        [kind, statistics.median(v), min(v), statistics.median(v) / floor]
        for kind, v in got.items()
    ]
    print(
        f"{game}, {SEATS[game]} seats, about {decisions} decisions a run, reused C random "
        f"bots, no sandbox, loop {event_loop.name()}; medians of {repeats} alternating "
        f"runs (`{command_line('benchmarks.floor', args)}`):"
    )
    headers = ["referee", "us/decision (median)", "(min)", "÷ floor (medians)"]
    print(tabulate(rows, headers=headers, floatfmt=".2f"))


if __name__ == "__main__":
    sys.exit(main())
