"""Each row stores its record's SHA-256 (issue 32 s. 4; issue 33 item 11).

``results`` notices a damaged record line at once (not only ``results --check``);
``--resume`` sets the row aside and plays the match again, saying so; databases
written before the column existed still open; ``results`` on a run that another
referee is playing says so instead of advising ``--resume``.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.games import all_games
from referee.match.replay import replay
from referee.tournament.rundir import LOCK_NAME
from tests.core.cli_helpers import (
    RANDOM,
    invoke,
    one_error_line,
    toy_game,  # noqa: F401  (autouse: the toy game registered)
)
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]


def write_config(directory: Path, games: int = 3) -> Path:
    config = directory / "t.toml"
    config.write_text(
        f'name = "digest"\ngame = "{GAME.name}"\nseats = 2\ngames = {games}\n'
        "[options]\ntarget = 8\n"
        + "".join(f'[[bots]]\nname = "{n}"\ncommand = "{RANDOM}"\n' for n in "ab")
    )
    return config


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    all_games()[GAME.name] = GAME
    base = tmp_path_factory.mktemp("digest")
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


def damage_a_chance_line(record: Path) -> None:
    """Change one digit of the first chance outcome: same length, ends as before."""
    lines = record.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if '"type":"chance"' in line)
    head, tail = lines[index].split('"outcome":[', 1)
    lines[index] = f'{head}"outcome":[{(int(tail[0]) + 1) % 10}{tail[1:]}'
    record.write_text("".join(lines))


def rows(out: Path, table: str = "matches") -> list[tuple[str, str | None]]:
    with sqlite3.connect(out / "results.sqlite") as conn:
        column = "record_sha256" if table == "matches" else "why"
        return conn.execute(f"SELECT id, {column} FROM {table} ORDER BY id").fetchall()


def test_every_row_stores_its_records_sha256(run: Path) -> None:
    import hashlib

    stored = rows(run)
    assert len(stored) == 3
    for match_id, digest in stored:
        data = (run / "records" / f"{match_id}.jsonl").read_bytes()
        assert digest == hashlib.sha256(data).hexdigest()


def test_a_damaged_line_is_found_by_results_and_played_again_by_resume(run: Path) -> None:
    record = sorted((run / "records").glob("*.jsonl"))[1]
    damage_a_chance_line(record)
    damaged = record.read_bytes()
    one_error_line(invoke("results", run), f"match {record.stem}", "SHA-256", "--resume")

    resumed = invoke("tournament", "--resume", run, "--quiet", "--format", "json")
    assert resumed.exit_code == 0, resumed.output
    moved = run / "records" / "set-aside" / f"{record.stem}.1.jsonl"
    assert f"match {record.stem}: its record {record} is damaged" in resumed.stderr
    assert "playing it again" in resumed.stderr and str(moved) in resumed.stderr
    assert moved.read_bytes() == damaged  # the evidence is kept
    aside = rows(run, "set_aside")
    assert [match_id for match_id, _ in aside] == [record.stem]
    assert "is damaged" in str(aside[0][1])
    assert len(rows(run)) == 3  # played again: three rows, a fresh record that replays
    replay(record, lookup=lambda _: GAME)
    assert invoke("results", "--check", run).exit_code == 0
    shown = invoke("results", run)
    assert shown.exit_code == 0, shown.output
    assert "1 match(es) were played again" in shown.stderr


def test_a_database_from_before_the_column_still_opens(run: Path) -> None:
    with sqlite3.connect(run / "results.sqlite") as conn:  # the table as it was
        columns = [r[1] for r in conn.execute("PRAGMA table_info(matches)")]
        kept = ", ".join(c for c in columns if c != "record_sha256")
        conn.execute(f"CREATE TABLE old AS SELECT {kept} FROM matches")
        conn.execute("DROP TABLE matches")
        conn.execute("DROP TABLE set_aside")
        conn.execute("ALTER TABLE old RENAME TO matches")
    shown = invoke("results", run)
    assert shown.exit_code == 0, shown.output
    assert "Standings (3 matches)" in shown.stdout
    assert [digest for _, digest in rows(run)] == [None] * 3  # migrated, nothing invented
    # without a stored digest a damaged line goes to the full check; a cut one is found
    record = sorted((run / "records").glob("*.jsonl"))[0]
    record.write_bytes(record.read_bytes()[:-3])
    one_error_line(invoke("results", run), f"match {record.stem}", "truncated")
    resumed = invoke("tournament", "--resume", run, "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert "playing it again" in resumed.stderr
    assert rows(run)[0][1] is not None  # the new row has its digest


def test_a_changed_row_is_not_played_again(run: Path) -> None:
    """An intact record that disagrees with its row: the database was changed, and
    playing the match again would bury that; --resume refuses."""
    record = sorted((run / "records").glob("*.jsonl"))[0]
    with sqlite3.connect(run / "results.sqlite") as conn:
        conn.execute("UPDATE matches SET ranks = '[9, 9]' WHERE id = ?", (record.stem,))
    one_error_line(invoke("tournament", "--resume", run, "--quiet"), "differs from the database")
    assert not (run / "records" / "set-aside").exists()


HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, f"{os.getpid()}\\n".encode(), 0)
print("held", flush=True)
sys.stdin.read()
"""


def test_results_of_a_run_in_progress_do_not_advise_resume(run: Path) -> None:
    with sqlite3.connect(run / "results.sqlite") as conn:
        conn.execute("DELETE FROM matches WHERE id = (SELECT min(id) FROM matches)")
    partial = invoke("results", run)
    assert "continue with: referee tournament --resume" in partial.stderr
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(run / LOCK_NAME)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        shown = invoke("results", run)
        assert shown.exit_code == 0, shown.output
        assert f"run in progress: 2 of 3 matches played so far (referee pid {holder.pid}" in (
            shown.stderr
        )
        assert "--resume" not in shown.stderr
        # a damaged record while it plays: the advice waits for the run to end
        damage_a_chance_line(sorted((run / "records").glob("*.jsonl"))[-1])
        message = one_error_line(invoke("results", run), "in progress", str(holder.pid))
        assert "tournament --resume" not in message
    finally:
        holder.communicate("")
    assert holder.returncode == 0
