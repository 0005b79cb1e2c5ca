"""One bot process, driven over JSON Lines with asyncio.

:class:`BotProcess` starts a bot command in its own process group (new session) with
a scrubbed environment and its own empty working directory, reads its stdout line by
line with a hard cap on line length (the referee never buffers more than the cap),
copies its stderr to a log file up to a cap, and sends requests with a deadline.
:meth:`BotProcess.close` ends it: close stdin, wait a grace period, TERM the process
group, KILL it, reap.

Errors are typed: :class:`BotFault` carries the protocol verdict
(``timeout``, ``crash``, ``protocol``).
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import reaper
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

MIB = 1024 * 1024

PYTHON_ALIASES = frozenset({"python", "python3", f"python3.{sys.version_info.minor}"})


class BotCommandError(ValueError):
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
    bot process and inherited by its children (``None`` = no limit).
    """

    max_line_bytes: int = MIB
    max_stderr_bytes: int = MIB
    exit_grace_s: float = 1.0
    term_grace_s: float = 0.5
    cpu_s: int | None = None
    memory_mb: int | None = None
    open_files: int | None = None

    def preexec(self) -> Callable[[], None]:
        """The function run in the child before exec: parent-death signal and limits."""
        pairs = [
            (resource.RLIMIT_CPU, self.cpu_s),
            (resource.RLIMIT_AS, None if self.memory_mb is None else self.memory_mb * MIB),
            (resource.RLIMIT_NOFILE, self.open_files),
        ]
        chosen = [(which, value) for which, value in pairs if value is not None]

        def apply() -> None:
            # Die with the referee, even if it is SIGKILLed (Linux).
            reaper.die_with_parent()
            for which, value in chosen:
                resource.setrlimit(which, (value, value))

        return apply


@dataclass
class BotSpec:
    """A bot to run: display name, argv (already resolved), and an optional wrapper.

    ``wrapper`` is an argv prefix such as ``["bwrap", "--ro-bind", "/", "/", "--"]``
    or ``["firejail", "--quiet"]`` that sandboxes the bot; ``command`` is the text
    shown in records (defaults to the joined argv).
    """

    name: str
    argv: list[str]
    command: str = ""
    wrapper: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.command:
            self.command = shlex.join(self.argv)


