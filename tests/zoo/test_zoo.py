"""The zoo of hostile bots: every misbehaviour gets its verdict, nothing survives.

Each match seats one zoo bot between two well-behaved ones on the toy game.  For
every mode we check the verdict, that the others' match completed with a valid
result, that the record replays, and that no process the bot started is alive.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from referee.match.match import Clock, MatchOutcome, run_match
from referee.match.replay import replay
from referee.process.spec import BotLimits, BotSpec
from tests.core.processes import alive
from tests.core.toygame import GAME

ZOO = Path(__file__).with_name("zoo_bot.py")


def run(
    mode: str, tmp_path: Path, move_ms: int = 1500, **limits: object
) -> tuple[MatchOutcome, list[int]]:
    marker = tmp_path / "pids"
    marker.touch()
    bots = [
        BotSpec("good0", [sys.executable, str(ZOO), "ok"]),
        BotSpec(mode, [sys.executable, str(ZOO), mode, str(marker)]),
        BotSpec("good2", [sys.executable, str(ZOO), "ok"]),
    ]
    outcome = asyncio.run(
        run_match(
            GAME,
            bots,
            seed=3,
            # Clocks wide enough for the well-behaved bots on a loaded 2-core machine;
            # only the waits that are the subject (hang, late, never_ready) are long.
            clock=Clock(startup_ms=5000 if mode == "never_ready" else 15_000, move_ms=move_ms),
            options=GAME.parse_options({"target": 12}),
            record_path=tmp_path / "m.jsonl",
            log_dir=tmp_path / "logs",
            limits=BotLimits(exit_grace_s=0.3, term_grace_s=0.3, **limits),  # type: ignore[arg-type]
            fsync=False,
        )
    )
    pids = [int(x) for x in marker.read_text().split()]
    return outcome, pids


def check_common(outcome: MatchOutcome, pids: list[int], tmp_path: Path) -> None:
    assert outcome.verdicts[0] == outcome.verdicts[2] == "ok"
    assert sorted(outcome.ranks) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    result = replay(tmp_path / "m.jsonl", lookup=lambda name: GAME)
    assert result.result.ranks == outcome.ranks
    assert pids, "the zoo bot did not start"
    deadline = time.monotonic() + 2.0
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)], "a bot process outlived its match"


FAULTS = {
    "never_ready": "startup",
    "exit_at_once": "startup",
    "crash": "crash",
    "close_stdout": "crash",
    "hang": "timeout",
    "very_late": "timeout",
    "garbage": "timeout",  # a text line is ignored; the bot then never answers
    "json_array": "protocol",
    "nested_array": "protocol",
    "nested_reply": "protocol",
    "nested_action": "illegal",  # well-formed JSON, not an action of the game
    "nested_ready": "startup",
    "wrong_type": "protocol",
    "wrong_id": "protocol",
    "both": "protocol",
    "non_utf8": "protocol",
    "huge_line": "protocol",
    "index_out_of_range": "illegal",
    "not_legal": "illegal",
    "extra_field": "illegal",
    "missing_field": "illegal",
}


@pytest.mark.parametrize(("mode", "verdict"), sorted(FAULTS.items()))
def test_faulty_bot_gets_verdict(mode: str, verdict: str, tmp_path: Path) -> None:
    outcome, pids = run(mode, tmp_path)
    assert outcome.verdicts[1] == verdict, outcome.seats[1].detail
    assert outcome.ranks[1] == 3
    assert outcome.seats[1].detail
    check_common(outcome, pids, tmp_path)


@pytest.mark.parametrize(
    "mode", ["ok", "slow_start", "ignore_term", "linger_after_end", "orphan", "orphan_setsid"]
)
def test_clean_but_stubborn_bots_leave_nothing_behind(mode: str, tmp_path: Path) -> None:
    outcome, pids = run(mode, tmp_path)
    assert outcome.verdicts[1] == "ok"
    check_common(outcome, pids, tmp_path)
    if mode.startswith("orphan"):
        assert len(pids) == 2


def test_stderr_flood_is_capped(tmp_path: Path) -> None:
    outcome, pids = run("flood_stderr", tmp_path, max_stderr_bytes=100_000)
    assert outcome.verdicts[1] == "ok"
    log = tmp_path / "logs" / "seat1.stderr.log"
    assert 100_000 <= log.stat().st_size < 100_200
    assert outcome.seats[1].stderr_dropped > 1_000_000
    assert "bytes dropped" in log.read_text()[-100:]
    check_common(outcome, pids, tmp_path)


def test_unknown_messages_are_a_protocol_fault_whenever_they_arrive(tmp_path: Path) -> None:
    # JSON objects of an unknown type after a reply: judged by content, not timing.
    outcome, pids = run("unsolicited", tmp_path)
    assert outcome.verdicts[1] == "protocol", outcome.seats[1].detail
    assert "malformed message" in outcome.seats[1].detail
    check_common(outcome, pids, tmp_path)


def test_stray_lines_and_duplicate_replies_are_ignored_under_load(tmp_path: Path) -> None:
    """Text lines and late duplicate replies never fault a bot, however they interleave
    with the next request: eight matches at once on a loaded machine, all clean."""

    async def many() -> list[MatchOutcome]:
        bots = [
            BotSpec("good0", [sys.executable, str(ZOO), "ok"]),
            BotSpec("stray", [sys.executable, str(ZOO), "stray_lines"]),
            BotSpec("good2", [sys.executable, str(ZOO), "stray_lines"]),
        ]
        return await asyncio.gather(
            *(
                run_match(
                    GAME,
                    bots,
                    seed=seed,
                    clock=Clock(startup_ms=20_000, move_ms=20_000),
                    options=GAME.parse_options({"target": 15}),
                    fsync=False,
                )
                for seed in range(8)
            )
        )

    for outcome in asyncio.run(many()):
        assert outcome.verdicts == ["ok", "ok", "ok"], [s.detail for s in outcome.seats]
        assert outcome.seats[1].unsolicited_lines > 50


def test_memory_hog_is_stopped_by_the_address_space_limit(tmp_path: Path) -> None:
    # Failing allocations under the limit take a few seconds: give the bot time.
    outcome, pids = run("memory", tmp_path, move_ms=15_000, memory_mb=400)
    assert outcome.verdicts[1] == "crash"
    check_common(outcome, pids, tmp_path)


def test_huge_line_is_not_buffered(tmp_path: Path) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcome, pids = run("huge_line", tmp_path)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert outcome.verdicts[1] == "protocol"
    assert "longer than" in outcome.seats[1].detail
    assert (after - before) * 1024 < 20 * (1 << 20)  # far less than the 100 MB sent
    check_common(outcome, pids, tmp_path)


def test_bot_environment_is_scrubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_TEST_SECRET", "hush")
    script = tmp_path / "envbot.py"
    script.write_text(
        "import json, os, sys\n"
        "open(sys.argv[1], 'w').write(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd()}))\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start': print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'type': 'action', 'id': m['id'], 'index': 0}), flush=True)\n"
        "    else: break\n"
    )
    dump = tmp_path / "env.json"
    asyncio.run(
        run_match(
            GAME,
            [
                BotSpec("env", [sys.executable, str(script), str(dump)]),
                BotSpec("ok", [sys.executable, str(ZOO), "ok"]),
            ],
            seed=1,
            fsync=False,
        )
    )
    import json

    seen = json.loads(dump.read_text())
    assert "REFEREE_TEST_SECRET" not in seen["env"]
    assert seen["env"]["HOME"] == seen["cwd"]
    assert seen["cwd"] != os.getcwd() and not os.path.exists(seen["cwd"])


def test_end_to_a_bot_that_stopped_reading_costs_at_most_the_exit_grace() -> None:
    """A bot that answers ``start`` and then never reads its input again: an ``end``
    larger than the pipe cannot be delivered, and the referee gives up after
    ``exit_grace_s`` instead of waiting for ever."""
    from referee.process.bot import BotProcess
    from referee.process.protocol import PROTOCOL_VERSION, End, MatchResult, Start, StartClock

    sleeper = (
        "import sys, time\n"
        'sys.stdout.write(\'{"type": "ready", "name": "deaf"}\\n\')\n'
        "sys.stdout.flush()\n"
        "time.sleep(60)\n"
    )

    async def go() -> float:
        bot = await BotProcess.spawn(
            BotSpec("deaf", [sys.executable, "-c", sleeper]),
            limits=BotLimits(exit_grace_s=0.5, term_grace_s=0.3),
        )
        try:
            start = Start(PROTOCOL_VERSION, "m", "toy", {}, 0, 2, ["a", "b"], StartClock(1, 1, 0))
            await bot.handshake(start, 10_000)
            end = End(MatchResult([1.0, 0.0], [1, 2]), ["ok", "ok"], "finished", ["x" * 1000] * 500)
            began = time.monotonic()
            await bot.tell(end)
            return time.monotonic() - began
        finally:
            await bot.close(graceful=False)

    waited = asyncio.run(go())
    assert 0.4 <= waited < 3.0
