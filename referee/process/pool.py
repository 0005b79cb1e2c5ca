"""Idle bot processes kept between matches, so a tournament does not pay a bot's
start-up for every match (process reuse; docs/protocol.md, "Reuse").

A :class:`BotPool` belongs to one event loop in one process (a tournament worker, or
the referee itself at concurrency 1).  After a match, :func:`referee.match.match.run_match`
hands back every bot that may be reused (:meth:`BotProcess.reusable`: it announced
``"reuse": true`` in ``ready``, finished the match with verdict ``ok`` and is still
running); the next match of the same entrant takes one instead of spawning.

Rules the pool enforces:

* a process serves one entrant only: the key is the entrant's name, command,
  wrapper, limits and sandbox policy;
* a process never plays two matches of the same duplicate block: every rotation of
  a block is played on the same seed, so a process that remembered one rotation
  would know the next one's dice and draws.  Each match carries a *tag* (its block)
  and a process that has played a tag is never handed out for it again;
* a process that faulted, timed out, crashed or said nothing of reuse is closed as
  before, never pooled;
* at most ``max_idle`` processes wait; the least recently used is closed first;
* a process that waits longer than ``freeze_after_s`` (20 ms by default) is stopped
  (SIGSTOP, with everything it started) and continued when it is handed a match, so
  nothing a bot leaves running between matches takes CPU from the matches being
  played.  A process taken again at once (the next match of the same entrants, the
  common case at concurrency 1) is never stopped: stopping and continuing a bot's
  process tree costs the referee 0.1-0.7 ms of CPU (``python -m
  benchmarks.turn_guard``), several microseconds per move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.util
import signal
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, TypeVar

from referee.process import loop as event_loop
from referee.process.bot import BotProcess
from referee.process.isolation import reaper
from referee.process.isolation.affinity import CoreDealer
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.spec import BotLimits, BotSpec

PoolKey = tuple[Hashable, ...]
T = TypeVar("T")

#: Seconds a reusable process waits in the pool before it is stopped (SIGSTOP).
FREEZE_AFTER_S = 0.02


def pool_key(spec: BotSpec, limits: BotLimits, policy: SandboxPolicy) -> PoolKey:
    """The identity of an entrant's processes: two specs share idle processes only if
    everything that shapes the process is equal."""
    return (
        spec.name,
        tuple(spec.argv),
        tuple(spec.wrapper),
        tuple(sorted(vars(limits).items())),
        policy.mode,
        policy.network,
        tuple(sorted(policy.hidden)),
    )


class BotPool:
    """Idle, reusable bot processes of one event loop (see the module docstring).

    ``max_idle``: how many processes may wait at once (memory: a Python bot is
    typically 20-30 MB).  ``freeze_after_s``: how long (seconds of event loop time) a
    process waits before it is stopped.  Counters ``spawned``/``reused`` are for
    reports and benchmarks.  Raises :class:`ValueError` for a negative argument.
    """

    def __init__(self, max_idle: int = 48, freeze_after_s: float = FREEZE_AFTER_S) -> None:
        if max_idle < 0:
            raise ValueError(f"max_idle must be >= 0, not {max_idle}")
        if freeze_after_s < 0:
            raise ValueError(f"freeze_after_s must be >= 0, not {freeze_after_s}")
        self.max_idle = max_idle
        self.freeze_after_s = freeze_after_s
        self._idle: OrderedDict[int, tuple[PoolKey, BotProcess]] = OrderedDict()
        # The pending stop of each waiting process: its timer, then its freeze task.
        self._freezing: dict[int, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self.spawned = 0
        self.reused = 0

    def __len__(self) -> int:
        return len(self._idle)

    def idle(self) -> list[BotProcess]:
        """The waiting processes, least recently used first (for reports and tests)."""
        return [proc for _, proc in self._idle.values()]

    def take(self, key: PoolKey, tag: str) -> BotProcess | None:
        """An idle process of ``key`` that has never played ``tag``, removed from the
        pool (most recently used first), or ``None``.  Dead processes found on the
        way are left for :meth:`prune`."""
        for pid in reversed(self._idle):
            proc_key, proc = self._idle[pid]
            if proc_key == key and tag not in proc.blocks and proc.reusable():
                del self._idle[pid]
                self._unschedule(pid)
                self.reused += 1
                proc.thaw()
                return proc
        return None

    async def give_back(self, key: PoolKey, proc: BotProcess) -> None:
        """Keep ``proc`` for a later match of ``key`` if it is reusable and there is
        room (else close it, or close the least recently used idle process)."""
        await close_all(self.keep(key, proc))

    def keep(self, key: PoolKey, proc: BotProcess) -> list[BotProcess]:
        """What :meth:`give_back` does without waiting: ``proc`` joins the idle ones
        if it is reusable (and the pool keeps any), and the processes to close are
        returned, no longer in the pool: ``proc`` itself if it is not kept, and those
        :meth:`prune` would close.  A match hands back its bots with no task when
        nothing is to be closed."""
        if self.max_idle == 0 or not proc.reusable():
            return [proc]
        self._idle[proc.pid] = (key, proc)
        self._freezing[proc.pid] = asyncio.get_running_loop().call_later(
            self.freeze_after_s, self._freeze, proc
        )
        return self._doomed()

    def _freeze(self, proc: BotProcess) -> None:
        """Start stopping ``proc`` (the timer of :meth:`give_back` ran out)."""
        task = asyncio.get_running_loop().create_task(proc.freeze())
        self._freezing[proc.pid] = task
        task.add_done_callback(lambda done: self._frozen(proc.pid, done))

    def _frozen(self, pid: int, task: asyncio.Task[None]) -> None:
        if self._freezing.get(pid) is task:
            del self._freezing[pid]
        if not task.cancelled():
            task.exception()  # freeze() suppresses what a vanished process raises

    def _unschedule(self, pid: int) -> None:
        """Cancel the pending or running stop of process ``pid`` (a freeze cancelled
        half-way is undone by :meth:`BotProcess.thaw`)."""
        pending = self._freezing.pop(pid, None)
        if pending is not None:
            pending.cancel()

    async def prune(self) -> None:
        """Close idle processes that died, then the oldest ones over ``max_idle``."""
        await close_all(self._doomed())

    def _doomed(self) -> list[BotProcess]:
        """Take out of the pool, and return, the idle processes that died and then the
        oldest ones over ``max_idle`` (:meth:`prune` closes them)."""
        doomed = [pid for pid, (_, proc) in self._idle.items() if not proc.reusable()]
        while len(self._idle) - len(doomed) > self.max_idle:
            oldest = next(pid for pid in self._idle if pid not in doomed)
            doomed.append(oldest)
        for pid in doomed:
            self._unschedule(pid)
        return [self._idle.pop(pid)[1] for pid in doomed]

    async def close(self) -> None:
        """Close every idle process (stdin closed, then TERM, KILL; workdirs removed)."""
        for pid in list(self._freezing):
            self._unschedule(pid)
        procs = [proc for _, proc in self._idle.values()]
        self._idle.clear()
        await close_all(procs)


async def close_all(procs: list[BotProcess], graceful: bool = True) -> None:
    """Close ``procs`` together (:meth:`BotProcess.close`), their errors ignored; no
    task at all for an empty list."""
    if procs:
        await asyncio.gather(*(p.close(graceful=graceful) for p in procs), return_exceptions=True)


# -- one lasting loop and pool per process (tournament and regress workers) -------

_runner: asyncio.Runner | None = None
_pool: BotPool | None = None


def process_pool() -> tuple[asyncio.Runner, BotPool]:
    """This process's event loop and bot pool, kept from one match to the next (a bot
    process belongs to the loop that spawned it).  Created on first use; in a
    multiprocessing worker they are closed when the worker exits normally (a worker
    that is killed takes its bots with it: they die with their parent)."""
    global _runner, _pool
    if _runner is None or _pool is None:
        _runner, _pool = event_loop.runner(), BotPool()
        if multiprocessing.parent_process() is not None:
            multiprocessing.util.Finalize(None, close_process_pool, exitpriority=10)
    return _runner, _pool


def run_here(play: Callable[[BotPool | None], Coroutine[Any, Any, T]], reuse: bool) -> T:
    """Run ``play(pool)`` to completion in this process: with ``reuse``, in the
    process's lasting loop with its bot pool (:func:`process_pool`); otherwise in a
    fresh event loop with no pool.  The entry point of tournament and regress jobs."""
    if not reuse:
        return event_loop.run(play(None))
    runner, pool = process_pool()
    return runner.run(play(pool))


def close_process_pool() -> None:
    """Close this process's idle bots and its lasting event loop (no-op if none)."""
    global _runner, _pool
    runner, pool, _runner, _pool = _runner, _pool, None, None
    if runner is not None:
        try:
            if pool is not None:
                runner.run(pool.close())
        finally:
            runner.close()


def worker_init(cores: CoreDealer | None = None) -> None:
    """Start of a pool worker process: die with the referee (even by SIGKILL; the
    worker's bots die with it), leave Ctrl-C to the referee, which ends the workers
    itself (a KeyboardInterrupt between two jobs would otherwise break the pool
    mid-shutdown), and, given ``cores``, bind to the next core it deals (see
    :mod:`referee.process.isolation.affinity`)."""
    reaper.die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if cores is not None:
        cores.deal()
