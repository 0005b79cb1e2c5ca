"""Pinning matches to CPU cores (``affinity`` in tournaments and ``regress``).

With affinity on, every process that plays matches is bound to one core of those
the referee may use: worker *i* of a run gets core ``i mod n``, and a run at
concurrency 1 binds the referee itself for the run's duration.  Unset, affinity is
*automatic* (:func:`wanted`): on when the run has at least as many workers as
cores, where one core is each match's share anyway, off otherwise, so a run at
low concurrency leaves a multi-threaded bot all the cores.  The bots a
worker starts inherit its core (the kernel copies a process's affinity into its
children, through the sandbox too), so a match's referee and bots share one core.

Why: a bot and its referee take turns (request, think, reply), so one core is all
a match of single-threaded bots can use; bound to its own core, a match's thinking
time no longer depends on where the scheduler moves it among the other matches'
processes, and each request-reply round trip stays on one core (on virtual
machines a wake-up across cores costs several times one on the same core; see
``benchmarks/overhead.py``).  Bots that think on several threads lose those
threads' parallelism: leave affinity off for them.

Under the sandbox a bot cannot change its affinity back: a seccomp filter makes
``sched_setaffinity`` fail (:func:`referee.process.isolation.sandbox.bot_filter`).  Without the
sandbox it can (the call needs no privilege for one's own threads), and binding is
then a measure for speed and even clocks only.  Where the platform lacks
``os.sched_setaffinity``, affinity is ignored with one warning on stderr.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

_warned: set[str] = set()


def usable_cores() -> list[int]:
    """The cores this process may run on, ascending (``[]`` where the platform cannot
    bind processes to cores)."""
    if not hasattr(os, "sched_getaffinity") or not hasattr(os, "sched_setaffinity"):
        return []
    return sorted(os.sched_getaffinity(0))


def _warn(why: str) -> None:
    """One warning per reason and process: affinity is ignored because ``why``."""
    if why not in _warned:
        _warned.add(why)
        print(f"referee: warning: {why}; affinity is ignored", file=sys.stderr)


def _try_pin(core: int) -> bool:
    try:
        pin(core)
    except OSError as exc:  # the core went offline, or a cpuset changed meanwhile
        _warn(f"cannot bind to core {core} ({exc.strerror})")
        return False
    return True


def wanted(affinity: bool | None, concurrency: int) -> bool:
    """Whether to bind: ``affinity`` when set; unset (automatic), when
    ``concurrency`` is at least 2 and at least the number of usable cores."""
    if affinity is not None:
        return affinity
    cores = usable_cores()
    return bool(cores) and concurrency >= max(2, len(cores))


def pin(core: int) -> None:
    """Bind the calling process (and the processes it starts from now on) to
    ``core``.  Raises :class:`OSError` if the core is not usable."""
    os.sched_setaffinity(0, {core})


@contextlib.contextmanager
def pinned(on: bool) -> Iterator[None]:
    """With ``on``, bind the calling process to its first usable core for the block,
    then restore the cores it had; otherwise do nothing."""
    if not on:
        yield
        return
    cores = usable_cores()
    if not cores:
        _warn("this platform cannot bind processes to cores")
        yield
        return
    bound = _try_pin(cores[0])
    try:
        yield
    finally:
        if bound:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, cores)


class CoreDealer:
    """Deals the usable cores to worker processes in turn: the first worker to ask
    gets the first core, and so on, round and round.  Made in the parent before the
    workers start and handed to them through the pool's initializer arguments
    (it holds a shared counter)."""

    def __init__(self, cores: Sequence[int] | None = None) -> None:
        self.cores = tuple(usable_cores() if cores is None else cores)
        self._next: Any = multiprocessing.Value("i", 0)

    def deal(self) -> int | None:
        """Bind the calling process to the next core; returns it (``None``, with a
        warning, where the platform or that core cannot be bound)."""
        if not self.cores:
            _warn("this platform cannot bind processes to cores")
            return None
        with self._next.get_lock():
            turn = self._next.value
            self._next.value = turn + 1
        core = self.cores[turn % len(self.cores)]
        return core if _try_pin(core) else None
