"""A damaged, shared or tampered run directory: one clear error line, never a traceback.

Covers the run lock (two referees on one run), the private modes of every file of a
run, a garbled / truncated / non-SQLite / full / deleted ``results.sqlite``, deleted
and corrupt records, and ``referee results --check``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.games import all_games
from referee.tournament.resultsdb import ResultsDB
from referee.tournament.rundir import LOCK_NAME
from tests.core.cli_helpers import (
    RANDOM,
    invoke,
    one_error_line,
    toy_game,  # noqa: F401  (autouse: the toy game registered)
)
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]


def write_config(directory: Path, name_length: int = 1) -> Path:
    config = directory / "t.toml"
    config.write_text(
        'name = "integrity"\ngame = "secret-race"\nseats = 2\nrounds = 2\n'
        "[options]\ntarget = 8\n"
        + "".join(
            f'[[bots]]\nname = "{letter * name_length}"\ncommand = "{RANDOM}"\n' for letter in "ab"
        )
    )
    return config


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A finished run of 4 toy matches (copied by :func:`run` for each test)."""
    all_games()[GAME.name] = GAME
    base = tmp_path_factory.mktemp("finished")
    out = base / "run"
    result = invoke("tournament", write_config(base), "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    yield out
    all_games().pop(GAME.name, None)


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


def records(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "records").glob("*.jsonl"))}


# --- permissions ---------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_run_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a usual umask: files would be world-readable by default
    try:
        out = tmp_path / "run"
        assert invoke("tournament", write_config(tmp_path), "--out", out, "--quiet").exit_code == 0
        db = ResultsDB(out / "results.sqlite")  # keeps the -wal and -shm files open
        try:
            db.rows()
            wal = [out / "results.sqlite-wal", out / "results.sqlite-shm"]
            assert all(p.exists() for p in wal)
            assert all(mode(p) == 0o600 for p in wal)
        finally:
            db.close()
        assert mode(out) == 0o700
        folders = [p for p in out.rglob("*") if p.is_dir()]
        files = [p for p in out.rglob("*") if p.is_file()]
        names = {p.name for p in files}
        assert {"manifest.json", "results.sqlite", LOCK_NAME} <= names
        assert any(p.suffix == ".jsonl" for p in files)
        assert any(p.name.endswith(".stderr.log") for p in files)
        assert {p.name: mode(p) for p in folders} == {p.name: 0o700 for p in folders}
        assert {str(p): mode(p) for p in files} == {str(p): 0o600 for p in files}
        assert os.umask(0o022) == 0o022  # the run put the caller's umask back
    finally:
        os.umask(old)


def test_play_record_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        record = tmp_path / "r.jsonl"
        played = invoke("play", "secret-race", "--bot", RANDOM, "--bot", RANDOM, "--record", record)
        assert played.exit_code == 0, played.output
        assert mode(record) == 0o600
    finally:
        os.umask(old)


def test_resume_makes_an_old_run_private(run: Path) -> None:
    os.chmod(run, 0o755)
    for path in run.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    assert invoke("tournament", "--resume", run, "--quiet").exit_code == 0
    assert mode(run) == 0o700
    assert all(mode(p) == 0o600 for p in run.rglob("*") if p.is_file())


# --- the run lock -------------------------------------------------------------------

HOLDER = """
import sys
from pathlib import Path
from referee.tournament.rundir import run_lock
with run_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_a_second_referee_on_a_run_is_refused(run: Path, tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(run)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"locked\n"
        with sqlite3.connect(run / "results.sqlite") as conn:
            conn.execute("DELETE FROM matches WHERE rowid = 1")  # one match left to play
        before = records(run)
        resumed = invoke("tournament", "--resume", run, "--quiet")
        one_error_line(resumed, "is in use by another referee", f"pid {holder.pid}")
        assert records(run) == before
        assert len(ResultsDB(run / "results.sqlite").rows()) == 3
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    # once the holder is gone the lock is free again
    resumed = invoke("tournament", "--resume", run, "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert len(ResultsDB(run / "results.sqlite").rows()) == 4


# --- a damaged results database ----------------------------------------------------


def damage_text(path: Path) -> None:
    path.write_text("this is not a database\n" * 40)


def damage_truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def damage_garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page but the first
        data[start : start + page] = bytes((i * 37 + 11) % 256 for i in range(page))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [damage_text, damage_truncate, damage_garble])
@pytest.mark.parametrize("command", ["results", "resume"])
def test_a_damaged_database_is_one_error_line(run: Path, damage: object, command: str) -> None:
    database = run / "results.sqlite"
    assert database.stat().st_size > 4096 * 2
    damage(database)  # type: ignore[operator]
    before = records(run)
    if command == "results":
        result = invoke("results", run)
    else:
        result = invoke("tournament", "--resume", run, "--quiet")
    one_error_line(result, str(database))
    assert records(run) == before


def test_a_full_disk_is_one_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's "database or disk is full", as a page limit the database may not pass."""
    import referee.tournament.rundir

    real = referee.tournament.rundir.ResultsDB

    class Full(real):  # type: ignore[misc,valid-type]
        def __init__(self, path: Path, *, create: bool = False) -> None:
            super().__init__(path, create=create)
            pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
            self.conn.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(referee.tournament.rundir, "ResultsDB", Full)
    out = tmp_path / "run"
    # long bot names make a row larger than a page, so the first row needs new pages
    config = write_config(tmp_path, name_length=5000)
    result = invoke("tournament", config, "--out", out, "--quiet")
    one_error_line(result, "database or disk is full", str(out / "results.sqlite"))


