"""Running tests against the Python sources of the engines and the match loop where the
suite runs them compiled (:mod:`referee.api.native`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from referee.api import native

ROOT = Path(__file__).resolve().parents[2]


def pytest_in_python(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest with ``args`` in a fresh process that runs every compiled package from
    its Python sources (one worker, no cache, no options from the configuration);
    returns it finished, its output captured."""
    command = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q"]
    command += ["-p", "no:cacheprovider", "-p", "no:xdist", *args]
    return subprocess.run(
        command, cwd=ROOT, env=native.environment(python=True), capture_output=True, text=True
    )


def assert_all_pass_in_python(*args: str) -> None:
    """:func:`pytest_in_python` with ``args`` exits 0, and its summary says that tests
    passed and none failed or was skipped."""
    out = pytest_in_python(*args)
    assert out.returncode == 0, out.stdout[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert " passed" in last and "failed" not in last and "skipped" not in last, last
