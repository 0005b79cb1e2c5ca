"""One bot process, driven over JSON Lines with asyncio.

:class:`BotProcess` starts a bot command in its own session and process group, by
default inside a sandbox of its own (see :mod:`referee.sandbox`), with a scrubbed
environment and a fresh empty working directory.  It copies the bot's stderr to a
log file up to a cap (keeping the last lines for fault details), and sends requests
with a deadline.  Its stdout is read as lines with a hard cap on line length; the
referee holds at most twice the cap of unread output (then the bot's pipe fills and
the bot blocks), so a bot that floods its output between requests costs the
referee nothing more.  Waiting for a reply costs one future; the deadline timer is
armed again only when a deadline comes earlier than the one it is armed for.
:meth:`BotProcess.close` ends it: close stdin, wait a grace period, TERM the process
group, KILL it, reap.

Which lines answer a request is decided by their content, never by when they
arrive (see :meth:`BotProcess.request` and docs/protocol.md, "Stray output").

Errors are typed: :class:`BotFault` carries the protocol verdict
(``timeout``, ``crash``, ``protocol``, ``startup``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import shlex
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from referee import reaper
from referee.cgroups import MemoryGroup, memory_group
from referee.child import Child
from referee.errors import RefereeError
from referee.protocol import (
    Act,
    ActionReply,
    End,
    ProtocolViolation,
    Ready,
    Start,
    Verdict,
    decode_bot_line,
    encode,
)
from referee.sandbox import (
    MIB,
    OOM_SCORE_ADJ,
    SandboxPolicy,
    bot_filter,
    bwrap_prefix,
    launcher,
    oom_prefix,
    prepare_workdir,
)
from referee.uids import UidLease, lease_uid
from referee.workdirs import workdir_base

PYTHON_ALIASES = frozenset({"python", "python3", f"python3.{sys.version_info.minor}"})

STDERR_TAIL_BYTES = 4096
"""How much of the end of a bot's stderr is kept in memory for fault details."""

TASKS_PER_PROCESS = 4
"""A sandboxed bot may run ``TASKS_PER_PROCESS * max_processes`` tasks (processes
and threads, ``RLIMIT_NPROC``): the kernel stops a fork bomb there, before it can
take the machine's process ids from the other matches.  Counted per bot: each runs
in a user namespace of its own, or, where the referee is root, as a uid of its own
(:mod:`referee.uids`)."""

WALK_CHUNK = 32
"""Processes of a bot's tree read between two turns of the event loop when its
processes are stopped (:meth:`BotProcess.freeze`)."""


class BotCommandError(RefereeError, ValueError):
    """A bot command that cannot be run (empty, or the program does not exist)."""


class BotFault(Exception):
    """A bot broke the protocol; ``verdict`` is the protocol verdict."""

    def __init__(self, verdict: Verdict, detail: str) -> None:
        super().__init__(f"{verdict}: {detail}")
        self.verdict: Verdict = verdict
        self.detail = detail


@dataclass
class BotLimits:
    """Per-bot caps.

    ``max_line_bytes``/``max_stderr_bytes``: stdout line length and stderr log size
    (bytes); ``exit_grace_s``/``term_grace_s``: seconds allowed to exit after stdin is
    closed and after SIGTERM; ``cpu_s``, ``memory_mb`` (address space) and
    ``open_files``: optional kernel resource limits (``setrlimit``) applied to the
    bot process and inherited by its children (``None`` = no limit);
    ``max_processes``: most processes a bot may run at once, checked whenever its
    processes are stopped (:meth:`BotProcess.freeze`): more is a ``crash`` fault
    (and under the sandbox the kernel refuses tasks beyond
    :data:`TASKS_PER_PROCESS` times it);
    ``disk_mb``: size of the sandboxed bot's working directory, ``/tmp`` and
    ``/dev/shm`` (each a tmpfs, see :func:`referee.sandbox.bwrap_prefix`);
    ``max_memory_mb``: most memory all the bot's processes may use together, its
    in-memory files included (a memory cgroup, :mod:`referee.cgroups`, where the
    referee can make one; 0 = no cap): beyond it the kernel kills one of them.
    """

    max_line_bytes: int = MIB
    max_stderr_bytes: int = MIB
    exit_grace_s: float = 1.0
    term_grace_s: float = 0.5
    cpu_s: int | None = None
    memory_mb: int | None = None
    open_files: int | None = None
    max_processes: int = 256
    disk_mb: int = 128
    max_memory_mb: int = 2048

    def rlimits(self) -> list[tuple[str, int, int]]:
        """The limits in force: ``(prlimit option, resource constant, value)``."""
        pairs = [
            ("cpu", resource.RLIMIT_CPU, self.cpu_s),
            ("as", resource.RLIMIT_AS, None if self.memory_mb is None else self.memory_mb * MIB),
            ("nofile", resource.RLIMIT_NOFILE, self.open_files),
        ]
        return [(name, which, value) for name, which, value in pairs if value is not None]

    def preexec(self) -> Callable[[], None]:
        """The fallback run in the child before exec where util-linux is missing:
        parent-death signal and limits."""
        chosen = [(which, value) for _, which, value in self.rlimits()]

        def apply() -> None:
            # Die with the referee, even if it is SIGKILLed (Linux).
            reaper.die_with_parent()
            with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as f:
                f.write(str(OOM_SCORE_ADJ))
            for which, value in chosen:
                resource.setrlimit(which, (value, value))

        return apply


