"""``benchmarks.native`` measures each compiled game both ways, in fresh interpreters
that really run the build asked for."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import native as bench
from referee.api import native
from tests.zoo.procs import require

ROOT = Path(__file__).resolve().parents[2]


def test_one_round_of_a_compiled_game_prints_both_sides_and_the_ratio() -> None:
    require(native.problem(ROOT / "referee" / "games" / "navegador"), "compiled engines")
    got = CliRunner().invoke(
        bench.main, ["--seconds", "0.05", "--rounds", "1", "--game", "navegador"]
    )
    assert got.exit_code == 0, got.output
    rows = [line.split() for line in got.output.splitlines() if line.startswith("navegador")]
    assert [row[2] for row in rows] == ["bare", "view"]
    assert all(float(row[3]) > 0 and float(row[5]) > 0 and float(row[7]) > 0 for row in rows)
    assert "[native: start" in got.output and "[native: end" in got.output


def test_a_probe_that_ran_the_other_build_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    require(native.problem(ROOT / "referee" / "games" / "manila"), "compiled engines")
    # the pure probe must not report a compiled run: simulate the environment not
    # reaching the child by dropping the variable the probe sets
    real_run = bench.subprocess.run

    def without_pure(cmd: list[str], **kwargs: object) -> object:
        env = dict(kwargs.pop("env"))  # type: ignore[call-overload]
        env.pop(native.PURE_ENV, None)
        return real_run(cmd, env=env, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(bench.subprocess, "run", without_pure)
    with pytest.raises(RuntimeError, match="ran compiled"):
        bench.probe("manila", 4, "bare", 0.02, pure=True)
