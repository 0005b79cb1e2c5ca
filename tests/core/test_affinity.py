"""Matches bound to CPU cores (referee.process.isolation.affinity; the ``affinity`` setting).

The bots of ``reuse_bot.py`` write the cores they may run on to their stderr logs
at every ``start``; the tests read them back from tournament and regress runs.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import sys
from pathlib import Path

import pytest

from referee.process.isolation.affinity import CoreDealer, pinned, usable_cores, wanted
from referee.process.pool import worker_init
from referee.regress.run import Entrant, RegressSettings, run_regress
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.run import create_run, run_tournament

ROOT = Path(__file__).resolve().parents[2]
REUSE_BOT = Path(__file__).with_name("reuse_bot.py")
CORES = usable_cores()

pytestmark = pytest.mark.skipif(not CORES, reason="no sched_setaffinity on this platform")


def logged_cores(folder: Path) -> list[frozenset[int]]:
    """The cores every bot start under ``folder`` reported, one set per start."""
    found = []
    for log in sorted(folder.rglob("*.stderr.log")):
        for cores in re.findall(r"cores ([\d,]+)", log.read_text()):
            found.append(frozenset(int(c) for c in cores.split(",")))
    assert found, f"no bot logs under {folder}"
    return found


def run(tmp: Path, affinity: bool | None, concurrency: int) -> Path:
    config = TournamentConfig(
        name="pinned",
        game="manila",
        seats=3,
        rounds=4,
        move_ms=5000,
        sandbox="none",
        affinity=affinity,
        bots=[BotEntry(f"b{i}", f"{sys.executable} {REUSE_BOT}") for i in range(3)],
    )
    out = tmp / "run"
    create_run(config, ROOT, out)
    rows = run_tournament(out, concurrency=concurrency)
    assert len(rows) == 12 and all(r.verdicts == ["ok"] * 3 for r in rows)
    return out


def worker_cores(_: int) -> frozenset[int]:
    """The cores of the worker process that runs it."""
    return frozenset(os.sched_getaffinity(0))


def test_the_dealer_binds_each_worker_to_its_own_core() -> None:
    dealer = CoreDealer(CORES)
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=len(CORES), initializer=worker_init, initargs=(dealer,)
    ) as workers:
        seen = set(workers.map(worker_cores, range(8 * len(CORES))))
    assert all(len(cores) == 1 for cores in seen)
    assert set().union(*seen) <= set(CORES)


def test_workers_and_their_bots_are_bound_one_core_each(tmp_path: Path) -> None:
    out = run(tmp_path, affinity=True, concurrency=2)
    reported = logged_cores(out / "logs")
    assert all(len(cores) == 1 for cores in reported)
    used = set().union(*reported)
    assert used <= set(CORES)
    if len(CORES) >= 2:
        assert len(used) == 2  # two workers, two different cores


def test_at_concurrency_one_the_referee_binds_itself_for_the_run_only(tmp_path: Path) -> None:
    before = os.sched_getaffinity(0)
    out = run(tmp_path, affinity=True, concurrency=1)
    assert set(logged_cores(out / "logs")) == {frozenset({CORES[0]})}
    assert os.sched_getaffinity(0) == before


def test_without_affinity_bots_may_run_on_every_core(tmp_path: Path) -> None:
    out = run(tmp_path, affinity=False, concurrency=2)
    assert set(logged_cores(out / "logs")) == {frozenset(CORES)}


def test_pinned_restores_the_cores_after_an_error() -> None:
    before = os.sched_getaffinity(0)
    with pytest.raises(RuntimeError), pinned(True):
        assert os.sched_getaffinity(0) == {CORES[0]}
        raise RuntimeError
    assert os.sched_getaffinity(0) == before


def test_regress_binds_its_workers_too(tmp_path: Path) -> None:
    me = [sys.executable, str(REUSE_BOT)]
    settings = RegressSettings(
        game="manila",
        seats=3,
        candidate=Entrant("candidate", "candidate", me, "reuse_bot"),
        baseline=Entrant("baseline", "baseline", me, "reuse_bot"),
        field_bots=[],
        clock=(5000, 5000, 0),
        max_games=4,
        concurrency=2,
        records=tmp_path,
        secret="fixed",
        affinity=True,
    )
    run_regress(settings)
    reported = logged_cores(tmp_path)
    assert all(len(cores) == 1 for cores in reported)


def test_automatic_affinity_binds_only_when_workers_cover_the_cores() -> None:
    n = len(CORES)
    assert wanted(True, 1) and not wanted(False, 8)
    assert wanted(None, max(2, n)) and wanted(None, n + 3)
    assert not wanted(None, 1)
    if n >= 3:
        assert not wanted(None, n - 1)


@pytest.mark.skipif(len(CORES) < 2, reason="needs two cores")
def test_unset_affinity_at_full_concurrency_binds(tmp_path: Path) -> None:
    out = run(tmp_path, affinity=None, concurrency=len(CORES))
    assert all(len(cores) == 1 for cores in logged_cores(out / "logs"))


def test_unset_affinity_at_concurrency_one_leaves_every_core(tmp_path: Path) -> None:
    out = run(tmp_path, affinity=None, concurrency=1)
    assert set(logged_cores(out / "logs")) == {frozenset(CORES)}


def test_a_core_that_cannot_be_bound_is_a_warning_not_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = os.sched_getaffinity(0)
    assert CoreDealer([100_000]).deal() is None
    assert "cannot bind to core 100000" in capsys.readouterr().err
    assert os.sched_getaffinity(0) == before
