"""Counts in words (issue 33, item 15): never "1 matches"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import all_games
from referee.wording import counted, plural
from tests.core.test_cli import RANDOM
from tests.core.toygame import GAME


@pytest.mark.parametrize(
    ("noun", "many"),
    [("match", "matches"), ("ply", "plies"), ("move", "moves"), ("day", "days"), ("seat", "seats")],
)
def test_plural(noun: str, many: str) -> None:
    assert plural(noun) == many


def test_counted_agrees_with_the_last_number() -> None:
    assert counted(1, "match") == "1 match"
    assert counted(0, "match") == "0 matches"
    assert counted(1, "match", of=1) == "1 of 1 match"
    assert counted(1, "match", of=2) == "1 of 2 matches"
    assert counted(1, "ply") == "1 ply"


def test_a_one_match_tournament_says_1_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    config = tmp_path / "t.toml"
    config.write_text(
        f'name = "one"\ngame = "{GAME.name}"\nseats = 2\ngames = 1\n'
        f'[[bots]]\nname = "a"\ncommand = "{RANDOM}"\n'
        f'[[bots]]\nname = "b"\ncommand = "{RANDOM}"\n'
    )
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["tournament", str(config), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "Standings (1 match)" in result.stdout
    again = CliRunner().invoke(main, ["results", str(out)])
    assert "Standings (1 match)" in again.stdout
    everything = result.stdout + result.stderr + again.stdout + again.stderr
    # A count reads "1 match"; a rate such as "8.51 matches/s" is not a count.
    assert not re.search(r"(?<![\d.])1 (of 1 )?matches(?!/s)", everything), everything


def test_a_one_ply_game_says_1_ply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)
    args = ["play", GAME.name, "--bot", RANDOM, "--bot", RANDOM, "--max-plies", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.stderr
    assert ", 1 ply, cut at the ply limit" in result.stdout
