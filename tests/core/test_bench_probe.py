"""``benchmarks.probe``: the raw echo that the real-match target divides by sends its
round trips to one echo child per seat in turn, as a match's acts go; the turn
guard's probe times real stops and continues."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from benchmarks.probe import echo_cpu, guard_cycles
from referee.process.bot import BotProcess

# Echoes each line and, at the end of its input, writes how many lines it echoed.
COUNTING_ECHO = """
import sys
n = 0
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    n += 1
with open(sys.argv[1] + "/" + str(__import__("os").getpid()), "w") as f:
    f.write(str(n))
"""


def _counts(tmp_path: Path, children: int, n: int, warm: int) -> list[int]:
    script = tmp_path / "echo.py"
    script.write_text(COUNTING_ECHO)
    runner = tmp_path / "echo"
    runner.write_text(f"#!/bin/sh\nexec {sys.executable} {script} {tmp_path / 'out'}\n")
    runner.chmod(0o755)
    (tmp_path / "out").mkdir()
    cpu = asyncio.run(echo_cpu(str(runner), b'{"type":"act"}\n', n, warm=warm, children=children))
    assert cpu > 0
    return sorted(int(p.read_text()) for p in (tmp_path / "out").iterdir())


def test_round_trips_go_to_each_child_in_turn(tmp_path: Path) -> None:
    assert _counts(tmp_path, children=4, n=40, warm=8) == [12, 12, 12, 12]


def test_one_child_takes_every_round_trip(tmp_path: Path) -> None:
    assert _counts(tmp_path, children=1, n=7, warm=3) == [10]


def test_the_guard_probe_times_real_stops_and_continues(monkeypatch: pytest.MonkeyPatch) -> None:
    """``guard_cycles`` stops and continues the bot (its helpers included) once per
    cycle, after one untimed cycle, and reports how."""
    calls: list[str] = []
    freeze, thaw = BotProcess.freeze, BotProcess.thaw

    async def counted_freeze(self: BotProcess) -> None:
        await freeze(self)
        calls.append(f"freeze {len(self.tree())}")

    def counted_thaw(self: BotProcess) -> None:
        calls.append("thaw")
        thaw(self)

    monkeypatch.setattr(BotProcess, "freeze", counted_freeze)
    monkeypatch.setattr(BotProcess, "thaw", counted_thaw)
    cpu, wall, mechanism = asyncio.run(guard_cycles("none", 2, 6))
    assert cpu > 0 and wall > 0
    assert mechanism in ("signals", "cgroup freezer")
    # the shell and its two sleeping children, stopped whole; close() may thaw again
    assert calls[:14] == ["freeze 3", "thaw"] * 7
    assert set(calls[14:]) <= {"thaw"}
