"""The children of a process in /proc (``referee.process.isolation.procfs.children``),
which the turn guard reads at every stop and continue and the reaper at every sweep:
every child is found, however many."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from referee.process import bot as bot_module
from referee.process.isolation import procfs

pytestmark = pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
    reason="needs /proc/<pid>/task/<tid>/children",
)


def test_a_list_of_children_longer_than_one_read_is_read_whole() -> None:
    """Enough children for a children file of over 4 KiB (about 600-1000, as long as
    their pids are), which the kernel hands over in pieces of whole records, the
    first shorter than asked: all are found."""
    sleep = shutil.which("sleep")
    assert sleep is not None
    listing = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    children: list[subprocess.Popen[bytes]] = []
    try:
        while len(listing.read_bytes()) <= 4096 and len(children) < 2000:
            children += [subprocess.Popen([sleep, "60"]) for _ in range(50)]
        assert len(listing.read_bytes()) > 4096  # what the test is about: over a page
        found = set(procfs.children(os.getpid()))
        assert {child.pid for child in children} <= found
    finally:
        for child in children:
            child.kill()
        for child in children:
            child.wait()


def test_a_stopped_process_is_seen_stopped_and_a_running_one_not() -> None:
    sleep = shutil.which("sleep")
    assert sleep is not None
    child = subprocess.Popen([sleep, "60"])
    try:
        assert not bot_module._stopped(child.pid)
        os.kill(child.pid, signal.SIGSTOP)
        os.waitpid(child.pid, os.WUNTRACED)  # returns once it is stopped
        assert bot_module._stopped(child.pid)
        os.kill(child.pid, signal.SIGCONT)
    finally:
        child.kill()
        child.wait()
    assert bot_module._stopped(child.pid)  # gone
