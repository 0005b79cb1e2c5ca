"""``benchmarks.suite``: the figure the real-match target judges, the guard and
startup sections' tables, and the crowd of idle processes (``benchmarks.figures``)."""

from __future__ import annotations

import math
import os
import re
import time
from pathlib import Path

import pytest

from benchmarks import baseline
from benchmarks.figures import crowd, host_processes
from benchmarks.suite import Suite, recurring, sandbox_modes
from referee.process.isolation import procfs
from tests.core.processes import runs


def test_the_recurring_cost_leaves_out_what_a_run_pays_once() -> None:
    assert math.isclose(recurring({"cpu": 110e-6, "once": 16e-6}), 94e-6)


def test_the_whole_figure_stands_where_the_one_time_part_is_unknown() -> None:
    assert recurring({"cpu": 91e-6, "once": float("nan")}) == 91e-6  # a one-match run
    assert recurring({"cpu": 91e-6}) == 91e-6  # a probe that does not split it


def test_the_guard_section_prints_a_row_per_mode_bot_and_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make bench``'s guard section, on this checkout alone: one row per sandbox mode
    this machine runs, per bot (alone, with children), with positive figures."""
    Suite([baseline.current()], 1, None, tmp_path).guard(cycles=3, children=2)
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["none"], ["bwrap"])]
    modes = sandbox_modes()
    assert sorted(row[0] for row in rows) == sorted(modes * 2)
    assert sum("children" in row for row in rows) == len(modes)
    for row in rows:
        assert all(float(x) > 0 for x in row[-4:])


def _sleeping_children() -> set[int]:
    """This process's children that run ``sleep`` (a crowd's)."""
    return {pid for pid in procfs.children(os.getpid()) if runs(pid, "sleep")}


def test_a_crowd_runs_idle_processes_for_the_block_and_ends_them() -> None:
    before = set(procfs.children(os.getpid()))
    with crowd(30):
        idle = set(procfs.children(os.getpid())) - before
        assert len(idle) == 30
        assert host_processes() >= 30
        # Popen (by vfork) may return before the kernel names the child after its
        # new program: its comm is still the parent's for a moment.
        deadline = time.monotonic() + 10
        while not all(runs(pid, "sleep") for pid in idle):
            assert time.monotonic() < deadline, "the crowd does not run sleep"
            time.sleep(0.01)
    assert not idle & set(procfs.children(os.getpid()))  # killed and reaped
    assert not [pid for pid in idle if Path(f"/proc/{pid}").exists()]


def test_the_startup_section_says_how_many_processes_the_host_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make bench``'s startup section, on this checkout alone, with a crowd: it names
    the host's process count, crowd included, gives each regime a row with a positive
    referee CPU per bot, and leaves no idle process behind."""
    before = _sleeping_children()
    Suite([baseline.current()], 1, None, tmp_path).startup(bots=2, crowd_size=25)
    out = capsys.readouterr().out
    counted = int(re.search(r"(\d+) processes on the host", out).group(1))  # type: ignore[union-attr]
    assert counted > 25
    rows = [
        line.split() for line in out.splitlines() if line.split()[:2] in (["in", "a"], ["50", "ms"])
    ]
    assert len(rows) == 2
    assert all(float(row[-1]) > 0 for row in rows)
    assert _sleeping_children() <= before
