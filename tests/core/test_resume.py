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

from referee.match.replay import replay

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
    """``referee ARGS`` with SIGINT's default handler, as at a terminal: a shell starts
    background jobs with SIGINT ignored, and an ignored signal stays ignored across
    exec, so a suite run in the background would otherwise send a Ctrl-C no one sees."""
    handler = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
    return [sys.executable, "-c", f"{handler}; from referee.cli.main import main; main()", *args]


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


GATE_BOT = """
import os, sys, time
gate = sys.argv[1]
while not os.path.exists(gate):
    time.sleep(0.02)
os.execv(sys.executable, [sys.executable, sys.argv[2]])
"""


def lock_is_held(out: Path) -> bool:
    import fcntl

    try:
        fd = os.open(out / "run.lock", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock this probe may have taken
    return False


def test_a_second_referee_on_a_running_run_is_refused(tmp_path: Path) -> None:
    """Two referees on one run (a new run and a --resume, or two --resume) never
    interleave: the second gets one error line while the first plays on."""
    gate = tmp_path / "gate"
    bot = tmp_path / "gate_bot.py"
    bot.write_text(GATE_BOT)
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "locked"\ngame = "manila"\nseats = 3\nrounds = 1\nmove_ms = 5000\n'
        'startup_ms = 60000\nsandbox = "none"\n'  # the gate file must be visible to the bot
        + "".join(
            f'[[bots]]\nname = "g{i}"\ncommand = "python3 {bot} {gate} {RANDOM}"\n'
            for i in range(3)
        )
    )
    out = tmp_path / "run"
    first = subprocess.Popen(
        referee("tournament", str(config), "--out", str(out), "--quiet"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not lock_is_held(out) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert lock_is_held(out), "the first referee should hold the run's lock"
        attempts = [
            (["--resume", str(out)], f"is in use by another referee (pid {first.pid})"),
            ([str(config), "--out", str(out)], "already holds a run"),
        ]
        for args, needle in attempts:
            second = subprocess.run(
                referee("tournament", *args, "--quiet"), cwd=ROOT, capture_output=True, timeout=60
            )
            assert second.returncode == 2
            err = second.stderr.decode()
            assert "Traceback" not in err
            assert err.count("referee: error:") == 1 and needle in err, err
        assert not (out / "records").exists() or not list((out / "records").glob("*.jsonl"))
        gate.touch()
        first.wait(timeout=120)
        assert first.returncode == 0, first.stderr.read().decode()  # type: ignore[union-attr]
    finally:
        gate.touch()
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
    ids = [r.stem for r in (out / "records").glob("*.jsonl")]
    assert len(ids) == 3
    for record in (out / "records").glob("*.jsonl"):
        replay(record)
    assert rows(out) == 3
