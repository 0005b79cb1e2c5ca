"""``referee schema GAME`` accepts every message a bot is sent (issue 14).

Two checks per game, with a JSON Schema validator (``jsonschema``, draft 2020-12):

* bundled-bot matches: the game's bundled bot plays against bots that copy every line
  they receive (``tests/hidden/dump_bot.py``); every copied line (``start``, every
  ``act`` with its view, legal list and events, ``end``) validates against the
  schema's referee-to-bot messages;
* engine walks: random games at every seat count, with every event each viewer may
  see (redacted moves and chance outcomes included) validated against ``event``, and
  the redacted forms are seen to occur where the game hides something.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from referee.api.engine import CHANCE, TERMINAL, Game
from referee.cli.main import main
from referee.games import all_games
from referee.match.match import Clock, run_match
from referee.process.spec import BotSpec
from referee.process.wire_schema import wire_schema
from tests.core.toygame import GAME as TOY

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
DUMP_BOT = ROOT / "tests" / "hidden" / "dump_bot.py"
BUNDLED = {
    "manila": "manila_bot.py",
    "navegador": "navegador_bot.py",
    "puerto-rico": "puerto_rico_bot.py",
    "roads-and-boats": "roads_and_boats_bot.py",
}
GAMES = sorted(all_games().items())


def validator(game: Game, part: str) -> Any:
    """A validator of one part of the game's wire schema (``event``, ``messages``...)."""
    full = wire_schema(game)
    target = full["properties"][part]
    if part == "messages":
        target = target["referee_to_bot"]
    schema = {"$schema": full["$schema"], "$defs": full["$defs"], **target}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_game_has_wire_shapes() -> None:
    assert all(game.chance_schema() is not None for game in all_games().values())
    assert set(BUNDLED) == set(all_games())


def test_a_game_without_chance_shapes_fails_loudly() -> None:
    assert TOY.chance_schema() is None and TOY.redacted_action_schemas() == []
    with pytest.raises(NotImplementedError, match=TOY.name):
        wire_schema(TOY)


def test_schema_command_prints_the_wire_parts() -> None:
    result = CliRunner().invoke(main, ["schema", "manila"])
    assert result.exit_code == 0
    props = json.loads(result.stdout)["properties"]
    assert {"action", "view", "options", "event", "chance", "redacted_action", "messages"} <= set(
        props
    )


@pytest.mark.parametrize(("name", "game"), GAMES, ids=[n for n, _ in GAMES])
def test_bundled_bot_match_messages_validate(name: str, game: Game, tmp_path: Path) -> None:
    seats = game.min_seats if game.min_seats > 1 else 2
    bundled = BotSpec("bundled", [sys.executable, str(ROOT / "bots" / BUNDLED[name])])
    dumps = [tmp_path / f"seat{s}.jsonl" for s in range(seats)]
    bots = [bundled] + [
        BotSpec(f"dump{s}", [sys.executable, str(DUMP_BOT), "--out", str(dumps[s]), "--seed", "5"])
        for s in range(1, seats)
    ]
    outcome = asyncio.run(
        run_match(
            game,
            bots,
            seed=20_261_123,
            clock=Clock(startup_ms=60_000, move_ms=60_000, bank_ms=0),
            max_plies=250,
            fsync=False,
        )
    )
    assert outcome.verdicts == ["ok"] * seats, [s.detail for s in outcome.seats]
    check = validator(game, "messages")
    kinds: dict[str, int] = {}
    for path in dumps[1:]:
        for line in path.read_text().splitlines():
            message = json.loads(line)
            errors = sorted(check.iter_errors(message), key=lambda e: e.path)
            assert not errors, (message.get("type"), errors[0].message[:300])
            kinds[message["type"]] = kinds.get(message["type"], 0) + 1
    assert kinds.get("start") == seats - 1 and kinds.get("end") == seats - 1
    assert kinds.get("act", 0) > 0


@pytest.mark.parametrize(("name", "game"), GAMES, ids=[n for n, _ in GAMES])
def test_every_event_a_viewer_may_see_validates(name: str, game: Game) -> None:
    check = validator(game, "event")
    redacted = 0
    seen_events: set[bytes] = set()  # each distinct event is validated once
    # Whole games of Manila (where redaction happens); the others' openings suffice.
    plies = 1500 if name == "manila" else 250
    for seats in range(game.min_seats, game.max_seats + 1):
        for seed in range(2):
            rng = random.Random(1000 * seats + seed)
            state = game.new_game(seats)
            for _ply in range(plies):
                if state.to_move() == TERMINAL:
                    break
                events: list[Any] = []
                if state.to_move() == CHANCE:
                    outcome = state.sample_chance(rng)
                    for viewer in range(seats):
                        seen = state.observe_chance(outcome, viewer)
                        if seen is not None:
                            events.append({"ply": 0, "chance": seen})
                    state.apply_chance(outcome)
                else:
                    seat = state.to_move()
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    for viewer in range(seats):
                        seen = state.observe_action(seat, action, viewer)
                        if seen is not None:
                            redacted += seen is not action
                            events.append({"ply": 0, "seat": seat, "action": seen})
                    state.apply_action(action)
                seen_events.update(msgspec.json.encode(e) for e in events)
    for line in seen_events:
        event = json.loads(line)
        errors = list(check.iter_errors(event))
        assert not errors, (event, errors[0].message[:300])
    if name == "manila":
        assert redacted > 0  # mortgages/redeems seen by other seats were checked


@pytest.mark.parametrize(
    ("name", "outcome", "valid"),
    [
        ("manila", [["silk", "jade"], None, None], True),
        ("manila", {"silk": 4, "jade": 1}, True),
        ("manila", {"silk": 7}, False),
        ("manila", [["silk", "gold"], None, None], False),
        ("navegador", [70, 90, 100], True),
        ("puerto-rico", [0, 3, 1], True),
        ("puerto-rico", 2, True),
        ("puerto-rico", [5], False),
        ("roads-and-boats", 1022050301, True),
        ("roads-and-boats", [1, 0], True),
        ("roads-and-boats", [[12, "gold"], [40, "iron"]], True),
        ("roads-and-boats", [[12, "silver"]], False),
    ],
)
def test_chance_shapes_accept_the_documented_forms(name: str, outcome: Any, valid: bool) -> None:
    """The forms docs/protocol.md shows (mine draws never occur in random play)."""
    check = validator(all_games()[name], "chance")
    assert check.is_valid(outcome) == valid
