"""Making sure no bot process outlives its match.

A bot runs in its own process group and session, which the referee signals as a
whole.  A hostile bot can still escape its group (double fork, ``setsid``).  Two
nets catch those:

* every bot gets a unique token in its environment (``REFEREE_BOT``), inherited by
  everything it starts, so whatever carries a closed bot's token is killed;
* the referee process is made a *child subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``),
  so orphans of a bot are re-parented to the referee instead of init, and are
  killed once no bot still in play owns their token.

:func:`sweep` applies both nets in one walk down the referee's process tree in
``/proc`` when a bot is closed.
A bot that both scrubs its environment and escapes its session before its parent
dies is beyond these nets; that is what the bubblewrap sandbox (referee.process.isolation.sandbox,
the default) is for: there, the sandbox's PID 1 takes everything with it and no
sweep is needed.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import secrets
import signal
import sys

from referee.process.isolation import procfs

MARKER_VAR = "REFEREE_BOT"
SWEEP_MOST = 65_536
"""Most processes one :func:`sweep` visits (a walk read as the tree grows, by an
escaped fork bomb, ends there)."""
_PR_SET_CHILD_SUBREAPER = 36
_live_tokens: set[str] = set()
_bot_pids: set[int] = set()
_subreaper: bool | None = None


def enable_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux; once)."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
            except (OSError, AttributeError):
                pass
    return _subreaper


_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a child before exec: ask for SIGKILL when the parent dies (Linux; best effort)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def new_token() -> str:
    """A fresh marker token for one bot, registered as live until :func:`retire`."""
    token = secrets.token_hex(12)
    _live_tokens.add(token)
    return token


def retire(token: str) -> None:
    """The bot of ``token`` is being ended: its processes are no longer protected."""
    _live_tokens.discard(token)


def adopt(pid: int) -> None:
    """``pid`` is a bot this process started; its own watcher reaps it, not the sweep."""
    _bot_pids.add(pid)


def release(pid: int) -> None:
    """The bot ``pid`` has been reaped by its watcher."""
    _bot_pids.discard(pid)


def _marker(pid: int) -> str | None:
    """The ``REFEREE_BOT`` token of ``pid``; ``""`` if it has none or is unreadable."""
    prefix = f"{MARKER_VAR}=".encode()
    try:
        items = procfs.read(f"/proc/{pid}/environ").split(b"\0")
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    for item in items:
        if item.startswith(prefix):
            return item[len(prefix) :].decode(errors="replace")
    return ""


def _kill(pid: int) -> bool:
    try:
        os.kill(pid, signal.SIGKILL)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def sweep(token: str) -> int:
    """One walk down from this process after the bot of ``token`` was ended; SIGKILL
    what it left.

    Walks the descendants of this process (a subreaper, so everything a bot started
    and orphaned is among them), skipping multiprocessing workers and the subtrees of
    bots still running.  Kills every process that carries ``token``, and every orphan
    re-parented here (reaped too) whose token belongs to no bot still in play.  Reads
    the children (:func:`procfs.children`) and the environment of those descendants
    only, never the other processes of the machine: the cost follows what the
    referee started, not how busy the host is.  A process's children are read before
    it is killed (its orphans then come here, and this walk would miss them).
    Each process is visited once, and at most :data:`SWEEP_MOST` in all, so a tree
    that keeps growing while it is walked cannot hold the event loop.  Returns how
    many were signalled; no-op where /proc does not exist.
    """
    if not os.path.isdir("/proc"):
        return 0
    skip = {p.pid for p in multiprocessing.active_children()} | _bot_pids
    killed = 0
    stack = [(pid, True) for pid in procfs.children(os.getpid()) if pid not in skip]
    seen: set[int] = set()
    while stack and len(seen) < SWEEP_MOST:
        pid, orphan = stack.pop()
        if pid in seen:  # listed twice: a pid reused while the walk went on
            continue
        seen.add(pid)
        below = procfs.children(pid)
        marker = _marker(pid)
        if marker == token or (orphan and marker is not None and marker not in _live_tokens):
            killed += _kill(pid)
            if orphan:
                with contextlib.suppress(ChildProcessError, OSError):
                    os.waitpid(pid, 0)
        stack.extend((child, False) for child in below if child not in skip)
    return killed
