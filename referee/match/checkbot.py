"""``referee check-bot``: a compliance check for bot authors.

Plays a few quick matches of the bot against the bundled random bot, with the bot
in every seat in turn, and reports in plain words what a tournament would punish:
faults (with the referee's detail and the last lines the bot wrote on stderr) and
lines printed while no answer was due.  Clean means none of these.  Slow moves that
stayed within the clock are reported as notes against the move time, never as
problems: on a loaded machine a clean bot can be slow once without being at fault.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from referee.api.engine import Game
from referee.display import terminal
from referee.match.match import Clock, MatchOutcome, SeatOutcome, run_match
from referee.match.replay import replay
from referee.process import loop as event_loop
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.pool import BotPool
from referee.process.spec import BotSpec
from referee.wording import counted

RANDOM_BOT = Path(__file__).resolve().parents[2] / "bots" / "random_bot.py"

STDERR_TAIL_LINES = 8
"""How many of the bot's last stderr lines a problem shows."""

STDERR_TAIL_BYTES = 4096
"""At most this many bytes from the end of the stderr log are read for the tail."""

EXPLAIN = {
    "startup": "did not answer 'start' with a 'ready' line",
    "timeout": "did not answer an 'act' within the move time and bank",
    "crash": "exited or closed its output during the match",
    "protocol": "sent a line that is not a valid protocol message",
    "illegal": "chose an action that is not in 'legal'",
}


@dataclass
class CheckReport:
    """Findings of :func:`check_bot`: ``problems`` make it unclean, ``notes`` inform.

    Each problem is one headline, optionally followed by indented lines (the tail of
    the bot's stderr); problems and notes are text for a terminal, with everything
    the bot wrote escaped (:func:`referee.display.terminal`).  ``max_ms`` is the
    slowest move in milliseconds.
    """

    matches: int = 0
    moves: int = 0
    max_ms: float = 0.0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ready_names: set[str] = field(default_factory=set)
    """The names the bot gave in its ``ready`` messages."""
    reused: int = 0
    """Matches the bot played in a process reused from an earlier match."""
    offered_reuse: int = 0
    """Matches whose ``ready`` from the bot announced ``"reuse": true``."""
    faulted: int = 0
    """Matches in which the bot's verdict was not ``ok``."""
    reuse_failed: int = 0
    """Matches whose reused process failed to answer ``start`` (a fresh one played)."""
    peak_mb: float | None = None
    """Most memory the bot's processes used together in any match, in MiB (``None``
    where bots run without a memory cgroup)."""

    @property
    def clean(self) -> bool:
        return not self.problems


def explain_fault(seat: SeatOutcome, clock: Clock) -> str:
    """The plain-words reading of a faulted seat: what went wrong and how.

    A start-up fault that was not a time-out says the bot closed its output before
    answering, rather than that it did not answer in time.  What the bot wrote is
    escaped for a terminal (:func:`referee.display.terminal`).
    """
    # The stderr tail is shown on lines of its own, so it is cut from the detail.
    detail = terminal(seat.detail.split("; stderr:")[0].strip())
    if seat.verdict == "startup":
        if detail.startswith(("closed its output", "its input is closed")):
            rest = detail.removeprefix("closed its output").removeprefix("its input is closed")
            rest = rest.strip().removeprefix("before answering").strip()
            return (
                "closed its output before answering 'start' with a 'ready' line"
                + (f" {rest}" if rest else "")
                + "; usually the program failed to start (see its stderr)"
            )
        if detail.startswith("no reply within"):
            return f"did not answer 'start' with a 'ready' line within {clock.startup_ms} ms"
        return f"{EXPLAIN['startup']} ({detail})"
    return f"{EXPLAIN.get(seat.verdict, seat.verdict)} ({detail})"


def reuse_note(report: CheckReport) -> str:
    """Why no match of a check of several was played by a reused process, in words:
    the bot never offered reuse, or it did but no process of it could be kept (it
    faulted, or its process ended after ``end``)."""
    if not report.offered_reuse:
        return (
            'the bot does not offer reuse ("reuse": true in ready), so tournaments start a '
            "fresh process for each of its matches; see docs/protocol.md, Reuse"
        )
    if report.faulted:
        why = (
            f"it faulted in {counted(report.faulted, 'match', of=report.matches)}, and only a "
            "process that ends a match with verdict ok is kept"
        )
    elif report.reuse_failed:
        why = (
            f"{report.reuse_failed} time(s) its process from an earlier match did not "
            "answer the next start (see the problems above)"
        )
    else:
        why = "its process had ended or could not be kept after each match"
    return (
        f"the bot offered reuse in {counted(report.offered_reuse, 'match', of=report.matches)}, "
        f"but no match was played by a reused process: {why}; see docs/protocol.md, Reuse"
    )


