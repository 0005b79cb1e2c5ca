"""The heuristic bot: legal choices, beats random play in a few fixed games, and speaks
the JSON Lines protocol as a subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots.puerto_rico_bot import PuertoRicoBot
from referee.api.engine import CHANCE, TERMINAL
from referee.botkit import Clock
from referee.games.puerto_rico import GAME

ROOT = Path(__file__).resolve().parents[2]


def test_bot_beats_random_players_in_fixed_games() -> None:
    wins = 0
    for game_no in range(3):
        rng = random.Random(game_no)
        bot = PuertoRicoBot(seed=game_no)
        hero = game_no % 3
        state = GAME.new_game(3)
        while state.to_move() != TERMINAL:
            seat = state.to_move()
            if seat == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if seat == hero:
                view = msgspec.convert(msgspec.to_builtins(state.view(seat)), GAME.view_type)
                index = bot.choose(view, legal, [])
                assert 0 <= index < len(legal)
            else:
                index = rng.randrange(len(legal))
            state.apply_action(legal[index])
        wins += state.ranks()[hero] == 1
    assert wins == 3


def test_bot_speaks_the_protocol() -> None:
    state = GAME.new_game(3)
    state.apply_chance(0)
    state.apply_chance([0, 1, 2, 3])
    legal = msgspec.to_builtins(state.legal_actions())
    lines = [
        {
            "type": "start",
            "protocol": 1,
            "match": "t",
            "game": "puerto-rico",
            "options": {},
            "seat": 0,
            "seats": 3,
            "players": ["a", "b", "c"],
            "clock": {},
        },
        {
            "type": "act",
            "id": 1,
            "ply": 0,
            "view": msgspec.to_builtins(state.view(0)),
            "legal": legal,
            "events": [],
            "clock": {},
        },
        {"type": "end", "result": {}, "verdicts": [], "reason": "finished", "events": []},
    ]
    out = subprocess.run(
        [sys.executable, str(ROOT / "bots" / "puerto_rico_bot.py"), "--seed", "1"],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert replies[0]["type"] == "ready"
    assert replies[1]["type"] == "action" and replies[1]["id"] == 1
    assert 0 <= replies[1]["index"] < len(legal)


def test_tournament_config_names_this_game_and_both_bots() -> None:
    from referee.tournament.config import load_config

    config = load_config(ROOT / "tournaments" / "puerto_rico.toml")
    assert config.game == GAME.name and config.seats == 4
    GAME.parse_options(config.options)
    for bot in config.bots:
        script = bot.command.split()[-1]
        assert (ROOT / "tournaments" / script).resolve().is_file()


def test_the_bot_keeps_to_its_clock_past_the_deadline_roles_are_judged_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 33, item 6: under the protocol (``received`` set), an ``act`` whose time is
    already spent gets a role judged by its own phase only (no following pick is
    played out), the choice ``role_index`` makes without look-ahead; with time to
    spare the following picks run."""
    from bots import puerto_rico_bot

    state = GAME.new_game(4)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(random.Random(1)))
    legal = state.legal_actions()
    seat = state.to_move()
    assert len(legal) > 1
    calls: list[int] = []
    real = puerto_rico_bot.role_index

    def counted(*args: Any, **kwargs: Any) -> int:
        calls.append(args[3] if len(args) > 3 else kwargs.get("following", 0))
        return real(*args, **kwargs)

    monkeypatch.setattr(puerto_rico_bot, "role_index", counted)
    late = PuertoRicoBot(seed=2)
    late.received = time.perf_counter() - 10.0  # the act arrived 10 s ago
    picked = late.choose(state.view(seat), legal, [])
    assert calls == [puerto_rico_bot.FOLLOWING_PICKS, 0]  # gave up, then no look-ahead
    alone = real(GAME.determinize(state.view(seat), random.Random(0)), legal, random.Random(0))
    assert legal[picked] == legal[alone]

    calls.clear()
    calm = PuertoRicoBot(seed=2)
    calm.clock = Clock(move_ms=600_000)
    calm.received = time.perf_counter()
    calm.choose(state.view(seat), legal, [])
    assert calls[0] == puerto_rico_bot.FOLLOWING_PICKS and len(calls) > 2  # picks played out
