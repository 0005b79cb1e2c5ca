"""A memory cgroup for every bot: one cap on the memory of all its processes together.

A bot may spread its memory over many processes, or into files on its in-memory
filesystems, whose pages the kernel's out-of-memory killer charges to no process.
Without a cap over the whole bot, filling the machine that way makes the killer take
the largest single process, which may be an innocent bot of any match: a forged
``crash``.  Each bot therefore runs in a memory cgroup of its own, limited to
``max_memory_mb``; a bot that goes over it has one of its own processes killed by the
kernel, and nothing else on the host is touched.

The groups live under the referee's own cgroup (``referee-<pid>-<random>/bot-<n>``), so
every limit set on the referee still covers its bots; an empty group is reused by the
next bot with the same cap.  A bot joins its group before anything of its own runs,
and cannot leave it (only root may write there, and a sandboxed bot is never root):

* under the sandbox on cgroup v1, from inside the sandbox, as its first command
  (:meth:`MemoryGroup.inner_prefix`, through a descriptor the referee opened),
  while :func:`warm_up` has the kernel's wait for a move pass during bubblewrap's
  set-up instead of before it: that saves about 10 ms of every sandboxed bot's
  start (``python -m benchmarks.startup``).  The sandbox's own two processes stay
  in the referee's group;
* otherwise as the very first process (a ``/bin/sh`` prefix writes to
  ``cgroup.procs``, :meth:`MemoryGroup.prefix`), sandbox processes included.

The same group freezes the bot while other seats think (:meth:`MemoryGroup.freeze`,
used by :meth:`referee.process.bot.BotProcess.freeze`): one write stops every process of the
bot, including those it starts meanwhile and those a tracer of its own would have
kept running by swallowing a SIGSTOP.  That is the group's own ``cgroup.freeze`` on
cgroup v2, where a frozen process still dies of SIGKILL.  The cgroup v1 freezer is
not used: a process it holds frozen does not die of SIGKILL until it is thawed, so a
referee killed while its bots were frozen (idle in a pool, or waiting for another
seat) would leave them frozen for ever, and whoever reaps them waiting.  Where there
is no v2 freezer, :attr:`MemoryGroup.freezer` is ``None`` and bots are stopped by
SIGSTOP; under the sandbox a bot cannot ``ptrace`` (:mod:`referee.process.isolation.seccomp`), so no
tracer of its own can swallow that signal.

This needs root, and on cgroup v2 a referee cgroup that may hand the memory
controller to its children (the referee alone in its cgroup, such as a
``systemd-run --scope``).  Where it cannot be had, :func:`memory_problem` says why and
bots run without the cap (the kernel's per-process limits still apply).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import functools
import itertools
import os
import re
import secrets
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

JOIN: Final = 'echo 0 >"$0" && exec "$@"'
"""The ``sh -c`` script that moves itself into the cgroup named by ``$0`` and then
runs the bot's command line."""


@dataclass(frozen=True)
class _Parent:
    path: Path  # this referee's own folder of bot groups
    v2: bool


