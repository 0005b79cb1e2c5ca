"""Only the seat on move computes: stopping the waiting seats' bots during a match.

A bot that keeps computing while another seat is on move (pondering) takes CPU from
that seat whenever the machine has fewer cores than busy processes, and a hostile
bot can start a crowd of busy processes, each in a session of its own, to slow its
opponents until their moves time out: a forged verdict.  Unless the match allows
pondering (:attr:`referee.match.match.Clock.ponder`), a :class:`TurnGuard` stops the
others once the seat on move has thought for ``stop_after_s``
(:data:`STOP_AFTER_S`): every process of every other live seat is stopped
(SIGSTOP, the whole process tree, see :meth:`referee.process.bot.BotProcess.freeze`), and a
stopped seat is continued (SIGCONT) just before its next ``act`` is written, so its
own clock never runs while it is stopped.  The seat on move thus shares its cores
with the other seats' processes for at most ``stop_after_s`` per move.  The same
holds at start-up: a seat that has answered ``start`` is stopped ``stop_after_s``
later if others are still starting, so it cannot slow their start-up into a fault.

Quick moves cost nothing: the guard's one timer is armed at most once per
``stop_after_s`` of wall time, and nobody is stopped while every reply comes
sooner.  A slow move costs one stop and one continue of each waiting bot's tree:
0.1-0.5 ms of referee CPU per bot without the sandbox, 0.3-0.7 ms with it, for a
bot of one process to one with four children, stopped by signals
(``python -m benchmarks.turn_guard``); one write each where a cgroup freezer does it.

Coverage: under the sandbox (``bwrap``) a bot's processes are all descendants of
its sandbox, so all are stopped.  Without it (``none``) a process that left the
bot's tree by a double fork is re-parented to the referee and is not stopped (it is
still killed at the end of the match, see :mod:`referee.process.isolation.reaper`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from referee.process.bot import BotFault, BotProcess
from referee.process.protocol import Verdict

STOP_AFTER_S: Final = 0.01
"""Seconds the seat on move thinks before the other seats' bots are stopped."""


class _SeatLike(Protocol):
    """What the guard needs of a seat (:class:`referee.match.match._Seat`)."""

    @property
    def bot(self) -> BotProcess | None: ...

    @property
    def live(self) -> bool: ...


class TurnGuard:
    """Stops the bots of the seats that wait while one seat thinks (see the module
    docstring).  Made inside the running event loop of the match; ``seats`` is the
    match's seat list, read at every use (a seat's bot may change or fault).  A bot
    found running more processes than its ``max_processes`` while being stopped (a
    fork bomb) is given to ``fault`` (seat, ``crash``, detail) at once and closed by
    :meth:`settle` between two moves.  Raises ValueError for a negative
    ``stop_after_s``."""

    def __init__(
        self,
        seats: Sequence[_SeatLike],
        fault: Callable[[int, Verdict, str], None],
        stop_after_s: float = STOP_AFTER_S,
    ) -> None:
        if stop_after_s < 0:
            raise ValueError(f"stop_after_s must be >= 0, not {stop_after_s}")
        self._seats = seats
        self._fault = fault
        self._after = stop_after_s
        self._loop = asyncio.get_running_loop()
        self._mover = -1
        self._since = 0.0
        self._asks = 0
        self._stopped_for = 0
        self._timer: asyncio.TimerHandle | None = None
        self._stopping: dict[int, asyncio.Task[None]] = {}
        self._early: list[asyncio.TimerHandle] = []
        self.doomed: list[BotProcess] = []
        """Bots faulted for running too many processes, to be closed by :meth:`settle`
        (or at the end of the match with the others)."""
        self.stops = 0
        """Bots stopped so far (a bot stopped once per slow move of another seat)."""

    def ready(self, index: int) -> None:
        """Seat ``index`` answered ``start`` while others may still be starting: its
        bot is stopped in ``stop_after_s`` unless :meth:`started` comes first (so a
        bot cannot slow the others' start-up into a fault either)."""
        handle = self._loop.call_later(self._after, self._stop_seat, index)
        self._early.append(handle)

    def started(self) -> None:
        """Every seat has answered ``start`` (or faulted): no more early stops."""
        for handle in self._early:
            handle.cancel()
        self._early.clear()

    def asking(self, index: int) -> None:
        """Seat ``index`` is about to be sent an ``act``: continue its bot if it was
        stopped (or cancel a stop under way), and start timing its move."""
        if self._stopping:
            task = self._stopping.pop(index, None)
            if task is not None:
                task.cancel()  # it sends no signal after this: it resumes only to end
        bot = self._seats[index].bot
        if bot is not None and bot.frozen:
            bot.thaw()
        self._mover = index
        self._asks += 1
        self._since = self._loop.time()
        if self._timer is None:
            self._timer = self._loop.call_at(self._since + self._after, self._tick)

    def answered(self) -> None:
        """The seat on move has answered (or faulted): nobody is thinking now."""
        self._mover = -1

    def _tick(self) -> None:
        self._timer = None
        if self._mover < 0 or self._stopped_for == self._asks:
            return
        due = self._since + self._after
        if self._loop.time() < due:
            self._timer = self._loop.call_at(due, self._tick)
            return
        self._stopped_for = self._asks
        for index in range(len(self._seats)):
            if index != self._mover:
                self._stop_seat(index)

    def _stop_seat(self, index: int) -> None:
        """Start stopping seat ``index``'s bot unless it is gone, faulted, stopped, or
        being stopped."""
        seat = self._seats[index]
        bot = seat.bot
        if bot is None or not seat.live or bot.frozen:
            return
        if index in self._stopping and not self._stopping[index].done():
            return
        self.stops += 1
        self._stopping[index] = self._loop.create_task(self._stop(index, bot))

    async def _stop(self, index: int, bot: BotProcess) -> None:
        try:
            await bot.freeze()
        except BotFault as exc:  # a fork bomb, stopped
            seat = self._seats[index]
            if seat.bot is bot and seat.live:
                self._fault(index, exc.verdict, exc.detail)
                self.doomed.append(bot)

    async def settle(self) -> None:
        """Close the bots found over their process limit (:attr:`doomed`), and wait
        until they are gone.  Called between moves, while no seat is thinking: the
        kernel's work of ending thousands of processes then slows nobody's clock."""
        doomed, self.doomed = self.doomed, []
        await asyncio.gather(*(bot.close(graceful=False) for bot in doomed), return_exceptions=True)

    def release(self) -> None:
        """Stop guarding and continue every bot this guard stopped (before ``end``,
        and on every way out of a match).  Safe to call more than once.  A stop under
        way is cancelled first: it is suspended between its signals, so it sends none
        after this."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.started()
        self._mover = -1
        for task in self._stopping.values():
            task.cancel()
        self._stopping.clear()
        for seat in self._seats:
            if seat.bot is not None and seat.bot.frozen and not seat.bot.overrun:
                seat.bot.thaw()


__all__ = ["STOP_AFTER_S", "TurnGuard"]
