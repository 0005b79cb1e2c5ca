"""``referee check-bot``: a compliance check for bot authors.

Plays a few quick matches of the bot against the bundled random bot, with the bot
in every seat in turn, and reports in plain words what a tournament would punish:
faults (with the referee's detail), moves slower than a threshold, lines printed
while no answer was due, and stderr beyond the cap.  Clean means none of these.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from referee.bot import BotSpec
from referee.engine import Game
from referee.match import Clock, MatchOutcome, run_match
from referee.replay import replay

RANDOM_BOT = Path(__file__).resolve().parents[1] / "bots" / "random_bot.py"

EXPLAIN = {
    "startup": "did not answer 'start' with a 'ready' line in time",
    "timeout": "did not answer an 'act' within the move time and bank",
    "crash": "exited or closed its output during the match",
    "protocol": "sent a line that is not a valid protocol message",
    "illegal": "chose an action that is not in 'legal'",
}


@dataclass
class CheckReport:
    """Findings of :func:`check_bot`: ``problems`` make it unclean, ``notes`` inform."""

    matches: int = 0
    moves: int = 0
    max_ms: float = 0.0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.problems


async def _matches(
    game: Game, argv: list[str], seats: int, rounds: int, clock: Clock, workdir: Path
) -> list[tuple[int, MatchOutcome]]:
    random_argv = [sys.executable, str(RANDOM_BOT)]
    played = []
    for rnd in range(rounds):
        for seat in range(seats):
            bots = [
                BotSpec("candidate", argv) if s == seat else BotSpec(f"random{s}", random_argv)
                for s in range(seats)
            ]
            match_id = f"check-{rnd}-{seat}"
            outcome = await run_match(
                game,
                bots,
                seed=1000 * rnd + seat,
                clock=clock,
                match_id=match_id,
                record_path=workdir / f"{match_id}.jsonl",
                log_dir=workdir / match_id,
                fsync=False,
            )
            played.append((seat, outcome))
    return played


def check_bot(
    game: Game,
    argv: list[str],
    *,
    seats: int | None = None,
    rounds: int = 1,
    clock: Clock | None = None,
    slow_ms: float | None = None,
) -> CheckReport:
    """Play ``rounds`` x ``seats`` matches with the bot in each seat; report findings.

    ``slow_ms`` (default: half of ``clock.move_ms``) is the move time above which a
    move is reported as slow.
    """
    clock = clock or Clock(startup_ms=10_000, move_ms=1000, bank_ms=0)
    seats = seats or game.min_seats
    game.check_seats(seats)
    slow = slow_ms if slow_ms is not None else clock.move_ms / 2
    report = CheckReport()
    with tempfile.TemporaryDirectory(prefix="referee-check-") as tmp:
        played = asyncio.run(_matches(game, argv, seats, rounds, clock, Path(tmp)))
        for seat, outcome in played:
            report.matches += 1
            mine = outcome.seats[seat]
            report.moves += mine.moves
            report.max_ms = max(report.max_ms, mine.max_ms)
            where = f"match {outcome.match} (seat {seat})"
            if mine.verdict != "ok":
                report.problems.append(
                    f"{where}: {mine.verdict} at ply {mine.fault_ply}: {EXPLAIN[mine.verdict]} "
                    f"({mine.detail})"
                )
            if mine.max_ms > slow:
                report.problems.append(
                    f"{where}: slowest move took {mine.max_ms:.0f} ms, over the {slow:.0f} ms "
                    f"warning line (move time {clock.move_ms} ms)"
                )
            if mine.unsolicited_lines:
                report.problems.append(
                    f"{where}: printed {mine.unsolicited_lines} line(s) on stdout while no "
                    "answer was due (use stderr for logging)"
                )
            if mine.stderr_dropped:
                report.notes.append(
                    f"{where}: stderr exceeded the cap; {mine.stderr_dropped} bytes dropped"
                )
            if outcome.record is not None:
                replay(outcome.record)
    return report
