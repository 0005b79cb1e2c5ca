"""The leak scan of the human page's responses finds a planted leak (so a clean scan in
test_browser_game means something)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec

from referee.match.replay import replay
from tests.human.leaks import scan

ROOT = Path(__file__).resolve().parents[2]


def manila_record(tmp_path: Path) -> Path:
    """A 3-seat Manila game of random bots."""
    record = tmp_path / "manila.jsonl"
    bot = "python3 bots/random_bot.py"
    argv = [sys.executable, "-m", "referee.cli.main", "play", "manila", "--seed", "4"]
    argv += ["--record", str(record), "--bot", bot, "--bot", bot, "--bot", bot]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    return record


def as_json(value: object) -> object:
    return msgspec.json.decode(msgspec.json.encode(value))


def test_leak_scan_finds_a_planted_leak(tmp_path: Path) -> None:
    """Responses shaped as the page's, holding seat 0's views, pass; the same with
    another seat's view added, a secret field planted, or another seat's view in place
    of seat 0's, fail."""
    record = manila_record(tmp_path)
    mine = replay(record, seat=0).shown
    theirs = {d.ply: d for d in replay(record, seat=1).shown}
    clean = [
        json.dumps({"version": i, "seat": 0, "ply": d.ply, "view": as_json(d.view), "log": []})
        for i, d in enumerate(mine)
    ]
    clean.append("<!DOCTYPE html><html><body>page</body></html>")
    assert scan(clean, record, 0) == []
    later = next(d for d in mine if d.ply > 0)
    other = as_json(theirs[min(theirs, key=lambda p: abs(p - later.ply))].view)
    snapshot = {"version": 1, "seat": 0, "ply": later.ply, "view": as_json(later.view)}
    planted = [
        {**snapshot, "others": [other]},  # another seat's whole view
        {**snapshot, "log": [{"text": "x", "hand": {"jade": 1}}]},  # a secret field
        {**snapshot, "view": other},  # another seat's view instead of ours
    ]
    for leak in planted:
        problems = scan([*clean, json.dumps(leak)], record, 0)
        assert problems, leak
    html = '<script>const D = {"hands": [[1], [2], [3]]};</script>'
    assert scan([html], record, 0)
