"""A person plays whole games in a real browser (headless Chromium through playwright):
Manila at 3 seats against two bundled bots, Roads & Boats alone; every response the
page received is scanned for other seats' hidden information."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

from referee.match.replay import replay
from tests.human.conftest import HumanMatch, click_to_the_end, start_match
from tests.human.leaks import scan

MANILA_BOT = "python3 bots/manila_bot.py"


def play_by_clicking(page: Any, match: HumanMatch, seed: int) -> tuple[int, int]:
    """Open the seat's page and click through the whole game (see
    :func:`click_to_the_end`); ``(moves, board clicks)``."""
    page.goto(match.url)
    return click_to_the_end(page, random.Random(seed))


def collect_responses(page: Any) -> list[str]:
    """Every response body the page receives from now on (filled as they arrive)."""
    bodies: list[str] = []

    def keep(response: Any) -> None:
        with contextlib.suppress(Exception):  # a request abandoned when the seat closed
            bodies.append(response.text())

    page.on("response", keep)
    return bodies


def test_a_person_plays_manila_in_the_browser(
    browser: Any, tmp_path: Path, human_match: list[HumanMatch]
) -> None:
    """Seat 0 clicks through a 3-seat Manila game against two bundled bots; the game
    ends with verdict ``ok`` for every seat, the record replays, and nothing the page
    received holds another seat's secret."""
    match = start_match(tmp_path, "manila", ["human", MANILA_BOT, MANILA_BOT], seed=5)
    human_match.append(match)
    page = browser.new_page()
    bodies = collect_responses(page)
    moves, board = play_by_clicking(page, match, seed=5)
    assert page.locator("#result table.result").count() == 1
    out = match.finish()
    assert "human" in out
    page.close()
    checked = replay(match.record)
    assert checked.result.verdicts == ["ok", "ok", "ok"]
    assert moves == len(replay(match.record, seat=0).shown) > 10
    assert board > 0, "no move was made by clicking the board"
    header = json.loads(match.record.read_text().splitlines()[0])
    assert header["sandbox"] in ("bwrap", "none")
    assert header["seats"][0]["move_ms"] > 0
    assert len(bodies) > moves
    assert scan(bodies, match.record, 0) == []


def test_a_person_plays_roads_and_boats_alone(
    browser: Any, tmp_path: Path, human_match: list[HumanMatch]
) -> None:
    """A whole 1-seat Roads & Boats game by clicking (3 solo turns instead of 20, to
    stay quick); the record replays, verdict ok."""
    match = start_match(
        tmp_path, "roads-and-boats", ["human"], seed=2, extra=["--option", "solo_turns=3"]
    )
    human_match.append(match)
    page = browser.new_page()
    moves, _ = play_by_clicking(page, match, seed=2)
    match.finish()
    page.close()
    checked = replay(match.record)
    assert checked.result.verdicts == ["ok"]
    assert moves == len(replay(match.record, seat=0).shown)
