"""A record edited by hand fails replay with a message naming the line.

Chance outcomes and fallback moves are re-drawn from the seed in the result line, so
a changed die, a swapped fallback, an erased fault or a changed seed is caught too.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.api.rng import LEGACY, match_rng
from referee.cli.main import main
from referee.match.match import run_match
from referee.match.record import RecordError
from referee.match.replay import replay
from referee.process.spec import BotSpec
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
BOT = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
QUITTER = [sys.executable, str(ROOT / "tests" / "zoo" / "zoo_bot.py"), "exit_at_once"]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("rec") / "m.jsonl"
    asyncio.run(
        run_match(
            GAME, [BotSpec("a", BOT), BotSpec("b", BOT)], seed=8, record_path=path, fsync=False
        )
    )
    replay(path, lookup=lambda _: GAME)  # the untouched record is consistent
    return path.read_text().splitlines(keepends=True)


def edit(lines: list[str], index: int, change: Callable[[dict], None]) -> list[str]:
    obj = json.loads(lines[index])
    change(obj)
    return [*lines[:index], json.dumps(obj) + "\n", *lines[index + 1 :]]


def first(lines: list[str], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)


def set_action(obj: dict) -> None:
    obj["action"] = {"kind": "add", "amount": 3}


def set_seat(obj: dict) -> None:
    obj["seat"] = 1 - obj["seat"]


def set_outcome(obj: dict) -> None:
    obj["outcome"] = [42, 1]


def set_ranks(obj: dict) -> None:
    obj["ranks"] = list(reversed(obj["ranks"])) if obj["ranks"][0] != obj["ranks"][1] else [1, 2]


def set_scores(obj: dict) -> None:
    obj["scores"][0] += 1


def set_verdict(obj: dict) -> None:
    obj["verdicts"][0] = "crash"


CASES = [
    ("move", set_action, "not legal"),
    ("move", set_seat, "expected a move by seat"),
    ("chance", set_outcome, "impossible chance outcome"),
    ("result", set_ranks, "expected ranks"),
    ("result", set_scores, "expected scores"),
    ("result", set_verdict, "expected verdicts"),
]


@pytest.mark.parametrize(("kind", "change", "needle"), CASES)
def test_edited_line_is_named(
    record: list[str], tmp_path: Path, kind: str, change: Callable[[dict], None], needle: str
) -> None:
    index = first(record, kind)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(edit(record, index, change)))
    with pytest.raises(RecordError) as err:
        replay(path, lookup=lambda _: GAME)
    message = str(err.value)
    assert needle in message
    assert f"line {index + 1} " in message


def test_truncated_file(record: list[str], tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    text = "".join(record)
    path.write_text(text[: len(text) - 10])
    with pytest.raises(RecordError, match=f"line {len(record)}: truncated"):
        replay(path, lookup=lambda _: GAME)


def test_missing_result(record: list[str], tmp_path: Path) -> None:
    path = tmp_path / "nores.jsonl"
    path.write_text("".join(record[:-1]))
    with pytest.raises(RecordError, match="no result line"):
        replay(path, lookup=lambda _: GAME)


def test_garbage_line(record: list[str], tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text("".join([*record[:3], "garbage here\n", *record[3:]]))
    with pytest.raises(RecordError, match="line 4: not a record line"):
        replay(path, lookup=lambda _: GAME)


def test_dropped_move(record: list[str], tmp_path: Path) -> None:
    index = first(record, "move")
    path = tmp_path / "drop.jsonl"
    path.write_text("".join([*record[:index], *record[index + 1 :]]))
    with pytest.raises(RecordError, match=f"line {index + 1} .*expected ply"):
        replay(path, lookup=lambda _: GAME)


# --- the seed in the result line binds every chance outcome and fallback move ---


@pytest.fixture(scope="module")
def forfeited(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A record in which seat 1 never starts, so all its moves are fallbacks."""
    path = tmp_path_factory.mktemp("rec") / "f.jsonl"
    asyncio.run(
        run_match(
            GAME,
            [BotSpec("a", BOT), BotSpec("quitter", QUITTER)],
            seed=11,
            options=GAME.parse_options({"target": 14}),
            record_path=path,
            fsync=False,
        )
    )
    replay(path, lookup=lambda _: GAME)  # the untouched record is consistent
    return path.read_text().splitlines(keepends=True)


def kinds(lines: list[str]) -> list[dict]:
    return [json.loads(line) for line in lines]


def fallbacks(lines: list[str]) -> list[int]:
    return [i for i, o in enumerate(kinds(lines)) if o["type"] == "move" and o["fallback"]]


def rejected(tmp_path: Path, lines: list[str], **kwargs: bool) -> str:
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(lines))
    with pytest.raises(RecordError) as err:
        replay(path, lookup=lambda _: GAME, **kwargs)
    return str(err.value)


def test_the_forfeit_record_has_a_fault_and_fallbacks(forfeited: list[str]) -> None:
    assert [o["seat"] for o in kinds(forfeited) if o["type"] == "fault"] == [1]
    assert len(fallbacks(forfeited)) >= 3


def test_a_changed_die_that_is_still_possible(record: list[str], tmp_path: Path) -> None:
    index = first(record, "chance")
    dealt = json.loads(record[index])["outcome"]

    def other_deal(obj: dict) -> None:
        obj["outcome"] = [(dealt[0] + 1) % 10, dealt[1]]

    message = rejected(tmp_path, edit(record, index, other_deal))
    assert f"line {index + 1} (ply 0)" in message
    assert "does not follow from seed 8" in message


