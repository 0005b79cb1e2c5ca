"""Per-seat clocks: ``--move-ms-for SEAT=MS`` on ``play`` and ``move_ms``/``bank_ms``
in a tournament entrant's ``[[bots]]`` entry; a seat's own clock is what it is judged
by, and the record's seat entry says so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.match.replay import replay
from referee.tournament.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
SLOW = ROOT / "tests" / "core" / "slow_bot.py"
REFEREE = [sys.executable, "-m", "referee.cli.main"]


def test_play_judges_each_seat_by_its_own_clock(tmp_path: Path) -> None:
    """Two equally slow bots (80 ms a move) under a 20 ms match clock: the seat given
    2000 ms of its own plays on, the other times out."""
    record = tmp_path / "game.jsonl"
    slow = f"python3 {SLOW} 0.08"
    argv = [*REFEREE, "play", "manila", "--seed", "2", "--record", str(record), "--move-ms"]
    argv += ["20", "--bot", slow, "--bot", slow, "--bot", "python3 bots/random_bot.py"]
    argv += ["--move-ms-for", "0=2000", "--bank-ms-for", "0=0", "--sandbox", "none"]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True, timeout=120)
    result = replay(record).result
    assert result.verdicts[0] == "ok" and result.verdicts[1] == "timeout"
    header = json.loads(record.read_text().splitlines()[0])
    assert header["clock"]["move_ms"] == 20
    assert header["seats"][0]["move_ms"] == 2000 and header["seats"][0]["bank_ms"] == 0
    assert "move_ms" not in header["seats"][1] and "move_ms" not in header["seats"][2]


@pytest.mark.parametrize("bad", ["1", "x=5", "3=5", "0=0", "0=5 0=6"])
def test_move_ms_for_rejects_bad_values(bad: str) -> None:
    argv = [*REFEREE, "play", "manila", "--bot", "python3 bots/random_bot.py"]
    argv += ["--bot", "python3 bots/random_bot.py", "--bot", "python3 bots/random_bot.py"]
    for item in bad.split():
        argv += ["--move-ms-for", item]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--move-ms-for" in done.stderr


def test_a_tournament_entrant_plays_by_its_own_clock(tmp_path: Path) -> None:
    """The slow entrant has ``move_ms = 2000`` of its own under a 20 ms tournament
    clock: it never times out; the other slow entrant does."""
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "clocks"\ngame = "manila"\nseats = 3\nrounds = 1\nmove_ms = 20\n'
        'sandbox = "none"\nreuse = false\n'
        f'[[bots]]\nname = "patient"\ncommand = "python3 {SLOW} 0.08"\nmove_ms = 2000\n'
        f'[[bots]]\nname = "hasty"\ncommand = "python3 {SLOW} 0.08"\n'
        f'[[bots]]\nname = "random"\ncommand = "python3 {ROOT}/bots/random_bot.py"\n'
    )
    out = tmp_path / "run"
    argv = [*REFEREE, "tournament", str(config), "--out", str(out), "--format", "json"]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True, timeout=300)
    records = sorted((out / "records").glob("*.jsonl"))
    assert records
    for path in records:
        header = json.loads(path.read_text().splitlines()[0])
        names = [s["name"] for s in header["seats"]]
        verdicts = dict(zip(names, replay(path).result.verdicts, strict=True))
        assert verdicts["patient"] == "ok" and verdicts["hasty"] == "timeout"
        seat = header["seats"][names.index("patient")]
        assert seat["move_ms"] == 2000 and "bank_ms" not in seat


def test_entrant_clocks_are_checked(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "c"\ngame = "manila"\n[[bots]]\nname = "a"\ncommand = "x"\nmove_ms = 0\n'
    )
    with pytest.raises(ConfigError, match="move_ms must be positive"):
        load_config(config)
