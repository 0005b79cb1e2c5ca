"""A tiny framework for bots written in Python that use the rules engines.

A bot subclasses :class:`Bot`, overrides :meth:`Bot.choose`, and calls
:func:`run`.  The loop speaks protocol version 1 on stdin/stdout (see
``docs/protocol.md``): it answers ``start`` with ``ready``, every ``act`` with an
``action`` message carrying an ``index`` into ``legal``, and returns after ``end``.

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

import sys
from typing import IO, Any

import msgspec

from referee.engine import Game
from referee.games import get_game


class Bot:
    """Base class of in-Python bots.

    After ``start`` the attributes ``game`` (the :class:`~referee.engine.Game`),
    ``seat``, ``seats``, ``options`` (the parsed options Struct) and ``start``
    (the raw message) are set.
    """

    name: str = "bot"
    version: str = "1"
    game: Game
    seat: int
    seats: int
    options: Any
    start: dict[str, Any]

    def on_start(self) -> None:
        """Called once after ``start`` (the attributes are set); override to prepare."""

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Return the index into ``legal`` of the action to take.

        ``view`` is the game's decoded view Struct, ``legal`` decoded action Structs,
        ``events`` the raw event objects since this seat's last message.
        """
        raise NotImplementedError

    def on_end(self, message: dict[str, Any]) -> None:
        """Called with the ``end`` message before the loop returns."""


def run(bot: Bot, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:
    """Drive ``bot`` over JSON Lines until ``end`` or end of input."""
    src = stdin or sys.stdin.buffer
    dst = stdout or sys.stdout.buffer
    decoder = msgspec.json.Decoder()
    encoder = msgspec.json.Encoder()

    def send(obj: dict[str, Any]) -> None:
        dst.write(encoder.encode(obj) + b"\n")
        dst.flush()

    for line in src:
        message = decoder.decode(line)
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "start":
            bot.start = message
            bot.game = get_game(message["game"])
            bot.seat = message["seat"]
            bot.seats = message["seats"]
            bot.options = bot.game.parse_options(message.get("options") or {})
            bot.on_start()
            send({"type": "ready", "name": bot.name, "version": bot.version})
        elif kind == "act":
            view = msgspec.convert(message["view"], bot.game.view_type)
            legal = [bot.game.decode_action(a) for a in message["legal"]]
            index = bot.choose(view, legal, message.get("events") or [])
            send({"type": "action", "id": message["id"], "index": int(index)})
        elif kind == "end":
            bot.on_end(message)
            return
