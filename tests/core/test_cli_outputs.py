"""What ``play`` and ``replay`` print, for machines as for people (issue 33, items 7
and 8): every format of ``play`` carries the seed, the ply count and the cut at the
ply limit; ``replay --seat K --at P`` prints one output, seat K's view at ply P."""

from __future__ import annotations

import csv
import io
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


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def play(*extra: str) -> tuple[int, str, str]:
    return invoke("play", GAME.name, "--bot", RANDOM, "--bot", RANDOM, "--seed", "11", *extra)


def test_play_json_carries_the_seed_the_plies_and_the_cut() -> None:
    code, out, _ = play("--format", "json", "--max-plies", "3")
    assert code == 0, out
    data = json.loads(out)
    assert data["match"] == {
        "seed": 11,
        "plies": 3,
        "reason": "ply_limit",
        "cut_at_ply_limit": True,
        "sandbox": data["match"]["sandbox"],
        "record": None,
        "signature": None,
    }
    assert data["match"]["sandbox"] in ("bwrap", "none")
    assert [row["seat"] for row in data["seats"]] == [0, 1]


def test_play_json_of_a_finished_game_is_not_cut(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    code, out, _ = play("--format", "json", "--record", str(record))
    assert code == 0, out
    match = json.loads(out)["match"]
    assert match["reason"] == "finished" and match["cut_at_ply_limit"] is False
    assert match["plies"] > 3 and match["record"] == str(record)
    code, again, _ = invoke("replay", str(record))
    assert code == 0 and f"{match['plies']} plies" in again


def test_play_csv_carries_the_seed_the_plies_and_the_cut() -> None:
    code, out, _ = play("--format", "csv", "--max-plies", "3")
    assert code == 0, out
    match_part, seats_part = out.strip().split("\n\n")
    assert match_part.startswith("# match\n") and seats_part.startswith("# seats\n")
    (match,) = list(csv.DictReader(io.StringIO(match_part.split("\n", 1)[1])))
    assert match["seed"] == "11" and match["plies"] == "3"
    assert match["reason"] == "ply_limit" and match["cut_at_ply_limit"] == "True"
    seats = list(csv.DictReader(io.StringIO(seats_part.split("\n", 1)[1])))
    assert [row["seat"] for row in seats] == ["0", "1"]


def test_play_plain_still_says_seed_plies_and_cut() -> None:
    code, out, _ = play("--max-plies", "3")
    assert code == 0, out
    assert "seed 11, 3 plies, cut at the ply limit (adjudicated)" in out


def test_replay_seat_at_ply_prints_only_that_seats_view(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    assert play("--record", str(record))[0] == 0
    deal = json.loads(record.read_text().splitlines()[1])["outcome"]
    code, out, err = invoke("replay", str(record), "--seat", "1", "--at", "2")
    assert code == 0, err
    view = json.loads(out)  # one JSON object, no decision lines before it
    assert view["seat"] == 1 and view["my_secret"] == deal[1] and "secrets" not in view
    assert "ok: secret-race" in err  # the verdict on stderr, apart from the view
    code, alone, _ = invoke("replay", str(record), "--seat", "1")
    decisions = [json.loads(line) for line in alone.splitlines()]
    assert len(decisions) > 1 and all("ply" in d and "legal" in d for d in decisions)
