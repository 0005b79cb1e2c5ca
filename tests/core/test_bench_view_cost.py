"""``benchmarks.view_cost`` takes parts of the Roads & Boats view away for the length of
a variant: each variant must run, and the code must be as it was afterwards, even
when a variant fails."""

from __future__ import annotations

import pytest

from benchmarks import view_cost
from referee.api import native
from referee.games.roads_and_boats import state as rb_state
from tests.core.python_build import pytest_in_python

in_python = pytest.mark.skipif(
    view_cost.compiled(), reason="run under REFEREE_PURE=1 by test_the_checks_run_in_python"
)


def test_the_checks_run_in_python() -> None:
    """Where the engine runs compiled, this file's checks run again in a process that
    runs it in Python (the build the benchmark measures), and must pass there; the
    benchmark itself refuses to measure the compiled build."""
    if not view_cost.compiled():
        pytest.skip("the checks run in this process: the engine runs in Python")
    with pytest.raises(RuntimeError, match=native.PURE_ENV):
        view_cost.run(seats=2, seconds=0.01, rounds=1)
    out = pytest_in_python(__file__, "-k", "not checks_run_in_python")
    assert out.returncode == 0, out.stdout[-3000:]
    assert "2 passed" in out.stdout


def _current() -> tuple[object, ...]:
    return (rb_state.RBState.view, *(getattr(rb_state, a) for a in view_cost.PARTS.values()))


@in_python
def test_every_variant_runs_and_the_view_is_put_back() -> None:
    before = _current()
    got = view_cost.run(seats=2, seconds=0.02, rounds=1)
    assert _current() == before
    assert list(got) == view_cost.VARIANTS
    assert all(len(rates) == 1 and rates[0] > 0 for rates in got.values())


@in_python
def test_a_kept_part_answers_with_its_first_result_and_the_view_comes_back() -> None:
    before = _current()
    state = rb_state.RBState.__new__(rb_state.RBState)
    with pytest.raises(RuntimeError), view_cost.variant("every part kept"):
        kept = rb_state.memo_research
        assert kept is not before[-1]
        first = kept(rb_state.ViewMemo(), [1], [0], rb_state._research_names)
        assert kept(rb_state.ViewMemo(), [2], [3], rb_state._research_names) is first
        raise RuntimeError("a variant that fails")
    assert _current() == before
    with view_cost.variant("no view"):
        assert state.view(0) is None
    assert _current() == before
    with pytest.raises(KeyError), view_cost.variant("nothing of the kind"):
        pass
