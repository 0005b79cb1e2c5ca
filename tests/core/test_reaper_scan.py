"""``referee.process.isolation.reaper``'s sweep, a walk down the referee's process
tree in /proc, and the stat line it and the turn guard read
(``referee.process.isolation.procfs``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from referee.process.isolation import procfs, reaper
from tests.core.processes import alive, runs

pytestmark = pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
    reason="needs /proc/<pid>/task/<tid>/children",
)


def test_a_child_named_like_the_stat_line_has_its_parent_read(tmp_path: Path) -> None:
    sleep = shutil.which("sleep")
    assert sleep is not None
    tricky = tmp_path / ") 1 1 ( x"  # the command name: parentheses, spaces, digits
    tricky.symlink_to(sleep)
    child = subprocess.Popen([str(tricky), "30"])
    try:
        assert int(procfs.stat_fields(child.pid)[1]) == os.getpid()
        assert child.pid in procfs.children(os.getpid())
    finally:
        child.kill()
        child.wait()


def test_the_sweep_kills_what_carries_the_ended_bot_s_token_below_a_bot_in_play() -> None:
    """A process of a bot still in play (a live token) started two sleepers, one
    carrying the token of a bot that was ended: the sweep, walking down from the
    referee, finds that one under its parent and kills it, and nothing else."""
    sleep = shutil.which("sleep")
    assert sleep is not None
    live, ended = reaper.new_token(), reaper.new_token()
    reaper.retire(ended)
    var = reaper.MARKER_VAR
    script = f"env {var}={ended} {sleep} 60 & env {var}={live} {sleep} 60 & wait"
    parent = subprocess.Popen(["/bin/sh", "-c", script], env={**os.environ, var: live})
    try:
        deadline = time.monotonic() + 10
        # Until both run sleep: a child forked by the shell and not yet through env
        # and exec still shows the shell's own environment (the live token).
        while True:
            below = procfs.children(parent.pid)
            markers = sorted(str(reaper._marker(pid)) for pid in below)
            if markers == sorted([live, ended]) and all(runs(pid, "sleep") for pid in below):
                break
            assert time.monotonic() < deadline, "the sleepers did not start"
            time.sleep(0.01)
        doomed = [pid for pid in below if reaper._marker(pid) == ended]
        kept = [pid for pid in below if reaper._marker(pid) == live]
        assert len(doomed) == len(kept) == 1
        assert reaper.sweep(ended) >= 1  # more if this process has other children
        deadline = time.monotonic() + 5
        while alive(doomed[0]):
            assert time.monotonic() < deadline, "the ended bot's sleeper survived"
            time.sleep(0.01)
        assert alive(kept[0]) and parent.poll() is None
    finally:
        reaper.retire(live)
        for pid in procfs.children(parent.pid):
            os.kill(pid, 9)
        parent.kill()
        parent.wait()


def test_one_sweep_visits_at_most_sweep_most_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes carrying an ended bot's token, children of this process: a sweep
    capped at one visit leaves at least one of them (it may visit another child of
    this process first), an uncapped one ends both."""
    sleep = shutil.which("sleep")
    assert sleep is not None
    ended = reaper.new_token()
    reaper.retire(ended)
    env = {**os.environ, reaper.MARKER_VAR: ended}
    sleepers = [subprocess.Popen([sleep, "60"], env=env) for _ in range(2)]
    try:
        monkeypatch.setattr(reaper, "SWEEP_MOST", 1)
        assert reaper.sweep(ended) <= 1  # a killed orphan here is reaped by the sweep
        assert sum(alive(s.pid) for s in sleepers) >= 1
        monkeypatch.setattr(reaper, "SWEEP_MOST", 65_536)
        reaper.sweep(ended)
        assert not any(alive(s.pid) for s in sleepers)
    finally:
        for sleeper in sleepers:
            sleeper.kill()
            sleeper.wait()
