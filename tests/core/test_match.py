"""The match runner against well-behaved bots, on the toy game."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.match.match import Clock, MatchOutcome, final_ranks, run_match
from referee.match.record import ChanceLine, Header, MoveLine, ResultLine, read_record
from referee.process.bot import BotProcess
from referee.process.spec import BotSpec, resolve_command
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
ZOO = ROOT / "tests" / "zoo" / "zoo_bot.py"


def zoo(mode: str) -> BotSpec:
    return BotSpec(mode, [sys.executable, str(ZOO), mode])


def play(bots: list[BotSpec], tmp_path: Path, seed: int = 1, **kw: Any) -> MatchOutcome:
    return asyncio.run(
        run_match(
            GAME,
            bots,
            seed=seed,
            clock=kw.pop("clock", Clock(startup_ms=5000, move_ms=2000)),
            record_path=tmp_path / "m.jsonl",
            log_dir=tmp_path / "logs",
            fsync=False,
            **kw,
        )
    )


def test_final_ranks_put_faults_last_earliest_lowest() -> None:
    assert final_ranks([1, 2, 3], [None, None, None]) == [1, 2, 3]
    assert final_ranks([1, 2, 3], [5, None, None]) == [3, 1, 2]
    assert final_ranks([1, 2, 3, 4], [2, None, 9, None]) == [4, 1, 3, 2]
    assert final_ranks([1, 1, 3], [None, None, 0]) == [1, 1, 3]
    assert final_ranks([2, 1], [4, 4]) == [1, 1]


def test_clean_match_records_everything(tmp_path: Path) -> None:
    out = play(
        [BotSpec("a", RANDOM_BOT), BotSpec("b", RANDOM_BOT), BotSpec("c", RANDOM_BOT)], tmp_path
    )
    assert out.verdicts == ["ok", "ok", "ok"]
    assert sorted(out.ranks)[0] == 1
    lines = read_record(tmp_path / "m.jsonl")
    assert isinstance(lines[0], Header) and lines[0].game == "secret-race"
    assert isinstance(lines[1], ChanceLine) and len(lines[1].outcome) == 3
    moves = [line for line in lines if isinstance(line, MoveLine)]
    assert moves and not any(m.fallback for m in moves)
    assert [m.ply for m in moves] == list(range(1, len(moves) + 1))
    result = lines[-1]
    assert isinstance(result, ResultLine)
    assert result.seed == 1 and result.ranks == out.ranks and result.scores == out.scores
    assert not (tmp_path / "m.jsonl.part").exists()
    assert all(s.moves > 0 for s in out.seats)


def test_same_seed_same_chance_outcomes(tmp_path: Path) -> None:
    bots = [zoo("ok"), zoo("ok")]
    a = play(bots, tmp_path / "a", seed=42)
    b = play(bots, tmp_path / "b", seed=42)
    c = play(bots, tmp_path / "c", seed=43)
    deal = [read_record(p / "m.jsonl")[1] for p in (tmp_path / "a", tmp_path / "b", tmp_path / "c")]
    assert deal[0] == deal[1]
    assert a.scores == b.scores
    assert c.seed == 43


@pytest.mark.parametrize(
    ("mode", "verdict"),
    [
        ("crash", "crash"),
        ("garbage", "timeout"),  # a text line is ignored; no answer follows
        ("json_array", "protocol"),
        ("wrong_type", "protocol"),
        ("wrong_id", "protocol"),
        ("index_out_of_range", "illegal"),
        ("not_legal", "illegal"),
        ("extra_field", "illegal"),
        ("missing_field", "illegal"),
        ("both", "protocol"),
        ("non_utf8", "protocol"),
        ("close_stdout", "crash"),
    ],
)
def test_fault_is_forfeited_and_match_completes(tmp_path: Path, mode: str, verdict: str) -> None:
    out = play([zoo("ok"), zoo(mode), zoo("ok")], tmp_path)
    assert out.verdicts == ["ok", verdict, "ok"]
    assert out.ranks[1] == 3
    assert sorted(out.ranks[0::2]) in ([1, 2], [1, 1])
    lines = read_record(tmp_path / "m.jsonl")
    moves = [m for m in lines if isinstance(m, MoveLine) and m.seat == 1]
    assert moves[0].fallback is False and moves[-1].fallback is True
    assert isinstance(lines[-1], ResultLine) and lines[-1].verdicts[1] == verdict


def test_timeout_uses_bank_then_faults(tmp_path: Path) -> None:
    clock = Clock(startup_ms=5000, move_ms=200, bank_ms=300)
    out = play([zoo("ok"), zoo("hang")], tmp_path, clock=clock)
    assert out.verdicts == ["ok", "timeout"]
    assert out.ranks == [1, 2]


def test_late_reply_draws_from_bank(tmp_path: Path) -> None:
    # 600 ms replies with 400 ms per move draw ~200 ms each from a 500 ms bank:
    # one fast move, two late ones, and the third late one times out.
    clock = Clock(startup_ms=5000, move_ms=400, bank_ms=500)
    options = GAME.parse_options({"target": 40})
    out = play([zoo("ok"), zoo("late")], tmp_path, clock=clock, options=options)
    assert out.verdicts == ["ok", "timeout"]
    assert out.seats[1].moves == 3


@pytest.mark.parametrize("mode", ["never_ready", "late_ready", "exit_at_once"])
def test_startup_faults(tmp_path: Path, mode: str) -> None:
    clock = Clock(startup_ms=700, move_ms=1000)
    out = play([zoo(mode), zoo("ok")], tmp_path, clock=clock)
    assert out.verdicts == ["startup", "ok"]
    assert out.ranks == [2, 1]
    assert out.seats[0].moves == 0


def test_missing_program_is_a_startup_fault(tmp_path: Path) -> None:
    out = play([BotSpec("ghost", ["/nonexistent/bot"]), zoo("ok")], tmp_path)
    assert out.verdicts == ["startup", "ok"]


def test_a_referee_failure_at_start_up_is_raised_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When starting one bot fails in the referee itself (not a bot fault), that error
    is what the match raises, and the bots already started are closed, not left."""
    started: list[BotProcess] = []
    spawn = BotProcess.spawn

    async def flaky(spec: BotSpec, **kw: Any) -> BotProcess:
        if spec.name == "broken":
            await asyncio.sleep(0.5)  # the other bot is running by now
            raise RuntimeError("the referee broke")
        started.append(await spawn(spec, **kw))
        return started[-1]

    monkeypatch.setattr(BotProcess, "spawn", flaky)
    with pytest.raises(RuntimeError, match="the referee broke"):
        play([zoo("ok"), BotSpec("broken", RANDOM_BOT)], tmp_path)
    assert len(started) == 1
    assert started[0].process.returncode is not None


def test_relative_program_keeps_its_symlink(tmp_path: Path) -> None:
    """A relative program path becomes absolute without resolving symlinks: a virtual
    environment's ``bin/python`` is a symlink, and only its own path selects the
    environment (``.venv/bin/python bot.py`` once started the bare interpreter, and
    the bot failed to import its packages)."""
    target = tmp_path / "interpreter"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    (tmp_path / "env" / "bin").mkdir(parents=True)
    (tmp_path / "env" / "bin" / "python").symlink_to(target)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "bot.py").write_text("")
    argv = resolve_command("env/bin/python bots/bot.py --flag", tmp_path)
    program, script = str(tmp_path / "env" / "bin" / "python"), str(tmp_path / "bots" / "bot.py")
    assert argv == [program, script, "--flag"]
