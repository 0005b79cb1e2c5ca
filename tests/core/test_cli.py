"""The command line, end to end, on the toy game (registered for the test)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import all_games
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
ZOO = f"{sys.executable} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_games_lists_seat_counts() -> None:
    code, out, _ = invoke("games")
    assert code == 0
    assert "secret-race" in out and "2-4" in out


def test_play_prints_result_and_record_replays(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    code, out, _ = invoke(
        "play",
        "secret-race",
        "--bot",
        RANDOM,
        "--bot",
        RANDOM,
        "--seed",
        "5",
        "--record",
        str(record),
    )
    assert code == 0, out
    assert "verdict" in out and "seed 5" in out
    code, out, _err = invoke("replay", str(record))
    assert code == 0
    assert "ok: secret-race" in out


def test_play_json_format(tmp_path: Path) -> None:
    _code, out, _ = invoke(
        "play", "secret-race", "--bot", RANDOM, "--bot", RANDOM, "--format", "json"
    )
    rows = json.loads(out)["seats"]
    assert [r["seat"] for r in rows] == [0, 1]
    assert sorted(r["rank"] for r in rows)[0] == 1


def test_replay_seat_shows_only_own_secret(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    invoke(
        "play",
        "secret-race",
        "--bot",
        RANDOM,
        "--bot",
        RANDOM,
        "--seed",
        "9",
        "--record",
        str(record),
    )
    deal = json.loads(record.read_text().splitlines()[1])["outcome"]
    code, out, _ = invoke("replay", str(record), "--seat", "1")
    assert code == 0
    shown = [json.loads(line) for line in out.splitlines()]
    assert shown and all(s["view"]["my_secret"] == deal[1] for s in shown)
    assert shown[0]["events"][0] == {"ply": 0, "chance": {"my_secret": deal[1]}}


def test_replay_at_ply_prints_state(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    invoke("play", "secret-race", "--bot", RANDOM, "--bot", RANDOM, "--record", str(record))
    code, out, _ = invoke("replay", str(record), "--at", "1")
    assert code == 0
    state = json.loads(out)
    assert state["counter"] == 0
    assert state["adds"] == [0, 0]  # a snapshot, not the final state's lists


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "chess", "--bot", "x"], "unknown game 'chess'"),
        (["play", "secret-race", "--bot", RANDOM], "2-4 seats, not 1"),
        (["play", "secret-race", "--bot", "no-such-program-xyz", "--bot", RANDOM], "not found"),
        (
            ["play", "secret-race", "--bot", RANDOM, "--bot", RANDOM, "--option", "bogus=1"],
            "bad option",
        ),
        (["replay", "/nonexistent/record.jsonl"], "cannot read"),
        (["schema", "chess"], "unknown game"),
        (["tournament", "/nonexistent.toml"], "cannot read"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], needle: str) -> None:
    code, out, err = invoke(*args)
    assert code != 0
    assert needle in err
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_malformed_config(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text('name = "x"\ngame = "secret-race"\nbots = 3\n')
    code, _, err = invoke("tournament", str(config))
    assert code == 2 and "t.toml" in err and "Traceback" not in err


def test_tournament_runs_resumes_and_reports(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f'name = "toy"\ngame = "secret-race"\nseats = 2\nrounds = 2\nmove_ms = 2000\n'
        f'[[bots]]\nname = "random"\ncommand = "{RANDOM}"\n'
        f'[[bots]]\nname = "zoo"\ncommand = "{ZOO} ok"\n'
        f'[[bots]]\nname = "crasher"\ncommand = "{ZOO} crash"\n'
    )
    out = tmp_path / "run"
    code, stdout, err = invoke("tournament", str(config), "--out", str(out), "--concurrency", "2")
    assert code == 0, err
    assert "Standings (12 matches)" in stdout
    assert "crash 8" in stdout
    records = sorted((out / "records").glob("*.jsonl"))
    assert len(records) == 12
    for record in records:
        assert invoke("replay", str(record))[0] == 0
    # Resuming a complete run plays nothing more; results re-prints the same tables.
    code, again, _ = invoke("tournament", "--resume", str(out), "--format", "json")
    data = json.loads(again)
    assert sum(r["games"] for r in data["standings"]) == 24
    code, res, _ = invoke("results", str(out), "--format", "csv")
    assert code == 0 and res.splitlines()[:2] == ["# standings", res.splitlines()[1]]
    assert res.splitlines()[1].startswith("bot,games,wins")
    # A second run into the same directory is refused.
    code, _, err = invoke("tournament", str(config), "--out", str(out))
    assert code == 2 and "--resume" in err
