"""Durable tournament results: one SQLite database per run directory (WAL mode).

Each finished match is one row written in one transaction, after its record file is
published, so killing the referee at any moment loses no finished match and leaves
no partial row.  JSON columns hold per-seat lists.

The database file (and with it SQLite's ``-wal`` and ``-shm`` files, which take its
mode) is created 0600.  Every SQLite failure (not a database, a damaged file, a full
disk, a locked file) and every row that does not decode becomes :class:`ResultsError`,
whose message names the file and what went wrong.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec

from referee.errors import RefereeError

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id          TEXT PRIMARY KEY,
    block       INTEGER NOT NULL,
    rotation    INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    bots        TEXT NOT NULL,   -- JSON: bot name by seat
    scores      TEXT NOT NULL,   -- JSON: score by seat
    ranks       TEXT NOT NULL,   -- JSON: rank by seat (1 = best)
    verdicts    TEXT NOT NULL,   -- JSON: verdict by seat
    details     TEXT NOT NULL,   -- JSON: fault detail by seat
    moves       TEXT NOT NULL,   -- JSON: answered decisions by seat
    total_ms    TEXT NOT NULL,   -- JSON: summed thinking time by seat (ms)
    max_ms      TEXT NOT NULL,   -- JSON: slowest move by seat (ms)
    plies       INTEGER NOT NULL,
    record      TEXT,
    finished_at REAL NOT NULL DEFAULT (unixepoch()),
    reason      TEXT NOT NULL DEFAULT 'finished',  -- or 'ply_limit' (adjudicated)
    record_mac  TEXT,  -- HMAC-SHA256 of the record's bytes, keyed by the run's secret
    record_sha256 TEXT -- SHA-256 (hex) of the record's bytes, compared by results and --resume
);
"""


class MatchRow(msgspec.Struct, kw_only=True):
    """One finished match as stored (lists are by seat)."""

    id: str
    block: int
    rotation: int
    seed: int
    bots: list[str]
    scores: list[float]
    ranks: list[int]
    verdicts: list[str]
    details: list[str]
    moves: list[int]
    total_ms: list[float]
    max_ms: list[float]
    plies: int
    record: str | None = None
    reason: str = "finished"
    record_mac: str | None = None
    record_sha256: str | None = None


_JSON_FIELDS = ("bots", "scores", "ranks", "verdicts", "details", "moves", "total_ms", "max_ms")
_COLUMNS = (
    "id",
    "block",
    "rotation",
    "seed",
    *_JSON_FIELDS,
    "plies",
    "record",
    "reason",
    "record_mac",
    "record_sha256",
)
# Columns added after the first release, with their definitions (older databases gain them).
_ADDED = {
    "reason": "reason TEXT NOT NULL DEFAULT 'finished'",
    "record_mac": "record_mac TEXT",
    "record_sha256": "record_sha256 TEXT",
}
# Rows of matches played again because their record was damaged or missing: the old
# row as it was (no key: a match may be set aside more than once), when, and why.
_SET_ASIDE = (
    "CREATE TABLE IF NOT EXISTS set_aside ("
    + ", ".join(_COLUMNS)
    + ", set_aside_at REAL NOT NULL DEFAULT (unixepoch()), why TEXT NOT NULL)"
)


class ResultsError(RefereeError, ValueError):
    """The results database cannot be opened, read or written; names the file and why."""


class ResultsDB:
    """The results database of one run directory (``results.sqlite``).

    ``create``: make the file (mode 0600) if it does not exist; otherwise a missing
    file is a :class:`ResultsError` (SQLite would silently make an empty one).
    Opening runs SQLite's integrity check, so a garbled or truncated file is
    refused at once.  Raises :class:`ResultsError`.
    """

    def __init__(self, path: str | Path, *, create: bool = False) -> None:
        self.path = Path(path)
        if create and not self.path.exists():
            try:
                with contextlib.suppress(FileExistsError):
                    os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except OSError as exc:
                raise ResultsError(f"{self.path}: cannot create: {exc.strerror}") from None
        elif not self.path.is_file():
            raise ResultsError(f"{self.path}: missing (no results database)")
        uri = f"file:{quote(str(self.path.resolve()))}?mode=rw"
        try:
            self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot open: {exc}") from None
        try:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.executescript(SCHEMA)
            columns = {r[1] for r in self.conn.execute("PRAGMA table_info(matches)")}
            for name, definition in _ADDED.items():
                if name not in columns:  # a run directory made before the column existed
                    self.conn.execute(f"ALTER TABLE matches ADD COLUMN {definition}")
            self.conn.execute(_SET_ASIDE)
            check = self.conn.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise ResultsError(f"{self.path}: damaged database: {check}")
        except sqlite3.Error as exc:
            self.conn.close()
            raise ResultsError(f"{self.path}: not a usable results database: {exc}") from None
        except ResultsError:
            self.conn.close()
            raise

    def add(self, row: MatchRow) -> None:
        """Insert one finished match in its own transaction (idempotent by id).

        Raises :class:`ResultsError` (for instance "database or disk is full")."""
        data = msgspec.to_builtins(row)
        values = [
            msgspec.json.encode(data[c]).decode() if c in _JSON_FIELDS else data[c]
            for c in _COLUMNS
        ]
        marks = ",".join("?" * len(_COLUMNS))
        try:
            with self.conn:
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute(
                    f"INSERT OR IGNORE INTO matches ({','.join(_COLUMNS)}) VALUES ({marks})",
                    values,
                )
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot record match {row.id}: {exc}") from None

    def set_aside(self, match_id: str, why: str) -> None:
        """Move the row of ``match_id`` to the ``set_aside`` table with ``why`` (one
        transaction), so the match counts as not played.  Raises :class:`ResultsError`."""
        columns = ",".join(_COLUMNS)
        try:
            with self.conn:
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute(
                    f"INSERT INTO set_aside ({columns}, why) "
                    f"SELECT {columns}, ? FROM matches WHERE id = ?",
                    (why, match_id),
                )
                self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot set match {match_id} aside: {exc}") from None

    def set_aside_count(self) -> int:
        """How many rows were set aside (matches played again).  Raises
        :class:`ResultsError`."""
        try:
            return int(self.conn.execute("SELECT count(*) FROM set_aside").fetchone()[0])
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot read: {exc}") from None

    def done_ids(self) -> set[str]:
        """Ids of the matches already recorded.  Raises :class:`ResultsError`."""
        try:
            return {r[0] for r in self.conn.execute("SELECT id FROM matches")}
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot read: {exc}") from None

    def rows(self) -> list[MatchRow]:
        """Every finished match, in finishing order.  Raises :class:`ResultsError`
        for an unreadable database or a row whose values do not decode."""
        try:
            raws = self.conn.execute(
                f"SELECT {','.join(_COLUMNS)} FROM matches ORDER BY rowid"
            ).fetchall()
        except sqlite3.Error as exc:
            raise ResultsError(f"{self.path}: cannot read: {exc}") from None
        out = []
        for raw in raws:
            data: dict[str, Any] = dict(zip(_COLUMNS, raw, strict=True))
            try:
                for c in _JSON_FIELDS:
                    data[c] = msgspec.json.decode(data[c])
                out.append(msgspec.convert(data, MatchRow))
            except (msgspec.DecodeError, msgspec.ValidationError, TypeError) as exc:
                raise ResultsError(f"{self.path}: row {data['id']!r} is damaged: {exc}") from None
        return out

    def close(self) -> None:
        """Close the connection (never raises)."""
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()
