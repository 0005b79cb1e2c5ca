"""``benchmarks.suite``: the figure the real-match target judges, and the guard
section's table."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchmarks import baseline
from benchmarks.suite import Suite, recurring, sandbox_modes


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
