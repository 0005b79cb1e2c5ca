"""The bot command word ``human``: a person plays a seat through the built-in human seat.

``human [--tty] [--port N] [--no-browser] [--url-file PATH]`` as a bot command (``referee
play --bot human``, ``command = "human"`` in a tournament config) resolves to
``[sys.executable, "-m", "referee.human", ...]``.  It is the one bot the referee does not
sandbox, freeze or cap in memory: it serves a page on loopback to a browser and must
answer at a person's pace (see docs/human.md).  Nothing but the exact word ``human`` as
the program gets this exception.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

WORD = "human"
"""The program name that selects the built-in human seat."""

MODULE = "referee.human"
"""The module the human seat runs as (``python -m referee.human``)."""

MOVE_MS = 60_000
"""Default free time per move of a human seat (ms): a minute."""

BANK_MS = 3_600_000
"""Default time bank of a human seat (ms): an hour for the whole game."""


def human_argv(arguments: Sequence[str]) -> list[str]:
    """The argv of the human seat given the words after ``human``.

    The seat runs with a scrubbed environment, so where the referee has a terminal
    (its stderr) and a display, they are passed on as ``--terminal PATH`` (where the
    URL is printed, and where ``--tty`` plays) and ``--display VALUE`` (so the browser
    can open); without them the seat prints the URL on its stderr only and opens no
    browser.
    """
    argv = [sys.executable, "-m", MODULE, *arguments]
    terminal = _terminal()
    if terminal is not None:
        argv += ["--terminal", terminal]
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if display:
        argv += ["--display", display]
    return argv


def _terminal() -> str | None:
    for fd in (2, 0, 1):
        try:
            if os.isatty(fd):
                return os.ttyname(fd)
        except OSError:
            continue
    return None


def is_human(argv: Sequence[str]) -> bool:
    """Whether ``argv`` (resolved) runs the built-in human seat."""
    return len(argv) >= 3 and argv[1] == "-m" and argv[2] == MODULE and argv[0] == sys.executable
