"""The private folder that holds the working directory of every bot a process starts.

Each referee process (the command itself, and every tournament or regress worker)
makes one folder, ``referee-bots-<random>`` (mode 0700) under the system temp dir,
on first use, and removes it when it exits: at interpreter exit, and in a
:mod:`multiprocessing` worker through the module's finalizers as well, because a
worker leaves by ``os._exit`` and skips :mod:`atexit`.

A process that is killed cannot clean up, so each folder holds a ``.lock`` file
that its owner keeps ``flock``-ed for its whole life (the kernel drops the lock when
the owner dies, whatever pid namespace it ran in).  The next process to make its
folder removes every folder of the same user whose lock it can take.  The lock file
is locked before it gets its name, so no sweep can take a live folder's lock.

A forked child makes a folder of its own: it never removes, nor sweeps, its
parent's.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import multiprocessing
import multiprocessing.util
import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "referee-bots-"
LOCK = ".lock"

_folder: Path | None = None
_lock_fd: int | None = None


def workdir_base() -> Path:
    """This process's private folder for bot working directories (made on first use,
    removed at exit).  Raises :class:`OSError` if the temp dir is not writable."""
    global _folder, _lock_fd
    if _folder is None:
        remove_stale()
        folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        _lock_fd = _hold_lock(folder)
        owner = os.getpid()
        atexit.register(_remove, folder, owner)
        if multiprocessing.parent_process() is not None:
            multiprocessing.util.Finalize(None, _remove, args=(folder, owner), exitpriority=0)
        _folder = folder
    return _folder


def _hold_lock(folder: Path) -> int:
    """Lock a new file in ``folder`` and only then name it ``.lock``; the descriptor,
    which this process keeps open for its life."""
    fd = os.open(folder / (LOCK + ".new"), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(folder / (LOCK + ".new"), folder / LOCK)
    return fd


def _remove(folder: Path, owner: int) -> None:
    """Remove ``folder`` if this process is its ``owner``."""
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


def remove_stale(under: str | None = None) -> int:
    """Remove the folders under ``under`` (default: the system temp dir) that belong to
    this user and whose owner is gone (their ``.lock`` can be locked).  Returns how
    many were removed.  Folders without a ``.lock`` are left alone."""
    removed = 0
    uid = os.geteuid()
    try:
        with os.scandir(under or tempfile.gettempdir()) as entries:
            found = [Path(e.path) for e in entries if e.name.startswith(PREFIX)]
    except OSError:
        return 0
    for folder in found:
        try:
            if folder.is_symlink() or folder.lstat().st_uid != uid:
                continue
            fd = os.open(folder / LOCK, os.O_RDWR | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # its owner is alive
        else:
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
        finally:
            os.close(fd)
    return removed


def _forget_after_fork() -> None:
    """A forked child makes its own folder when it starts a bot."""
    global _folder, _lock_fd
    if _lock_fd is not None:
        with contextlib.suppress(OSError):
            os.close(_lock_fd)
    _folder, _lock_fd = None, None


os.register_at_fork(after_in_child=_forget_after_fork)