class MemoryGroup:
    """One bot's memory cgroup (a directory of the cgroup file system), capped at
    ``limit_mb`` MiB.  Made by :func:`memory_group`; :meth:`release` it."""

    def __init__(self, path: Path, v2: bool, limit_mb: int) -> None:
        self.path = path
        self.v2 = v2
        self.limit_mb = limit_mb
        self.freezer = path if v2 and (path / "cgroup.freeze").exists() else None
        """The cgroup whose freezer stops the bot (cgroup v2: this group), or ``None``
        (cgroup v1: see the module docstring)."""
        self._kills_before = 0
        self._peak_counts = True  # the peak is the current bot's alone

    def peak_mb(self) -> float | None:
        """Most memory the current bot's processes used together, in MiB, or ``None``
        where the kernel cannot say (cgroup v2 keeps a reused group's old peak)."""
        if not self._peak_counts:
            return None
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        try:  # os-level: read at every match's end, pathlib's reader costs 4x more
            fd = os.open(self.path / name, os.O_RDONLY)
            try:
                return int(os.read(fd, 64)) / (1024 * 1024)
            finally:
                os.close(fd)
        except (OSError, ValueError):
            return None

    def _hand_out(self) -> None:
        """Count kills and the peak from now on, for the bot the group goes to: the
        kill counter's value is kept, the peak reset (cgroup v1; v2 cannot reset it,
        so a reused v2 group reports no peak)."""
        self._kills_before = self._kill_count()
        if self.v2:
            self._peak_counts = False
        else:
            try:
                (self.path / "memory.max_usage_in_bytes").write_text("0")
            except OSError:
                self._peak_counts = False

    def prefix(self) -> list[str]:
        """The argv prefix that runs the rest of a command line inside this group."""
        return ["/bin/sh", "-c", JOIN, str(self.path / "cgroup.procs")]

    def joins_inside(self) -> bool:
        """True if a sandboxed bot may join this group from inside its sandbox
        (:meth:`inner_prefix`): cgroup v1, where it is measured, and ``bash``
        present.  Elsewhere the bot joins first, by :meth:`prefix`."""
        return not self.v2 and _bash() is not None

    def open_procs(self) -> int:
        """A descriptor open for writing on the group's ``cgroup.procs`` (close-on-exec;
        pass it to the child, which closes it again, see :meth:`inner_prefix`).
        Raises :class:`OSError` if it cannot be opened."""
        return os.open(self.path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)

    def inner_prefix(self, fd: int) -> list[str]:
        """The argv prefix, for inside the sandbox, that moves itself into this group
        through descriptor ``fd`` (from :meth:`open_procs`), closes it, and runs the rest
        of the command line.  The kernel checks the move against whoever opened the
        descriptor (the referee), so it works before the bot's user is taken on, and
        the bot never holds the descriptor.  ``bash``, because ``dash`` cannot name a
        descriptor above 9."""
        script = f'echo 0 >&{fd} && exec {fd}>&- "$@"'
        return [_bash() or "bash", "--norc", "--noprofile", "-c", script, "join"]

    def freeze(self) -> None:
        """Start freezing every process of the group, those it starts meanwhile
        included (one write; :meth:`frozen` says when it is done).  Raises
        :class:`OSError` where the write fails, ValueError without a freezer."""
        self._freezer_write(True)

    def thaw(self) -> None:
        """Let every process of the group run again (one write).  Raises as
        :meth:`freeze`."""
        self._freezer_write(False)

    def _freezer_write(self, frozen: bool) -> None:
        if self.freezer is None:
            raise ValueError("this group has no freezer")
        if self.v2:
            (self.freezer / "cgroup.freeze").write_text("1" if frozen else "0")
        else:
            (self.freezer / "freezer.state").write_text("FROZEN" if frozen else "THAWED")

    def frozen(self) -> bool:
        """True once every process of the group is frozen (v2 ``cgroup.events``
        ``frozen 1``, v1 ``freezer.state`` ``FROZEN``); False without a freezer."""
        if self.freezer is None:
            return False
        try:
            if self.v2:
                return "frozen 1" in (self.freezer / "cgroup.events").read_text()
            return (self.freezer / "freezer.state").read_text().strip() == "FROZEN"
        except OSError:
            return False

    def pids(self) -> list[int]:
        """The processes in the group now (one read of ``cgroup.procs``; empty where
        it cannot be read)."""
        try:
            return [int(pid) for pid in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def oom_kills(self) -> int:
        """How many of the current bot's processes the kernel killed for the limit."""
        return self._kill_count() - self._kills_before

    def _kill_count(self) -> int:
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            text = (self.path / name).read_text()
        except OSError:
            return 0
        found = re.search(r"^oom_kill (\d+)$", text, re.MULTILINE)
        return int(found.group(1)) if found else 0

    def release(self) -> None:
        """Give the group back for the next bot with the same limit (call once none
        of the bot's processes is left; one still there keeps the group out of use)."""
        try:
            empty = not (self.path / "cgroup.procs").read_text().strip()
            if empty and self.freezer is not None:
                self.thaw()  # the next bot starts thawed
        except OSError:
            return
        if empty:
            with _lock:
                _free.setdefault(self.limit_mb, []).append(self)


_lock = threading.Lock()
_free: dict[int, list[MemoryGroup]] = {}
"""Empty groups by limit, ready for the next bot: making a memory cgroup takes the
kernel about 1.5 ms while bots come and go (0.1 ms on a quiet machine), so groups are
made once per bot running at a time and then reused."""
_made = itertools.count()


def memory_group(limit_mb: int) -> MemoryGroup | None:
    """An empty memory cgroup capped at ``limit_mb`` MiB (swap included where the
    kernel counts it), or ``None`` where :func:`memory_problem` is not ``None``.
    Raises :class:`OSError` if the group cannot be made."""
    parent = _parent()
    if isinstance(parent, str):
        return None
    with _lock:
        spare = _free.get(limit_mb)
        group = spare.pop() if spare else None
    if group is None:
        group = _make(parent, limit_mb)  # a new group: its counters start at 0
    else:
        group._hand_out()
    return group


def _make(parent: _Parent, limit_mb: int) -> MemoryGroup:
    path = parent.path / f"bot-{next(_made)}"
    while True:
        try:
            path.mkdir(mode=0o755)
            break
        except FileExistsError:  # left by a forked copy of this process
            path = parent.path / f"bot-{next(_made)}"
    try:
        limit = str(limit_mb * 1024 * 1024)
        if parent.v2:
            (path / "memory.max").write_text(limit)
            if (path / "memory.swap.max").exists():
                (path / "memory.swap.max").write_text("0")
        else:
            (path / "memory.limit_in_bytes").write_text(limit)
            if (path / "memory.memsw.limit_in_bytes").exists():
                (path / "memory.memsw.limit_in_bytes").write_text(limit)
    except OSError:
        path.rmdir()
        raise
    return MemoryGroup(path, parent.v2, limit_mb)


@functools.cache
def _bash() -> str | None:
    return shutil.which("bash")


_warmer: concurrent.futures.ThreadPoolExecutor | None = None  # made on first use
_warming: concurrent.futures.Future[None] | None = None


def warm_up() -> None:
    """Start the kernel's wait that the next move of a process into a cgroup needs,
    without waiting for it here.

    Every move into a cgroup takes the kernel's one lock over all thread groups
    (``cgroup_threadgroup_rwsem``), and its first taker after a quiet spell waits
    for an RCU grace period, about 10 ms; takers that follow within one grace period
    do not.  Bots started a few milliseconds apart pay it once; a bot started alone
    pays it whole, before the sandbox is even built.  So a sandboxed bot that joins
    its group from inside its sandbox (:meth:`MemoryGroup.inner_prefix`) has the wait
    started here, at its spawn, by a move of this process into the cgroup it is
    already in (nothing moves), done in a thread of its own: the grace period then
    passes while bubblewrap builds the sandbox, and the bot's own move finds the lock
    ready.  Errors are ignored (it only saves time); a warm-up under way is not
    started twice."""
    global _warmer, _warming
    parent = _parent()
    if isinstance(parent, str) or (_warming is not None and not _warming.done()):
        return
    if _warmer is None:
        _warmer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cgroup-warm")
    _warming = _warmer.submit(_move_self, parent.path.parent / "cgroup.procs")


def _move_self(procs: Path) -> None:
    with contextlib.suppress(OSError):
        procs.write_text("0")


def memory_problem() -> str | None:
    """Why bots cannot have a memory cgroup here, or ``None`` if they can."""
    parent = _parent()
    return parent if isinstance(parent, str) else None


def freezer_problem() -> str | None:
    """Why bots' cgroups cannot freeze them here (they are then stopped by SIGSTOP),
    or ``None`` if they can (a memory cgroup on cgroup v2)."""
    parent = _parent()
    if isinstance(parent, str):
        return parent
    return (
        None
        if parent.v2
        else "cgroup v1: its freezer is not used (see referee.process.isolation.cgroups)"
    )


@functools.cache
def _parent() -> _Parent | str:
    """This process's folder of bot groups, made on first use and removed at exit, or
    the reason there is none."""
    if os.geteuid() != 0:
        return "memory cgroups need the referee to run as root"
    try:
        own = _own_memory_cgroup()
    except OSError as exc:
        return f"cannot read this process's cgroups: {exc}"
    if isinstance(own, str):
        return own
    path, v2 = own
    try:
        if v2:
            wanted = (path / "cgroup.subtree_control").read_text().split()
            if "memory" not in wanted:
                (path / "cgroup.subtree_control").write_text("+memory")
        _remove_stale(path)
        mine = path / f"referee-{os.getpid()}-{secrets.token_hex(4)}"
        mine.mkdir(mode=0o755)
        if v2:
            (mine / "cgroup.subtree_control").write_text("+memory")
    except OSError as exc:
        return f"cannot make a memory cgroup under {path}: {exc.strerror or exc}"
    atexit.register(_remove_all, mine, os.getpid())
    return _Parent(mine, v2)


def _forget_after_fork() -> None:
    """A forked child makes groups of its own: it must never hand out its parent's.
    Nor does it have its parent's warm-up thread: it starts its own when needed."""
    global _lock, _warmer, _warming
    _parent.cache_clear()
    _free.clear()
    _lock = threading.Lock()
    _warmer = _warming = None


os.register_at_fork(after_in_child=_forget_after_fork)


def _own_memory_cgroup() -> tuple[Path, bool] | str:
    """The directory of this process's memory cgroup and whether it is cgroup v2, or
    why there is none.  Raises :class:`OSError` when ``/proc`` cannot be read."""
    v1: dict[str, str] = {}
    unified = None
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, where = line.split(":", 2)
        if number == "0" and not controllers:
            unified = where
        for controller in controllers.split(","):
            v1[controller] = where
    mounts = _mounts()
    if "memory" in v1:
        for root, point, kind, options in mounts:
            if kind == "cgroup" and "memory" in options.split(","):
                return _under(point, root, v1["memory"]), False
        return "the cgroup v1 memory controller is not mounted"
    if unified is not None:
        for root, point, kind, _ in mounts:
            if kind == "cgroup2":
                path = _under(point, root, unified)
                if "memory" in (path / "cgroup.controllers").read_text().split():
                    return path, True
        return "the cgroup v2 memory controller is not available to the referee's cgroup"
    return "no cgroup file system"


def _mounts() -> list[tuple[str, str, str, str]]:
    """``(root, mount point, file system type, super options)`` of every mount."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, right = line.split(" - ", 1)
        fields, tail = left.split(), right.split()
        found.append((fields[3], fields[4], tail[0], tail[2] if len(tail) > 2 else ""))
    return found


def _under(point: str, root: str, where: str) -> Path:
    """The directory of cgroup ``where`` in a hierarchy mounted at ``point`` from
    ``root``."""
    relative = os.path.relpath(where, root) if where.startswith(root) else where
    return Path(point) / ("" if relative == "." else relative.lstrip("/"))


def _remove_all(mine: Path, owner: int) -> None:
    """Remove the empty groups in ``mine`` and then ``mine``, if this process is its
    ``owner`` (a forked child that exits must leave its parent's groups alone)."""
    if os.getpid() != owner:
        return
    for group in mine.glob("bot-*"):
        with contextlib.suppress(OSError):
            group.rmdir()
    with contextlib.suppress(OSError):
        mine.rmdir()


def _remove_stale(under: Path) -> None:
    """Remove what referees that ended without cleaning up (killed, or forked workers
    that skip exit handlers) left under ``under``: the folders of dead processes."""
    for folder in under.glob("referee-*"):
        pid = folder.name.split("-")[1]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            _remove_all(folder, os.getpid())
