"""One worker dispatcher for the jobs of ``tournament`` (matches) and ``regress``
(duplicate blocks): :func:`dispatch` plays jobs in this process, in a pool of local
worker processes, or on a given executor (a Dask cluster), and yields their results.

Where the jobs run:

* ``concurrency`` 1 and no executor: one after the other in this process (bound to
  one core with its bots when ``affinity``, see
  :mod:`referee.process.isolation.affinity`); the process's lasting bot pool is
  closed at the end (:func:`referee.process.pool.close_process_pool`);
* otherwise a pool of ``concurrency`` worker processes of our own
  (:func:`referee.process.pool.worker_init`: each dies with the referee, ignores
  Ctrl-C, and is bound to its own core when ``affinity``), or the given
  ``executor``, which the caller owns and shuts down.

At most ``window`` jobs are submitted ahead (``None``: all at once); results come in
job order with ``ordered`` (regress feeds its sequential test in block order), else
as they finish.

A worker that dies (killed from outside, out of memory) breaks the process pool:
:func:`dispatch` then raises :class:`WorkerDied`, which names the kind of job, and ends
the other workers; the results already yielded stay valid.  ``tournament`` turns it
into an error that says finished matches are saved and how to resume (exit 2);
``regress`` into a stop with status ``fault`` (exit 3), its message in the summary.

When the caller stops early, by Ctrl-C (a ``KeyboardInterrupt`` inside the
dispatcher or in the caller's own code between two results, which closes the
generator), an exception, or because it has what it needs (a decided SPRT): queued
jobs are cancelled and the running ones are ended at once by terminating our
workers, whose bots die with them, rather than waited for.  Nothing is half-written
by that: a match's record stays a ``.part`` file until the match is finished
(:class:`referee.match.record.RecordWriter`), and results reach the database or the
test only through the caller, which got none for those jobs.  The commands then exit
with 130 on Ctrl-C (:class:`referee.cli.main.RefereeGroup`).  A caller's executor
only has its queued jobs cancelled; its shutdown is the caller's.
"""

from __future__ import annotations

import collections
import concurrent.futures
import itertools
import multiprocessing
from collections.abc import Callable, Generator, Iterable
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from referee.errors import RefereeError
from referee.process.isolation.affinity import CoreDealer, pinned
from referee.process.pool import close_process_pool, worker_init

J = TypeVar("J")
R = TypeVar("R")


class WorkerDied(RefereeError):
    """A worker process died while playing a job (its pool is broken); the message
    names the kind of job (``"a worker process died while playing a match ..."``)."""


def dispatch(
    play: Callable[[J], R],
    jobs: Iterable[J],
    *,
    concurrency: int = 1,
    executor: concurrent.futures.Executor | None = None,
    affinity: bool = False,
    ordered: bool = False,
    window: int | None = None,
    noun: str = "match",
) -> Generator[R, None, None]:
    """Yield ``play(job)`` for every job of ``jobs`` (see the module docstring for
    where they run, in which order, and what a dead worker or Ctrl-C does).

    ``play`` must be picklable (a module-level function) unless the jobs run here.
    ``jobs`` is read lazily, ``window`` jobs ahead (``None``: all at once).  ``noun``
    names a job in :class:`WorkerDied`'s message.  Raises :class:`WorkerDied` when a
    worker process dies, and what ``play`` raises.
    """
    if executor is None and concurrency <= 1:
        try:
            with pinned(affinity):
                for job in jobs:
                    yield play(job)
        finally:
            close_process_pool()
        return
    own = executor is None
    pool = executor or concurrent.futures.ProcessPoolExecutor(
        max_workers=concurrency,
        initializer=worker_init,
        initargs=(CoreDealer() if affinity else None,),
    )
    queue = iter(jobs)
    pending: collections.deque[concurrent.futures.Future[R]] = collections.deque()

    def fill() -> None:
        room = None if window is None else max(window - len(pending), 0)
        try:
            pending.extend(pool.submit(play, job) for job in itertools.islice(queue, room))
        except BrokenProcessPool:  # a worker died after the last result was taken
            raise _died(noun) from None

    try:
        fill()
        while pending:
            if ordered:
                finished = [pending.popleft()]
            else:
                done, _ = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED
                )
                finished = [f for f in pending if f in done]
                for future in finished:
                    pending.remove(future)
            for future in finished:
                yield _result(future, noun)
            fill()
    except BaseException:
        if own:
            # Ctrl-C, a dead worker, or the caller stopped: end the running jobs now
            # (their bots die with their worker) rather than wait for them.
            for worker in multiprocessing.active_children():
                worker.terminate()
        raise
    finally:
        for future in pending:
            future.cancel()
        if own:
            pool.shutdown(wait=True, cancel_futures=True)


def _result(future: concurrent.futures.Future[R], noun: str) -> R:
    """The result of ``future``; raises :class:`WorkerDied` if its worker died."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise _died(noun) from None


def _died(noun: str) -> WorkerDied:
    """The error for a worker process that died while playing a ``noun``."""
    return WorkerDied(f"a worker process died while playing a {noun} (killed from outside?)")
