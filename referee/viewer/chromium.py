"""Where the system Chromium is and how the tests and scripts launch it headless.

The browser is Debian's ``chromium`` driven by Python ``playwright`` through
``executable_path`` (playwright's own browser downloads are not used).
"""

from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Command-line flags of every headless launch (quiet, offline, no GPU)."""


def find_chromium() -> str | None:
    """Path of a system Chromium (``chromium`` or ``chromium-browser`` on PATH, or
    ``/usr/bin/chromium``), or ``None``."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
