"""Integrity of a tournament run directory.

* **One referee at a time**: :func:`run_lock` holds an exclusive ``flock`` on
  ``run.lock`` in the run directory for as long as a run plays (new runs and
  ``--resume`` alike); a second referee gets :class:`RunDirError` at once, naming
  the process that holds it.  The lock is also held by the worker processes a run
  forks, so a worker that outlives a killed referee still keeps others out until it
  ends.
* **Private files**: :func:`private_run` makes the run directory and its ``records``
  and ``logs`` folders 0700 and every file in them 0600, and sets the umask to 0077
  while the run plays, so records, the database (with its ``-wal``/``-shm``), the
  manifest and the bots' logs are readable by the referee's user only.
* **A database that is checked before it is trusted**: :func:`open_results` refuses a
  missing, emptied or damaged ``results.sqlite`` when finished records exist, rather
  than playing every match again over them; :func:`quick_check` checks that every row
  still has its record and that the record ends with the same result.
* **A full cross-check**: :func:`check_run` replays every record with its seed and
  compares it with its row, the schedule and the manifest, and verifies each
  record's HMAC (:func:`record_mac`, keyed by the run's secret, stored in the row).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import os
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import RefereeError
from referee.match.record import MoveLine, RecordError, read_record, read_result_line
from referee.tournament.resultsdb import MatchRow, ResultsDB
from referee.tournament.schedule import block_seed
from referee.wording import counted

if TYPE_CHECKING:
    from referee.tournament.run import Manifest

LOCK_NAME = "run.lock"
DB_NAME = "results.sqlite"


class RunDirError(RefereeError, ValueError):
    """A run directory that is in use, damaged or inconsistent (message says which)."""


_held: dict[str, list[int]] = {}  # real path of a run directory -> [lock fd, depth]


@contextlib.contextmanager
def run_lock(out: Path) -> Iterator[None]:
    """Hold the exclusive lock of run directory ``out`` (re-entrant in one process).

    Raises :class:`RunDirError` at once if another process holds it.
    """
    key = os.path.realpath(out)
    if key in _held:
        _held[key][1] += 1
        try:
            yield
        finally:
            _held[key][1] -= 1
        return
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise RunDirError(
            f"{out} is in use by another referee (pid {holder}); wait for it to end before resuming"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    _held[key] = [fd, 1]
    try:
        yield
    finally:
        del _held[key]
        os.close(fd)


@contextlib.contextmanager
def private_run(out: Path) -> Iterator[None]:
    """Make ``out`` private (dirs 0700, files 0600) and play under umask 0077."""
    make_private(out)
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def make_private(out: Path) -> None:
    """Mode 0700 for ``out`` and the folders under it, 0600 for every file in them."""
    os.chmod(out, 0o700)
    for root, dirs, files in os.walk(out):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o700)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o600)


def record_mac(secret: str, data: bytes) -> str:
    """HMAC-SHA256 (hex) of a record's bytes under a key derived from the run's secret.

    Only someone who knows the secret (kept in the 0600 manifest, never shown to
    bots) can make a record that matches the MAC stored in its row.
    """
    key = hashlib.sha256(f"{secret}/record-mac".encode()).digest()
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def finished_records(out: Path) -> list[Path]:
    """The published records of ``out`` (``records/*.jsonl``, not ``.part`` files)."""
    return sorted((out / "records").glob("*.jsonl"))


def open_results(out: Path, *, create: bool) -> ResultsDB:
    """Open the run's ``results.sqlite``.

    ``create`` (a run about to play): make it if it is missing, unless finished
    records exist; then the database was lost and playing on would replay and
    overwrite those matches, so it is refused.  Without ``create`` (reading
    results) a missing database is an error.  Raises :class:`RunDirError` or
    :class:`referee.tournament.resultsdb.ResultsError`.
    """
    path = out / DB_NAME
    lost = not path.exists() or path.stat().st_size == 0
    if lost and create:
        records = finished_records(out)
        if records:
            raise RunDirError(
                f"{path} is missing or empty but {len(records)} finished records exist; "
                "refusing to play those matches again (restore the database or start a "
                "new run)"
            )
    elif lost:
        raise RunDirError(f"{path} is missing or empty (no results to show)")
    return ResultsDB(path, create=create)


def _record_path(out: Path, row: MatchRow) -> Path:
    return out / "records" / (row.record or f"{row.id}.jsonl")


def record_sha256(data: bytes) -> str:
    """SHA-256 (hex) of a record's bytes, stored with its row (cheap to compare)."""
    return hashlib.sha256(data).hexdigest()


@dataclass
class Damage:
    """One problem :func:`find_damage` found with a row.

    ``problem`` is one line naming the match; ``replayable`` is true when the record
    is missing or damaged (``--resume`` plays the match again), false when an intact
    record disagrees with its row (the database was changed: nothing is played again).
    """

    row: MatchRow
    problem: str
    replayable: bool


def find_damage(out: Path, rows: list[MatchRow]) -> list[Damage]:
    """Problems found cheaply: a row without its record, a record whose SHA-256 is not
    the one stored with its row (rows written before SHA-256s were stored: a record
    whose end is not a whole result line), or a record whose result line differs from
    the row."""
    found = []
    for row in rows:
        path = _record_path(out, row)
        try:
            data = path.read_bytes() if row.record_sha256 else b""
        except FileNotFoundError:
            data = None
        except OSError as exc:
            found.append(Damage(row, f"match {row.id}: {path}: cannot read: {exc.strerror}", True))
            continue
        if data is None or not path.exists():
            found.append(Damage(row, f"match {row.id}: its record {path} is missing", True))
            continue
        if row.record_sha256 and not hmac.compare_digest(row.record_sha256, record_sha256(data)):
            what = f"match {row.id}: its record {path} is damaged (its SHA-256 is not the one"
            found.append(Damage(row, f"{what} stored with its row)", True))
            continue
        try:
            result = read_result_line(path)
        except RecordError as exc:
            found.append(Damage(row, f"match {row.id}: {exc}", not row.record_sha256))
            continue
        claimed = (result.seed, result.scores, result.ranks, list(result.verdicts))
        if claimed != (row.seed, row.scores, row.ranks, row.verdicts):
            what = f"match {row.id}: {path}: the result line differs from the database"
            found.append(Damage(row, what, False))
    return found


def quick_check(out: Path, rows: list[MatchRow]) -> list[str]:
    """The messages of :func:`find_damage`, one per problem."""
    return [d.problem for d in find_damage(out, rows)]


def refuse_damage(out: Path, rows: list[MatchRow], holder: str | None = None) -> None:
    """Raise :class:`RunDirError` with the first :func:`find_damage` problem, if any.

    The message says what to do: ``--resume`` plays a missing or damaged record's
    match again, unless ``holder`` (the pid of a referee playing the run) is given.
    """
    damage = find_damage(out, rows)
    if not damage:
        return
    more = f" ({len(damage) - 1} more)" if len(damage) > 1 else ""
    advice = f"`referee results --check {out}` lists every problem"
    if all(d.replayable for d in damage):
        if holder is None:
            advice += f"; `referee tournament --resume {out}` plays such matches again"
        else:
            advice += f"; the run is in progress (referee pid {holder}): resume it once it ends"
    raise RunDirError(f"{damage[0].problem}{more}; {advice}")


SET_ASIDE_DIR = "set-aside"
"""Folder of ``records`` where damaged records go when their match is played again."""


def set_aside_damage(
    out: Path, db: ResultsDB, report: Callable[[Damage, Path | None], None] | None = None
) -> list[Damage]:
    """Before a resume: set aside every row whose record is missing or damaged, so the
    match is played again; return what was set aside.

    Each such row moves to the database's ``set_aside`` table and its record (if any,
    with its signature) to ``records/set-aside/<id>.<n>.jsonl``; ``report(damage,
    moved_to)`` is called for each.  Raises :class:`RunDirError` (as
    :func:`refuse_damage`) if an intact record disagrees with its row, and
    :class:`referee.tournament.resultsdb.ResultsError`.
    """
    damage = find_damage(out, db.rows())
    kept = [d for d in damage if not d.replayable]
    if kept:
        refuse_damage(out, [d.row for d in kept])
    aside = out / "records" / SET_ASIDE_DIR
    for item in damage:
        path = _record_path(out, item.row)
        moved: Path | None = None
        if path.exists():
            aside.mkdir(mode=0o700, exist_ok=True)
            n = 1
            while (aside / f"{item.row.id}.{n}.jsonl").exists():
                n += 1
            moved = aside / f"{item.row.id}.{n}.jsonl"
            os.replace(path, moved)
            signature = path.with_name(path.name + ".sig")
            if signature.exists():
                os.replace(signature, moved.with_name(moved.name + ".sig"))
        db.set_aside(item.row.id, item.problem)
        if report is not None:
            report(item, moved)
    return damage


def run_holder(out: Path) -> str | None:
    """The pid (as text) of another referee playing the run in ``out`` now, or
    ``None`` if no other process holds its lock.  Never creates the lock file."""
    if os.path.realpath(out) in _held:
        return None
    try:
        fd = os.open(out / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
    finally:
        os.close(fd)  # closing also drops a lock just taken
    return None


@dataclass
class CheckReport:
    """What :func:`check_run` found: mismatches (each names a match) and notes."""

    rows: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def check_run(out: Path, manifest: Manifest) -> CheckReport:
    """Cross-check every database row of run ``out`` against its record.

    For each row: the match is in the schedule with the same block and rotation,
    its seed is the block's seed from the run's secret, its bots are the lineup's;
    the record exists, its HMAC matches the row's (rows written before MACs existed
    have none), it replays with its seed checked (:func:`referee.match.replay.replay`),
    its header names the match, game, options, clock, ply limit, bots and commands
    of the manifest, and its result, plies and per-seat move counts are the row's.
    Records without a row and matches not yet played are notes, not problems.
    Raises :class:`RunDirError`/:class:`referee.tournament.resultsdb.ResultsError` if the
    database cannot be read.
    """
    from referee.games import get_game
    from referee.match.replay import replay
    from referee.match.settings import Clock, header_clock

    db = open_results(out, create=False)
    try:
        rows = db.rows()
    finally:
        db.close()
    cfg = manifest.config
    game = get_game(cfg.game)
    options = game.options_dict(game.parse_options(cfg.options))
    clock = header_clock(Clock(cfg.startup_ms, cfg.move_ms, cfg.bank_ms, cfg.ponder))
    schedule = {m.id: m for m in manifest.schedule}
    report = CheckReport(rows=len(rows))

    for row in rows:

        def bad(what: str, row: MatchRow = row) -> None:
            report.problems.append(f"match {row.id}: {what}")

        match = schedule.get(row.id)
        if match is None:
            bad("not in the run's schedule")
            continue
        names = [cfg.bots[i].name for i in match.lineup]
        commands = [shlex.join(manifest.argv[i]) for i in match.lineup]
        seed = block_seed(manifest.secret, match.block)
        if (row.block, row.rotation) != (match.block, match.rotation):
            bad(
                f"row says block {row.block} rotation {row.rotation}, schedule says "
                f"{match.block} {match.rotation}"
            )
        if row.seed != seed:
            bad(f"row seed {row.seed} is not the seed of block {match.block}")
        if row.bots != names:
            bad(f"row bots {row.bots}, schedule says {names}")
        path = _record_path(out, row)
        if path.name != f"{row.id}.jsonl":
            bad(f"row names record {row.record!r}, expected {row.id}.jsonl")
        try:
            data = path.read_bytes()
        except OSError as exc:
            bad(f"record {path}: {exc.strerror}")
            continue
        if row.record_mac is not None and not hmac.compare_digest(
            row.record_mac, record_mac(manifest.secret, data)
        ):
            bad(f"record {path} was changed after it was written (its HMAC differs)")
        try:
            checked = replay(path)
        except RecordError as exc:
            bad(str(exc))
            continue
        header, result = checked.header, checked.result
        found = {
            "match id": (header.match, row.id),
            "game": (header.game, cfg.game),
            "options": (header.options, options),
            "clock": (header.clock, clock),
            "max_plies": (header.max_plies, cfg.max_plies),
            "adjudication": (header.adjudication, cfg.adjudication),
            "seat names": ([s.name for s in header.seats], names),
            "seat commands": ([s.command for s in header.seats], commands),
        }
        for what, (recorded, expected) in found.items():
            if recorded != expected:
                bad(f"record {path}: header {what} {recorded!r}, expected {expected!r}")
        moves = [0] * len(header.seats)
        for line in read_record(path):
            if isinstance(line, MoveLine) and not line.fallback:
                moves[line.seat] += 1
        compared = {
            "seed": (result.seed, row.seed),
            "scores": (result.scores, row.scores),
            "ranks": (result.ranks, row.ranks),
            "verdicts": (list(result.verdicts), row.verdicts),
            "reason": (result.reason, row.reason),
            "plies": (checked.plies, row.plies),
            "moves": (moves, row.moves),
        }
        for what, (recorded, stored) in compared.items():
            if recorded != stored:
                bad(f"record {path} has {what} {recorded}, the database {stored}")

    known = {row.id for row in rows}
    strays = [p.name for p in finished_records(out) if p.stem not in known]
    if strays:
        report.notes.append(
            f"{len(strays)} records have no database row (a match finished as the run "
            f"was stopped; --resume plays it again): {', '.join(strays[:5])}"
        )
    missing = len(schedule) - len(known & schedule.keys())
    if missing:
        report.notes.append(
            f"{counted(missing, 'scheduled match', of=len(schedule))} not played yet"
        )
    return report
