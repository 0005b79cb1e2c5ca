"""One bot process, driven over JSON Lines with asyncio.

:class:`BotProcess` starts a bot command in its own session and process group, by
default inside a sandbox of its own (see :mod:`referee.process.isolation.sandbox`), with a scrubbed
environment and a fresh empty working directory.  It copies the bot's stderr to a
log file up to a cap (keeping the last lines for fault details), and sends requests
with a deadline.  Its stdout is read as lines with a hard cap on line length; the
referee holds at most twice the cap of unread output (then the bot's pipe fills and
the bot blocks), so a bot that floods its output between requests costs the
referee nothing more.  Waiting for a reply costs one future (:meth:`BotProcess.reply`),
or no task at all where the caller takes it in the event loop's callback
(:meth:`BotProcess.listen`, :meth:`BotProcess.take_reply`: a match's acts); the
deadline timer is armed again only when a deadline comes earlier than the one it is
armed for.
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
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgspec

from referee.human.command import is_human
from referee.process.child import Child
from referee.process.isolation import procfs, reaper
from referee.process.isolation.cgroups import MemoryGroup, memory_group, warm_up
from referee.process.isolation.sandbox import (
    SandboxPolicy,
    bot_filter,
    bwrap_prefix,
    launcher,
    oom_prefix,
    prepare_workdir,
)
from referee.process.isolation.uids import UidLease, lease_uid
from referee.process.isolation.workdirs import workdir_base
from referee.process.lines import _is_message, _LineOverrun, _pipe_with, _Pipes
from referee.process.protocol import (
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
from referee.process.spec import (
    TASKS_PER_PROCESS,
    BotLimits,
    BotSpec,
    scrubbed_environment,
)

STDERR_TAIL_BYTES = 4096
"""How much of the end of a bot's stderr is kept in memory for fault details."""

WALK_CHUNK = 32
"""Processes of a bot's tree read between two turns of the event loop when its
processes are stopped (:meth:`BotProcess.freeze`)."""


class Sent(msgspec.Struct, gc=False):
    """A request written to a bot and not yet answered (:meth:`BotProcess.send`):
    ``act_id`` (``None`` for ``start``), ``start`` (``time.perf_counter`` s at the
    write), ``deadline`` (event loop time, s), ``timeout_s``, and ``drain`` (part of
    it still waits in the pipe's buffer: the bot is not reading).  A struct, made at
    every act: 0.12 us against a slotted dataclass's 0.42 (``python -m timeit``, best of 5)."""

    act_id: int | None
    start: float
    deadline: float
    timeout_s: float
    drain: bool


class BotFault(Exception):
    """A bot broke the protocol; ``verdict`` is the protocol verdict."""

    def __init__(self, verdict: Verdict, detail: str) -> None:
        super().__init__(f"{verdict}: {detail}")
        self.verdict: Verdict = verdict
        self.detail = detail


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


