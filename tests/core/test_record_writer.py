"""The record writer: lines held with ``hold`` or ``hold_move`` (a match's moves and
chance outcomes, encoded by the batch, off the path from a reply to the next act) keep
their place among the lines written at once (header, faults, result), and none is lost
when the record is finished or closed unfinished."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from referee.match.record import (
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordWriter,
    ResultLine,
    iter_record,
)


def header() -> Header:
    return Header(
        format="referee-record/1",
        game="manila",
        options={},
        seats=[],
        referee="test",
        match="m",
        clock={},
    )


def plies(path: Path) -> list[tuple[str, int]]:
    """``(kind, ply)`` of every line after the header."""
    out = []
    for _number, line in list(iter_record(path))[1:]:
        kind = type(line).__name__
        out.append((kind, getattr(line, "ply", -1)))
    return out


def test_closing_an_unfinished_record_keeps_the_lines_held(tmp_path: Path) -> None:
    writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
    writer.write(header())
    writer.hold(MoveLine(0, 0, {"kind": "pass"}, 1.0))
    writer.close()  # e.g. the match was cancelled before the batch was encoded
    assert plies(tmp_path / "r.jsonl.part") == [("MoveLine", 0)]


def test_holding_a_line_needs_an_open_record_and_a_loop_for_the_live_flush(
    tmp_path: Path,
) -> None:
    live = RecordWriter(tmp_path / "live.jsonl", fsync=False, flush_after_s=0.25)
    with pytest.raises(RuntimeError):  # the live flush's timer needs a running loop
        live.hold(MoveLine(0, 0, {"kind": "pass"}, 1.0))

    async def close_live() -> None:
        live.close()

    asyncio.run(close_live())
    kept = [line for _number, line in iter_record(tmp_path / "live.jsonl.part")]
    assert kept == [MoveLine(0, 0, {"kind": "pass"}, 1.0)]  # kept all the same
    writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
    writer.close()
    with pytest.raises(ValueError, match="finished"):
        writer.hold(MoveLine(0, 0, {"kind": "pass"}, 1.0))
    with pytest.raises(ValueError, match="finished"):
        writer.hold_move(0, 0, {"kind": "pass"}, 1.0, False)


def test_held_lines_are_encoded_by_the_batch_in_order_and_never_lost(tmp_path: Path) -> None:
    """``hold`` (a match's moves) keeps lines until :data:`HOLD_LINES` are kept, or
    ``release``, or a line written at once, or the end: then all of them, in order
    with the rest; the file gets them when the record is finished."""
    from referee.match.record import HOLD_LINES

    writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
    writer.write(header())
    for ply in range(HOLD_LINES - 1):
        writer.hold(MoveLine(ply, 0, {"kind": "pass"}, 1.0))
    assert len(writer._later) == HOLD_LINES - 1 and b'"move"' not in writer._pending
    writer.hold(MoveLine(HOLD_LINES - 1, 0, {"kind": "pass"}, 1.0))
    assert writer._later == [] and writer._pending.count(b'"move"') == HOLD_LINES
    writer.hold(ChanceLine(HOLD_LINES, [3]))
    writer.write(FaultLine(HOLD_LINES + 1, 1, "crash", "gone"))  # after the held line
    writer.hold(MoveLine(HOLD_LINES + 1, 1, {"kind": "pass"}, 0.0, True))
    writer.release()
    assert writer._later == []
    writer.hold(MoveLine(HOLD_LINES + 2, 0, {"kind": "pass"}, 1.0))
    writer.finish(ResultLine(scores=[], ranks=[], verdicts=[], reason="finished"))
    assert plies(tmp_path / "r.jsonl") == [
        *[("MoveLine", ply) for ply in range(HOLD_LINES)],
        ("ChanceLine", HOLD_LINES),
        ("FaultLine", HOLD_LINES + 1),
        ("MoveLine", HOLD_LINES + 1),
        ("MoveLine", HOLD_LINES + 2),
        ("ResultLine", -1),
    ]


def test_held_lines_reach_the_file_by_the_live_flush(tmp_path: Path) -> None:
    """With ``flush_after_s``, a held line reaches the ``.part`` file without any
    other write (``referee watch`` follows a game through it)."""

    async def main() -> list[tuple[str, int]]:
        writer = RecordWriter(tmp_path / "r.jsonl", fsync=False, flush_after_s=0.01)
        writer.write(header())
        writer.hold(MoveLine(0, 0, {"kind": "pass"}, 1.0))
        for _ in range(500):  # the flush is due after 10 ms: wait for it, not for a time
            await asyncio.sleep(0.01)
            if plies(tmp_path / "r.jsonl.part"):
                break
        seen = plies(tmp_path / "r.jsonl.part")
        writer.close()
        return seen

    assert asyncio.run(main()) == [("MoveLine", 0)]


def test_a_held_move_becomes_its_move_line_with_ms_to_the_microsecond(tmp_path: Path) -> None:
    writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
    writer.write(header())
    writer.hold_move(0, 1, {"kind": "pass"}, 1.23456, False)
    writer.hold(ChanceLine(1, [4]))
    writer.hold_move(2, 0, {"kind": "pass"}, 0.0, True)
    writer.finish(ResultLine(scores=[], ranks=[], verdicts=[], reason="finished"))
    lines = [line for _number, line in iter_record(tmp_path / "r.jsonl")][1:-1]
    assert lines == [
        MoveLine(0, 1, {"kind": "pass"}, 1.235, False),
        ChanceLine(1, [4]),
        MoveLine(2, 0, {"kind": "pass"}, 0.0, True),
    ]
