"""Bot protocol version 1: the messages, as msgspec Structs.

Referee → bot: :class:`Start`, :class:`Act`, :class:`End`.
Bot → referee: :class:`Ready`, :class:`ActionReply`.

Every message is one JSON object on one ``\\n``-terminated line, tagged by ``type``.
Unknown fields are ignored on decode, as the contract requires.  See
``docs/protocol.md`` for the prose version written for bot authors.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

PROTOCOL_VERSION: Final = 1

Verdict = Literal["ok", "timeout", "crash", "protocol", "illegal", "startup"]
"""Per-seat outcome of a match: ``ok`` or the first fault of that seat."""

FAULTS: Final[tuple[Verdict, ...]] = ("timeout", "crash", "protocol", "illegal", "startup")

MAX_DETAIL_BYTES: Final = 2048
"""Most bytes (UTF-8) of a fault detail kept in records, results and tables, the cut
mark included (:func:`cap_bytes`)."""

MAX_NAME_CHARS: Final = 64
"""Most characters of the ``name`` a bot gives in ``ready`` that the referee keeps
and shows, the cut mark included (:func:`cap_name`)."""


def cap_bytes(text: str, limit: int = MAX_DETAIL_BYTES) -> str:
    """``text`` if its UTF-8 form has at most ``limit`` bytes; otherwise a prefix of
    whole characters followed by ``"… N more bytes"`` (``N``: the UTF-8 bytes cut,
    with thousands separators), at most ``limit`` bytes in all.  Capping a capped
    text changes nothing."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= limit:
        return text
    budget = max(0, limit - len(_bytes_mark(len(data)).encode()))
    kept = data[:budget].decode("utf-8", errors="ignore")
    return kept + _bytes_mark(len(data) - len(kept.encode("utf-8", errors="surrogatepass")))


def _bytes_mark(cut: int) -> str:
    return f"… {cut:,} more bytes"


def cap_name(name: str | None, limit: int = MAX_NAME_CHARS) -> str | None:
    """A ``ready`` name of more than ``limit`` characters cut to a prefix followed by
    ``"… N more characters"``, ``limit`` characters in all; ``None`` stays ``None``."""
    if name is None or len(name) <= limit:
        return name
    budget = max(0, limit - len(_chars_mark(len(name))))
    return name[:budget] + _chars_mark(len(name) - budget)


def _chars_mark(cut: int) -> str:
    return f"… {cut:,} more characters"


class StartClock(msgspec.Struct):
    """Clock settings announced in ``start`` (milliseconds); ``ponder``: whether the
    bot may compute while other seats are on move (false: it is stopped then)."""

    startup_ms: int
    move_ms: int
    bank_ms: int
    ponder: bool = False


class MoveClock(msgspec.Struct):
    """Clock state sent with each ``act``: per-move allowance and bank left, in ms."""

    move_ms: int
    bank_ms: int


class Start(msgspec.Struct, tag_field="type", tag="start"):
    """First line of a match, sent to every seat."""

    protocol: int
    match: str
    game: str
    options: dict[str, Any]
    seat: int
    seats: int
    players: list[str]
    clock: StartClock


class Act(msgspec.Struct, tag_field="type", tag="act"):
    """A decision is due: ``legal`` is a list of complete action objects."""

    id: int
    ply: int
    view: Any
    legal: list[Any]
    events: list[Any]
    clock: MoveClock


class MatchResult(msgspec.Struct):
    """Scores (game units) and ranks (1 = best, ties share) by seat."""

    scores: list[float]
    ranks: list[int]


class End(msgspec.Struct, tag_field="type", tag="end"):
    """The match is over; the bot should exit."""

    result: MatchResult
    verdicts: list[Verdict]
    reason: str
    events: list[Any]


class Ready(msgspec.Struct, tag_field="type", tag="ready"):
    """A bot's answer to ``start``.  ``reuse``: the bot may receive another ``start``
    after ``end`` instead of having its input closed (see docs/protocol.md, "Reuse")."""

    name: str | None = None
    version: str | None = None
    reuse: bool = False


class ActionReply(msgspec.Struct, tag_field="type", tag="action"):
    """A bot's answer to ``act``: exactly one of ``action`` and ``index``."""

    id: int
    action: Any = None
    index: int | None = None


BotMessage = Ready | ActionReply

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(BotMessage)


class ProtocolViolation(ValueError):
    """A bot line that is not a well-formed protocol message (verdict ``protocol``)."""


def encode(message: Start | Act | End) -> bytes:
    """One wire line (with the trailing newline)."""
    return _encoder.encode(message) + b"\n"


def decode_bot_line(line: bytes) -> Ready | ActionReply:
    """Decode one line from a bot.

    Raises :class:`ProtocolViolation` for invalid UTF-8 or JSON, a non-object, an
    unknown or missing ``type``, wrong field types, or an ``action`` reply that has
    neither or both of ``action`` and ``index``; its message is at most
    :data:`MAX_DETAIL_BYTES` (and the cut mark).
    """
    try:
        line.decode("utf-8")
        message = _decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        # msgspec quotes the offending value whole (a 900 KB "type"): capped here.
        raise ProtocolViolation(cap_bytes(f"malformed message: {exc}")) from None
    if isinstance(message, ActionReply) and (message.action is None) == (message.index is None):
        raise ProtocolViolation("an action reply needs exactly one of 'action' and 'index'")
    return message
