"""Game records: one JSON Lines file per match (format ``referee-record/1``).

Lines, each an object tagged by ``type``: :class:`Header` first, then
:class:`ChanceLine`, :class:`MoveLine` and :class:`FaultLine` in ply order, and a
:class:`ResultLine` last.

Durability: :class:`RecordWriter` writes to ``<path>.part`` in whole lines (it
gathers lines in memory and writes them once ``BUFFER_BYTES`` have gathered, and
at the end) and renames the file to ``<path>`` only after the result line is
written and fsynced.  A file without ``.part`` is therefore a finished match, and a
reader (:func:`read_record`) rejects any line that lacks its newline, so a crash can
never leave half a line that is taken as whole; the ``.part`` file of a match
interrupted by a crash holds its first lines, up to the last ``BUFFER_BYTES`` (and
the at most ``HOLD_LINES`` move lines held before them).
Records are created with mode 0600 (a record holds the whole deal and, at the end,
the seed).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, Literal

import msgspec

from referee.api.rng import LEGACY, RngKind
from referee.errors import RefereeError
from referee.process.protocol import Verdict

FORMAT: Final = "referee-record/1"

BUFFER_BYTES: Final = 64 * 1024
"""Record bytes gathered in memory before a ``write`` (one system call per move
costs more than the rest of writing the record)."""

HOLD_LINES: Final = 64
"""Lines :meth:`RecordWriter.hold` keeps before it encodes them, all in one call."""

LIVE_FLUSH_S: Final = 0.25
"""How long a match's record lines wait in memory at most (seconds) before they are
written to the ``.part`` file, so the game can be followed live (``referee watch``)."""


class SeatInfo(msgspec.Struct, omit_defaults=True):
    """Who played a seat: display name and the command line that was run; ``move_ms``
    and ``bank_ms`` only when the seat had a clock of its own (an entrant's, or a human
    seat's), different from the header's."""

    name: str
    command: str
    move_ms: int | None = None
    bank_ms: int | None = None


class Header(msgspec.Struct, tag_field="type", tag="header"):
    """First line: what was played, by whom, under which options and clock (ms).

    ``chance`` names the generator of chance outcomes and fallback moves (see
    :mod:`referee.api.rng`; records without it used the legacy one); ``sandbox`` the
    isolation bots ran under (``bwrap`` or ``none``; empty in older records).
    """

    format: str
    game: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    referee: str
    match: str
    clock: dict[str, int] = {}
    max_plies: int = 0
    adjudication: Literal["scores", "draw"] = "scores"
    chance: RngKind = LEGACY
    sandbox: str = ""


class ChanceLine(msgspec.Struct, tag_field="type", tag="chance"):
    """The explicit outcome of a random event at ``ply``."""

    ply: int
    outcome: Any


class MoveLine(msgspec.Struct, tag_field="type", tag="move"):
    """A seat's action at ``ply``; ``ms`` is the bot's thinking time (0 for fallbacks)."""

    ply: int
    seat: int
    action: Any
    ms: float
    fallback: bool = False


class FaultLine(msgspec.Struct, tag_field="type", tag="fault"):
    """A seat's fault; from then on the referee's fallback plays for it."""

    ply: int
    seat: int
    verdict: Verdict
    detail: str


class ResultLine(msgspec.Struct, tag_field="type", tag="result"):
    """Last line: scores (game units), ranks (1 = best), per-seat verdicts, why the
    match ended (``finished``, or ``ply_limit`` when the header's ``max_plies`` cut it
    short and ranks were adjudicated), the seed."""

    scores: list[float]
    ranks: list[int]
    verdicts: list[Verdict]
    reason: str = "finished"
    seed: int | None = None


RecordLine = Header | ChanceLine | MoveLine | FaultLine | ResultLine

_encoder = msgspec.json.Encoder()
_line_decoder = msgspec.json.Decoder(RecordLine)


class RecordError(RefereeError, ValueError):
    """A record that cannot be read: names the file and the 1-based line number."""


_Move = tuple[int, int, Any, float, bool]
"""A move :meth:`RecordWriter.hold_move` keeps: ply, seat, action, ms, fallback."""


class RecordWriter:
    """Append-only writer of one record; see the module docstring for durability.

    Use as a context manager; :meth:`finish` writes the result and publishes the
    file.  If the context exits without :meth:`finish` the ``.part`` file stays
    behind (an unfinished match, never mistaken for a finished one).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        fsync: bool = True,
        flush_after_s: float | None = None,
    ) -> None:
        """``flush_after_s``: also write out gathered lines that many seconds after the
        first of them (a timer on the running asyncio loop), so a reader following the
        ``.part`` file (``referee watch``, ``view --follow``) sees a game's plies as it
        is played; ``None``: only by size and at the end."""
        self.path = Path(path)
        self._flush_after = flush_after_s
        self._timer: asyncio.TimerHandle | None = None
        self.partial = self.path.with_name(self.path.name + ".part")
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._fsync = fsync
        self._fd: int | None = os.open(
            self.partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600
        )
        self._pending = bytearray()
        self._later: list[RecordLine | _Move] = []
        # The running loop, looked up once (on Python 3.11 each lookup is a getpid()).
        self._loop: asyncio.AbstractEventLoop | None = None

    def write(self, line: RecordLine) -> None:
        """Append one line (encoded with its newline; written out in whole lines once
        ``BUFFER_BYTES`` have gathered), after the lines :meth:`hold` keeps.
        Raises ValueError after :meth:`finish`."""
        if self._fd is None:
            raise ValueError("record already finished")
        if self._later:
            self._write_later()
        self._append(line)

    def hold(self, line: RecordLine) -> None:
        """Keep ``line``, in order with every other line, until :data:`HOLD_LINES`
        are kept, :meth:`release`, the live flush (``flush_after_s``) or the next
        :meth:`write`, :meth:`finish` or :meth:`close`: then the lines kept are
        encoded in one call.  A match holds its moves' lines, so no line is encoded
        between a reply and the next act, nor between an act and the bot's reply.
        Raises ValueError after :meth:`finish`, RuntimeError without a running
        event loop where ``flush_after_s`` is set."""
        self._keep(line)

    def hold_move(self, ply: int, seat: int, action: Any, ms: float, fallback: bool) -> None:
        """:meth:`hold` the :class:`MoveLine` of these fields (``ms`` rounded to the
        microsecond), made only when the batch is encoded: a match's per-move cost
        is then a tuple, and the lines are made together, where the caches are warm.
        Raises ValueError after :meth:`finish`."""
        self._keep((ply, seat, action, ms, fallback))

    def _keep(self, item: RecordLine | _Move) -> None:
        if self._fd is None:
            raise ValueError("record already finished")
        later = self._later
        later.append(item)
        if len(later) >= HOLD_LINES:
            self._write_later()
        else:
            self._flush_soon()

    def release(self) -> None:
        """Append the lines :meth:`hold` keeps."""
        if self._later:
            self._write_later()

    def _write_later(self) -> None:
        later, self._later = self._later, []
        if self._fd is not None and later:
            lines = [
                MoveLine(x[0], x[1], x[2], round(x[3], 3), x[4]) if isinstance(x, tuple) else x
                for x in later
            ]
            self._pending += _encoder.encode_lines(lines)
            self._appended()

    def _append(self, line: RecordLine) -> None:
        _encoder.encode_into(line, self._pending, -1)
        self._pending += b"\n"
        self._appended()

    def _appended(self) -> None:
        if len(self._pending) >= BUFFER_BYTES:
            self._flush()
        else:
            self._flush_soon()

    def _flush_soon(self) -> None:
        """Have the live flush (:meth:`_due`) run within ``flush_after_s``, unless it
        is off or already due."""
        if self._flush_after is not None and self._timer is None:
            self._timer = self._running_loop().call_later(self._flush_after, self._due)

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def _due(self) -> None:
        self._timer = None
        if self._fd is not None:
            if self._later:
                self._write_later()
            if self._pending:
                self._flush()

    def _flush(self) -> None:
        assert self._fd is not None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        view = memoryview(self._pending)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        finally:
            view.release()
        self._pending.clear()

    def finish(self, result: ResultLine) -> Path:
        """Write the result line, fsync, and rename ``.part`` to the final path."""
        self.write(result)
        self._flush()
        assert self._fd is not None
        if self._fsync:
            os.fsync(self._fd)
        os.close(self._fd)
        self._fd = None
        os.replace(self.partial, self.path)
        if self._fsync:
            _fsync_dir(self.path.parent)
        return self.path

    def close(self) -> None:
        """Close without publishing (the ``.part`` file remains, with every line
        written so far)."""
        if self._fd is not None:
            try:
                if self._later:
                    self._write_later()
                self._flush()
            finally:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def iter_record(path: str | os.PathLike[str]) -> Iterator[tuple[int, RecordLine]]:
    """Yield ``(line_number, line)`` for every line of a record file.

    Raises :class:`RecordError` naming the line for unreadable files, a line without
    its newline (truncated), or a line that is not a valid record line.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror}") from None
    if not data:
        raise RecordError(f"{path}: empty record")
    lines = data.split(b"\n")
    last = lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            yield number, _line_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise RecordError(f"{path}: line {number}: not a record line: {exc}") from None
    if last:
        raise RecordError(f"{path}: line {len(lines) + 1}: truncated (no newline at end)")


def read_result_line(path: str | os.PathLike[str]) -> ResultLine:
    """The result line of a finished record, reading only the end of the file.

    A cheap check that a record is there and ends as a finished match should; it
    does not replay the record.  Raises :class:`RecordError` if the file cannot be
    read, does not end with a newline, or its last line is not a result line.
    """
    tail_bytes = 4096
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            while True:
                f.seek(max(0, size - tail_bytes))
                tail = f.read()
                if b"\n" in tail[:-1] or len(tail) >= size:
                    break
                tail_bytes *= 4  # a last line longer than the tail read so far
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror}") from None
    if not tail.endswith(b"\n"):
        raise RecordError(f"{path}: truncated (no newline at end)")
    last = tail[:-1].rsplit(b"\n", 1)[-1]
    try:
        line = _line_decoder.decode(last)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise RecordError(f"{path}: last line: not a record line: {exc}") from None
    if not isinstance(line, ResultLine):
        raise RecordError(f"{path}: last line: not a result line")
    return line


def read_record(path: str | os.PathLike[str]) -> list[RecordLine]:
    """All lines of a record (see :func:`iter_record` for the errors)."""
    return [line for _, line in iter_record(path)]