@dataclass
class BotSpec:
    """A bot to run: display name, argv (already resolved), and an optional wrapper;
    ``move_ms``/``bank_ms``: this seat's own clock (ms; ``None``: the match's), which a
    human seat gets by default (:mod:`referee.human.command`).

    ``wrapper`` is an argv prefix such as ``["firejail", "--quiet"]`` of a sandbox of
    the user's own; ``command`` is the text shown in records (defaults to the joined
    argv).
    """

    name: str
    argv: list[str]
    command: str = ""
    wrapper: list[str] = field(default_factory=list)
    move_ms: int | None = None
    bank_ms: int | None = None

    def __post_init__(self) -> None:
        if not self.command:
            self.command = shlex.join(self.argv)
        if _is_human(self.argv):  # a person's clock unless the entrant set one
            from referee.human.command import BANK_MS, MOVE_MS

            self.move_ms = MOVE_MS if self.move_ms is None else self.move_ms
            self.bank_ms = BANK_MS if self.bank_ms is None else self.bank_ms


def resolve_command(command: str, base_dir: str | os.PathLike[str] = ".") -> list[str]:
    """Split ``command`` like a shell (without running one) and make it runnable anywhere.

    ``python``/``python3`` as the program mean the referee's own interpreter (so bots
    can import the ``referee`` package); arguments that name existing files relative
    to ``base_dir`` become absolute (symlinks kept as they are), since a bot runs in
    its own working directory: the program, every argument with a ``/``, and every
    script argument of :func:`referee.preflight.script_arguments` (``my_bot.py``).
    Raises :class:`BotCommandError` if the command is empty or the program is not found.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BotCommandError(f"cannot parse bot command {command!r}: {exc}") from None
    if not argv:
        raise BotCommandError("empty bot command")
    if argv[0] == "human":  # the built-in human seat (referee/human/command.py)
        from referee.human.command import human_argv

        return human_argv(argv[1:])
    base = Path(base_dir)
    # The arguments preflight checks as scripts (``python3 my_bot.py``, ``node bot.js``)
    # are resolved too, slash or not: the bot runs in a working directory of its own.
    from referee.preflight import script_indices  # preflight imports this module

    scripts = set(script_indices(argv))
    if argv[0] in PYTHON_ALIASES:
        argv[0] = sys.executable
    resolved = []
    for i, arg in enumerate(argv):
        candidate = base / arg
        named = "/" in arg or i == 0 or i in scripts
        if not os.path.isabs(arg) and named and candidate.exists():
            # Absolute, but not through symlinks: a virtual environment's
            # ``bin/python`` is a symlink whose own path is what selects the
            # environment (its ``pyvenv.cfg``), so resolving it would start the bare
            # interpreter without the environment's packages.
            arg = os.path.abspath(candidate)
        resolved.append(arg)
    program = resolved[0]
    if os.path.sep in program:
        if not os.access(program, os.X_OK) or os.path.isdir(program):
            raise BotCommandError(f"bot program not found or not executable: {program}")
    elif shutil.which(program) is None:
        raise BotCommandError(f"bot program not found on PATH: {program}")
    return resolved


def _is_human(argv: Sequence[str]) -> bool:
    from referee.human.command import is_human

    return is_human(argv)


def scrubbed_environment(home: str, token: str) -> dict[str, str]:
    """The environment a bot gets: PATH, a locale, its own HOME/TMPDIR, its marker."""
    return {
        reaper.MARKER_VAR: token,
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


@dataclass
class BotStats:
    """Counters for one bot over one match.

    ``unsolicited_lines``: lines ignored under the stray-output rules (text lines and
    late duplicate replies); ``stderr_bytes``/``stderr_dropped``: stderr kept in the
    log and dropped over the cap; ``last_ignored``: the start of the last text line
    ignored (for fault details).
    """

    unsolicited_lines: int = 0
    stderr_bytes: int = 0
    stderr_dropped: int = 0
    last_ignored: str = ""
    move_ms: list[float] = field(default_factory=list)


class _LineOverrun(Exception):
    """A bot's stdout line is longer than the cap."""


