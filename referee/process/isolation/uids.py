"""A user id of its own for every sandboxed bot when the referee runs as root.

The kernel counts some limits per user: ``RLIMIT_NPROC`` (processes and threads) above
all.  If every bot ran as the same user (``nobody``), a bot that forked up to its cap
would leave no task for any other bot of any match on the host: an innocent bot's
next ``fork`` would fail and it would be charged a ``crash``.  So each sandboxed bot
runs as a user id leased from a range reserved for bots, held for the bot's whole
life and given back once all its processes are gone.

A lease is an exclusive ``flock`` on the file named after the uid in a root-owned
directory (``/run/referee-uids``), so referee processes that run at the same time
(parallel workers, two tournaments) never hand out the same uid, and a lease is
given back by the kernel when its referee dies.  Uids are handed out lowest first,
so the directory holds as many files as bots ever ran at once.  Where that directory
cannot be had, the locks live in a private directory of this process: uids are then
unique within it, and a random starting point makes a collision with another
referee unlikely.
The uids need no ``/etc/passwd`` entry; nothing on the host should use the range.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import os
import random
import shutil
import stat
import tempfile
from dataclasses import dataclass
from typing import Final

from referee.errors import RefereeError

FIRST_UID: Final = 2_000_000_000
"""The first user (and group) id reserved for bots."""

UID_COUNT: Final = 1 << 16
"""How many ids the range holds: the most bots that can run at once on one host."""

LOCK_DIR: Final = "/run/referee-uids"
"""Where the leases of all referee processes on the host are taken (root-owned)."""


class NoFreeUid(RefereeError, OSError):
    """Every uid of the range is leased (more than :data:`UID_COUNT` live bots)."""


@dataclass
class UidLease:
    """The uid (also the gid) one bot runs as, held until :meth:`release`."""

    uid: int
    fd: int

    def release(self) -> None:
        """Give the uid back (idempotent); call once no process of the bot is left."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lease_uid() -> UidLease:
    """A uid no other live bot on this host runs as.  Raises :class:`NoFreeUid`."""
    directory = _lock_dir()
    # Lowest first where all referees share the locks (the files stay few); from a
    # random point where they do not, so that two referees seldom meet.
    start = 0 if directory == LOCK_DIR else random.randrange(UID_COUNT)
    for k in range(UID_COUNT):
        uid = FIRST_UID + (start + k) % UID_COUNT
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        fd = os.open(os.path.join(directory, str(uid)), flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, fd)
    raise NoFreeUid(f"all {UID_COUNT} bot uids from {FIRST_UID} are in use")


@functools.cache
def _lock_dir() -> str:
    """:data:`LOCK_DIR` when it is (or can be made) a directory only root may
    write; otherwise a private directory of this process, removed at exit."""
    try:
        os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
        info = os.lstat(LOCK_DIR)
        if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o022:
            return LOCK_DIR
    except OSError:
        pass
    private = tempfile.mkdtemp(prefix="referee-uids-")
    atexit.register(shutil.rmtree, private, True)
    return private
