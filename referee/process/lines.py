"""A bot's pipes on the event loop: stdout read as capped lines, stdin written, stderr
drained (:class:`_Pipes`), with no task per read.

Its stdout is read as lines with a hard cap on line length; the referee holds at most
twice the cap of unread output (then the bot's pipe fills and the bot blocks), so a bot
that floods its output between requests costs the referee nothing more.  Waiting for a
reply costs one future, or none where a listener takes replies in the event loop's
callback (a match's acts); the deadline timer is armed again only when a deadline
comes earlier than the one it is armed for.  Used by
:class:`referee.process.bot.BotProcess`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Final, cast

NEWLINE: Final = ord("\n")
"""The line end as an int: ``NEWLINE in data`` is a plain byte search, where
``b"\\n" in data`` first fails to read its operand as an int, which on CPython 3.11
raises and clears a TypeError (about 0.5 us against 0.05 us: ``python -m timeit``)."""


class _LineOverrun(Exception):
    """A bot's stdout line is longer than the cap."""


class _Lines(asyncio.Protocol):
    """A bot's stdout as complete lines, attached to the event loop directly.

    Bytes are kept until a request reads them; past ``2 * limit`` bytes unread, the
    pipe is no longer read (the bot blocks on its full pipe), so a bot that floods
    costs the referee at most that much memory.  :meth:`readline` answers at once
    when a line is already here and otherwise waits on one future: the whole cost of
    waiting for a reply (:attr:`listener` costs none).  Deadlines share one timer
    per bot, armed lazily (a timer armed and cancelled per wait costs about 1 us of
    CPU on uvloop, 1.6 us on asyncio's loop, per decision).
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        self._limit = limit
        # Kept: on Python 3.11 every asyncio.get_running_loop() is a getpid() system call.
        self._loop = loop
        self._buffer = bytearray()
        self._waiter: asyncio.Future[None] | None = None
        self._transport: asyncio.ReadTransport | None = None
        self._paused = False
        # One deadline timer, armed lazily: a wait re-arms it only for an earlier
        # deadline, and a timer that fires before the current deadline re-arms itself,
        # so a reply within the deadline costs no timer at all.
        self._deadline = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self.eof = False
        self.error: BaseException | None = None
        self.listener: Callable[[], None] | None = None
        """Called, when no read waits, as a line completes, the pipe ends, or the
        deadline of :meth:`expect` passes: how a caller that handles replies in the
        event loop's callback, with no task woken (:mod:`referee.match.match`), hears
        of them.  It reads with :meth:`peek` and :meth:`skip`."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's pipe transports do not subclass asyncio.ReadTransport.
        self._transport = cast(asyncio.ReadTransport, transport)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if NEWLINE in data or len(self._buffer) >= self._limit:
            self._wake()
        if not self._paused and len(self._buffer) > 2 * self._limit and self._transport:
            self._paused = True
            self._transport.pause_reading()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof = True
        self.error = exc
        self._wake()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self) -> None:
        if self._waiter is not None:
            if not self._waiter.done():
                self._waiter.set_result(None)
        elif self.listener is not None:
            self.listener()

    async def readline(self, deadline: float) -> bytes:
        """The next line, newline included, waiting until ``deadline`` (event loop
        time, s).  Raises :class:`TimeoutError` at the deadline,
        :class:`_LineOverrun` for a line over the cap, :class:`asyncio.IncompleteReadError`
        at end of file (with the unfinished line as ``partial``), or the pipe's
        :class:`OSError`."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                if end >= self._limit:
                    raise _LineOverrun
                line = bytes(self._buffer[: end + 1])
                self.skip(end + 1)
                return line
            if len(self._buffer) >= self._limit:
                raise _LineOverrun
            if self.eof:
                if self.error is not None:
                    raise self.error
                raise asyncio.IncompleteReadError(bytes(self._buffer), None)
            self.expect(deadline)
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None

    def peek(self) -> bytes | None:
        """The next line, newline included, if it is here whole and within the cap,
        left in the buffer (:meth:`skip` takes it); ``None`` otherwise (no newline
        yet, or a line over the cap: :meth:`readline` raises for it)."""
        end = self._buffer.find(b"\n")
        return bytes(self._buffer[: end + 1]) if 0 <= end < self._limit else None

    def pending(self) -> bool:
        """True if something is here for :meth:`readline` to judge at once: a whole
        line, a line over the cap, or the end of the pipe."""
        buffer = self._buffer
        return self.eof or len(buffer) >= self._limit or NEWLINE in buffer

    def skip(self, size: int) -> None:
        """Drop the first ``size`` bytes of the buffer (a line :meth:`peek` gave)."""
        del self._buffer[:size]
        if self._paused and len(self._buffer) <= self._limit and self._transport:
            self._paused = False
            self._transport.resume_reading()

    def expect(self, deadline: float) -> None:
        """Have the read waiting at ``deadline`` (event loop time, s) time out then, or,
        where none waits, :attr:`listener` called (one lazily armed timer: re-armed
        only for an earlier deadline)."""
        self._deadline = deadline
        if self._timer is None or self._timer_at > deadline:
            self._arm(deadline)

    def _arm(self, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(at, self._ring)
        self._timer_at = at

    def _ring(self) -> None:
        """The timer fired: expire the wait whose deadline it was armed for, re-arm
        for a wait with a later deadline, or lapse when nothing waits."""
        self._timer = None
        waiter = self._waiter
        if waiter is None:
            if self.listener is None:
                return
        elif waiter.done():
            return
        if self._deadline > self._timer_at:
            self._arm(self._deadline)
        elif waiter is not None:
            waiter.set_exception(TimeoutError())
        elif self.listener is not None:
            self.listener()


class _Pipes:
    """The referee's ends of a bot's stdin, stdout and stderr pipes, each attached to
    the event loop directly (not through the subprocess transport, which would cost
    every chunk read one more pass of the loop)."""

    def __init__(
        self,
        stdin: asyncio.StreamWriter,
        stdout: _Lines,
        stderr: asyncio.StreamReader,
        transports: list[asyncio.BaseTransport],
    ) -> None:
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._transports = transports

    @classmethod
    async def connect(cls, stdin_fd: int, stdout_fd: int, stderr_fd: int, limit: int) -> _Pipes:
        """Attach the three file descriptors (which it takes over); ``limit`` is the
        stdout line cap in bytes, newline included."""
        loop = asyncio.get_running_loop()
        transports: list[asyncio.BaseTransport] = []
        lines = _Lines(limit, loop)
        transport, _ = await loop.connect_read_pipe(
            lambda: lines, os.fdopen(stdout_fd, "rb", buffering=0)
        )
        transports.append(transport)
        stderr = asyncio.StreamReader(limit=limit, loop=loop)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stderr, loop=loop),
            os.fdopen(stderr_fd, "rb", buffering=0),
        )
        transports.append(transport)
        write_transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop),
            os.fdopen(stdin_fd, "wb", buffering=0),
        )
        transports.append(write_transport)
        writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
        return cls(writer, lines, stderr, transports)

    def close(self) -> None:
        """Close all three pipes (idempotent)."""
        for transport in self._transports:
            transport.close()


def _pipe_with(data: bytes, opened: list[int]) -> int:
    """The read end of a new pipe that holds ``data`` (at most a pipe's buffer, 64 KiB
    on Linux) and is closed for writing; its descriptor is added to ``opened``."""
    read_end, write_end = os.pipe()
    opened.append(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(data)
    return read_end


def _is_message(line: bytes) -> bool:
    """True if ``line`` is meant as a JSON message: its first non-blank byte is ``{``
    or ``[``.  Other lines (text, blank lines) are ignored by the stray-output rules."""
    stripped = line.lstrip()
    return stripped[:1] in (b"{", b"[")
