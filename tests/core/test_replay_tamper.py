"""A record edited by hand fails replay with a message naming the line."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.bot import BotSpec
from referee.match import run_match
from referee.record import RecordError
from referee.replay import replay
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
BOT = [sys.executable, str(ROOT / "bots" / "random_bot.py")]


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
    if kind != "result":
        assert f"line {index + 1}" in message


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
