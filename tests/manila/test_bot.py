"""The heuristic Manila bot: legal choices, protocol loop, and it beats random play."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import msgspec

from benchmarks.strength.manila_match import ManilaBot, play
from referee.games.manila import GAME

BOT = Path(__file__).resolve().parents[2] / "bots" / "manila_bot.py"


def test_bot_beats_random_seats() -> None:
    for cautious in (False, True):
        bot = ManilaBot(cautious=cautious)
        wins = sum(play(4, g % 4, 50 + g, bot)[1][g % 4] == 1 for g in range(24))
        assert wins >= 18  # chance level would be 6


def test_bot_always_picks_a_legal_index_under_every_option() -> None:
    options = {"pirate_displacement": True, "pass_is_final": False}
    rng = random.Random(9)
    for seats in (3, 5):
        state = GAME.new_game(seats, GAME.parse_options(options))
        bots = [ManilaBot(cautious=bool(s % 2)) for s in range(seats)]
        while not state.is_terminal():
            who = state.to_move()
            if who < 0:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            index = bots[who].choose(state.view(who), legal, [])
            assert 0 <= index < len(legal)
            state.apply_action(legal[index])


def test_bot_speaks_the_protocol() -> None:
    state = GAME.new_game(3)
    state.apply_chance([["nutmeg", "silk"], ["ginseng", "jade"], ["nutmeg", "jade"]])
    view = msgspec.to_builtins(state.view(0))
    legal = msgspec.to_builtins(state.legal_actions())
    lines = [
        {"type": "start", "protocol": 1, "match": "m", "game": "manila", "options": {},
         "seat": 0, "seats": 3, "players": ["a", "b", "c"], "clock": {}},
        {"type": "act", "id": 4, "ply": 1, "view": view, "legal": legal, "events": [],
         "clock": {}},
        {"type": "end", "result": {}, "verdicts": [], "reason": "finished", "events": []},
    ]  # fmt: skip
    out = subprocess.run(
        [sys.executable, str(BOT)],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    ready, action = (json.loads(line) for line in out)
    assert ready["type"] == "ready"
    assert action["type"] == "action" and action["id"] == 4
    assert 0 <= action["index"] < len(legal)
