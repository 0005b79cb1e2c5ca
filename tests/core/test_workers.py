"""The worker dispatcher of ``tournament`` and ``regress`` (referee.tournament.workers):
result order, a worker that dies, and Ctrl-C or an early stop, which end the running
jobs at once; then both commands, with real worker processes and real bots, when a
worker is killed from outside and when the operator presses Ctrl-C."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from referee.tournament.workers import WorkerDied, dispatch
from tests.zoo.procs import tagged_states

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "random_bot.py"


# -- the dispatcher ---------------------------------------------------------------
# Job functions run in worker processes: module-level, so they pickle.


def tenfold(job: int) -> int:
    return 10 * job


def slow_first(job: int) -> int:
    if job == 0:
        time.sleep(0.5)
    return job


def die_on_three(job: int) -> int:
    if job == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return job


def mark_and_wait(job: tuple[str, int]) -> int:
    """Job 0 returns at once; the others note they started, wait for a gate that never
    opens (60 s, a safety net), then note they finished."""
    folder, n = job
    if n == 0:
        return 0
    Path(folder, f"started-{n}").touch()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not Path(folder, "gate").exists():
        time.sleep(0.02)
    Path(folder, f"finished-{n}").touch()
    return n


def no_workers_left() -> bool:
    return multiprocessing.active_children() == []


def test_results_in_job_order_or_as_they_finish() -> None:
    jobs = list(range(8))
    assert list(dispatch(tenfold, jobs)) == [10 * j for j in jobs]  # in this process
    ordered = dispatch(slow_first, iter(jobs), concurrency=2, ordered=True, window=4)
    assert list(ordered) == jobs
    unordered = list(dispatch(slow_first, jobs, concurrency=2))
    assert sorted(unordered) == jobs and unordered[0] != 0  # job 0 finished late
    assert no_workers_left()


def test_jobs_are_read_only_a_window_ahead() -> None:
    taken: list[int] = []

    def jobs() -> Iterator[int]:
        for n in range(100):
            taken.append(n)
            yield n

    results = dispatch(tenfold, jobs(), concurrency=2, ordered=True, window=4)
    assert next(results) == 0
    assert len(taken) == 4  # four in flight; the fifth is read once the first is taken
    results.close()
    assert no_workers_left()


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-finished"])
def test_a_dead_worker_is_worker_died_and_ends_the_pool(ordered: bool) -> None:
    results: list[int] = []
    with pytest.raises(WorkerDied, match=r"^a worker process died while playing a block"):
        for result in dispatch(
            die_on_three, range(20), concurrency=2, ordered=ordered, window=4, noun="block"
        ):
            results.append(result)
    assert set(results) <= {0, 1, 2, *range(4, 20)} and 3 not in results
    assert no_workers_left()


def test_an_early_stop_ends_the_running_jobs_instead_of_waiting(tmp_path: Path) -> None:
    jobs = [(str(tmp_path), n) for n in range(4)]
    results = dispatch(mark_and_wait, jobs, concurrency=2, ordered=True, window=4)
    assert next(results) == 0
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("started-*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(tmp_path.glob("started-*")), "a waiting job should have started"
    results.close()  # what Ctrl-C in the caller's code, or a decided SPRT, does
    assert no_workers_left()
    assert list(tmp_path.glob("finished-*")) == []  # ended, not waited for


def test_a_callers_executor_is_left_running(tmp_path: Path) -> None:
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert list(dispatch(tenfold, range(5), executor=pool, ordered=True)) == [
            0,
            10,
            20,
            30,
            40,
        ]
        assert pool.submit(tenfold, 7).result() == 70


# -- the commands, with real workers and bots ---------------------------------------

GATE_BOT = """
import os, sys, time
gate = sys.argv[1]
while not os.path.exists(gate):
    time.sleep(0.02)
