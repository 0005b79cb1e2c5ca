"""A tiny framework for bots written in Python that use the rules engines.

A bot subclasses :class:`Bot`, overrides :meth:`Bot.choose`, and calls
:func:`run`.  The loop speaks protocol version 1 on stdin/stdout (see
``docs/protocol.md``): it answers ``start`` with ``ready``, every ``act`` with an
``action`` message carrying an ``index`` into ``legal``, and after ``end`` either
returns (end of input) or, when the referee reuses the process, takes the next
``start``.

Reuse: :attr:`Bot.reuse` (default ``True``) is announced in ``ready``.  Every match
is played by a fresh deep copy of the instance handed to :func:`run`, so nothing a
bot learns in one match (dice, draws, the other seats' play) survives into the
next one, and a bot needs no code of its own to be reusable.

Only the game named in ``start`` is imported (see :func:`referee.games.get_game`), so a
bot's start-up pays for its own game's package, not for every game's.

Example::

    class First(Bot):
        def choose(self, view, legal, events):
            return 0

    if __name__ == "__main__":
        run(First())
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Iterable
from typing import IO, Any

# First, before any module that imports msgspec (see referee.api.lean_msgspec).
from referee.api.lean_msgspec import msgspec

# isort: split

from referee.api.engine import Game
from referee.games import get_game


class Clock(msgspec.Struct, frozen=True):
    """The ``clock`` of an ``act`` message: ``move_ms`` for this move and the seat's
    remaining ``bank_ms`` (both milliseconds).  Frozen: :attr:`Bot.clock`'s default is
    one instance shared by every bot of the process, so it is replaced, never changed."""

    move_ms: int = 1000
    bank_ms: int = 0


class Bot:
    """Base class of in-Python bots.

    After ``start`` the attributes ``game`` (the :class:`~referee.api.engine.Game`),
    ``seat``, ``seats``, ``options`` (the parsed options Struct) and ``start``
    (the raw message) are set.  Before every :meth:`choose`, ``clock`` holds the
    ``act``'s :class:`Clock` and ``received`` the :func:`time.perf_counter` reading
    (seconds) taken when the ``act`` line was read, so a bot can budget its
    thinking time from the moment the request arrived.
    """

    name: str = "bot"
    version: str = "1"
    reuse: bool = True
    """Announced in ``ready``: this process may play another match after ``end``."""
    game: Game
    seat: int
    seats: int
    options: Any
    start: dict[str, Any]
    clock: Clock = Clock()
    received: float = 0.0

    def on_start(self) -> None:
        """Called once after ``start`` (the attributes are set); override to prepare."""

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Return the index into ``legal`` of the action to take.

        ``view`` is the game's decoded view Struct, ``legal`` decoded action Structs,
        ``events`` the raw event objects since this seat's last message.
        """
        raise NotImplementedError

    def on_end(self, message: dict[str, Any]) -> None:
        """Called with the ``end`` message of the match."""


class _Message(msgspec.Struct):
    """The fields of a referee message the loop reads itself (the rest stays raw)."""

    type: str = ""
    clock: Clock | None = None


def run(
    bot: Bot, stdin: IO[bytes] | Iterable[bytes] | None = None, stdout: IO[bytes] | None = None
) -> None:
    """Drive ``bot`` over JSON Lines until end of input.

    Each ``start`` begins a match with a fresh :func:`copy.deepcopy` of ``bot`` (taken
    before its first match), so a reused process starts every match as a new one
    would.  Lines that are not JSON objects are skipped.
    """
    src = stdin if stdin is not None else sys.stdin.buffer
    dst = stdout or sys.stdout.buffer
    decoder = msgspec.json.Decoder()
    head_decoder = msgspec.json.Decoder(_Message)
    encoder = msgspec.json.Encoder()
    pristine = copy.deepcopy(bot)
    current = bot
    played = 0

    def send(obj: dict[str, Any]) -> None:
        dst.write(encoder.encode(obj) + b"\n")
        dst.flush()

    for line in src:
        received = time.perf_counter()
        try:
            head = head_decoder.decode(line)
            message = decoder.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if not isinstance(message, dict):
            continue
        kind = head.type
        if kind == "start":
            current = bot if played == 0 else copy.deepcopy(pristine)
            played += 1
            current.start = message
            current.game = get_game(message["game"])
            current.seat = message["seat"]
            current.seats = message["seats"]
            current.options = current.game.parse_options(message.get("options") or {})
            current.on_start()
            ready: dict[str, Any] = {"type": "ready", "name": current.name}
            ready["version"] = current.version
            if current.reuse:
                ready["reuse"] = True
            send(ready)
        elif kind == "act":
            current.received = received
            if head.clock is not None:
                current.clock = head.clock
            view = msgspec.convert(message["view"], current.game.view_type)
            legal = [current.game.decode_action(a) for a in message["legal"]]
            index = current.choose(view, legal, message.get("events") or [])
            send({"type": "action", "id": message["id"], "index": int(index)})
        elif kind == "end":
            current.on_end(message)