def resolve_command(command: str, base_dir: str | os.PathLike[str] = ".") -> list[str]:
    """Split ``command`` like a shell (without running one) and make it runnable anywhere.

    ``python``/``python3`` as the program mean the referee's own interpreter (so bots
    can import the ``referee`` package); arguments that name existing files relative
    to ``base_dir`` become absolute, since a bot runs in its own working directory.
    Raises :class:`BotCommandError` if the command is empty or the program is not found.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BotCommandError(f"cannot parse bot command {command!r}: {exc}") from None
    if not argv:
        raise BotCommandError("empty bot command")
    base = Path(base_dir)
    if argv[0] in PYTHON_ALIASES:
        argv[0] = sys.executable
    resolved = []
    for i, arg in enumerate(argv):
        candidate = base / arg
        if not os.path.isabs(arg) and ("/" in arg or i == 0) and candidate.exists():
            arg = str(candidate.resolve())
        resolved.append(arg)
    program = resolved[0]
    if os.path.sep in program:
        if not os.access(program, os.X_OK) or os.path.isdir(program):
            raise BotCommandError(f"bot program not found or not executable: {program}")
    elif shutil.which(program) is None:
        raise BotCommandError(f"bot program not found on PATH: {program}")
    return resolved


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
    """Counters for one bot over one match."""

    unsolicited_lines: int = 0
    stderr_bytes: int = 0
    stderr_dropped: int = 0
    move_ms: list[float] = field(default_factory=list)


class BotProcess:
    """A running bot.  Create with :meth:`spawn`; always :meth:`close` it.

    ``stderr_path`` receives the bot's stderr (capped).  Methods that wait for the
    bot raise :class:`BotFault`.
    """

    def __init__(
        self,
        spec: BotSpec,
        process: asyncio.subprocess.Process,
        workdir: str,
        stderr_path: Path | None,
        limits: BotLimits,
        token: str,
    ) -> None:
        self.spec = spec
        self.token = token
        self.process = process
        self.pid = process.pid
        self.workdir = workdir
        self.limits = limits
        self.stats = BotStats()
        self.ready: Ready | None = None
        self._pending: asyncio.Future[bytes] | None = None
        self._eof: tuple[Verdict, str] | None = None
        self._stderr_path = stderr_path
        self._reader = asyncio.create_task(self._read_stdout())
        self._stderr_task = asyncio.create_task(self._read_stderr())
        self._closed = False

    @classmethod
    async def spawn(
        cls,
        spec: BotSpec,
        *,
        stderr_path: Path | None = None,
        limits: BotLimits | None = None,
    ) -> BotProcess:
        """Start the bot process.  Raises :class:`BotFault` (``crash``) if exec fails."""
        limits = limits or BotLimits()
        reaper.enable_subreaper()
        workdir = tempfile.mkdtemp(prefix="referee-bot-")
        token = reaper.new_token()
        try:
            process = await asyncio.create_subprocess_exec(
                *spec.wrapper,
                *spec.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=workdir,
                env=scrubbed_environment(workdir, token),
                start_new_session=True,
                limit=limits.max_line_bytes + 1,
                preexec_fn=limits.preexec(),
            )
        except OSError as exc:
            reaper.retire(token)
            shutil.rmtree(workdir, ignore_errors=True)
            raise BotFault("crash", f"cannot start {spec.command!r}: {exc.strerror}") from None
        reaper.adopt(process.pid)
        return cls(spec, process, workdir, stderr_path, limits, token)

    # -- reading -----------------------------------------------------------------

    async def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                try:
                    line = await stream.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    self._set_eof("closed its output" + (" mid-line" if exc.partial else ""))
                    return
                except asyncio.LimitOverrunError:
                    self._set_eof(
                        f"sent a line longer than {self.limits.max_line_bytes} bytes",
                        "protocol",
                    )
                    return
                pending = self._pending
                if pending is not None and not pending.done():
                    pending.set_result(line)
                else:
                    self.stats.unsolicited_lines += 1
        except (ConnectionError, OSError) as exc:
            self._set_eof(f"output failed: {exc}")

    def _set_eof(self, why: str, verdict: Verdict = "crash") -> None:
        self._eof = (verdict, why)
        pending = self._pending
        if pending is not None and not pending.done():
            pending.set_exception(self._eof_fault())

    def _eof_fault(self) -> BotFault:
        assert self._eof is not None
        verdict, detail = self._eof
        code = self.process.returncode
        if code is not None and verdict == "crash":
            detail += f" (exit code {code})"
        return BotFault(verdict, detail)

    async def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        cap = self.limits.max_stderr_bytes
        out = open(self._stderr_path, "wb") if self._stderr_path else None  # noqa: SIM115
        try:
            while chunk := await stream.read(65536):
                room = cap - self.stats.stderr_bytes
                kept = chunk[: max(room, 0)]
                self.stats.stderr_bytes += len(kept)
                self.stats.stderr_dropped += len(chunk) - len(kept)
                if out is not None and kept:
                    out.write(kept)
        except (ConnectionError, OSError):
            pass
        finally:
            if out is not None:
                if self.stats.stderr_dropped:
                    out.write(f"\n[referee: {self.stats.stderr_dropped} bytes dropped]\n".encode())
                out.close()

    # -- requests ----------------------------------------------------------------

    async def _send(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            await stdin.drain()
        except (ConnectionError, OSError):
            raise BotFault("crash", "its input is closed (the bot exited)") from None

    async def request(self, message: Start | Act, timeout_s: float) -> tuple[Any, float]:
        """Send ``message`` and wait for one reply line for at most ``timeout_s`` seconds.

        Returns ``(decoded reply, elapsed ms)``, elapsed measured from the write to the
        reply's newline.  Raises :class:`BotFault`: ``timeout``, ``crash`` (EOF or
        exit), ``protocol`` (oversized or malformed line).
        """
        if self._eof is not None:
            raise self._eof_fault()
        loop = asyncio.get_running_loop()
        self._pending = loop.create_future()
        start = time.perf_counter()
        try:
            await self._send(encode(message))
            line = await asyncio.wait_for(asyncio.shield(self._pending), timeout_s)
        except TimeoutError:
            raise BotFault("timeout", f"no reply within {timeout_s * 1000:.0f} ms") from None
        finally:
            self._pending = None
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        try:
            reply = decode_bot_line(line)
        except ProtocolViolation as exc:
            raise BotFault("protocol", str(exc)) from None
        return reply, elapsed_ms

    async def handshake(self, start: Start, startup_ms: int) -> Ready:
        """Send ``start`` and wait for ``ready``; any failure is a ``startup`` fault."""
        try:
            reply, _ = await self.request(start, startup_ms / 1000.0)
        except BotFault as fault:
            raise BotFault("startup", fault.detail) from None
        if not isinstance(reply, Ready):
            raise BotFault("startup", "answered start with something other than ready")
        self.ready = reply
        return reply

    async def act(self, act: Act, timeout_s: float) -> tuple[ActionReply, float]:
        """Send ``act``; return the ``action`` reply and elapsed ms.  Checks the ``id``."""
        reply, elapsed = await self.request(act, timeout_s)
        if not isinstance(reply, ActionReply):
            raise BotFault("protocol", f"expected an action message, got {type(reply).__name__}")
        if reply.id != act.id:
            raise BotFault("protocol", f"reply id {reply.id} does not match request id {act.id}")
        return reply, elapsed

    async def tell(self, end: End) -> None:
        """Send a message that needs no answer (``end``); errors are ignored."""
        with contextlib.suppress(BotFault):
            await self._send(encode(end))

    # -- shutdown ----------------------------------------------------------------

    async def close(self, *, graceful: bool = True) -> int | None:
        """End the bot and its whole process group; reap it; remove its workdir.

        With ``graceful`` the bot gets ``exit_grace_s`` after its stdin is closed to
        exit by itself.  Returns the exit code (negative: killed by that signal).
        """
        if self._closed:
            return self.process.returncode
        self._closed = True
        stdin = self.process.stdin
        if stdin is not None:
            with contextlib.suppress(Exception):
                stdin.close()
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
        # Processes that left the group (double fork, setsid) still carry the marker.
        reaper.retire(self.token)
        reaper.kill_marked(self.token)
        reaper.kill_orphans()
        for task in (self._reader, self._stderr_task):
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(task, 1.0)
        shutil.rmtree(self.workdir, ignore_errors=True)
        return code

    def _signal_group(self, sig: int) -> None:
        # The group outlives its leader if children remain, so signal it regardless.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)


async def spawn_all(
    specs: Sequence[BotSpec], stderr_dir: Path | None, limits: BotLimits
) -> list[BotProcess | BotFault]:
    """Spawn every bot concurrently; failures come back as :class:`BotFault` values."""

    async def one(seat: int, spec: BotSpec) -> BotProcess | BotFault:
        path = stderr_dir / f"seat{seat}.stderr.log" if stderr_dir else None
        try:
            return await BotProcess.spawn(spec, stderr_path=path, limits=limits)
        except BotFault as fault:
            return fault

    return list(await asyncio.gather(*(one(i, s) for i, s in enumerate(specs))))
