"""Tournaments on a Dask cluster (a LocalCluster here) land in the one database."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.match.replay import replay
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.run import create_run, dask_executor, run_tournament

distributed = pytest.importorskip("distributed")
dask_config = pytest.importorskip("dask.config")

ROOT = Path(__file__).resolve().parents[2]


def test_local_cluster_runs_every_match(tmp_path: Path) -> None:
    config = TournamentConfig(
        name="dask",
        game="manila",
        seats=3,
        rounds=1,
        move_ms=5000,
        bots=[
            BotEntry(f"r{i}", f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}")
            for i in range(3)
        ],
    )
    out = tmp_path / "run"
    create_run(config, ROOT, out)
    # the cluster's scratch space in tmp_path, not a dask-scratch-space left in /tmp
    scratch = dask_config.set({"temporary-directory": str(tmp_path / "dask")})
    with (
        scratch,
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
    ):
        executor = dask_executor(cluster.scheduler_address)
        rows = run_tournament(out, executor=executor, remote=True)
        executor.shutdown()
    assert len(rows) == 3 and len({r.id for r in rows}) == 3
    for row in rows:
        assert row.verdicts == ["ok", "ok", "ok"]
        result = replay(out / "records" / f"{row.id}.jsonl")
        assert result.result.ranks == row.ranks
        logs = sorted(p.name for p in (out / "logs" / row.id).iterdir())
        assert logs == ["seat0.stderr.log", "seat1.stderr.log", "seat2.stderr.log"]


def test_unreachable_scheduler_is_a_clear_error() -> None:
    from referee.tournament.run import TournamentError

    with pytest.raises(TournamentError, match="cannot reach"):
        dask_executor("tcp://127.0.0.1:9", timeout_s=1.0)
