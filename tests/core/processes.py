"""What tests read of a process in ``/proc``: whether it still runs, and what."""

from __future__ import annotations

from pathlib import Path

from referee.process.isolation import procfs


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (an ended process its parent has
    not reaped yet)."""
    try:
        return procfs.stat_fields(pid)[0] != b"Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def runs(pid: int, command: str) -> bool:
    """True if ``pid`` exists and runs ``command`` (its ``comm``: the executable's name,
    after any ``exec``)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == command
    except (FileNotFoundError, ProcessLookupError):
        return False
