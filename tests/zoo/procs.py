"""Finding a bot's processes from outside, by a tag on their command line (which every
process of the bot inherits), for the sandbox and pondering tests."""

from __future__ import annotations

import os
from pathlib import Path


def tagged_states(tag: str) -> dict[int, bytes]:
    """Scheduler state (``R``, ``S``, ``T``...) of every live (non-zombie) host process
    other than this one whose command line holds ``tag``, by pid."""
    found: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if tag.encode() in cmdline and state != b"Z":
            found[int(entry)] = state
    return found
