"""Deadlines of a bot's stdout reader (:class:`referee.process.lines._Lines`).

The reader keeps one timer and re-arms it lazily: a reply that comes in time leaves
the timer armed for a deadline that has passed its use, so a later wait must neither
expire at that stale time nor outlive its own deadline.
"""

from __future__ import annotations

import asyncio

import pytest

from referee.process.lines import _LineOverrun, _Lines


async def _answered_in_time(seconds: float) -> _Lines:
    """A reader whose first wait (deadline ``seconds`` from now) got its line at once:
    its timer stays armed for that deadline."""
    loop = asyncio.get_running_loop()
    lines = _Lines(1 << 16, loop)
    loop.call_soon(lines.data_received, b"one\n")
    assert await lines.readline(loop.time() + seconds) == b"one\n"
    return lines


async def _timed_out_after(lines: _Lines, seconds: float) -> float:
    """Seconds until a wait with a deadline ``seconds`` from now raises TimeoutError."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        await lines.readline(start + seconds)
    return loop.time() - start


def test_a_stale_early_timer_does_not_cut_a_later_wait_short() -> None:
    async def main() -> None:
        lines = await _answered_in_time(0.05)  # its timer: 50 ms from now
        # The next wait allows 400 ms; the stale timer fires at 50 ms and must re-arm.
        waited = await _timed_out_after(lines, 0.4)
        assert 0.35 <= waited < 1.5

    asyncio.run(main())


def test_an_earlier_deadline_rearms_a_later_timer() -> None:
    async def main() -> None:
        lines = await _answered_in_time(30.0)
        # A timer armed for 30 s must not hold back a 100 ms deadline.
        waited = await _timed_out_after(lines, 0.1)
        assert 0.05 <= waited < 1.5

    asyncio.run(main())


def test_a_reply_after_a_rearm_is_still_received() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        lines = await _answered_in_time(0.02)
        # The stale timer fires at 20 ms while this wait runs; the reply comes at 150 ms.
        loop.call_later(0.15, lines.data_received, b"two\n")
        assert await lines.readline(loop.time() + 5.0) == b"two\n"

    asyncio.run(main())


def test_a_closed_pipe_cancels_the_timer() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        lines = await _answered_in_time(60.0)
        armed = lines._timer
        assert armed is not None and not armed.cancelled()
        lines.connection_lost(None)
        assert armed.cancelled() and lines._timer is None
        with pytest.raises(asyncio.IncompleteReadError):
            await lines.readline(loop.time() + 1.0)

    asyncio.run(main())


def test_the_listener_hears_whole_lines_the_end_and_the_deadline() -> None:
    """With no read waiting, :attr:`_Lines.listener` is called as a line completes (not
    for part of one), as the pipe ends, and once the deadline of ``expect`` passes;
    ``peek`` leaves the line for ``skip``, and ``pending`` says what is there."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        lines = _Lines(64, loop)
        heard: list[bytes | None] = []
        lines.listener = lambda: heard.append(lines.peek())
        lines.data_received(b'{"type":')
        assert heard == [] and not lines.pending() and lines.peek() is None
        lines.data_received(b'"action"}\nnext')
        assert heard == [b'{"type":"action"}\n'] and lines.pending()
        lines.skip(len(heard[0] or b""))
        assert lines.peek() is None and not lines.pending()
        lines.expect(loop.time() + 0.05)
        await asyncio.sleep(0.2)
        assert heard[1:] == [None]  # the deadline, nothing complete
        lines.eof_received()
        assert heard[2:] == [None] and lines.pending()
        with pytest.raises(asyncio.IncompleteReadError) as ended:
            await lines.readline(loop.time() + 1.0)
        assert ended.value.partial == b"next"

    asyncio.run(main())


def _listened(limit: int) -> tuple[_Lines, list[int]]:
    """A reader of line cap ``limit`` on the running loop, and the list its listener
    appends 1 to at each call."""
    lines = _Lines(limit, asyncio.get_running_loop())
    heard: list[int] = []
    lines.listener = lambda: heard.append(1)
    return lines, heard


def test_a_read_that_waits_is_woken_and_the_listener_left_alone() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        lines, heard = _listened(64)
        loop.call_soon(lines.data_received, b"one\n")
        assert await lines.readline(loop.time() + 1.0) == b"one\n"
        assert heard == []

    asyncio.run(main())


def test_a_line_over_the_cap_is_never_peeked() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        lines, heard = _listened(8)
        lines.data_received(b"0123456789\n")
        assert heard == [1] and lines.peek() is None and lines.pending()
        with pytest.raises(_LineOverrun):
            await lines.readline(loop.time() + 1.0)

    asyncio.run(main())
