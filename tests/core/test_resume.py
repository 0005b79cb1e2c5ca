"""A tournament killed at any moment (SIGKILL, Ctrl-C) loses nothing and resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.replay import replay

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "random_bot.py"


def write_config(tmp_path: Path) -> Path:
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "resume"\ngame = "manila"\nseats = 3\nrounds = 4\nmove_ms = 5000\n'
        + "".join(f'[[bots]]\nname = "r{i}"\ncommand = "python3 {RANDOM}"\n' for i in range(3))
    )
    return config


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "referee.cli", *args]


def rows(out: Path) -> int:
    db = out / "results.sqlite"
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def start_and_stop(config: Path, out: Path, sig: int, after_rows: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        referee("tournament", str(config), "--out", str(out), "--concurrency", "2", "--quiet"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while rows(out) < after_rows and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    if sig == signal.SIGKILL:
        os.killpg(proc.pid, signal.SIGKILL)  # the referee and its workers, all at once
    else:
        os.killpg(proc.pid, sig)  # what a terminal's Ctrl-C does
    proc.wait(timeout=60)
    return proc


def check_complete(out: Path) -> None:
    with sqlite3.connect(out / "results.sqlite") as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM matches")]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(ids) == len(set(ids)) == 12
    records = sorted((out / "records").glob("*.jsonl"))
    assert sorted(p.stem for p in records) == sorted(ids)
    for record in records:
        replay(record)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["sigkill", "ctrl-c"])
def test_interrupted_run_resumes_with_exactly_the_missing_matches(tmp_path: Path, sig: int) -> None:
    config = write_config(tmp_path)
    out = tmp_path / "run"
    proc = start_and_stop(config, out, sig, after_rows=3)
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert b"--resume" in proc.stderr.read()  # type: ignore[union-attr]
    done = rows(out)
    assert 3 <= done < 12, "the run should have been stopped part-way"
    finished = {p.stem for p in (out / "records").glob("*.jsonl")}
    assert len(finished) >= done  # every row's record was published before its row
    resumed = subprocess.run(
        referee("tournament", "--resume", str(out), "--quiet", "--format", "json"),
        cwd=ROOT,
        capture_output=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr.decode()
    check_complete(out)