class _Lines(asyncio.Protocol):
    """A bot's stdout as complete lines, attached to the event loop directly.

    Bytes are kept until a request reads them; past ``2 * limit`` bytes unread, the
    pipe is no longer read (the bot blocks on its full pipe), so a bot that floods
    costs the referee at most that much memory.  :meth:`readline` answers at once
    when a line is already here and otherwise waits on one future: the whole cost of
    waiting for a reply.  Deadlines share one timer per bot, armed lazily (a timer
    armed and cancelled per wait costs about 1 us of CPU on uvloop, 1.6 us on
    asyncio's loop, per decision).
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        self._limit = limit
        # Kept: on Python 3.11 every asyncio.get_running_loop() is a getpid() system call.
        self._loop = loop
        self._buffer = bytearray()
        self._waiter: asyncio.Future[None] | None = None
        self._transport: asyncio.ReadTransport | None = None
        self._paused = False
        # One deadline timer, armed lazily: a wait re-arms it only for an earlier
        # deadline, and a timer that fires before the current deadline re-arms itself,
        # so a reply within the deadline costs no timer at all.
        self._deadline = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self.eof = False
        self.error: BaseException | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's pipe transports do not subclass asyncio.ReadTransport.
        self._transport = cast(asyncio.ReadTransport, transport)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        waiter = self._waiter
        complete = b"\n" in data or len(self._buffer) >= self._limit
        if waiter is not None and complete and not waiter.done():
            waiter.set_result(None)
        if not self._paused and len(self._buffer) > 2 * self._limit and self._transport:
            self._paused = True
            self._transport.pause_reading()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof = True
        self.error = exc
        self._wake()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def readline(self, deadline: float) -> bytes:
        """The next line, newline included, waiting until ``deadline`` (event loop
        time, s).  Raises :class:`TimeoutError` at the deadline,
        :class:`_LineOverrun` for a line over the cap, :class:`asyncio.IncompleteReadError`
        at end of file (with the unfinished line as ``partial``), or the pipe's
        :class:`OSError`."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                if end >= self._limit:
                    raise _LineOverrun
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                if self._paused and len(self._buffer) <= self._limit and self._transport:
                    self._paused = False
                    self._transport.resume_reading()
                return line
            if len(self._buffer) >= self._limit:
                raise _LineOverrun
            if self.eof:
                if self.error is not None:
                    raise self.error
                raise asyncio.IncompleteReadError(bytes(self._buffer), None)
            self._deadline = deadline
            if self._timer is None or self._timer_at > deadline:
                self._arm(deadline)
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None

    def _arm(self, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(at, self._ring)
        self._timer_at = at

    def _ring(self) -> None:
        """The timer fired: expire the wait whose deadline it was armed for, re-arm
        for a wait with a later deadline, or lapse when nothing waits."""
        self._timer = None
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if self._deadline <= self._timer_at:
            waiter.set_exception(TimeoutError())
        else:
            self._arm(self._deadline)


class _Pipes:
    """The referee's ends of a bot's stdin, stdout and stderr pipes, each attached to
    the event loop directly (not through the subprocess transport, which would cost
    every chunk read one more pass of the loop)."""

    def __init__(
        self,
        stdin: asyncio.StreamWriter,
        stdout: _Lines,
        stderr: asyncio.StreamReader,
        transports: list[asyncio.BaseTransport],
    ) -> None:
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._transports = transports

    @classmethod
    async def connect(cls, stdin_fd: int, stdout_fd: int, stderr_fd: int, limit: int) -> _Pipes:
        """Attach the three file descriptors (which it takes over); ``limit`` is the
        stdout line cap in bytes, newline included."""
        loop = asyncio.get_running_loop()
        transports: list[asyncio.BaseTransport] = []
        lines = _Lines(limit, loop)
        transport, _ = await loop.connect_read_pipe(
            lambda: lines, os.fdopen(stdout_fd, "rb", buffering=0)
        )
        transports.append(transport)
        stderr = asyncio.StreamReader(limit=limit, loop=loop)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stderr, loop=loop),
            os.fdopen(stderr_fd, "rb", buffering=0),
        )
        transports.append(transport)
        write_transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop),
            os.fdopen(stdin_fd, "wb", buffering=0),
        )
        transports.append(write_transport)
        writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
        return cls(writer, lines, stderr, transports)

    def close(self) -> None:
        """Close all three pipes (idempotent)."""
        for transport in self._transports:
            transport.close()


