"""The record writer: lines handed over with ``write_soon`` (a match's moves and chance
outcomes, encoded once the next act is on its way) keep their place among the lines
written at once (header, faults, result), and none is lost when the record is
finished or closed unfinished."""

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


def test_a_line_written_soon_is_appended_once_the_loop_runs(tmp_path: Path) -> None:
    async def main() -> list[int]:
        writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
        writer.write(header())
        writer.write_soon(MoveLine(0, 0, {"kind": "pass"}, 1.5))
        waiting = [len(writer._later)]
        await asyncio.sleep(0)  # the caller yields: the line is encoded now
        waiting.append(len(writer._later))
        writer.finish(ResultLine(scores=[], ranks=[], verdicts=[], reason="finished"))
        return waiting

    assert asyncio.run(main()) == [1, 0]
    assert plies(tmp_path / "r.jsonl") == [("MoveLine", 0), ("ResultLine", -1)]


def test_lines_written_at_once_come_after_those_handed_over_before(tmp_path: Path) -> None:
    async def main() -> None:
        writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
        writer.write(header())
        writer.write_soon(ChanceLine(0, [1, 2]))
        writer.write_soon(MoveLine(1, 0, {"kind": "pass"}, 1.0))
        # a fault found before the loop ran the callback (a bot whose input is closed)
        writer.write(FaultLine(2, 1, "crash", "its input is closed"))
        writer.write_soon(MoveLine(2, 1, {"kind": "pass"}, 0.0, True))
        await asyncio.sleep(0)
        writer.write_soon(MoveLine(3, 0, {"kind": "pass"}, 2.0))
        writer.finish(ResultLine(scores=[], ranks=[], verdicts=[], reason="finished"))

    asyncio.run(main())
    assert plies(tmp_path / "r.jsonl") == [
        ("ChanceLine", 0),
        ("MoveLine", 1),
        ("FaultLine", 2),
        ("MoveLine", 2),
        ("MoveLine", 3),
        ("ResultLine", -1),
    ]


def test_closing_an_unfinished_record_keeps_the_lines_handed_over(tmp_path: Path) -> None:
    async def main() -> None:
        writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
        writer.write(header())
        writer.write_soon(MoveLine(0, 0, {"kind": "pass"}, 1.0))
        writer.close()  # e.g. the match was cancelled before the loop ran again
        await asyncio.sleep(0)  # the scheduled callback finds nothing left to do

    asyncio.run(main())
    assert plies(tmp_path / "r.jsonl.part") == [("MoveLine", 0)]


def test_handing_a_line_over_needs_a_running_loop_and_an_open_record(tmp_path: Path) -> None:
    writer = RecordWriter(tmp_path / "r.jsonl", fsync=False)
    with pytest.raises(RuntimeError):
        writer.write_soon(MoveLine(0, 0, {"kind": "pass"}, 1.0))
    writer.close()
    with pytest.raises(ValueError, match="finished"):
        writer.write_soon(MoveLine(0, 0, {"kind": "pass"}, 1.0))
