"""``human --tty``: a whole game played in a terminal (a pseudo-terminal here) by
typing the numbers of legal actions; a wrong number is refused and asked again."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from referee.match.replay import replay

ROOT = Path(__file__).resolve().parents[2]


def read_until(fd: int, pattern: re.Pattern[str], buffer: list[str], timeout_s: float) -> str:
    """Read the terminal until ``pattern`` matches the text gathered since the last
    match; returns that text."""
    deadline = time.monotonic() + timeout_s
    while True:
        text = "".join(buffer)
        if pattern.search(text):
            buffer.clear()
            return text
        left = deadline - time.monotonic()
        assert left > 0, f"no {pattern.pattern!r} in {text[-2000:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                buffer.append(os.read(fd, 65536).decode("utf-8", "replace"))
            except OSError:  # the terminal closed
                buffer.append("")


def test_a_person_plays_roads_and_boats_in_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    master, slave = pty.openpty()
    argv = [sys.executable, "-m", "referee.cli.main", "play", "roads-and-boats", "--seed", "3"]
    argv += ["--option", "solo_turns=1", "--record", str(record), "--bot", "human --tty"]
    process = subprocess.Popen(
        argv, cwd=ROOT, stdin=slave, stdout=subprocess.PIPE, stderr=slave, text=True
    )
    os.close(slave)
    buffer: list[str] = []
    prompt = re.compile(r"your choice \(0-(\d+)\): $|game over:")
    try:
        first = True
        moves = 0
        while True:
            text = read_until(master, prompt, buffer, 60)
            if "game over:" in text:
                assert "seat 0 human#0" in text and ", ok" in text
                break
            assert "your view:" in text and "your move" in text
            count = int(prompt.findall(text)[-1] or 0) + 1
            if first:  # a number out of range is refused, and asked again
                os.write(master, f"{count}\n".encode())
                again = read_until(master, prompt, buffer, 30)
                assert "refused:" in again and "not one of the" in again
                first = False
            os.write(master, f"{moves % count}\n".encode())
            moves += 1
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        os.close(master)
    assert process.returncode == 0
    assert replay(record).result.verdicts == ["ok"]
    assert moves == len(replay(record, seat=0).shown)
