"""How one match is played: its clock and its :class:`MatchSettings`, the one object
that ``play``, ``check-bot``, tournament jobs and regress jobs all hand to
:class:`referee.match.match.Match`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.match.ranks import Adjudication
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.spec import BotLimits

DEFAULT_STARTUP_MS = 10_000
"""Time for a bot to answer ``start`` with ``ready``, in ms (every command's default)."""
DEFAULT_MOVE_MS = 1_000
"""Time per move, in ms."""
DEFAULT_BANK_MS = 0
"""Time bank per match, in ms, spent by moves that overrun ``move_ms``."""


@dataclass
class Clock:
    """Clock settings in milliseconds: start-up answer, per move, and time bank;
    ``ponder``: let the bots of the seats not on move compute (off: they are stopped
    while another seat thinks, see :mod:`referee.process.turns`)."""

    startup_ms: int = DEFAULT_STARTUP_MS
    move_ms: int = DEFAULT_MOVE_MS
    bank_ms: int = DEFAULT_BANK_MS
    ponder: bool = False


def header_clock(clock: Clock) -> dict[str, int]:
    """The record header's ``clock`` (ms): ``ponder`` (1) appears only when allowed,
    so records and run checks from before it existed read the same."""
    found = {"startup_ms": clock.startup_ms, "move_ms": clock.move_ms, "bank_ms": clock.bank_ms}
    if clock.ponder:
        found["ponder"] = 1
    return found


@dataclass
class MatchSettings:
    """Everything that decides how one match is played, apart from the game, the bots
    and where its files go.

    ``seed`` drives chance and the fallback moves of forfeited seats; ``options`` is
    the game's options Struct (``None``: the game's defaults); ``match_id`` is sent to
    every bot in ``start`` (say nothing of the seed in it); ``max_plies`` (0 = no
    limit) cuts a game off after that many plies, ranked by ``adjudication``;
    ``limits`` and ``sandbox`` confine each bot process (default: no sandbox);
    ``fsync`` makes the record durable line by line; ``reuse_tag`` names the
    duplicate block, so a reused process never plays two rotations of one block
    (:mod:`referee.process.pool`)."""

    seed: int
    options: Any = None
    clock: Clock = field(default_factory=Clock)
    match_id: str = "match"
    max_plies: int = 0
    adjudication: Adjudication = "scores"
    limits: BotLimits = field(default_factory=BotLimits)
    sandbox: SandboxPolicy | None = None
    fsync: bool = True
    reuse_tag: str = ""