def stderr_tail(path: Path, lines: int = STDERR_TAIL_LINES) -> list[str]:
    """The last ``lines`` non-empty lines of a stderr log ([] if missing or empty)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - STDERR_TAIL_BYTES))
            data = f.read()
    except OSError:
        return []
    text = data.decode("utf-8", errors="replace")
    kept = [line.rstrip() for line in text.splitlines() if line.strip()]
    return kept[-lines:]


async def _matches(
    game: Game,
    argv: list[str],
    seats: int,
    rounds: int,
    clock: Clock,
    workdir: Path,
    logs: Path,
    sandbox: SandboxPolicy,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[tuple[int, MatchOutcome]]:
    """Every match of the check, bots reused across matches as a tournament would (a
    bot that announces reuse is checked in that mode too).  ``on_progress(matches,
    plies)``: called before every ply with the matches finished and the plies of the
    current one, and after the last match."""
    random_argv = [sys.executable, str(RANDOM_BOT)]
    played: list[tuple[int, MatchOutcome]] = []
    pool = BotPool()
    policy = sandbox.hiding([workdir, logs])
    try:
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
                    log_dir=logs / match_id,
                    fsync=False,
                    sandbox=policy,
                    pool=pool,
                    reuse_tag=match_id,
                    on_ply=None if on_progress is None else partial(on_progress, len(played)),
                )
                played.append((seat, outcome))
        if on_progress is not None:
            on_progress(len(played), 0)
    finally:
        await pool.close()
    return played


def check_bot(
    game: Game,
    argv: list[str],
    *,
    seats: int | None = None,
    rounds: int = 1,
    clock: Clock | None = None,
    slow_ms: float | None = None,
    logs: Path | None = None,
    sandbox: SandboxPolicy | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Play ``rounds`` x ``seats`` matches with the bot in each seat; report findings.

    ``slow_ms`` (default: half of ``clock.move_ms``) is the move time (ms) above
    which a match's slowest move is noted; only an actual time-out is a problem.
    ``logs``: keep the bots' stderr logs there (``logs/check-R-S/seatK.stderr.log``)
    instead of a temporary folder.  ``sandbox``: how the bots run (default none;
    the CLI's default is the tournament's, ``auto``).  A bot that announces reuse
    plays its later matches in its earlier process, as in a tournament.
    ``on_progress(matches, plies)`` follows the check: matches finished (of ``rounds``
    x ``seats``) and plies of the match under way.  Raises
    :class:`referee.api.engine.OptionError` for a bad seat count.
    """
    clock = clock or Clock()
    seats = seats or game.min_seats
    game.check_seats(seats)
    slow = slow_ms if slow_ms is not None else clock.move_ms / 2
    report = CheckReport()
    with tempfile.TemporaryDirectory(prefix="referee-check-") as tmp:
        log_root = logs if logs is not None else Path(tmp) / "logs"
        played = event_loop.run(
            _matches(
                game,
                argv,
                seats,
                rounds,
                clock,
                Path(tmp),
                log_root,
                sandbox or SandboxPolicy(),
                on_progress,
            )
        )
        for seat, outcome in played:
            report.matches += 1
            mine = outcome.seats[seat]
            report.moves += mine.moves
            report.max_ms = max(report.max_ms, mine.max_ms)
            if mine.peak_mb is not None:
                report.peak_mb = max(report.peak_mb or 0.0, mine.peak_mb)
            if mine.bot_name:
                report.ready_names.add(mine.bot_name)
            where = f"match {outcome.match} (seat {seat})"
            tail = stderr_tail(log_root / outcome.match / f"seat{seat}.stderr.log")
            found: list[str] = []
            if mine.verdict != "ok":
                again = (
                    " (in a process reused from an earlier match: see docs/protocol.md, Reuse)"
                    if mine.reused
                    else ""
                )
                found.append(
                    f"{where}: {mine.verdict} at ply {mine.fault_ply}: "
                    f"{explain_fault(mine, clock)}{again}"
                )
            if mine.reuse_failed:
                found.append(
                    f"{where}: the bot offered reuse, but its process from an earlier match "
                    f"did not answer this match's start ({terminal(mine.reuse_failed)}); "
                    "a fresh one played instead (see docs/protocol.md, Reuse)"
                )
            if mine.unsolicited_lines:
                found.append(
                    f"{where}: printed {mine.unsolicited_lines} line(s) on stdout while no "
                    "answer was due (use stderr for logging)"
                )
            for headline in found:
                if tail:
                    headline += "\n    last lines of its stderr:\n" + "\n".join(
                        f"    | {terminal(line)}" for line in tail
                    )
                report.problems.append(headline)
            if mine.verdict == "ok" and mine.max_ms > slow:
                report.notes.append(
                    f"{where}: slowest move took {mine.max_ms:.0f} ms of the {clock.move_ms} ms "
                    f"move time ({100 * mine.max_ms / clock.move_ms:.0f}%, bank "
                    f"{clock.bank_ms} ms); within the clock, but close on a loaded machine"
                )
            if mine.stderr_dropped:
                report.notes.append(
                    f"{where}: stderr exceeded the cap; {mine.stderr_dropped} bytes dropped"
                )
            if outcome.record is not None:
                replay(outcome.record)
            report.reused += mine.reused
            report.offered_reuse += mine.offered_reuse
            report.faulted += mine.verdict != "ok"
            report.reuse_failed += bool(mine.reuse_failed)
    if report.matches > 1 and not report.reused:
        report.notes.append(reuse_note(report))
    elif report.reused:
        report.notes.append(
            f"{counted(report.reused, 'match', of=report.matches)} "
            f"{'was' if report.reused == 1 else 'were'} played by a process reused "
            "from an earlier match, as tournaments do"
        )
    return report