def test_a_deleted_database_stops_resume(run: Path) -> None:
    (run / "results.sqlite").unlink()
    before = records(run)
    one_error_line(
        invoke("tournament", "--resume", run, "--quiet"),
        "results.sqlite is missing or empty but 4 finished records exist",
    )
    assert records(run) == before  # nothing was played again over them
    assert not (run / "results.sqlite").exists()
    one_error_line(invoke("results", run), "results.sqlite is missing")


def test_an_emptied_database_stops_resume(run: Path) -> None:
    (run / "results.sqlite").write_bytes(b"")
    before = records(run)
    one_error_line(invoke("tournament", "--resume", run, "--quiet"), "missing or empty")
    assert records(run) == before


# --- deleted and corrupt records ----------------------------------------------------


def some_record(out: Path) -> Path:
    return sorted((out / "records").glob("*.jsonl"))[1]


def test_a_deleted_record_is_noticed(run: Path) -> None:
    record = some_record(run)
    record.unlink()
    one_error_line(invoke("results", run), f"match {record.stem}", "is missing", "--check")
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 1
    assert f"mismatch: match {record.stem}: record {record}" in checked.stdout
    resumed = invoke("tournament", "--resume", run, "--quiet")  # plays it again
    assert resumed.exit_code == 0, resumed.output
    assert f"match {record.stem}: its record {record} is missing: playing it again" in (
        resumed.stderr
    )
    assert record.exists()
    assert invoke("results", "--check", run).exit_code == 0


def test_a_truncated_record_is_noticed(run: Path) -> None:
    record = some_record(run)
    data = record.read_bytes()
    record.write_bytes(data[: len(data) - 5])
    one_error_line(invoke("results", run), f"match {record.stem}", "SHA-256", "--resume")
    resumed = invoke("tournament", "--resume", run, "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert f"match {record.stem}: its record {record} is damaged" in resumed.stderr
    assert (run / "records" / "set-aside" / f"{record.stem}.1.jsonl").read_bytes() == data[:-5]


def test_a_forged_row_is_noticed(run: Path) -> None:
    """A row rewritten in the database (a forger's win) no longer matches its record."""
    record = some_record(run)
    with sqlite3.connect(run / "results.sqlite") as conn:
        conn.execute(
            "UPDATE matches SET ranks = '[9, 9]', verdicts = '[\"ok\", \"crash\"]' WHERE id = ?",
            (record.stem,),
        )
    one_error_line(invoke("results", run), f"match {record.stem}", "differs from the database")
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 1
    assert f"mismatch: match {record.stem}: record {record} has ranks" in checked.stdout


# --- results --check ------------------------------------------------------------------


def test_check_passes_a_clean_run(run: Path) -> None:
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 0, checked.output
    assert "consistent: 4 database rows checked against their records" in checked.stdout
    assert "mismatch" not in checked.stdout


def edit_line(path: Path, index: int, old: str, new: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[index]
    lines[index] = lines[index].replace(old, new, 1)
    path.write_text("".join(lines))


def test_check_names_a_record_that_fails_replay(run: Path) -> None:
    record = some_record(run)
    lines = record.read_text().splitlines()
    chance = next(i for i, line in enumerate(lines) if '"type":"chance"' in line)
    deal = lines[chance].split('"outcome":[', 1)[1].split("]", 1)[0].split(",")
    changed = [str((int(deal[0]) + 1) % 10), *deal[1:]]
    edit_line(record, chance, f"[{','.join(deal)}]", f"[{','.join(changed)}]")
    # the SHA-256 stored with the row catches it cheaply
    one_error_line(invoke("results", run), f"match {record.stem}", "is damaged")
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 1
    out = checked.stdout
    assert f"mismatch: match {record.stem}: record {record} was changed" in out
    assert f"line {chance + 1} (ply 0): chance outcome" in out and "does not follow" in out


def test_check_names_changed_header_bots(run: Path) -> None:
    """A swapped seat name replays fine alone; the run's manifest and HMAC catch it."""
    record = some_record(run)
    edit_line(record, 0, '"name":"a"', '"name":"z"')
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 1
    assert "was changed after it was written" in checked.stdout
    assert "header seat names" in checked.stdout


def test_check_names_a_row_with_another_seed(run: Path) -> None:
    record = some_record(run)
    with sqlite3.connect(run / "results.sqlite") as conn:
        conn.execute("UPDATE matches SET seed = seed + 1 WHERE id = ?", (record.stem,))
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 1
    assert f"mismatch: match {record.stem}: row seed" in checked.stdout
    assert "is not the seed of block" in checked.stdout


def test_check_notes_a_match_not_played_yet(run: Path) -> None:
    record = some_record(run)
    with sqlite3.connect(run / "results.sqlite") as conn:
        conn.execute("DELETE FROM matches WHERE id = ?", (record.stem,))
    checked = invoke("results", "--check", run)
    assert checked.exit_code == 0, checked.output
    assert "note: 1 records have no database row" in checked.stdout
    assert "note: 1 of 4 scheduled matches not played yet" in checked.stdout
