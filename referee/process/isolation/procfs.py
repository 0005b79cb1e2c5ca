"""Reading ``/proc`` with system calls only.

The turn guard reads every process of a bot at every stop and continue
(:meth:`referee.process.bot.BotProcess.freeze`), and the reaper every descendant of
the referee at every sweep (:mod:`referee.process.isolation.reaper`); a buffered
Python file costs two to three times as much per file as ``os.open`` and ``os.read``.
"""

from __future__ import annotations

import os


def read(path: str) -> bytes:
    """The whole of a ``/proc`` file.  Read to the end: the kernel hands over a long
    file (the children of a fork bomb) in pieces of whole records, each shorter than
    asked (4092 bytes of a 7200-byte children list, here).  Raises :class:`OSError`
    (the process is gone)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def stat_fields(pid: int | str) -> list[bytes]:
    """The fields of ``/proc/<pid>/stat`` after the command name: the state first,
    then the parent's pid, ... (fields 3 onward in proc(5)).  The command name may
    hold spaces and parentheses, so the line is split after its last ``)``.  One read:
    the line is made whole and is far shorter than the read asks.  Raises
    :class:`OSError` (the process is gone)."""
    fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    try:
        stat = os.read(fd, 4096)
    finally:
        os.close(fd)
    return stat[stat.rfind(b")") + 2 :].split()


def children(pid: int) -> list[int]:
    """The child pids of every thread of ``pid`` (``/proc/<pid>/task/<tid>/children``,
    Linux 3.5 and later with ``CONFIG_PROC_CHILDREN``); none for a process that is
    gone.  A child is listed under the thread that started it, or, for an orphan
    given to a subreaper, under one of the subreaper's threads: hence every thread.
    A process that forks while it is read may have the new child missed, as
    proc(5) warns: read a stopped process for a complete list."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            found.extend(map(int, read(f"/proc/{pid}/task/{tid}/children").split()))
        except (OSError, ValueError):
            continue
    return found
