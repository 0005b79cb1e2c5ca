"""``benchmarks.turn_guard``: one row per sandbox mode this machine runs and bot, each
with the mechanism that stopped it and positive figures."""

from __future__ import annotations

from click.testing import CliRunner

from benchmarks import turn_guard
from benchmarks.suite import sandbox_modes


def test_the_table_has_a_row_per_mode_and_bot() -> None:
    result = CliRunner().invoke(turn_guard.main, ["--cycles", "3", "--repeats", "1"])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if "alone" in line]
    rows += [line.split() for line in result.output.splitlines() if "children" in line[:40]]
    assert sorted(row[0] for row in rows) == sorted(sandbox_modes() * 2)
    for row in rows:
        assert row[-5] in ("signals", "freezer")  # "cgroup freezer" ends with "freezer"
        assert all(float(x) > 0 for x in row[-4:])
