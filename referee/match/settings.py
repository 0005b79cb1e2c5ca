"""What a match is played under: the clock defaults every entry point shares.

The command line (``play``, ``check-bot``, ``regress``), tournament configs, the
regression gate, ``check_bot`` and :class:`referee.match.match.Clock` all read their
default clock from here, so the defaults are written once.
"""

from __future__ import annotations

DEFAULT_STARTUP_MS = 10_000
"""Time (ms) a bot has to answer ``start`` with ``ready``."""

DEFAULT_MOVE_MS = 1_000
"""Time (ms) a bot has for each move, besides its bank."""

DEFAULT_BANK_MS = 0
"""Time bank (ms) a bot may draw on once a move overruns ``move_ms``."""
