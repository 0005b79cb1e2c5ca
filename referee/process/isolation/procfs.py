"""Reading ``/proc`` with system calls only.

The turn guard reads every process of a bot at every stop and continue
(:meth:`referee.process.bot.BotProcess.freeze`), and the reaper every process on the
machine at every sweep (:mod:`referee.process.isolation.reaper`); a buffered Python
file costs two to three times as much per file as ``os.open`` and ``os.read``.
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