def test_a_swapped_fallback_move(forfeited: list[str], tmp_path: Path) -> None:
    index = fallbacks(forfeited)[0]

    def swap(obj: dict) -> None:
        obj["action"] = {"kind": "add", "amount": 3 - obj["action"]["amount"]}

    message = rejected(tmp_path, edit(forfeited, index, swap))
    assert f"line {index + 1} " in message
    assert "fallback move" in message and "does not follow from seed 11" in message


def test_an_erased_fault(forfeited: list[str], tmp_path: Path) -> None:
    index = first(forfeited, "fault")
    lines = [*forfeited[:index], *forfeited[index + 1 :]]
    message = rejected(tmp_path, lines)
    first_fallback = fallbacks(lines)[0]
    assert f"line {first_fallback + 1} " in message
    assert "fallback move for seat 1, which has no fault" in message


def test_an_own_move_after_a_fault(forfeited: list[str], tmp_path: Path) -> None:
    index = fallbacks(forfeited)[1]

    def own(obj: dict) -> None:
        obj["fallback"] = False
        obj["ms"] = 12.5

    message = rejected(tmp_path, edit(forfeited, index, own))
    assert f"line {index + 1} " in message
    assert "not marked fallback, but that seat faulted at ply 0" in message


def test_erasing_the_fault_and_every_fallback_flag_still_fails(
    forfeited: list[str], tmp_path: Path
) -> None:
    """The forger's best standalone edit: only the result line can then disagree."""
    lines = [line for line in forfeited if json.loads(line)["type"] != "fault"]
    for index in fallbacks(lines):
        lines = edit(lines, index, lambda obj: obj.update(fallback=False, ms=3.0))
    message = rejected(tmp_path, lines)
    assert f"line {len(lines)} (result): expected" in message


def test_a_fallback_with_thinking_time(forfeited: list[str], tmp_path: Path) -> None:
    index = fallbacks(forfeited)[0]
    message = rejected(tmp_path, edit(forfeited, index, lambda obj: obj.update(ms=40.0)))
    assert f"line {index + 1} " in message and "expected 0" in message


def test_a_changed_seed(record: list[str], tmp_path: Path) -> None:
    result = len(record) - 1
    message = rejected(tmp_path, edit(record, result, lambda obj: obj.update(seed=9)))
    assert f"line {first(record, 'chance') + 1} (ply 0)" in message
    assert "does not follow from seed 9" in message
    assert f"(line {result + 1}, the result)" in message  # the edited line is named too


def test_a_changed_seed_caught_by_the_fallbacks(forfeited: list[str], tmp_path: Path) -> None:
    """Even with every die re-drawn for the new seed, the fallbacks give it away."""
    kind = json.loads(forfeited[0]).get("chance", LEGACY)
    played = json.loads(forfeited[fallbacks(forfeited)[0]])["action"]["amount"]
    # a seed whose first fallback (a choice between adding 1 and 2) differs
    seed = next(s for s in range(100) if 1 + match_rng(s, "fallback", kind).randrange(2) != played)
    lines = edit(forfeited, len(forfeited) - 1, lambda obj: obj.update(seed=seed))
    chance = first(lines, "chance")
    deal = match_rng(seed, "chance", kind)
    outcome = GAME.new_game(2, GAME.parse_options({"target": 14})).sample_chance(deal)
    lines = edit(lines, chance, lambda obj: obj.update(outcome=outcome))
    message = rejected(tmp_path, lines)
    assert f"line {fallbacks(lines)[0] + 1} " in message
    assert "fallback move" in message and f"does not follow from seed {seed}" in message


def test_a_record_without_a_seed_needs_the_flag(record: list[str], tmp_path: Path) -> None:
    result = len(record) - 1
    lines = edit(record, result, lambda obj: obj.pop("seed"))
    message = rejected(tmp_path, lines)
    assert f"line {result + 1} (result): no seed" in message
    assert "--unchecked-chance" in message
    path = tmp_path / "seedless.jsonl"
    path.write_text("".join(lines))
    checked = replay(path, lookup=lambda _: GAME, unchecked_chance=True)
    assert not checked.chance_checked
    # the flag never weakens a record that has its seed
    tampered = edit(record, first(record, "chance"), lambda obj: obj.update(outcome=[0, 0]))
    if json.loads(record[first(record, "chance")])["outcome"] != [0, 0]:
        assert "does not follow from seed" in rejected(tmp_path, tampered, unchecked_chance=True)


def test_replay_command_flags_unchecked_chance(
    record: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.games import all_games

    monkeypatch.setitem(all_games(), GAME.name, GAME)
    path = tmp_path / "seedless.jsonl"
    path.write_text("".join(edit(record, len(record) - 1, lambda obj: obj.pop("seed"))))
    refused = CliRunner().invoke(main, ["replay", str(path)])
    assert refused.exit_code == 2
    assert f"line {len(record)} (result): no seed" in refused.stderr
    assert "Traceback" not in refused.output
    accepted = CliRunner().invoke(main, ["replay", "--unchecked-chance", str(path)])
    assert accepted.exit_code == 0, accepted.output
    assert "CHANCE UNCHECKED (no seed)" in accepted.stdout
