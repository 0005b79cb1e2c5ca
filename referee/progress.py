"""Progress of a long command on stderr: a bar on a terminal, plain lines elsewhere.

On a terminal the display is a bar in the style of ``referee tournament``'s (click's
progress bar: label, position, percentage and time left) when the total is known,
or a single line rewritten in place (``label: 57 plies``) when it is not; it is
redrawn at most :data:`REDRAW_S` apart.  Off a terminal (a pipe, a log file, CI) it
prints a plain line such as ``game 3: 57 of 200 plies`` at most once every
``every_s`` seconds, so a quick run prints nothing and a long one leaves a readable
log; once any line was printed, the last count is printed when the work ends.

Hook it into a command as::

    with Progress("report", total=len(matches), unit="viewers") as progress:
        for i, match in enumerate(matches, 1):
            write_viewer(match)
            progress.update(i)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

import click

REDRAW_S = 0.1
"""Shortest time between two redraws on a terminal (seconds)."""

EVERY_S = 1.0
"""Shortest time between two progress lines off a terminal (seconds)."""


class Progress:
    """Shows ``done`` of ``total`` ``unit`` of the work named ``label`` on ``file``
    (default stderr) while it runs.

    ``total`` ``None``: the amount of work is not known in advance (shown as a bare
    count).  ``tty``: whether ``file`` is a terminal (default: ask it).  ``every_s``:
    least time between plain lines off a terminal, in seconds.  ``clock``: the
    monotonic time in seconds (tests give their own).  Use it as a context manager,
    or call :meth:`close` when the work ends; :meth:`update` after that is ignored.
    """

    def __init__(
        self,
        label: str,
        total: int | None,
        unit: str,
        *,
        file: TextIO | None = None,
        tty: bool | None = None,
        every_s: float = EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.file = file if file is not None else sys.stderr
        self.tty = self.file.isatty() if tty is None else tty
        self.every_s = every_s
        self.clock = clock
        self.done = 0
        self.note = ""
        self.lines = 0
        """Plain lines printed so far (off a terminal)."""
        self._last = clock()
        self._shown = 0
        self._closed = False
        self._width = 0
        self._printed = ""
        self._bar: Any = None
        self._open_bar()

    def _open_bar(self) -> None:
        """On a terminal with a known total, start a bar for it (from :attr:`done`)."""
        if self.tty and self.total is not None:
            self._bar = click.progressbar(
                length=max(self.total, 1),
                label=self.label,
                show_eta=True,
                show_pos=True,
                item_show_func=lambda _item: self.note or None,
                file=self.file,
            )
            self._bar.__enter__()
            self._shown = 0

    def text(self) -> str:
        """The plain line for the current count: ``label: done of total unit``."""
        amount = f"{self.done} of {self.total}" if self.total is not None else f"{self.done}"
        return f"{self.label}: {amount} {self.unit}" + (f" ({self.note})" if self.note else "")

    def update(self, done: int, note: str = "", *, total: int | None = None) -> None:
        """Record that ``done`` units are finished (a count, not an increment), with an
        optional short ``note`` (already safe to show: never a bot's own text).  A
        ``total`` other than the current one replaces it (work found to be larger, or a
        total learnt only once the work began); on a terminal the bar starts again."""
        if self._closed:
            return
        if total is not None and total != self.total:
            self.total = total
            if self._bar is not None:
                self._bar.__exit__(None, None, None)
                self._bar = None
            elif self.tty and self._width:
                self.file.write("\r" + " " * self._width + "\r")
                self._width = 0
            self._open_bar()
        self.done, self.note = done, note
        now = self.clock()
        if self.tty:
            if now - self._last >= REDRAW_S:
                self._last = now
                self._draw()
        elif now - self._last >= self.every_s:
            self._last = now
            self._line()

    def _draw(self) -> None:
        if self._bar is not None:
            self._bar.update(self.done - self._shown)
            self._shown = self.done
            return
        text = self.text()
        self.file.write("\r" + text.ljust(self._width))
        self.file.flush()
        self._width = len(text)

    def _line(self) -> None:
        self._printed = self.text()
        self.file.write(self._printed + "\n")
        self.file.flush()
        self.lines += 1

    def close(self) -> None:
        """End the display: the bar is completed and ended with a newline, the bare
        count on a terminal is erased, and off a terminal the last count is printed
        if any line was."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.update(self.done - self._shown)
            self._bar.__exit__(None, None, None)
        elif self.tty:
            if self._width:
                self.file.write("\r" + " " * self._width + "\r")
                self.file.flush()
        elif self.lines and self.text() != self._printed:
            self._line()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