def _stopped(pid: int) -> bool:
    """True if ``pid`` is stopped, a zombie, or gone (``/proc/<pid>/stat``)."""
    try:
        state = procfs.stat_fields(pid)[0]
    except (OSError, IndexError):
        return True
    return state in (b"T", b"t", b"Z", b"X")


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
        """Matches this process has started (more than 1: reused, see referee.process.pool)."""
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
        if is_human(spec.argv):  # a person's seat: loopback and a browser, no sandbox
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
        joins_first = group  # the group the first process joins before anything runs
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
            data = os.fsencode("".join(arg + "\0" for arg in options))
            options_fd = _pipe_with(data, passed)
            # Limits first, as root where the referee is: the program is then run by
            # setpriv, dropping to the bot's uid, exactly as without limits.
            inner = [*(prefix or []), *bwrap[cut + 1 :], *spec.wrapper, *spec.argv]
            if group is not None and group.joins_inside():
                # The bot joins its group inside the sandbox, before anything of its
                # own runs, while the kernel's wait for the move started at spawn
                # (cgroups.warm_up) passes during bubblewrap's set-up.
                try:
                    procs_fd = group.open_procs()
                except OSError as exc:
                    for fd in passed:
                        os.close(fd)
                    raise undo(str(exc)) from None
                passed.append(procs_fd)
                inner = [*group.inner_prefix(procs_fd), *inner]
                joins_first = None
            argv = [bwrap[0], "--args", str(options_fd), "--", *inner]
        # Outermost, so the sandbox's own processes have them too.
        argv = [*(joins_first.prefix() if joins_first else []), *oom_prefix(), *argv]
        if group is not None and joins_first is None:
            warm_up()
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
        mismatched message).  The same as :meth:`send` then :meth:`reply`.
        """
        return await self.reply(self.send(message, timeout_s))

    def send(self, message: Start | Act, timeout_s: float) -> Sent:
        """Write ``message`` (the first half of :meth:`request`), its answer due within
        ``timeout_s`` seconds; :meth:`reply` or :meth:`take_reply` reads it.  Raises
        :class:`BotFault` (``crash``, or the fault that ended the bot's output)."""
        if self._eof is not None:
            raise self._eof_fault()
        act_id = message.id if isinstance(message, Act) else None
        data = encode(message)
        start = time.perf_counter()
        deadline = self._loop.time() + timeout_s
        return Sent(act_id, start, deadline, timeout_s, self._write(data))

    async def reply(self, sent: Sent) -> tuple[Any, float]:
        """Wait for the answer to ``sent`` (the second half of :meth:`request`, which
        says what is skipped and what is raised)."""
        act_id, deadline = sent.act_id, sent.deadline
        stdout = self._pipes.stdout
        try:
            if sent.drain:
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
            detail = f"no reply within {sent.timeout_s * 1000:.0f} ms"
            if self.stats.last_ignored:
                detail += f" (its last ignored stdout line: {self.stats.last_ignored!r})"
            raise BotFault("timeout", detail) from None
        return reply, (time.perf_counter() - sent.start) * 1000.0

    def take_reply(self, sent: Sent) -> tuple[ActionReply, float] | None:
        """The answer to the act ``sent`` if it is already here and plainly one: the
        next whole line is a well-formed ``action`` reply with the act's ``id``.  It
        is then taken from the buffer, and returned with the elapsed ms as
        :meth:`reply` measures them.  Otherwise ``None``, and nothing is taken: no
        whole line yet, or a line whose fate :meth:`reply`'s rules decide (text, a
        late reply, a malformed message, an oversized line, the end of output)."""
        stdout = self._pipes.stdout
        line = stdout.peek()
        if line is None or sent.drain or not _is_message(line):
            return None
        try:
            reply = decode_bot_line(line)
        except Exception:  # reply() gives the verdict
            return None
        if not isinstance(reply, ActionReply) or reply.id != sent.act_id:
            return None
        stdout.skip(len(line))
        return reply, (time.perf_counter() - sent.start) * 1000.0

    def quiet(self, sent: Sent) -> bool:
        """True while nothing of the answer to ``sent`` needs judging: no line, end of
        output or overrun is here, its input is drained, and its deadline (event loop
        time) has not passed."""
        return not (
            sent.drain or self._pipes.stdout.pending() or self._loop.time() >= sent.deadline
        )

    def listen(self, listener: Callable[[], None] | None, deadline: float = 0.0) -> None:
        """Call ``listener`` from the event loop's callback, with no task woken, when a
        line of output completes, output ends, or ``deadline`` (event loop time)
        passes; ``None`` stops it.  :meth:`take_reply` and :meth:`quiet` then say what
        came."""
        stdout = self._pipes.stdout
        stdout.listener = listener
        if listener is not None:
            stdout.expect(deadline)

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
        return await self.act_reply(self.send(act, timeout_s))

    async def act_reply(self, sent: Sent) -> tuple[ActionReply, float]:
        """The ``action`` reply to the act ``sent`` and elapsed ms (:meth:`reply`);
        raises :class:`BotFault` (``protocol``) for any other message."""
        reply, elapsed = await self.reply(sent)
        if not isinstance(reply, ActionReply):
            raise BotFault("protocol", f"expected an action message, got {type(reply).__name__}")
        return reply, elapsed

    async def tell(self, end: End) -> None:
        """Send a message that needs no answer (``end``); errors are ignored, and a bot
        that leaves its input full gets at most ``exit_grace_s`` for it to drain
        (:meth:`post`, then :meth:`flush` if needed)."""
        if self.post(end):
            await self.flush()

    def post(self, end: End) -> bool:
        """Write a message that needs no answer (``end``) without waiting: True if part
        of it waits for the bot to read its input (:meth:`flush` then).  Errors are
        ignored (False: nothing more can be written)."""
        try:
            return self._write(encode(end))
        except BotFault:
            return False

    async def flush(self) -> None:
        """Wait at most ``exit_grace_s`` for the bot to read what waits of its input;
        errors (the bot gone, the time up) are ignored."""
        deadline = self._loop.time() + self.limits.exit_grace_s
        with contextlib.suppress(BotFault, TimeoutError):
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

    # -- idle between matches (referee.process.pool) ------------------------------------------

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
            todo.extend(procfs.children(pid))

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
        of its match are on move (:mod:`referee.process.turns`), so that nothing it left
        running (a pondering thread, a child) takes CPU from the bots that are
        thinking.  :attr:`frozen` is set first, so :meth:`thaw` also undoes a freeze
        cancelled half-way.  Raises :class:`BotFault` (``crash``) when the bot is
        found running more than ``limits.max_processes`` processes (a fork bomb); the
        process is then no longer :meth:`reusable`, and :meth:`close` kills it
        without letting it run again.

        Where the bot has a cgroup with a freezer (:mod:`referee.process.isolation.cgroups`), one
        write
        freezes all its processes, those it starts meanwhile included, and no tracer
        of its own can undo it; the processes are then counted with one read of the
        group.  Elsewhere each process gets a SIGSTOP: each pass stops the
        processes found, waits until they are stopped (a stopped process can start
        no other), and reads the tree again, until no new process appears; a tree
        found to hold too many processes is not read further (that could take
        seconds)."""
        if is_human(self.spec.argv):
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
