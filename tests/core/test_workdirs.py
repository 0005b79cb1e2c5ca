"""The folder of bot working directories: one per referee process, never left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from referee.process.isolation.workdirs import PREFIX, remove_stale

ROOT = Path(__file__).resolve().parents[2]

TOURNAMENT = """
from pathlib import Path
import sys
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.run import create_run, run_tournament

config = TournamentConfig(
    name="t", game="manila", seats=3, rounds=1, move_ms=5000, sandbox="none",
    bots=[BotEntry(f"r{i}", f"{sys.executable} bots/random_bot.py --seed {i}") for i in range(3)],
)
out = Path(sys.argv[1])
create_run(config, Path.cwd(), out)
rows = run_tournament(out, concurrency=int(sys.argv[2]))
assert len(rows) == 3 and all(r.verdicts == ["ok"] * 3 for r in rows), rows
"""

HOLDER = """
import sys, time
from referee.process.isolation.workdirs import workdir_base
print(workdir_base(), flush=True)
time.sleep(60)
"""


def folders(tmp: Path) -> list[Path]:
    return sorted(tmp.glob(PREFIX + "*"))


def python(code: str, tmp: Path, *args: str, **kwargs: object) -> subprocess.Popen[str]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        cwd=ROOT,
        env=env,
        text=True,
        **kwargs,  # type: ignore[call-overload]
    )


def test_tournament_workers_leave_no_folder_behind(tmp_path: Path) -> None:
    """Pool workers leave by ``os._exit``, past :mod:`atexit`: they must still clean up."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    for concurrency in ("1", "2"):
        run = python(TOURNAMENT, temp, str(tmp_path / f"run{concurrency}"), concurrency)
        assert run.wait(timeout=120) == 0
        assert folders(temp) == []


def test_a_killed_referees_folder_is_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    live = python(HOLDER, tmp_path, stdout=subprocess.PIPE)
    killed = python(HOLDER, tmp_path, stdout=subprocess.PIPE)
    try:
        assert live.stdout is not None and killed.stdout is not None
        kept = Path(live.stdout.readline().strip())
        gone = Path(killed.stdout.readline().strip())
        (gone / "bot-x").mkdir()
        (gone / "bot-x" / "notes").write_text("left by a bot")
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=10)
        assert folders(tmp_path) == sorted([kept, gone])
        assert remove_stale(str(tmp_path)) == 1
        assert folders(tmp_path) == [kept]
        assert remove_stale(str(tmp_path)) == 0
    finally:
        for process in (live, killed):
            process.kill()
            process.wait()


def test_a_folder_without_a_lock_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / (PREFIX + "older")).mkdir()
    assert remove_stale(str(tmp_path)) == 0
    assert folders(tmp_path) == [tmp_path / (PREFIX + "older")]