os.execv(sys.executable, [sys.executable, sys.argv[2]])
"""


def referee(*args: str) -> list[str]:
    """``referee ARGS`` with SIGINT's default handler, as at a terminal (a suite run in
    the background inherits SIGINT ignored)."""
    handler = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
    return [sys.executable, "-c", f"{handler}; from referee.cli.main import main; main()", *args]


def gated_bot(tmp_path: Path) -> tuple[str, Path]:
    """A bot command that waits at start-up for a gate file no one creates, and the
    gate's path (unique to the test: it tags the bots' command lines)."""
    bot = tmp_path / "gate_bot.py"
    bot.write_text(GATE_BOT)
    gate = tmp_path / "gate-never-opens"
    return f"python3 {bot} {gate} {RANDOM}", gate


def tournament_args(tmp_path: Path, command: str) -> list[str]:
    config = tmp_path / "t.toml"
    config.write_text(
        f'name = "workers"\ngame = "manila"\nseats = {SEATS}\nrounds = 2\nmove_ms = 5000\n'
        'startup_ms = 60000\nsandbox = "none"\n'  # the gate file must be visible to the bot
        + "".join(f'[[bots]]\nname = "g{i}"\ncommand = "{command}"\n' for i in range(3))
    )
    return [
        "tournament",
        str(config),
        "--out",
        str(tmp_path / "run"),
        "--concurrency",
        "2",
        "--quiet",
    ]


def regress_args(tmp_path: Path, command: str) -> list[str]:
    return [
        "regress",
        "--game",
        "manila",
        "--candidate",
        command,
        "--baseline",
        command,
        "--seats",
        str(SEATS),
        "--startup-ms",
        "60000",
        "--sandbox",
        "none",
        "--concurrency",
        "2",
        "--records",
        str(tmp_path / "records"),
        "--json",
        str(tmp_path / "summary.json"),
        "--html",
        str(tmp_path / "page.html"),
        "--quiet",
    ]


def parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


SEATS = 3
"""Seats of every match and game in these tests: a worker plays one at a time."""


def workers_of(referee_pid: int, gate: Path) -> dict[int, int]:
    """The worker processes (children of the referee) whose bots wait at the gate,
    with how many bots each."""
    found: dict[int, int] = {}
    for bot in tagged_states(str(gate)):
        if referee_pid in (bot, parent(bot)):
            continue  # the referee or a worker: regress has the bot command in its argv
        pid: int | None = bot
        while pid is not None and pid > 1 and parent(pid) != referee_pid:
            pid = parent(pid)
        if pid is not None and pid > 1:
            found[pid] = found.get(pid, 0) + 1
    return found


def start_gated(args: list[str], gate: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """Start the referee; return it once two workers each have all the bots of their
    match waiting at the gate, with those workers' pids.

    Waiting for every bot matters: a bot being started as its worker dies may miss
    its parent-death signal (it is asked for between fork and exec) and live on; the
    referee's spawn path, not the dispatcher, would have to close that window."""
    proc = subprocess.Popen(
        referee(*args),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    workers: dict[int, int] = {}
    while time.monotonic() < deadline and proc.poll() is None:
        workers = workers_of(proc.pid, gate)
        if list(workers.values()) == [SEATS, SEATS]:
            break
        time.sleep(0.05)
    if list(workers.values()) != [SEATS, SEATS]:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
        pytest.fail(f"two workers with bots never showed up: {err.decode()}")
    return proc, set(workers)


def finish(proc: subprocess.Popen[bytes], gate: Path) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    deadline = time.monotonic() + 30  # bots die with their worker (reaped by init)
    while tagged_states(str(gate)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = tagged_states(str(gate))
    for pid in left:  # never leave a bot waiting at a gate that will not open
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert left == {}, "a bot outlived its worker"
    return proc.returncode, out.decode(), err.decode()


def nothing_published(tmp_path: Path, command: str) -> None:
    """No match finished: no row, no finished record (a ``.part`` file is allowed: it
    is the mark of an unfinished match), no summary or page of a regress run."""
    if command == "tournament":
        run = tmp_path / "run"
        with sqlite3.connect(run / "results.sqlite") as conn:
            assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert list((run / "records").glob("*.jsonl")) == []
    else:
        assert list((tmp_path / "records").glob("*.jsonl")) == []
        assert not (tmp_path / "page.html").exists()


ARGS: dict[str, Callable[[Path, str], list[str]]] = {
    "tournament": tournament_args,
    "regress": regress_args,
}


@pytest.mark.parametrize("command", ["tournament", "regress"])
def test_a_worker_killed_from_outside(tmp_path: Path, command: str) -> None:
    """One worker SIGKILLed mid-match: the other is ended with its bots, and the
    operator gets one error line naming the dead worker (tournament: exit 2, with how
    to resume; regress: exit 3, a fault, in the summary too)."""
    bot, gate = gated_bot(tmp_path)
    proc, workers = start_gated(ARGS[command](tmp_path, bot), gate)
    os.kill(min(workers), signal.SIGKILL)
    code, out, err = finish(proc, gate)
    assert "Traceback" not in err
    if command == "tournament":
        assert code == 2, err
        assert err.strip().splitlines()[-1] == (
            "referee: error: a worker process died while playing a match (killed from "
            "outside?); finished matches are saved, continue with --resume"
        )
    else:
        assert code == 3, err
        assert "result: STOPPED: a fault outside the candidate (exit 3)" in out
        summary = json.loads((tmp_path / "summary.json").read_text())
        assert summary["status"] == "fault" and summary["exit_code"] == 3
        died = "a worker process died while playing a block (killed from outside?)"
        assert died in summary["fault"]
        assert err.strip().splitlines()[-1].startswith("referee: error: infrastructure error")
        assert died in err.strip().splitlines()[-1]
    for worker in workers:
        assert parent(worker) is None  # gone (reaped), not left behind


@pytest.mark.parametrize("command", ["tournament", "regress"])
def test_ctrl_c_exits_130_with_nothing_half_written(tmp_path: Path, command: str) -> None:
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) while every worker
    plays: exit 130, every worker and bot gone, no half-written row, record, summary
    or page."""
    bot, gate = gated_bot(tmp_path)
    proc, workers = start_gated(ARGS[command](tmp_path, bot), gate)
    os.killpg(proc.pid, signal.SIGINT)
    code, out, err = finish(proc, gate)
    assert code == 130, err
    assert "Traceback" not in err and out == ""  # no tables, no summary
    if command == "tournament":
        assert "Continue with: referee tournament --resume" in err
    else:
        assert err.strip().splitlines()[-1] == "referee: interrupted"
        assert not (tmp_path / "summary.json").exists()
    nothing_published(tmp_path, command)
    for worker in workers:
        assert parent(worker) is None


class _BreaksOnSecondSubmit(concurrent.futures.ThreadPoolExecutor):
    """An executor whose pool is found broken at the second submit, as a process pool
    is when a worker died after the first result was taken."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        if self.submitted > 1:
            raise BrokenProcessPool("A child process terminated abruptly")
        return super().submit(fn, *args, **kwargs)


def test_a_pool_found_broken_at_submit_is_worker_died() -> None:
    """The first job's result is yielded; the pool that breaks before the next job is
    submitted gives WorkerDied, not the executor's own error."""
    with _BreaksOnSecondSubmit(1) as pool:
        results = []
        with pytest.raises(WorkerDied, match=r"^a worker process died while playing a block"):
            for result in dispatch(abs, range(3), executor=pool, window=1, noun="block"):
                results.append(result)
    assert results == [0]
