"""Durable tournament results: one SQLite database per run directory (WAL mode).

Each finished match is one row written in one transaction, after its record file is
published, so killing the referee at any moment loses no finished match and leaves
no partial row.  JSON columns hold per-seat lists.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec

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
    reason      TEXT NOT NULL DEFAULT 'finished'  -- or 'ply_limit' (adjudicated)
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


_JSON_FIELDS = ("bots", "scores", "ranks", "verdicts", "details", "moves", "total_ms", "max_ms")
_COLUMNS = ("id", "block", "rotation", "seed", *_JSON_FIELDS, "plies", "record", "reason")


class ResultsDB:
    """The results database of one run directory (``results.sqlite``)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        columns = {r[1] for r in self.conn.execute("PRAGMA table_info(matches)")}
        if "reason" not in columns:  # a run directory made before the ply limit existed
            self.conn.execute(
                "ALTER TABLE matches ADD COLUMN reason TEXT NOT NULL DEFAULT 'finished'"
            )

    def add(self, row: MatchRow) -> None:
        """Insert one finished match in its own transaction (idempotent by id)."""
        data = msgspec.to_builtins(row)
        values = [
            msgspec.json.encode(data[c]).decode() if c in _JSON_FIELDS else data[c]
            for c in _COLUMNS
        ]
        marks = ",".join("?" * len(_COLUMNS))
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(
                f"INSERT OR IGNORE INTO matches ({','.join(_COLUMNS)}) VALUES ({marks})", values
            )

    def done_ids(self) -> set[str]:
        """Ids of the matches already recorded."""
        return {r[0] for r in self.conn.execute("SELECT id FROM matches")}

    def rows(self) -> list[MatchRow]:
        """Every finished match, in finishing order."""
        cursor = self.conn.execute(f"SELECT {','.join(_COLUMNS)} FROM matches ORDER BY rowid")
        out = []
        for raw in cursor:
            data: dict[str, Any] = dict(zip(_COLUMNS, raw, strict=True))
            for c in _JSON_FIELDS:
                data[c] = msgspec.json.decode(data[c])
            out.append(msgspec.convert(data, MatchRow))
        return out

    def close(self) -> None:
        self.conn.close()
