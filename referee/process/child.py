"""A child process started with :class:`subprocess.Popen` whose exit the running event
loop watches, on any loop (asyncio's own or uvloop).

Why not ``asyncio.create_subprocess_exec``: under uvloop it starts children through
libuv, which forks the whole referee (``benchmarks/startup.py`` measured 0.6 ms more
referee CPU and 1.1 ms more child CPU per bot than ``Popen``, which uses ``vfork``
when it can), and the referee attaches the child's pipes to the loop itself anyway
(:class:`referee.process.lines._Pipes`).  Here the child is started by ``Popen`` and its exit is
seen through a pidfd (Linux 5.3 and later) that the loop watches like any other file
descriptor; elsewhere :meth:`Child.wait` polls every few milliseconds.

The exit status is collected by ``Popen`` itself (``poll``), so it is never taken
from under it; :attr:`Child.returncode` follows ``Popen``'s convention: the exit
code, or minus the signal that killed the child.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import Callable, Mapping, Sequence

POLL_S = 0.005
"""Between two looks at a child's status where there is no pidfd (seconds)."""


class Child:
    """A started child process (see the module docstring).  ``pid`` is its process id."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self._popen = popen
        self.pid = popen.pid
        self._pidfd = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self._exited: asyncio.Future[None] | None = None
        if hasattr(os, "pidfd_open"):
            with contextlib.suppress(OSError):  # an old kernel: poll instead
                self._pidfd = os.pidfd_open(self.pid)

    @classmethod
    def start(
        cls,
        argv: Sequence[str],
        *,
        stdin: int,
        stdout: int,
        stderr: int,
        cwd: str,
        env: Mapping[str, str],
        pass_fds: Sequence[int] = (),
        preexec_fn: Callable[[], None] | None = None,
    ) -> Child:
        """Start ``argv`` in a new session with the given standard file descriptors
        (which stay open here: the caller closes them) and no other descriptor than
        ``pass_fds``.  Raises :class:`OSError` if it cannot be executed."""
        popen = subprocess.Popen(
            list(argv),
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            close_fds=True,
            pass_fds=tuple(pass_fds),
            preexec_fn=preexec_fn,
        )
        return cls(popen)

    @property
    def returncode(self) -> int | None:
        """The exit code, minus the signal that killed it, or ``None`` while it runs
        (looked up without waiting)."""
        return self._popen.poll()

    async def wait(self) -> int:
        """Wait for the child to exit and return :attr:`returncode`.  Any number of
        tasks may wait at once; cancelling a wait leaves the child running."""
        while (code := self._popen.poll()) is None:
            if self._pidfd < 0:
                await asyncio.sleep(POLL_S)
                continue
            if self._exited is None or self._exited.done():
                self._loop = asyncio.get_running_loop()
                self._exited = self._loop.create_future()
                self._loop.add_reader(self._pidfd, self._on_exit)
            await asyncio.shield(self._exited)
        self._close_pidfd()
        return code

    def _on_exit(self) -> None:
        self._unwatch()
        if self._exited is not None and not self._exited.done():
            self._exited.set_result(None)

    def _unwatch(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(self._pidfd)

    def _close_pidfd(self) -> None:
        if self._pidfd >= 0:
            self._unwatch()
            fd, self._pidfd = self._pidfd, -1
            os.close(fd)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._close_pidfd()
