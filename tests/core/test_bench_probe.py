"""``benchmarks.probe.echo_cpu``: the raw echo that the real-match target divides by
sends its round trips to one echo child per seat in turn, as a match's acts go."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from benchmarks.probe import echo_cpu

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