async def _reap(pids: list[int], patience_s: float = 0.5) -> None:
    """Collect the exit status of those ``pids`` that are (or become, within
    ``patience_s``) this process's children, so no zombie is left behind; pids that
    are not its children are skipped at once."""
    waiting = list(pids)
    deadline = time.monotonic() + patience_s
    while waiting:
        left = []
        for pid in waiting:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                continue  # not ours (reaped elsewhere, or never re-parented here)
            if done == 0:
                left.append(pid)
        waiting = left
        if not waiting or time.monotonic() > deadline:
            return
        await asyncio.sleep(0.002)


def _pipe_with(data: bytes, opened: list[int]) -> int:
    """The read end of a new pipe that holds ``data`` (at most a pipe's buffer, 64 KiB
    on Linux) and is closed for writing; its descriptor is added to ``opened``."""
    read_end, write_end = os.pipe()
    opened.append(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(data)
    return read_end


def _children(pid: int) -> list[int]:
    """The child pids of every thread of ``pid`` (``/proc/<pid>/task/<tid>/children``;
    none for a process that is gone or where the kernel lacks those files)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        with (
            contextlib.suppress(OSError, ValueError),
            open(f"/proc/{pid}/task/{tid}/children") as f,
        ):
            found.extend(int(child) for child in f.read().split())
    return found


def _stopped(pid: int) -> bool:
    """True if ``pid`` is stopped, a zombie, or gone (``/proc/<pid>/stat``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in (b"T", b"t", b"Z", b"X")


def _is_message(line: bytes) -> bool:
    """True if ``line`` is meant as a JSON message: its first non-blank byte is ``{``
    or ``[``.  Other lines (text, blank lines) are ignored by the stray-output rules."""
    stripped = line.lstrip()
    return stripped[:1] in (b"{", b"[")


class BotProcess:
    """A running bot.  Create with :meth:`spawn`; always :meth:`close` it.

    ``stderr_path`` receives the bot's stderr (capped).  Methods that wait for the
    bot raise :class:`BotFault`.
    """

    def __init__(
        self,
        spec: BotSpec,
        process: Child,
        pipes: _Pipes,
        workdir: str,
        stderr_path: Path | None,
        limits: BotLimits,
        token: str,
        sandboxed: bool = False,
        *,
        lease: UidLease | None = None,
        group: MemoryGroup | None = None,
    ) -> None:
        self.spec = spec
        self._pipes = pipes
        self._loop = asyncio.get_running_loop()  # the loop that serves its pipes
        self.token = token
        self.process = process
        self.pid = process.pid
        self.workdir = workdir
        self.limits = limits
        self.stats = BotStats()
        self.ready: Ready | None = None
        self._eof: BotFault | None = None
        self._stderr_log = open(stderr_path, "wb") if stderr_path else None  # noqa: SIM115
        self._stderr_tail: deque[bytes] = deque()
        self._stderr_tail_bytes = 0
        self._stderr_task = asyncio.create_task(self._read_stderr())
        self._closed = False
        self.sandboxed = sandboxed
        self.blocks: set[str] = set()
        """Reuse tags (duplicate blocks) of every match this process has played."""
        self.matches = 0
        """Matches this process has started (more than 1: reused, see referee.pool)."""
        self.frozen = False
        """Stopped while idle in a pool or while others think (see :meth:`freeze`)."""
        self.overrun = False
        """Found running more than ``limits.max_processes`` processes (never reused)."""
        self._lease = lease  # the uid it runs as, held until closed
        self._group = group  # its memory cgroup, given back when closed
        self._cgroup_frozen = False  # frozen by the group's freezer (not by signals)

    @classmethod
    async def spawn(
        cls,
        spec: BotSpec,
        *,
        stderr_path: Path | None = None,
        limits: BotLimits | None = None,
        sandbox: SandboxPolicy | None = None,
    ) -> BotProcess:
        """Start the bot process under ``sandbox`` (default: none).

        Raises :class:`BotFault` (``crash``) if the program cannot be executed.
        """
        limits = limits or BotLimits()
        sandbox = sandbox or SandboxPolicy()
        human = _is_human(spec.argv)
        if human:  # a person's seat: loopback and a browser, no sandbox (docs/human.md)
            sandbox, limits = SandboxPolicy(), replace(limits, max_memory_mb=0)
        reaper.enable_subreaper()
        workdir = tempfile.mkdtemp(prefix="bot-", dir=workdir_base())
        token = reaper.new_token()
        group: MemoryGroup | None = None
        lease: UidLease | None = None

        def undo(why: str) -> BotFault:
            """Give back what was taken for the bot; the fault to raise."""
            if lease is not None:
                lease.release()
            if group is not None:
                group.release()
            reaper.retire(token)
            shutil.rmtree(workdir, ignore_errors=True)
            return BotFault("crash", f"cannot start {spec.command!r}: {why}")

        try:
            if limits.max_memory_mb:
                group = memory_group(limits.max_memory_mb)
            if sandbox.mode == "bwrap" and os.geteuid() == 0:
                lease = lease_uid()  # a uid of its own (root drops to it in the sandbox)
        except OSError as exc:
            raise undo(str(exc)) from None
        kernel_limits = [(name, value) for name, _, value in limits.rlimits()]
        if sandbox.mode == "bwrap":
            kernel_limits.append(("nproc", TASKS_PER_PROCESS * limits.max_processes))
        prefix = launcher(kernel_limits, sandbox)
        argv = [*spec.wrapper, *(prefix or []), *spec.argv]
        passed: list[int] = []  # descriptors bwrap reads its options and filter from
        if sandbox.mode == "bwrap":
            uid = None if lease is None else lease.uid
            prepare_workdir(workdir, uid)
            # Other bots' working directories share the base: hidden where visible.
            policy = sandbox.hiding([workdir_base()])
            bwrap = bwrap_prefix(spec.argv, workdir, policy, limits.disk_mb, uid)
            cut = bwrap.index("--")
            # Options go through a pipe (--args), so the sandbox's first process,
            # which the bot can see, shows no paths in its command line.
            options = bwrap[1:cut]
            program = bot_filter()
            if program is not None:  # no core binding undone, no user namespace
                options += ["--seccomp", str(_pipe_with(program, passed))]
            data = b"".join(os.fsencode(arg) + b"\0" for arg in options)
            options_fd = _pipe_with(data, passed)
            # Limits first, as root where the referee is: the program is then run by
            # setpriv, dropping to the bot's uid, exactly as without limits.
            inner = [*(prefix or []), *bwrap[cut + 1 :], *spec.wrapper, *spec.argv]
            argv = [bwrap[0], "--args", str(options_fd), "--", *inner]
        # Outermost, so the sandbox's own processes have them too.
        argv = [*(group.prefix() if group else []), *oom_prefix(), *argv]
        child_in, parent_in = os.pipe()
        parent_out, child_out = os.pipe()
        parent_err, child_err = os.pipe()
        try:
            process = Child.start(
                argv,
                stdin=child_in,
                stdout=child_out,
                stderr=child_err,
                cwd=workdir,
                env=scrubbed_environment(workdir, token),
                preexec_fn=limits.preexec() if prefix is None else None,
                pass_fds=tuple(passed),
            )
        except OSError as exc:
            for fd in (parent_in, parent_out, parent_err):
                os.close(fd)
            raise undo(str(exc.strerror)) from None
        finally:
            for fd in (child_in, child_out, child_err):
                os.close(fd)
            for fd in passed:
                os.close(fd)
        reaper.adopt(process.pid)
        pipes = await _Pipes.connect(parent_in, parent_out, parent_err, limits.max_line_bytes + 1)
        return cls(
            spec,
            process,
            pipes,
            workdir,
            stderr_path,
            limits,
            token,
            sandbox.mode == "bwrap",
            lease=lease,
            group=group,
        )

    # -- stderr --------------------------------------------------------------------

    async def _read_stderr(self) -> None:
        stream = self._pipes.stderr
        try:
            while chunk := await stream.read(65536):
                self._keep_tail(chunk)
                room = self.limits.max_stderr_bytes - self.stats.stderr_bytes
                kept = chunk[: max(room, 0)]
                self.stats.stderr_bytes += len(kept)
                self.stats.stderr_dropped += len(chunk) - len(kept)
                if self._stderr_log is not None and kept:
                    self._stderr_log.write(kept)
        except (ConnectionError, OSError):
            pass
        finally:
            self._close_stderr_log()

    def _close_stderr_log(self) -> None:
        """Close the current stderr log, noting what the cap dropped."""
        out, self._stderr_log = self._stderr_log, None
        if out is not None:
            with contextlib.suppress(OSError):
                if self.stats.stderr_dropped:
                    out.write(f"\n[referee: {self.stats.stderr_dropped} bytes dropped]\n".encode())
                out.close()

    def next_match(self, stderr_path: Path | None) -> None:
        """Prepare a reused process for another match: fresh counters, its stderr
        copied to ``stderr_path`` from now on (the previous log is closed), the
        stderr tail of fault details emptied.  Output the bot wrote to stderr after
        the previous ``end`` may still land in the new log."""
        self._close_stderr_log()
        self.stats = BotStats()
        self._stderr_tail.clear()
        self._stderr_tail_bytes = 0
        self._stderr_log = open(stderr_path, "wb") if stderr_path else None  # noqa: SIM115
        self.ready = None

    def reusable(self) -> bool:
        """True if the process may play another match: it announced ``reuse`` in its
        last ``ready``, is still running, has not closed its output, and no CPU-time
        limit applies (``RLIMIT_CPU`` counts over the process's whole life)."""
        return (
            not self._closed
            and self.ready is not None
            and self.ready.reuse is True
            and self._eof is None
            and self.process.returncode is None
            and self.limits.cpu_s is None
            and not self.overrun
        )

    def _keep_tail(self, chunk: bytes) -> None:
        self._stderr_tail.append(chunk[-STDERR_TAIL_BYTES:])
        self._stderr_tail_bytes += len(self._stderr_tail[-1])
        while self._stderr_tail_bytes - len(self._stderr_tail[0]) >= STDERR_TAIL_BYTES:
            self._stderr_tail_bytes -= len(self._stderr_tail.popleft())

    async def stderr_tail(self, lines: int = 5, wait_s: float = 0.5) -> str:
        """The last ``lines`` non-blank lines the bot wrote to stderr (at most
        ~500 characters), after waiting up to ``wait_s`` seconds for its stderr to
        close; ``""`` if it wrote nothing."""
        if not self._stderr_task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), wait_s)
        text = b"".join(self._stderr_tail).decode(errors="replace")
        kept = [line.rstrip() for line in text.splitlines() if line.strip()][-lines:]
        return " | ".join(kept)[-500:]

    # -- requests ----------------------------------------------------------------

    def _read_failed(self, exc: BaseException) -> BotFault:
        """The fault for a failed read of the bot's stdout (kept: every later request
        fails with it too)."""
        if isinstance(exc, asyncio.IncompleteReadError):
            why = "closed its output" + (" mid-line" if exc.partial else "")
            self._eof = BotFault("crash", why)
        elif isinstance(exc, _LineOverrun):
            self._eof = BotFault(
                "protocol", f"sent a line longer than {self.limits.max_line_bytes} bytes"
            )
        else:
            self._eof = BotFault("crash", f"output failed: {exc}")
        return self._eof_fault()

    def _eof_fault(self) -> BotFault:
        assert self._eof is not None
        detail = self._eof.detail
        code = self.process.returncode
        if code is not None and self._eof.verdict == "crash":
            detail += f" (exit code {code})"
        group = self._group
        if group is not None and self._eof.verdict == "crash" and (kills := group.oom_kills()):
            detail += (
                f"; the kernel killed {kills} of its processes: together they used more "
                f"than max_memory_mb ({group.limit_mb} MiB)"
            )
        return BotFault(self._eof.verdict, detail)

    def _answer(self, line: bytes, act_id: int | None) -> Ready | ActionReply | None:
        """Classify one line read while a request is outstanding (``act_id`` ``None``:
        the ``start`` request).  Returns the answer, or ``None`` for a line the
        stray-output rules ignore.  Raises :class:`BotFault` (``protocol``)."""
        if not _is_message(line):
            self.stats.unsolicited_lines += 1
            self.stats.last_ignored = line.strip()[:60].decode(errors="replace")
            return None
        try:
            reply = decode_bot_line(line)
        except ProtocolViolation as exc:
            raise BotFault("protocol", str(exc)) from None
        except Exception as exc:  # anything a line can provoke stays the bot's fault
            raise BotFault("protocol", f"undecodable message: {type(exc).__name__}") from None
        if isinstance(reply, ActionReply) and act_id is not None and reply.id != act_id:
            if 0 < reply.id < act_id:
                # A late or duplicate reply to an earlier act: ignored, never a fault.
                self.stats.unsolicited_lines += 1
                return None
            raise BotFault("protocol", f"reply id {reply.id} does not match request id {act_id}")
        return reply

    async def request(self, message: Start | Act, timeout_s: float) -> tuple[Any, float]:
        """Send ``message``; wait at most ``timeout_s`` seconds for its answer.

        Lines that are not JSON messages (see :func:`_is_message`) and ``action``
        replies carrying an earlier act's ``id`` are skipped and counted; the first
        other line is the answer.  Returns ``(decoded answer, elapsed ms)``, elapsed
        measured from the write to the answer's newline.  Raises :class:`BotFault`:
        ``timeout``, ``crash`` (EOF or exit), ``protocol`` (oversized, malformed or
        mismatched message).
        """
        if self._eof is not None:
            raise self._eof_fault()
        act_id = message.id if isinstance(message, Act) else None
        data = encode(message)
        stdout = self._pipes.stdout
        start = time.perf_counter()
        deadline = self._loop.time() + timeout_s
        try:
            if self._write(data):
                await self._drain(deadline)
            while True:
                try:
                    line = await stdout.readline(deadline)
                except TimeoutError:  # an OSError, but the request's to report
                    raise
                except (asyncio.IncompleteReadError, _LineOverrun, OSError) as exc:
                    raise self._read_failed(exc) from None
                if (reply := self._answer(line, act_id)) is not None:
                    break
        except TimeoutError:
            detail = f"no reply within {timeout_s * 1000:.0f} ms"
            if self.stats.last_ignored:
                detail += f" (its last ignored stdout line: {self.stats.last_ignored!r})"
            raise BotFault("timeout", detail) from None
        return reply, (time.perf_counter() - start) * 1000.0

    def _write(self, data: bytes) -> bool:
        """Write ``data`` to the bot's stdin; True if part of it waits in the buffer
        (the bot is not reading: :meth:`_drain` next).  Raises :class:`BotFault`
        (``crash``) if the pipe is closed."""
        transport = self._pipes.stdin.transport
        try:
            if transport.is_closing():
                raise ConnectionError
            transport.write(data)
            if transport.is_closing():
                raise ConnectionError
        except (ConnectionError, OSError):
            raise BotFault("crash", "its input is closed (the bot exited)") from None
        return bool(transport.get_write_buffer_size())

    async def _drain(self, deadline: float) -> None:
        """Wait for the stdin buffer to drain, until ``deadline`` (event loop time).
        Raises :class:`TimeoutError` at the deadline and :class:`BotFault` (``crash``)
        if the pipe closes meanwhile."""
        try:
            timeout = max(0.0, deadline - self._loop.time())
            await asyncio.wait_for(self._pipes.stdin.drain(), timeout)
        except TimeoutError:
            raise
        except (ConnectionError, OSError):
            raise BotFault("crash", "its input is closed (the bot exited)") from None

    async def handshake(self, start: Start, startup_ms: int) -> Ready:
        """Send ``start`` and wait for ``ready``; any failure is a ``startup`` fault
        whose detail ends with the tail of the bot's stderr."""
        try:
            reply, _ = await self.request(start, startup_ms / 1000.0)
            if not isinstance(reply, Ready):
                raise BotFault("startup", "answered start with something other than ready")
        except BotFault as fault:
            detail = fault.detail
            if fault.verdict == "crash":
                detail = detail.replace("closed its output", "closed its output before answering")
            tail = await self.stderr_tail(wait_s=0.5 if fault.verdict == "crash" else 0.05)
            raise BotFault("startup", detail + (f"; stderr: {tail}" if tail else "")) from None
        self.ready = reply
        return reply

    async def act(self, act: Act, timeout_s: float) -> tuple[ActionReply, float]:
        """Send ``act``; return the ``action`` reply and elapsed ms."""
        reply, elapsed = await self.request(act, timeout_s)
        if not isinstance(reply, ActionReply):
            raise BotFault("protocol", f"expected an action message, got {type(reply).__name__}")
        return reply, elapsed

    async def tell(self, end: End) -> None:
        """Send a message that needs no answer (``end``); errors are ignored, and a bot
        that leaves its input full gets at most ``exit_grace_s`` for it to drain."""
        deadline = asyncio.get_running_loop().time() + self.limits.exit_grace_s
        with contextlib.suppress(BotFault, TimeoutError):
            if self._write(encode(end)):
                await self._drain(deadline)

    # -- shutdown ----------------------------------------------------------------

    async def close(self, *, graceful: bool = True) -> int | None:
        """End the bot and its whole process group; reap it; remove its workdir.

        With ``graceful`` the bot gets ``exit_grace_s`` after its stdin is closed to
        exit by itself.  Returns the exit code (negative: killed by that signal).
        """
        if self._closed:
            return self.process.returncode
        if not self.overrun:  # a fork bomb is killed as it stands
            self.thaw()  # a stopped process could neither read EOF nor act on SIGTERM
        else:
            self._kill_frozen()
        self._closed = True
        # The sandbox's inner processes (its PID 1 above all) are re-parented to this
        # process, a subreaper, when the outer bwrap dies first: reap them below.
        descendants = (await self._walk(set()))[1:] if self.sandboxed else []
        with contextlib.suppress(Exception):
            self._pipes.stdin.close()
        if graceful and self.process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), self.limits.exit_grace_s)
        self._signal_group(signal.SIGTERM)
        if self.process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), self.limits.term_grace_s)
        self._signal_group(signal.SIGKILL)
        code = await self.process.wait()
        reaper.release(self.pid)
        reaper.retire(self.token)
        if not self.sandboxed:
            # Processes that left the group (double fork, setsid) still carry the
            # marker.  In a sandbox the kernel has killed them all with its PID 1.
            reaper.sweep(self.token)
        await _reap(descendants)
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self._stderr_task, 1.0)
        self._pipes.close()  # a pipe an escaped descendant still holds open
        shutil.rmtree(self.workdir, ignore_errors=True)
        if self._lease is not None:  # every process of the sandbox is gone
            self._lease.release()
        if self._group is not None:
            self._group.release()
        return code

    def peak_memory_mb(self) -> float | None:
        """Most memory all the bot's processes used together so far, in MiB (its
        memory cgroup's peak), or ``None`` where it runs without one."""
        return self._group.peak_mb() if self._group is not None else None

    def _signal_group(self, sig: int) -> None:
        # The group outlives its leader if children remain, so signal it regardless.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    # -- idle between matches (referee.pool) ------------------------------------------

    def tree(self) -> list[int]:
        """The pids of this bot's process and every live descendant (sandbox helpers
        included), read from ``/proc/<pid>/task/<tid>/children``; ``[pid]`` alone
        where the kernel does not offer those files."""
        return list(self._pids())

    def _pids(self) -> Iterator[int]:
        """The pids of :meth:`tree`, one at a time: a process's children are read
        only when the next pid is asked for."""
        todo = [self.pid]
        while todo:
            pid = todo.pop()
            yield pid
            todo.extend(_children(pid))

    async def _walk(self, known: set[int], limit: int = sys.maxsize) -> list[int]:
        """The pids of this bot's tree (as :meth:`tree`) not in ``known``, read
        cooperatively: the event loop runs every :data:`WALK_CHUNK` processes, so a
        huge tree never delays reading another bot's reply (and so its clock).
        Raises :class:`BotFault` (``crash``) as soon as the tree is found to hold more
        than ``limit`` processes."""
        fresh: list[int] = []
        for seen, pid in enumerate(self._pids(), 1):
            if seen > limit:
                raise BotFault("crash", f"ran more than {limit} processes at once")
            if pid not in known:
                fresh.append(pid)
            if seen % WALK_CHUNK == 0:
                await asyncio.sleep(0)
        return fresh

    async def freeze(self) -> None:
        """Stop every process of the bot while it waits in a pool or while other seats
        of its match are on move (:mod:`referee.turns`), so that nothing it left
        running (a pondering thread, a child) takes CPU from the bots that are
        thinking.  :attr:`frozen` is set first, so :meth:`thaw` also undoes a freeze
        cancelled half-way.  Raises :class:`BotFault` (``crash``) when the bot is
        found running more than ``limits.max_processes`` processes (a fork bomb); the
        process is then no longer :meth:`reusable`, and :meth:`close` kills it
        without letting it run again.

        Where the bot has a cgroup with a freezer (:mod:`referee.cgroups`), one write
        freezes all its processes, those it starts meanwhile included, and no tracer
        of its own can undo it; the processes are then counted with one read of the
        group.  Elsewhere each process gets a SIGSTOP: each pass stops the
        processes found, waits until they are stopped (a stopped process can start
        no other), and reads the tree again, until no new process appears; a tree
        found to hold too many processes is not read further (that could take
        seconds)."""
        if _is_human(self.spec.argv):
            return  # a person's seat keeps serving its page while others move
        self.frozen = True
        group = self._group
        if group is not None and group.freezer is not None:
            try:
                group.freeze()
            except OSError:
                pass  # the group is gone with the bot, or cannot be frozen: signals
            else:
                self._cgroup_frozen = True
                if len(group.pids()) > self.limits.max_processes:
                    self.overrun = True
                    limit = self.limits.max_processes
                    raise BotFault("crash", f"ran more than {limit} processes at once")
                return
        stopped: set[int] = set()
        for _ in range(20):
            try:
                fresh = await self._walk(stopped, self.limits.max_processes)
            except BotFault:
                self.overrun = True
                raise
            if not fresh:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)
                stopped.add(pid)
            deadline = time.monotonic() + 0.1
            while not all(_stopped(pid) for pid in fresh) and time.monotonic() < deadline:
                await asyncio.sleep(0.0005)

    def thaw(self) -> None:
        """Let every process of a frozen bot run again (no-op if not frozen): one
        write to its cgroup's freezer, or a SIGCONT to each process."""
        if not self.frozen:
            return
        if self._cgroup_frozen and self._group is not None:
            self._cgroup_frozen = False
            self.frozen = False
            with contextlib.suppress(OSError):
                self._group.thaw()
            return
        for pid in self.tree():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGCONT)
        self.frozen = False

    def _kill_frozen(self) -> None:
        """Kill every process of a bot its cgroup holds frozen, then thaw the group:
        a killed process runs no more of its own code, whatever the freezer's state."""
        if not (self._cgroup_frozen and self._group is not None):
            return
        for pid in self._group.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self._cgroup_frozen = False
        with contextlib.suppress(OSError):
            self._group.thaw()
