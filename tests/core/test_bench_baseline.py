"""The benchmark harness (benchmarks/baseline.py, probe.py, figures.py): sides alternate,
a probe runs in the side's own interpreter and is refused when it imported another
``referee``, and every figure has its spread."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.baseline import Side, alternate, current, run_probe
from benchmarks.figures import Spread

ROOT = Path(__file__).resolve().parents[2]


def test_sides_alternate_and_flip_each_round() -> None:
    sides = [Side("old", ROOT, Path(sys.executable)), Side("new", ROOT, Path(sys.executable))]
    order: list[str] = []

    def measure(side: Side) -> int:
        order.append(side.label)
        return len(order)

    got = alternate(sides, 4, measure)
    assert order == ["old", "new", "new", "old", "old", "new", "new", "old"]
    assert got == {"old": [1, 4, 5, 8], "new": [2, 3, 6, 7]}


def test_spread_gives_count_minimum_and_median() -> None:
    assert Spread.of([3.0, 1.0, 2.0, 10.0]) == Spread(4, 1.0, 2.5)
    with pytest.raises(ValueError):
        Spread.of([])


def test_probe_runs_in_the_side_interpreter_and_reports_its_referee() -> None:
    got = run_probe(
        current(), "engine", {"game": "manila", "seats": 3, "loop": "view", "seconds": 0.05}
    )
    assert got["games"] >= 1 and got["decisions"] > 0 and got["decisions_per_s"] > 0
    assert got["children_cpu"] > 0


def test_probe_importing_another_referee_is_refused(tmp_path: Path) -> None:
    # A tree whose referee package is not the one the interpreter imports.
    (tmp_path / "referee").mkdir()
    other = Side("other", tmp_path, Path(sys.executable))
    with pytest.raises(RuntimeError, match="imported a referee outside"):
        run_probe(other, "engine", {"game": "manila", "seats": 3, "loop": "bare", "seconds": 0.01})
