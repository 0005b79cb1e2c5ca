"""What every benchmark prints around its figures: the load average before and after,
and for each figure its repetitions, minimum and median.

A figure quoted in a note or in the docs is the median of at least 5 repetitions,
with the command that produced it (:func:`command_line`).
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Spread:
    """Repeated measurements of one figure: ``n`` values, their minimum and median."""

    n: int
    min: float
    median: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The spread of ``values``; raises ``ValueError`` on an empty sequence."""
        if not values:
            raise ValueError("no measurements")
        return cls(len(values), min(values), statistics.median(values))


def loads() -> str:
    """The 1-, 5- and 15-minute load averages, as ``"2.31 2.40 3.02"``."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def load_report(what: str) -> Iterator[None]:
    """Print the load average (and UTC time) before and after the block."""
    print(f"[{what}: start {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {loads()}]")
    try:
        yield
    finally:
        end = time.strftime("%H:%M:%S", time.gmtime())
        print(f"[{what}: end {end} UTC, load {loads()}]", flush=True)


def command_line(module: str, args: Sequence[str]) -> str:
    """``python -m MODULE ARGS...``: the command to quote beside a figure; ``MODULE``
    is ``benchmarks`` instead when this process was started as ``python -m
    benchmarks`` (``make bench``)."""
    if Path(sys.argv[0]).name == "__main__.py":
        module = "benchmarks"
    return " ".join(["python", "-m", module, *(shlex.quote(a) for a in args)])


def host_processes() -> int:
    """How many processes this machine runs now (the numeric entries of ``/proc``;
    0 without it)."""
    try:
        return sum(name.isdigit() for name in os.listdir("/proc"))
    except OSError:
        return 0


@contextmanager
def crowd(size: int) -> Iterator[None]:
    """Run ``size`` idle processes (``sleep``, each in a session of its own) for the
    block, outside the process tree of every probe: a host as busy with processes as
    a desktop or a CI runner, for the figures that depend on it.  They are killed and
    reaped at the end."""
    sleep = shutil.which("sleep") or "/bin/sleep"
    idle: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(size):
            idle.append(subprocess.Popen([sleep, "3600"], start_new_session=True))
        yield
    finally:
        for process in idle:
            process.kill()
        for process in idle:
            process.wait()
