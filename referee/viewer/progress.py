"""Progress on stderr for long viewer jobs (``referee view``, ``report --viewers``), in
the style of ``referee tournament``: on a terminal a click progress bar (label,
position, ETA); off a terminal at most one plain line a second.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import click

MIN_LINE_S = 1.0
"""Off a terminal: seconds between two progress lines, and before the first one."""


class Progress:
    """Counts ``done`` of ``total`` items of ``unit`` (``"plies"``, ``"viewers"``).

    ``stream`` defaults to stderr; ``tty`` to whether it is a terminal; ``clock``
    (seconds, monotonic) is for tests.  Use :meth:`update` as a callback, and
    :meth:`close` (or ``with``) at the end.  Quick jobs off a terminal print nothing:
    the first line comes after :data:`MIN_LINE_S`, and a closing ``N of N`` line only
    when an earlier line was printed (and did not say that already).
    """

    def __init__(
        self,
        label: str,
        unit: str,
        *,
        stream: TextIO | None = None,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.clock = clock
        self.started = self.last_line = clock()
        self.lines = self.printed = 0
        self.done = self.total = 0
        self._bar: Any = None

    def update(self, done: int, total: int) -> None:
        """``done`` of ``total`` items are through (``total`` may grow)."""
        if self.tty:
            if self._bar is None or total != self.total:
                self._close_bar()
                self._bar = click.progressbar(
                    length=max(total, 1),
                    label=self.label,
                    show_eta=True,
                    show_pos=True,
                    file=self.stream,
                )
                self._bar.__enter__()
                self.done = 0
            self._bar.update(done - self.done)
        else:
            now = self.clock()
            if now - self.last_line >= MIN_LINE_S:
                self.last_line = now
                self._line(done, total)
        self.done, self.total = done, total

    def _line(self, done: int, total: int) -> None:
        self.lines += 1
        self.printed = done
        click.echo(f"{self.label}: {done} of {total} {self.unit}", file=self.stream)

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def close(self) -> None:
        """End the bar (a terminal) or print the closing line (if any line came before)."""
        if self.tty:
            self._close_bar()
        elif self.lines and self.done != self.printed:
            self._line(self.done, self.total)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
