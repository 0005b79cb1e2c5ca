"""Running tests against the engines' Python sources where the suite runs them compiled
(:mod:`referee.api.native`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from referee.api import native

ROOT = Path(__file__).resolve().parents[2]


def pytest_in_python(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest with ``args`` in a fresh process that runs every engine from its Python
    sources (one worker, no cache, no options from the configuration); returns it
    finished, its output captured."""
    command = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q"]
    command += ["-p", "no:cacheprovider", "-p", "no:xdist", *args]
    return subprocess.run(
        command, cwd=ROOT, env=native.environment(python=True), capture_output=True, text=True
    )
