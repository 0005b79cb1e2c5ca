"""``referee regress --html``: the LLR over games against the SPRT bounds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.games import all_games
from referee.regress import regress
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def test_regress_writes_a_page_with_one_llr_point_per_block(tmp_path: Path) -> None:
    page = tmp_path / "regress.html"
    args = [
        "--game", "secret-race", "--candidate", RANDOM, "--baseline", RANDOM, "--quiet",
        "--move-ms", "3000", "--seed-secret", "fixed", "--max-games", "6",
        "--html", str(page),
    ]  # fmt: skip
    result = CliRunner().invoke(regress, args, catch_exceptions=False)
    assert result.exit_code == 2  # inconclusive at --max-games
    text = page.read_text()
    assert "inconclusive" in text and "after 6 games" in text
    assert text.count('class="bound"') == 2
    points = re.search(r'class="series"[^>]*points="([^"]*)"', text)
    assert points is not None
    assert len(points.group(1).split()) == 1 + 3  # the origin and one point per block
    assert "http" not in text
