"""Durable, resumable tournaments.

A run directory holds::

    manifest.json        config, schedule and tournament secret
    results.sqlite       one row per finished match (see referee.tournament.resultsdb)
    records/<id>.jsonl   the game record of every finished match
    logs/<id>/seat<k>.stderr.log
    run.lock             held by the referee playing the run (see referee.tournament.rundir)

The directory is 0700 and every file in it 0600 (see :mod:`referee.tournament.rundir`).

The schedule is fixed when the run is created; :func:`run_tournament` plays exactly
the matches that have no row yet, so a run killed at any moment resumes where it
stopped.  Matches run in worker processes (``concurrency``), each driving its match
with asyncio; the parent alone writes the database.
"""

from __future__ import annotations

import concurrent.futures
import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from referee import __version__
from referee.errors import RefereeError
from referee.games import get_game
from referee.match.match import Clock, Match, MatchOutcome
from referee.match.settings import MatchSettings
from referee.process import loop as event_loop
from referee.process.isolation.affinity import wanted
from referee.process.isolation.sandbox import SandboxPolicy, resolve_mode
from referee.process.pool import BotPool, run_here
from referee.process.spec import BotCommandError, BotLimits, BotSpec, resolve_command
from referee.tournament.config import TournamentConfig
from referee.tournament.resultsdb import MatchRow
from referee.tournament.rundir import (
    Damage,
    open_results,
    private_run,
    record_mac,
    record_sha256,
    run_lock,
    set_aside_damage,
)
from referee.tournament.schedule import ScheduledMatch, block_seed, new_secret, round_robin
from referee.tournament.workers import WorkerDied, dispatch

if TYPE_CHECKING:
    from referee.match.signing import Signer


class TournamentError(RefereeError, ValueError):
    """A run directory that cannot be created or resumed (message says why)."""


class Manifest(msgspec.Struct, kw_only=True):
    """What fixes a run: config, resolved bot argv, schedule, secret, referee version,
    and the fingerprint of the key that signs its records (empty: unsigned)."""

    referee: str
    config: TournamentConfig
    argv: list[list[str]]
    seats: int
    secret: str
    schedule: list[ScheduledMatch]
    created: float
    sandbox: Literal["bwrap", "none", ""] = ""
    signing_key: str = ""


class MatchJob(msgspec.Struct, kw_only=True):
    """Everything a worker needs to play one scheduled match (picklable): the game,
    the match's :class:`MatchSettings` (seed, options, clock, limits, sandbox, ply
    limit, block tag: what ``play`` and ``regress`` hand to the same
    :class:`~referee.match.match.Match`), its entrants and where its files go."""

    game: str
    match: ScheduledMatch
    settings: MatchSettings
    names: list[str]
    argv: list[list[str]]
    record: str
    logs: str
    reuse: bool = False
    seat_clocks: list[tuple[int | None, int | None]] = []
    """Per seat: its entrant's own ``(move_ms, bank_ms)`` (``None``: the match's)."""


def wrap(wrapper: str) -> list[str]:
    """The argv prefix of a sandbox ``wrapper``; raises BotCommandError if not found."""
    if not wrapper.strip():
        return []
    prefix = shlex.split(wrapper)
    if shutil.which(prefix[0]) is None:
        raise BotCommandError(f"sandbox wrapper not found: {prefix[0]}")
    return prefix


def create_run(
    config: TournamentConfig, base_dir: Path, out: Path, signer: Signer | None = None
) -> Manifest:
    """Validate ``config``, fix the schedule and secret, write ``out/manifest.json``
    (with ``signer``: the key's fingerprint in it, and ``manifest.json.sig``).

    Raises :class:`TournamentError` if ``out`` already holds a run, and the
    errors of game lookup, option parsing and bot command resolution.
    """
    manifest = plan_run(config, base_dir, out)
    if signer is not None:
        manifest.signing_key = signer.fingerprint
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "manifest.json.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(msgspec.json.format(msgspec.json.encode(manifest)))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, out / "manifest.json")
    if signer is not None:
        signer.sign_file(out / "manifest.json")
    return manifest


