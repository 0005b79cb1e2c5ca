"""Running each bot in a sandbox of its own (bubblewrap), and the launcher around it.

A sandboxed bot (mode ``bwrap``) runs under ``bwrap`` with:

* its own PID namespace: ``/proc`` shows only the bot's own processes, so it can
  neither see nor signal the referee or the other bots; when the sandbox's first
  process ends, the kernel kills everything the bot started (no escape by
  ``setsid``, double fork or a scrubbed environment);
* its own mount view: the system directories (``/usr``, ``/etc``, ...), the Python
  installation and the ``referee`` package read-only, the directory of every file
  named on its command line read-only, a private ``/tmp``, and its working
  directory, the only writable place.  Everything else is absent: the run
  directory, records, logs, the results database, other bots' files.  Output
  locations of the referee that lie inside a visible directory are hidden under an
  empty tmpfs;
* no network (its own empty network namespace) unless the policy allows it; its own
  IPC and UTS namespaces;
* when the referee runs as root, the bot runs as a user id of its own, leased for
  its life from a range reserved for bots (:mod:`referee.process.isolation.uids`), with no
  capabilities and ``no_new_privs``, so the kernel's per-user counts (processes
  above all) are its own; otherwise as the referee's user inside a user namespace
  of its own, which the kernel counts apart in the same way;
* ``--die-with-parent``: if the referee dies, even by SIGKILL, the sandbox dies.

Mode ``none`` runs the bot directly (its own session and process group, a
parent-death signal, the same resource limits), which is what the ``wrapper``
option of a config builds on for users with their own sandbox.

Resource limits are applied by util-linux ``prlimit`` and the parent-death signal
by ``setpriv`` in front of the bot, so the referee spawns without a ``preexec_fn``
(a plain ``vfork``/``exec``).  Where those programs are missing, :func:`launcher`
returns ``None`` and the caller falls back to a ``preexec_fn``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

import referee
from referee.errors import RefereeError
from referee.process.isolation.cgroups import memory_problem
from referee.process.isolation.seccomp import bot_filter as bot_filter
from referee.process.isolation.workdirs import workdir_base

SandboxMode = Literal["auto", "bwrap", "none"]
"""What a user asks for: the best available sandbox, bubblewrap, or none."""

MODES: Final[tuple[str, ...]] = ("auto", "bwrap", "none")

MIB: Final = 1024 * 1024
"""Bytes in a mebibyte (sizes of tmpfs, limits of lines and logs)."""

SYSTEM_DIRS: Final[tuple[str, ...]] = (
    "/usr",
    "/etc",
    "/opt",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
)
"""Top-level system locations made visible read-only (symlinks kept as symlinks)."""


HOST_COUNTERS: Final[tuple[str, ...]] = (
    "/proc/stat",
    "/proc/loadavg",
    "/proc/vmstat",
    "/proc/diskstats",
    "/proc/schedstat",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/dentry-state",
)
"""Files of ``/proc`` that show counters global to the host which a bot can move at
will and another, or a later one, read: forks since boot, running and total tasks
(``stat``, ``loadavg``), page faults and allocations (``vmstat``), reads of cold
pages (``diskstats``), schedules and interrupts, open files, inodes and directory
entries.  A sandboxed bot sees each as it was when its referee process first started
a bot (a constant copy bound over it), in the same format, so that tools that parse
them (the processor count from ``/proc/stat``, say) still work.  Free memory, load
and uptime are left as they are: ``sysinfo()``, which no bot can be refused, tells
them anyway (docs/security.md, "Channels that remain").  Each copy costs every bot's
start about 0.1 ms of CPU (a bind mount)."""


class SandboxError(RefereeError, ValueError):
    """A requested sandbox mode that cannot be had on this machine (message says why)."""


@dataclass(frozen=True)
class SandboxPolicy:
    """How bots are isolated: the mode in force (``bwrap`` or ``none``, never ``auto``),
    whether they may use the network, and paths (the run directory, records, logs)
    that must stay hidden even where they lie inside a directory a bot may read."""

    mode: Literal["bwrap", "none"] = "none"
    network: bool = False
    hidden: tuple[str, ...] = field(default_factory=tuple)

    def hiding(self, paths: Iterable[str | os.PathLike[str] | None]) -> SandboxPolicy:
        """This policy with more paths hidden (``None`` entries are skipped)."""
        extra = tuple(str(Path(p).resolve()) for p in paths if p is not None)
        return SandboxPolicy(self.mode, self.network, self.hidden + extra)


def _bwrap_base(network: bool) -> list[str]:
    argv = [
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "bot",
    ]
    if not network:
        argv.append("--unshare-net")
    if os.geteuid() == 0:
        # Privileged bwrap: keep only what setpriv needs to drop to the bot's uid.
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv.append("--unshare-user")
    return argv


def _system_binds() -> list[str]:
    argv: list[str] = []
    for top in SYSTEM_DIRS:
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    return argv


@functools.lru_cache(maxsize=16)
def _common_options(network: bool, disk_mb: int) -> tuple[str, ...]:
    """The ``bwrap`` program and the options every bot of these settings gets, before
    its own paths: namespaces, the system directories, ``/proc``, ``/dev``, the
    private ``/tmp`` (and ``/dev/shm``), the host counters' copies.  Built once per
    process and settings: the host's layout of system directories, the copies
    (:func:`_host_snapshot`) and bubblewrap's abilities do not change under a running
    referee.  Raises :class:`OSError` if the copies cannot be written (not cached)."""
    exe = shutil.which("bwrap") or "bwrap"
    sized = _sized_tmpfs()
    size = ["--size", str(disk_mb * MIB)] if sized else []
    prefix = [exe, *_bwrap_base(network), *_system_binds()]
    prefix += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", *size, "--tmpfs", "/tmp"]
    if sized:  # /dev itself read-only (it is writable in a user namespace), shm capped
        prefix += ["--perms", "1777", *size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    return (*prefix, *host_masks())


@functools.lru_cache(maxsize=64)
def _visible_cached(argv: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`visible_dirs` of ``argv``, resolved once per process and command line
    (a spawn resolves about 50 paths; a bot's program and arguments stay where they
    are while a run uses them, and a directory that vanished only fails that bot's
    start)."""
    return tuple(visible_dirs(argv))


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot sandbox bots here, or ``None`` if it works.

    Runs ``bwrap`` once (per process) with the namespaces bots get; the answer is
    cached.
    """
    if not sys.platform.startswith("linux"):
        return "bubblewrap needs Linux"
    exe = shutil.which("bwrap")
    if exe is None:
        return "bubblewrap (bwrap) is not installed"
    for tool in ("setpriv", "prlimit"):
        if shutil.which(tool) is None:
            return f"util-linux {tool} is not installed"
    try:
        done = _probe(exe, [])
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap does not run: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot create namespaces here: {why[-1] if why else done.returncode}"
    return None


def resolve_mode(requested: str, warn: bool = True) -> Literal["bwrap", "none"]:
    """The mode in force for ``requested`` (``auto``, ``bwrap`` or ``none``).

    ``auto`` gives ``bwrap`` where it works and otherwise ``none`` with one warning
    line on stderr (when ``warn``).  Raises :class:`SandboxError` when ``bwrap`` is
    requested but does not work, or for an unknown mode.
    """
    if requested not in MODES:
        raise SandboxError(f"unknown sandbox mode {requested!r} (choose from {', '.join(MODES)})")
    if requested == "none":
        return "none"
    problem = bwrap_problem()
    if problem is None:
        if warn and (no_cap := memory_problem()) is not None:
            print(
                f"referee: note: no memory cap over each bot's processes together ({no_cap})",
                file=sys.stderr,
            )
        return "bwrap"
    if requested == "bwrap":
        raise SandboxError(f"sandbox 'bwrap' requested, but {problem}")
    if warn:
        print(
            f"referee: warning: bots run WITHOUT a sandbox ({problem}); "
            "install bubblewrap, or pass --sandbox none to silence this",
            file=sys.stderr,
        )
    return "none"


def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def visible_dirs(argv: Sequence[str]) -> list[str]:
    """Directories a bot with command line ``argv`` may read: the Python installation,
    the ``referee`` package, the program's directory and that of every argument that
    names an existing file (or the directory itself), deduplicated, system paths left
    out (they are visible anyway)."""
    wanted = [
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
        os.path.dirname(os.path.abspath(referee.__file__)),
    ]
    program = argv[0] if os.path.sep in argv[0] else shutil.which(argv[0])
    for arg in [program or "", *argv[1:]]:
        if not os.path.isabs(arg) or not os.path.exists(arg):
            continue
        for candidate in {arg, os.path.realpath(arg)}:
            wanted.append(candidate if os.path.isdir(candidate) else os.path.dirname(candidate))
    out: list[str] = []
    for path in sorted({os.path.realpath(p) for p in wanted if p}, key=len):
        if path == "/" or _inside(path, SYSTEM_DIRS) or _inside(path, out):
            continue
        out.append(path)
    return out


@functools.cache
def _sized_tmpfs() -> bool:
    """True if this bubblewrap can cap the size of a tmpfs (``--size``, 0.8.0 on)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return False
    try:
        return _probe(exe, ["--size", str(MIB), "--tmpfs", "/tmp"]).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _probe(exe: str, extra: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run ``true`` under ``exe`` (bwrap) with the namespaces bots get and ``extra``
    options.  Raises OSError or :class:`subprocess.TimeoutExpired` (10 s)."""
    probe = [exe, *_bwrap_base(False), *_system_binds(), "--proc", "/proc", "--dev", "/dev"]
    return subprocess.run(
        [*probe, *extra, "--", "true"], capture_output=True, timeout=10, check=False
    )


@functools.cache
def _host_snapshot(base: Path) -> tuple[tuple[str, str], ...]:
    """``(copy, original)`` for every readable file of :data:`HOST_COUNTERS`, the
    copies written once (read-only) into ``base/.host``, this process's private
    folder of bot working directories."""
    folder = base / ".host"
    folder.mkdir(mode=0o755, exist_ok=True)
    found = []
    for original in HOST_COUNTERS:
        try:
            data = Path(original).read_bytes()
        except OSError:
            continue
        copy = folder / original.strip("/").replace("/", "_")
        copy.write_bytes(data)
        copy.chmod(0o444)
        found.append((str(copy), original))
    return tuple(found)


def host_masks() -> list[str]:
    """The bwrap options that bind a constant copy over each file of
    :data:`HOST_COUNTERS` (after ``--proc /proc``).  Raises :class:`OSError` if the
    copies cannot be written."""
    argv: list[str] = []
    for copy, original in _host_snapshot(workdir_base()):
        argv += ["--ro-bind", copy, original]
    return argv


def bwrap_prefix(
    argv: Sequence[str], workdir: str, policy: SandboxPolicy, disk_mb: int, uid: int | None
) -> list[str]:
    """The ``bwrap ... --`` argv prefix that runs ``argv`` in its sandbox, as user
    and group ``uid`` where given (the referee runs as root; see
    :mod:`referee.process.isolation.uids`).

    ``workdir`` (absolute) is the bot's writable working directory; ``policy.hidden``
    paths inside a visible directory are covered by an empty tmpfs.  Where bubblewrap
    can cap a tmpfs, the working directory, ``/tmp`` and ``/dev/shm`` are each a
    tmpfs of ``disk_mb`` MiB (in memory, gone with the sandbox) and ``/dev`` is
    read-only, so a bot can fill neither the referee's disk nor the memory;
    elsewhere the working directory is ``workdir`` itself.
    """
    sized = _sized_tmpfs()
    size = ["--size", str(disk_mb * MIB)] if sized else []
    prefix = list(_common_options(policy.network, disk_mb))
    visible = _visible_cached(tuple(argv))
    # Parents bwrap would create for a bind are private (0700): make them traversable.
    parents = {up for path in (*visible, workdir) for up in _parents(path)}
    parents.discard("/tmp")
    for parent in sorted(parents, key=len):
        prefix += ["--perms", "0755", "--dir", parent]
    for path in visible:
        prefix += ["--ro-bind", path, path]
    for hidden in sorted(set(policy.hidden)):
        if _inside(hidden, visible) and os.path.isdir(hidden):
            prefix += ["--tmpfs", hidden]
    if sized:
        prefix += ["--perms", "1777", *size, "--tmpfs", workdir]
    else:
        prefix += ["--bind", workdir, workdir]
    prefix += ["--chdir", workdir, "--"]
    if uid is not None:
        prefix += [
            _setpriv(),
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    return prefix


def _parents(path: str) -> Iterator[str]:
    """The folders above the absolute, normalised ``path``, nearest first, ``/`` left
    out."""
    while (up := os.path.dirname(path)) != path and up != "/":
        yield up
        path = up


@functools.cache
def _setpriv() -> str:
    return shutil.which("setpriv") or "setpriv"


def prepare_workdir(workdir: str, uid: int | None) -> None:
    """Give the bot's working directory to ``uid``, the user the bot will run as
    (``None``: the referee's own user, nothing to do)."""
    if uid is not None:
        os.chown(workdir, uid, uid)


@functools.cache
def _tools() -> tuple[str, str] | None:
    setpriv, prlimit = shutil.which("setpriv"), shutil.which("prlimit")
    if not sys.platform.startswith("linux") or setpriv is None or prlimit is None:
        return None
    return setpriv, prlimit


OOM_SCORE_ADJ: Final = 1000
"""Every bot process's ``oom_score_adj``: the kernel's out-of-memory killer takes bots
before anything else, so a bot that fills the memory (in processes smaller than
the referee, say) cannot have the referee killed.  A bot may raise it but never
lower it (that needs ``CAP_SYS_RESOURCE``, which no sandboxed bot has)."""


def oom_prefix() -> list[str]:
    """The argv prefix that gives the bot, and everything it starts, the
    :data:`OOM_SCORE_ADJ` (util-linux ``choom``; empty where it is missing, and the
    fallback ``preexec_fn`` of :class:`referee.process.spec.BotLimits` writes it instead)."""
    choom = _choom()
    return [choom, "-n", str(OOM_SCORE_ADJ), "--"] if choom else []


@functools.cache
def _choom() -> str | None:
    return shutil.which("choom") if sys.platform.startswith("linux") else None


def launcher(limits: Sequence[tuple[str, int]], policy: SandboxPolicy) -> list[str] | None:
    """The argv prefix that applies resource ``limits`` (``prlimit`` option name,
    value) and, without a sandbox, a parent-death signal; ``None`` where util-linux
    is missing (then the caller needs a ``preexec_fn``)."""
    tools = _tools()
    if tools is None:
        return None
    setpriv, prlimit = tools
    prefix = [] if policy.mode == "bwrap" else [setpriv, "--pdeathsig", "KILL", "--"]
    if limits:
        prefix += [prlimit, *(f"--{name}={value}:{value}" for name, value in limits), "--"]
    return prefix
