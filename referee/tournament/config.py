"""Tournament configuration files (TOML), parsed into msgspec Structs.

Example (the shape of every file in ``tournaments/``)::

    name = "my-round-robin"
    game = "my-game"             # a name from ``referee games``
    seats = 3
    rounds = 2            # seeds; every seating and rotation plays every seed
    move_ms = 1000
    startup_ms = 10000
    bank_ms = 10000
    [options]             # game options
    [[bots]]
    name = "random"
    command = "python3 ../bots/random_bot.py"
    # wrapper = "firejail --quiet"   # optional sandbox prefix

Optional resource limits for every bot process: ``cpu_s`` (CPU seconds),
``memory_mb`` (address space) and ``open_files``; for each bot as a whole:
``max_processes``, ``disk_mb`` and ``max_memory_mb`` (2048 MiB for all its processes
together); output caps ``max_line_bytes`` and ``max_stderr_bytes``.

``max_plies`` (default 0, no limit) ends a game still running after that many plies
(moves plus chance outcomes); it is ranked by ``adjudication``: ``scores`` (the
engine's ranking of the position reached, the default) or ``draw`` (every seat
first).  Faulted seats still rank below clean ones.

Bot commands are split like a shell; relative file arguments are relative to the
config file, and ``python3`` means the referee's own interpreter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from referee.errors import RefereeError
from referee.match.settings import DEFAULT_BANK_MS, DEFAULT_MOVE_MS, DEFAULT_STARTUP_MS


class BotEntry(msgspec.Struct, forbid_unknown_fields=True):
    """One entrant: a unique display name, its command line, an optional sandbox wrapper.

    ``wrapper`` is a command prefix run in front of ``command`` (for example
    ``"firejail --quiet --net=none"`` or ``"bwrap --ro-bind / / --dev /dev --"``).
    ``move_ms``/``bank_ms``: this entrant's own clock (ms) instead of the
    tournament's (unset: the tournament's; a ``human`` entrant: a person's, see
    :mod:`referee.human.command`).
    """

    name: str
    command: str
    wrapper: str = ""
    move_ms: int | None = None
    bank_ms: int | None = None

    def __post_init__(self) -> None:
        if (self.move_ms is not None and self.move_ms <= 0) or (
            self.bank_ms is not None and self.bank_ms < 0
        ):
            raise ValueError(f"bot {self.name!r}: move_ms must be positive, bank_ms at least 0")


class TournamentConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A tournament: game, seat count, entrants, schedule shape and clock (ms).

    ``games``, when set, fixes the number of matches instead (a config giving both
    ``games`` and ``rounds`` is rejected by :func:`load_config`): rounds are repeated
    as needed and the schedule is cut after that many matches (a partial last round
    stays seat-balanced only up to the last complete block).

    ``format`` is ``round-robin`` (every combination of entrants for the seat count,
    every seat rotation, each rotation on the same seeds) or ``gauntlet`` (the first
    bot, the candidate, against every combination of the others).
    """

    name: str
    game: str
    bots: list[BotEntry]
    seats: int | None = None
    rounds: int = 1
    games: int | None = None
    format: Literal["round-robin", "gauntlet"] = "round-robin"
    move_ms: int = DEFAULT_MOVE_MS
    startup_ms: int = DEFAULT_STARTUP_MS
    bank_ms: int = DEFAULT_BANK_MS
    ponder: bool = False
    """Let bots compute while other seats are on move; ``false`` (default): a bot is
    stopped while another seat thinks (see :mod:`referee.process.turns`)."""
    options: dict[str, Any] = {}
    max_line_bytes: int = 1 << 20
    max_stderr_bytes: int = 1 << 20
    cpu_s: int | None = None
    memory_mb: int | None = None
    open_files: int | None = None
    max_processes: int = 256
    """Most processes a bot may run at once (more is a ``crash`` fault; see
    :meth:`referee.process.bot.BotProcess.freeze`)."""
    disk_mb: int = 128
    """Size (MiB) of a sandboxed bot's working directory, ``/tmp`` and ``/dev/shm``."""
    max_memory_mb: int = 2048
    """Most memory (MiB) all of a bot's processes may use together (0 = no cap; see
    :mod:`referee.process.isolation.cgroups`)."""
    max_plies: int = 0
    adjudication: Literal["scores", "draw"] = "scores"
    sandbox: Literal["auto", "bwrap", "none"] = "auto"
    network: bool = False
    reuse: bool = True
    """Keep bots that announce ``reuse`` running between matches (see
    :mod:`referee.process.pool`); ``false`` starts a fresh process for every match."""
    affinity: bool | None = None
    """Bind each match's referee process and bots to one CPU core (see
    :mod:`referee.process.isolation.affinity`); unset: automatic, on when ``--concurrency`` is at
    least
    the number of cores."""

    def __post_init__(self) -> None:
        names = [b.name for b in self.bots]
        if len(names) != len(set(names)):
            raise ValueError("bot names must be unique")
        if not self.bots:
            raise ValueError("at least one bot is needed")
        if self.format == "gauntlet" and len(self.bots) < 2:
            raise ValueError("a gauntlet needs a candidate and at least one opponent")
        if self.rounds < 1:
            raise ValueError("rounds must be at least 1")
        if self.games is not None and self.games < 1:
            raise ValueError("games must be at least 1")
        if min(self.move_ms, self.startup_ms) <= 0 or self.bank_ms < 0:
            raise ValueError("clock values must be positive (bank_ms may be 0)")
        if self.max_plies < 0:
            raise ValueError("max_plies must be 0 (no limit) or positive")
        if self.max_processes < 1 or self.disk_mb < 1:
            raise ValueError("max_processes and disk_mb must be at least 1")
        if self.max_memory_mb < 0:
            raise ValueError("max_memory_mb must be 0 (no cap) or positive")


class ConfigError(RefereeError, ValueError):
    """An unreadable or invalid tournament config; the message names the file."""


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a TOML tournament config.  Raises :class:`ConfigError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        raw = msgspec.toml.decode(data)
        if isinstance(raw, dict) and "games" in raw and "rounds" in raw:
            raise ValueError(
                "give either 'rounds' (seeds per seating) or 'games' (a fixed number of "
                "matches), not both"
            )
        return msgspec.convert(raw, type=TournamentConfig)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
