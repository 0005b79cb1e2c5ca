"""``referee.process.isolation.reaper``'s scan of /proc: every process with its
parent, whatever its command name holds."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.process.isolation import reaper

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")


def test_a_child_named_like_the_stat_line_is_found_with_its_parent(tmp_path: Path) -> None:
    sleep = shutil.which("sleep")
    assert sleep is not None
    tricky = tmp_path / ") 1 1 ( x"  # the command name: parentheses, spaces, digits
    tricky.symlink_to(sleep)
    child = subprocess.Popen([str(tricky), "30"])
    try:
        found = dict(reaper._processes())
        assert found[child.pid] == os.getpid()
        assert found[os.getpid()] == os.getppid()
    finally:
        child.kill()
        child.wait()
