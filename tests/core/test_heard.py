"""Replies heard from the event loop's callback (:meth:`referee.match.match.Match.loop`).

A plain reply to the act in flight is taken where the bot's output arrives and the
next ply is played there, with no task woken; whatever else a bot's output brings is
handed back to the match's coroutine and judged as before.  These tests hold the two
ways to the same verdicts, moves and record.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.match.match import Clock, MatchOutcome, run_match
from referee.match.record import MoveLine, read_record
from referee.process.spec import BotSpec
from tests.core.toygame import GAME, RaceState
from tests.zoo.procs import spawned

ROOT = Path(__file__).resolve().parents[2]
ZOO = ROOT / "tests" / "zoo" / "zoo_bot.py"

# Answers index 0 to every act; ``pieces``: half a line, a pause, the rest;
# ``chatter``: a text line and the reply in one write.
AWKWARD = r"""
import json, sys, time
how = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sys.stdout.write('{"type":"ready"}\n'); sys.stdout.flush()
    elif msg["type"] == "act":
        reply = '{"type":"action","id":%d,"index":0}\n' % msg["id"]
        if how == "pieces":
            sys.stdout.write(reply[:9]); sys.stdout.flush(); time.sleep(0.01)
            sys.stdout.write(reply[9:]); sys.stdout.flush()
        elif how == "chatter":
            sys.stdout.write("thinking...\n" + reply); sys.stdout.flush()
        else:
            sys.stdout.write(reply); sys.stdout.flush()
    elif msg["type"] == "end":
        break
"""


def bot(how: str) -> BotSpec:
    return BotSpec(how, [sys.executable, "-c", AWKWARD, how])


def play(bots: list[BotSpec], record: Path, **kw: Any) -> MatchOutcome:
    return asyncio.run(
        run_match(
            GAME,
            bots,
            seed=7,
            clock=Clock(startup_ms=5000, move_ms=2000),
            record_path=record,
            fsync=False,
            **kw,
        )
    )


def moves(record: Path) -> list[tuple[int, int, Any, bool]]:
    return [
        (m.ply, m.seat, m.action, m.fallback)
        for m in read_record(record)
        if isinstance(m, MoveLine)
    ]


def test_replies_in_pieces_or_after_text_play_the_same_match(tmp_path: Path) -> None:
    plain = play([bot("plain"), bot("plain")], tmp_path / "plain.jsonl")
    awkward = play([bot("pieces"), bot("chatter")], tmp_path / "awkward.jsonl")
    assert plain.verdicts == awkward.verdicts == ["ok", "ok"]
    assert moves(tmp_path / "plain.jsonl") == moves(tmp_path / "awkward.jsonl")
    assert awkward.seats[0].unsolicited_lines == 0
    assert awkward.seats[1].unsolicited_lines == awkward.seats[1].moves > 0
    assert plain.scores == awkward.scores


def test_an_engine_error_in_a_ply_played_from_the_callback_is_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception of the engine's while a reply is taken in the event loop's
    callback is the match's exception (not lost in the loop), and no bot is left."""
    started = spawned(monkeypatch)
    apply = RaceState.apply_action
    calls = [0]

    def failing(self: RaceState, action: Any) -> None:
        calls[0] += 1
        if calls[0] == 4:
            raise RuntimeError("the engine broke")
        apply(self, action)

    monkeypatch.setattr(RaceState, "apply_action", failing)
    with pytest.raises(RuntimeError, match="the engine broke"):
        play([bot("plain"), bot("plain")], tmp_path / "m.jsonl")
    assert len(started) == 2
    assert all(p.process.returncode is not None for p in started)


def test_a_long_game_of_forfeited_seats_is_played_without_recursion(tmp_path: Path) -> None:
    """Fallback plies follow one another in a loop: thousands of them after every
    seat crashed need no deeper stack."""
    crash = [sys.executable, str(ZOO), "crash"]
    options = GAME.parse_options({"target": 3 * sys.getrecursionlimit()})
    out = play([BotSpec("a", crash), BotSpec("b", crash)], tmp_path / "m.jsonl", options=options)
    assert out.verdicts == ["crash", "crash"]
    fallbacks = [fallback for *_, fallback in moves(tmp_path / "m.jsonl")]
    assert sum(fallbacks) > sys.getrecursionlimit() and fallbacks[-1]


# Writes, at its first act, its replies to the next 60 acts it will get (the two
# seats alternate, so its ids go up by 2), then only reads.
AHEAD = r"""
import json, sys
done = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sys.stdout.write('{"type":"ready"}\n'); sys.stdout.flush()
    elif msg["type"] == "act" and msg["id"] > done:
        first = msg["id"]
        done = first + 2 * 59
        sys.stdout.write("".join(
            '{"type":"action","id":%d,"index":0}\n' % i for i in range(first, done + 1, 2)
        ))
        sys.stdout.flush()
    elif msg["type"] == "end":
        break
"""


def test_replies_written_ahead_do_not_hold_the_event_loop(tmp_path: Path) -> None:
    """Replies a bot wrote before its acts are taken one ply per pass of the event
    loop: between two plies the loop runs its other callbacks (a counter that
    reschedules itself every pass stands for them), so bots cannot hold it for a
    whole game."""
    ahead = [sys.executable, "-c", AHEAD]
    seen: list[int] = []

    async def main() -> MatchOutcome:
        loop = asyncio.get_running_loop()
        passes = [0]
        running = [True]

        def tick() -> None:
            passes[0] += 1
            if running[0]:
                loop.call_soon(tick)

        tick()
        try:
            return await run_match(
                GAME,
                [BotSpec("a", ahead), BotSpec("b", ahead)],
                seed=3,
                options=GAME.parse_options({"target": 150}),
                clock=Clock(startup_ms=5000, move_ms=2000),
                on_ply=lambda ply: seen.append(passes[0]),
            )
        finally:
            running[0] = False

    out = asyncio.run(main())
    assert out.verdicts == ["ok", "ok"] and out.seats[0].moves > 60
    most = max(seen.count(p) for p in set(seen))
    assert most <= 2, f"{most} plies in one pass of the event loop"
