"""Seat names on the human seat's page are text, never markup: a bot's display name
comes from its script's file name or ``--name``, so it is hostile data wherever shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.core.forger_bot import PWNED
from tests.human.conftest import HumanMatch, start_match

MANILA_BOT = "python3 bots/manila_bot.py"
NAMES = [f"</script><!--<script>{PWNED}</script>", "<img src=x onerror=" + PWNED + ">", "me"]


def test_hostile_seat_names_are_shown_as_text(
    browser: Any, tmp_path: Path, human_match: list[HumanMatch]
) -> None:
    names = [arg for name in NAMES for arg in ("--name", name)]
    match = start_match(tmp_path, "manila", [MANILA_BOT, MANILA_BOT, "human"], extra=names)
    human_match.append(match)
    page = browser.new_page()
    try:
        page.goto(match.url)
        # The two bots bid before the human seat: its log then names both of them.
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
        log = page.inner_text("#log")
        assert NAMES[0] in log and NAMES[1] in log
        assert page.evaluate("window.__pwned") is None
        assert page.locator("#log img, #board img, #log script").count() == 0
    finally:
        page.close()
