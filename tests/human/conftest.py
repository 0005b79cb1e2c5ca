"""Fixtures of the human-seat tests: a real ``referee play`` with a ``human`` seat, and
the headless Chromium of the viewer tests."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.conftest import browser  # noqa: F401  (the shared Chromium fixture)

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class HumanMatch:
    """A running ``referee play`` whose seat ``seat`` is the human seat at ``url``."""

    process: subprocess.Popen[str]
    url: str
    record: Path
    seat: int

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return self.url.split("/?", 1)[0]

    @property
    def token(self) -> str:
        """The page's token."""
        return self.url.split("token=", 1)[1]

    def finish(self, timeout_s: float = 60.0) -> str:
        """Wait for the referee to end; its stdout (raises on a non-zero exit)."""
        out, err = self.process.communicate(timeout=timeout_s)
        assert self.process.returncode == 0, err
        return out


def start_match(
    tmp_path: Path, game: str, bots: list[str], *, seed: int = 1, extra: list[str] | None = None
) -> HumanMatch:
    """Start ``referee play GAME`` with ``bots`` (one of them ``human ...``, to which
    ``--no-browser --url-file`` are added) and wait for the human page's URL."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    url_file = tmp_path / "human.url"
    record = tmp_path / "game.jsonl"
    argv = [sys.executable, "-m", "referee.cli.main", "play", game, "--seed", str(seed)]
    argv += ["--record", str(record), *(extra or [])]
    seat = -1
    for i, bot in enumerate(bots):
        if bot.split()[0] == "human":
            bot += f" --no-browser --url-file {url_file}"
            seat = i
        argv += ["--bot", bot]
    process = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while not url_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            out, err = process.communicate()
            raise AssertionError(f"the human seat never served its page: {out} {err}")
        time.sleep(0.02)
    return HumanMatch(process, url_file.read_text().strip(), record, seat)


@pytest.fixture
def human_match(tmp_path: Path) -> Iterator[list[HumanMatch]]:
    """Matches started with :func:`start_match`; any still running is killed at the end."""
    started: list[HumanMatch] = []
    yield started
    for m in started:
        if m.process.poll() is None:
            m.process.kill()
            m.process.communicate()


def click_to_the_end(page: Any, rng: random.Random) -> tuple[int, int]:
    """Click through the rest of the game on an open seat page: at each request, a
    board element naming exactly one legal action (half the time, where there is one)
    or a legal-action button, chosen by ``rng``; ``(moves, board clicks)``."""
    moves = board = 0
    last = ""
    while True:
        page.wait_for_function(
            "last => document.body.dataset.finished === '1' || "
            "(document.body.dataset.request && document.body.dataset.request !== last && "
            "document.querySelector('#actions button.act:not([disabled])'))",
            arg=last,
            timeout=30_000,
        )
        if page.evaluate("document.body.dataset.finished") == "1":
            return moves, board
        last = page.evaluate("document.body.dataset.request")
        targets = page.locator("#board .clickable[data-choices]:not([data-choices*=' '])")
        if targets.count() and rng.random() < 0.5:
            targets.nth(rng.randrange(targets.count())).click()
            board += 1
        else:
            buttons = page.locator("#actions button.act:not([disabled])")
            buttons.nth(rng.randrange(buttons.count())).click()
        moves += 1


def play_by_http(match: HumanMatch, seed: int = 0) -> int:
    """Play the human seat to the end through its HTTP interface (random legal
    choices, no browser); the number of moves made."""
    import json
    import urllib.request

    rng = random.Random(seed)
    version, moves = -1, 0
    while True:
        request = urllib.request.Request(
            f"{match.base}/state?since={version}", headers={"X-Referee-Token": match.token}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as f:
                state = json.loads(f.read())
        except OSError:
            return moves  # the seat has closed: the match is over
        version = state["version"]
        if state["result"] is not None:
            return moves
        if state["request"] is not None:
            legal = state["request"]["legal"]
            body = json.dumps({"id": state["request"]["id"], "index": rng.randrange(len(legal))})
            post = urllib.request.Request(
                f"{match.base}/action",
                data=body.encode(),
                headers={"X-Referee-Token": match.token, "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(post, timeout=30):
                moves += 1