def check_signer(manifest: Manifest, out: Path, signer: Signer | None) -> None:
    """Raise :class:`TournamentError` unless ``signer`` is the key the run was made
    with (none for an unsigned run), so a run's records are all signed by one key."""
    fixed = manifest.signing_key
    given = signer.fingerprint if signer is not None else ""
    if fixed == given:
        return
    if not given:
        raise TournamentError(
            f"{out} signs its records (key fingerprint {fixed[:16]}); give that --sign-key"
        )
    if not fixed:
        raise TournamentError(f"{out} was made without --sign-key; its records stay unsigned")
    raise TournamentError(
        f"{out} signs its records with key {fixed[:16]}, not with --sign-key's {given[:16]}"
    )


def plan_run(config: TournamentConfig, base_dir: Path, out: Path) -> Manifest:
    """Everything :func:`create_run` checks and fixes, without writing anything.

    Raises :class:`TournamentError` if ``out`` already holds a run (or is not a
    folder), and the errors of game lookup, option parsing and bot command resolution.
    """
    if out.exists() and not out.is_dir():
        raise TournamentError(f"{out} is a file, not a run directory")
    game = get_game(config.game)
    seats = config.seats or game.min_seats
    game.check_seats(seats)
    game.parse_options(config.options)
    argv = [wrap(b.wrapper) + resolve_command(b.command, base_dir) for b in config.bots]
    manifest_path = out / "manifest.json"
    if manifest_path.exists():
        raise TournamentError(f"{out} already holds a run; use --resume {out}")
    schedule = round_robin(len(config.bots), seats, config.rounds, config.format)
    if config.games is not None:
        per_round = len(schedule) // config.rounds
        rounds = -(-config.games // per_round)
        schedule = round_robin(len(config.bots), seats, rounds, config.format)[: config.games]
    manifest = Manifest(
        referee=__version__,
        config=config,
        argv=argv,
        seats=seats,
        secret=new_secret(),
        schedule=schedule,
        created=time.time(),
        sandbox=resolve_mode(config.sandbox),
    )
    return manifest


def load_run(out: Path) -> Manifest:
    """Read the manifest of an existing run.  Raises :class:`TournamentError`."""
    try:
        return msgspec.json.decode((out / "manifest.json").read_bytes(), type=Manifest)
    except FileNotFoundError:
        raise TournamentError(f"{out}: no manifest.json (not a tournament run)") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TournamentError(f"{out}/manifest.json: {exc}") from None


def sandbox_in_force(manifest: Manifest) -> Literal["bwrap", "none"]:
    """The sandbox mode a run's matches are played under: the one fixed when the run
    was created (runs from before sandboxes: the config's, resolved now).  Raises
    :class:`referee.process.isolation.sandbox.SandboxError` if that mode cannot be had here."""
    fixed = manifest.sandbox or resolve_mode(manifest.config.sandbox)
    return resolve_mode(fixed, warn=False)


def jobs_for(
    manifest: Manifest, out: Path, skip: set[str], reuse: bool | None = None
) -> list[MatchJob]:
    """The jobs of the scheduled matches not in ``skip``, in schedule order.
    ``reuse`` overrides the config's ``reuse`` (bot processes kept between matches)."""
    cfg = manifest.config
    policy = SandboxPolicy(sandbox_in_force(manifest), cfg.network, (str(out.resolve()),))
    options = get_game(cfg.game).parse_options(cfg.options)
    limits = BotLimits(
        max_line_bytes=cfg.max_line_bytes,
        max_stderr_bytes=cfg.max_stderr_bytes,
        cpu_s=cfg.cpu_s,
        memory_mb=cfg.memory_mb,
        open_files=cfg.open_files,
        max_processes=cfg.max_processes,
        disk_mb=cfg.disk_mb,
        max_memory_mb=cfg.max_memory_mb,
    )
    clock = Clock(cfg.startup_ms, cfg.move_ms, cfg.bank_ms, cfg.ponder)
    return [
        MatchJob(
            game=cfg.game,
            match=m,
            settings=MatchSettings(
                seed=block_seed(manifest.secret, m.block),
                options=options,
                clock=clock,
                match_id=m.id,
                max_plies=cfg.max_plies,
                adjudication=cfg.adjudication,
                limits=limits,
                sandbox=policy,
                reuse_tag=f"block-{m.block}",
            ),
            names=[cfg.bots[i].name for i in m.lineup],
            argv=[manifest.argv[i] for i in m.lineup],
            seat_clocks=[(cfg.bots[i].move_ms, cfg.bots[i].bank_ms) for i in m.lineup],
            record=str(out / "records" / f"{m.id}.jsonl"),
            logs=str(out / "logs" / m.id),
            reuse=cfg.reuse if reuse is None else reuse,
        )
        for m in manifest.schedule
        if m.id not in skip
    ]


def row_from(job: MatchJob, outcome: MatchOutcome) -> MatchRow:
    """The database row of a finished match."""
    return MatchRow(
        id=job.match.id,
        block=job.match.block,
        rotation=job.match.rotation,
        seed=job.settings.seed,
        bots=job.names,
        scores=outcome.scores,
        ranks=outcome.ranks,
        verdicts=list(outcome.verdicts),
        details=[s.detail for s in outcome.seats],
        moves=[s.moves for s in outcome.seats],
        total_ms=[round(s.total_ms, 3) for s in outcome.seats],
        max_ms=[round(s.max_ms, 3) for s in outcome.seats],
        plies=outcome.plies,
        record=str(Path(job.record).name),
        reason=outcome.reason,
    )


async def play_job(job: MatchJob, pool: BotPool | None = None) -> MatchRow:
    """Play one scheduled match and return its row; with ``pool`` (and ``job.reuse``)
    its bots may be reused processes, tagged with the match's block so that no process
    plays two rotations of one duplicate block."""
    clocks = job.seat_clocks or [(None, None)] * len(job.names)
    specs = [
        BotSpec(n, a, move_ms=c[0], bank_ms=c[1])
        for n, a, c in zip(job.names, job.argv, clocks, strict=True)
    ]
    match = Match(
        get_game(job.game),
        specs,
        job.settings,
        record_path=Path(job.record),
        log_dir=Path(job.logs),
        pool=pool if job.reuse else None,
    )
    return row_from(job, await match.play())


def play_job_sync(job: MatchJob) -> MatchRow:
    """:func:`play_job` in this process (the worker-process entry point): in a fresh
    event loop, or, with ``job.reuse``, in the process's lasting loop and bot pool."""
    return run_here(lambda pool: play_job(job, pool), job.reuse)


class RemoteResult(msgspec.Struct):
    """A match played on another machine: its row, its record's bytes and the bots'
    stderr logs (file name -> bytes; each log is capped by ``max_stderr_bytes``)."""

    row: MatchRow
    record: bytes
    logs: dict[str, bytes] = {}


def play_job_remote(job: MatchJob) -> RemoteResult:
    """Play ``job`` where the run directory may not exist (a Dask worker).

    The record and the bots' stderr logs are written to a local temporary directory
    and sent back whole (see :func:`publish_remote`).
    """
    with tempfile.TemporaryDirectory(prefix="referee-remote-") as tmp:
        logs = Path(tmp) / "logs"
        local = msgspec.structs.replace(
            job, record=str(Path(tmp) / Path(job.record).name), logs=str(logs), reuse=False
        )
        row = event_loop.run(play_job(local))
        sent = {p.name: p.read_bytes() for p in sorted(logs.glob("*")) if p.is_file()}
        return RemoteResult(row, Path(local.record).read_bytes(), sent)


def publish_remote(job: MatchJob, result: RemoteResult) -> None:
    """Store what a worker sent back: the bots' logs, then the record (atomically)."""
    for name, data in result.logs.items():
        publish_record(Path(job.logs) / Path(name).name, data)
    publish_record(Path(job.record), result.record)


def publish_record(path: Path, data: bytes) -> None:
    """Write a file received from a worker atomically (temp file, fsync, rename)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def run_tournament(
    out: Path,
    *,
    concurrency: int = 1,
    on_row: Callable[[MatchRow], None] | None = None,
    executor: concurrent.futures.Executor | None = None,
    remote: bool = False,
    reuse: bool | None = None,
    affinity: bool | None = None,
    on_aside: Callable[[Damage, Path | None], None] | None = None,
    signer: Signer | None = None,
) -> list[MatchRow]:
    """Play every missing match of the run in ``out``; return all rows.

    Each finished match is committed to the database before the next result is
    taken.  ``executor`` overrides the default pool (a process pool of
    ``concurrency`` workers, or the calling process when ``concurrency`` is 1);
    with ``remote`` the executor's workers need not see the run directory
    (records come back with the results, see :func:`play_job_remote`).  ``reuse``
    overrides the config's ``reuse`` for this invocation (remote matches never reuse
    bots), ``affinity`` its ``affinity`` (local matches only: each worker, or this
    process at concurrency 1, bound to one core with its bots; unset in both:
    automatic, see :func:`referee.process.isolation.affinity.wanted`).
    On KeyboardInterrupt, queued matches are cancelled, running ones are ended
    (their bots killed by their workers) and the interrupt propagates.

    The run directory is locked for the whole run and made private (see
    :mod:`referee.tournament.rundir`); each row stores its record's HMAC and SHA-256.  A
    recorded match whose record is missing or damaged is played again: its row is
    set aside first (:func:`referee.tournament.rundir.set_aside_damage`, which calls
    ``on_aside``).  ``signer`` (the key the run was made with, see
    :func:`check_signer`) writes each record's ``.sig`` before its row.  Raises
    :class:`referee.tournament.rundir.RunDirError` if another referee holds the run, its
    database was lost while records remain, or an intact record disagrees with its
    row, :class:`TournamentError` if ``signer`` is not the run's key, and
    :class:`referee.tournament.resultsdb.ResultsError` if the database is damaged or cannot be
    written.
    """
    manifest = load_run(out)
    check_signer(manifest, out, signer)
    with run_lock(out), private_run(out):
        db = open_results(out, create=True)
        try:
            set_aside_damage(out, db, on_aside)
            jobs = jobs_for(manifest, out, db.done_ids(), reuse)
            setting = manifest.config.affinity if affinity is None else affinity
            pin = wanted(setting, 1 if executor is None and concurrency <= 1 else concurrency)
            for row in _results(jobs, concurrency, executor, remote, pin):
                record = out / "records" / (row.record or f"{row.id}.jsonl")
                data = record.read_bytes()
                row.record_mac = record_mac(manifest.secret, data)
                row.record_sha256 = record_sha256(data)
                if signer is not None:
                    signer.sign_file(record)
                db.add(row)
                if on_row:
                    on_row(row)
            return db.rows()
        finally:
            db.close()


def dask_executor(address: str, timeout_s: float = 10.0) -> concurrent.futures.Executor:
    """A ``concurrent.futures`` executor on an existing Dask cluster (``pure=False``).

    Needs the optional extra: ``pip install referee[distributed]``.  Raises
    :class:`TournamentError` if dask.distributed is missing or the scheduler is
    unreachable.
    """
    try:
        from distributed import Client
    except ImportError:
        raise TournamentError(
            "--executor dask needs dask.distributed: pip install 'referee[distributed]'"
        ) from None
    try:
        client = Client(address, timeout=f"{timeout_s}s")
    except OSError as exc:
        raise TournamentError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return _ClientExecutor(client)


class _ClientExecutor(concurrent.futures.Executor):
    """A Dask client's executor that also closes the client on shutdown."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._inner: concurrent.futures.Executor = client.get_executor(pure=False)

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait and not cancel_futures)
        self._client.close()


def _results(
    jobs: list[MatchJob],
    concurrency: int,
    executor: concurrent.futures.Executor | None,
    remote: bool = False,
    affinity: bool = False,
) -> Iterable[MatchRow]:
    """The rows of ``jobs`` as their matches finish (see
    :func:`referee.tournament.workers.dispatch`); remote results are published into
    the run directory first.  Raises :class:`TournamentError` if a worker process died."""
    if not jobs:
        return
    try:
        if remote:
            assert executor is not None, "remote play needs an executor"
            by_id = {job.match.id: job for job in jobs}
            for result in dispatch(
                play_job_remote, jobs, concurrency=concurrency, executor=executor
            ):
                publish_remote(by_id[result.row.id], result)
                yield result.row
            return
        yield from dispatch(
            play_job_sync, jobs, concurrency=concurrency, executor=executor, affinity=affinity
        )
    except WorkerDied as exc:
        raise TournamentError(
            f"{exc}; finished matches are saved, continue with --resume"
        ) from None
