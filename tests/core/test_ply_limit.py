"""The referee's ply limit: long games are cut, adjudicated, recorded and replayable."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from referee.api.engine import Game
from referee.cli.main import main
from referee.games import all_games
from referee.match.record import Header, MoveLine, ResultLine, read_record
from referee.match.replay import ReplayError, replay
from referee.process.spec import BotSpec
from referee.tournament.config import ConfigError, load_config
from referee.tournament.resultsdb import ResultsDB
from tests.core.test_match import RANDOM_BOT, play, zoo
from tests.core.toygame import GAME

LONG = GAME.parse_options({"target": 10_000})  # never ends by itself within the limit
ROOT = Path(__file__).resolve().parents[2]


def lookup(name: str) -> Game:
    assert name == GAME.name
    return GAME


def rewrite(path: Path, edit: Callable[[dict[str, Any]], dict[str, Any]]) -> Path:
    """A copy of record ``path`` with every line passed through ``edit``."""
    out = path.with_name("edited.jsonl")
    lines = [edit(json.loads(line)) for line in path.read_text().splitlines()]
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return out


def test_a_long_game_is_cut_and_ranked_by_its_position(tmp_path: Path) -> None:
    bots = [BotSpec("a", RANDOM_BOT), BotSpec("b", RANDOM_BOT), BotSpec("c", RANDOM_BOT)]
    out = play(bots, tmp_path, options=LONG, max_plies=9)
    assert out.reason == "ply_limit" and out.plies == 9
    assert all(s.verdict == "ok" for s in out.seats)
    checked = replay(tmp_path / "m.jsonl", lookup=lookup)
    assert not checked.state.is_terminal()
    assert checked.state.ranks() == out.ranks  # the position's own ranking
    assert out.scores == [float(x) for x in checked.state.scores()]
    lines = read_record(tmp_path / "m.jsonl")
    header, result = lines[0], lines[-1]
    assert isinstance(header, Header) and header.max_plies == 9
    assert header.adjudication == "scores"
    assert isinstance(result, ResultLine) and result.reason == "ply_limit"
    assert len([x for x in lines if isinstance(x, MoveLine)]) == 8  # ply 0 is the deal


def test_draw_adjudication_ties_every_clean_seat(tmp_path: Path) -> None:
    bots = [zoo("ok"), zoo("not_legal"), zoo("ok")]
    out = play(bots, tmp_path, options=LONG, max_plies=12, adjudication="draw")
    assert out.reason == "ply_limit"
    assert out.ranks == [1, 3, 1]  # the faulted seat still ranks last
    assert replay(tmp_path / "m.jsonl", lookup=lookup).result.ranks == [1, 3, 1]


def test_a_game_that_ends_first_is_not_adjudicated(tmp_path: Path) -> None:
    out = play([zoo("ok"), zoo("ok")], tmp_path, max_plies=10_000)
    assert out.reason == "finished" and out.plies < 10_000
    assert replay(tmp_path / "m.jsonl", lookup=lookup).result.reason == "finished"


def test_negative_limit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_plies"):
        play([zoo("ok"), zoo("ok")], tmp_path, max_plies=-1)


def test_replay_rejects_a_faked_limit(tmp_path: Path) -> None:
    play([zoo("ok"), zoo("ok")], tmp_path, options=LONG, max_plies=6)
    record = tmp_path / "m.jsonl"

    def claim_finished(line: dict[str, Any]) -> dict[str, Any]:
        if line["type"] == "result":
            line["reason"] = "finished"
        return line

    with pytest.raises(ReplayError, match="before the game is over"):
        replay(rewrite(record, claim_finished), lookup=lookup)

    def raise_limit(line: dict[str, Any]) -> dict[str, Any]:
        if line["type"] == "header":
            line["max_plies"] = 60
        return line

    with pytest.raises(ReplayError, match="before the game is over"):
        replay(rewrite(record, raise_limit), lookup=lookup)

    def lower_limit(line: dict[str, Any]) -> dict[str, Any]:
        if line["type"] == "header":
            line["max_plies"] = 4
        return line

    with pytest.raises(ReplayError, match="beyond the limit of 4"):
        replay(rewrite(record, lower_limit), lookup=lookup)

    def flip_adjudication(line: dict[str, Any]) -> dict[str, Any]:
        if line["type"] == "header":
            line["adjudication"] = "draw"
        return line

    ranks = next(r for r in read_record(record) if isinstance(r, ResultLine)).ranks
    if ranks != [1, 1]:
        with pytest.raises(ReplayError, match="expected ranks"):
            replay(rewrite(record, flip_adjudication), lookup=lookup)


def test_config_limit_reaches_the_results_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    random_bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "toy"\ngame = "secret-race"\nseats = 2\nmax_plies = 7\n'
        "[options]\ntarget = 10000\n"
        f'[[bots]]\nname = "a"\ncommand = "{random_bot}"\n'
        f'[[bots]]\nname = "b"\ncommand = "{random_bot}"\n'
    )
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["tournament", str(config), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    rows = ResultsDB(out / "results.sqlite").rows()
    assert len(rows) == 2 and all(r.reason == "ply_limit" and r.plies == 7 for r in rows)
    bad = tmp_path / "bad.toml"
    bad.write_text(config.read_text().replace("max_plies = 7", "max_plies = -3"))
    with pytest.raises(ConfigError, match="max_plies"):
        load_config(bad)


def test_play_command_reports_the_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    random_bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    record = tmp_path / "r.jsonl"
    args = ["play", "secret-race", "--bot", random_bot, "--bot", random_bot]
    args += ["--option", "target=10000", "--max-plies", "5", "--record", str(record)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.stderr
    assert "5 plies, cut at the ply limit" in result.stdout
    checked = CliRunner().invoke(main, ["replay", str(record)])
    assert checked.exit_code == 0 and "adjudicated at the ply limit" in checked.stdout


def test_results_database_of_an_older_run_gains_the_reason_column(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE matches (id TEXT PRIMARY KEY, block INTEGER NOT NULL, rotation INTEGER "
        "NOT NULL, seed INTEGER NOT NULL, bots TEXT NOT NULL, scores TEXT NOT NULL, ranks TEXT "
        "NOT NULL, verdicts TEXT NOT NULL, details TEXT NOT NULL, moves TEXT NOT NULL, total_ms "
        "TEXT NOT NULL, max_ms TEXT NOT NULL, plies INTEGER NOT NULL, record TEXT, finished_at "
        "REAL NOT NULL DEFAULT (unixepoch()))"
    )
    conn.execute(
        "INSERT INTO matches (id, block, rotation, seed, bots, scores, ranks, verdicts, details, "
        "moves, total_ms, max_ms, plies) VALUES ('m1', 0, 0, 1, '[\"a\"]', '[1.0]', '[1]', "
        "'[\"ok\"]', '[\"\"]', '[3]', '[1.0]', '[1.0]', 9)"
    )
    conn.commit()
    conn.close()
    rows = ResultsDB(path).rows()
    assert [(r.id, r.reason) for r in rows] == [("m1", "finished")]
    assert msgspec.to_builtins(rows[0])["plies"] == 9
