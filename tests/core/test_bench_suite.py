"""``benchmarks.suite``: the figure the real-match target judges."""

from __future__ import annotations

import math

from benchmarks.suite import recurring


def test_the_recurring_cost_leaves_out_what_a_run_pays_once() -> None:
    assert math.isclose(recurring({"cpu": 110e-6, "once": 16e-6}), 94e-6)


def test_the_whole_figure_stands_where_the_one_time_part_is_unknown() -> None:
    assert recurring({"cpu": 91e-6, "once": float("nan")}) == 91e-6  # a one-match run
    assert recurring({"cpu": 91e-6}) == 91e-6  # a probe that does not split it
