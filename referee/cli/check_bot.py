"""``referee check-bot GAME COMMAND``: does a bot play a game cleanly?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.cli.common import clean_errors, sandbox_note
from referee.cli.options import (
    clock_options,
    logs_option,
    network_option,
    sandbox_option,
    seats_option,
)
from referee.display import terminal
from referee.games import get_game
from referee.match.match import Clock
from referee.process.isolation.sandbox import SandboxPolicy, resolve_mode
from referee.process.preflight import check_sandbox_access, check_script_paths, check_writable_dir
from referee.process.spec import resolve_command
from referee.progress import Progress
from referee.wording import counted


@click.command("check-bot")
@click.argument("game")
@click.argument("command")
@seats_option
@click.option(
    "--rounds", type=click.IntRange(min=1), default=1, show_default=True, help="Matches per seat."
)
@clock_options
@click.option(
    "--slow-ms",
    type=float,
    default=None,
    help="Note moves slower than this (default: half of --move-ms); only a time-out is a problem.",
)
@logs_option("Keep the bots' stderr logs here (DIR/check-R-S/seatK.stderr.log).")
@sandbox_option()
@network_option
@clean_errors
def check_bot_command(
    game: str,
    command: str,
    seats: int | None,
    rounds: int,
    move_ms: int,
    bank_ms: int,
    startup_ms: int,
    slow_ms: float | None,
    logs: Path | None,
    sandbox: str,
    network: bool,
) -> None:
    """Check that the bot COMMAND plays GAME cleanly; exit 0 only if it does.

    Plays the bot against random bots in every seat and reports protocol mistakes,
    illegal actions and time-outs in plain words, each with the last lines of the
    bot's stderr; slow moves within the clock are notes.
    """
    from referee.match.checkbot import check_bot

    g = get_game(game)
    check_script_paths(command)
    if logs is not None:
        check_writable_dir(logs, "--logs")
    argv = resolve_command(command)
    mode = resolve_mode(sandbox)
    check_sandbox_access(argv, mode, [("--logs", logs)])
    total = rounds * (seats or g.min_seats)
    with Progress(f"check-bot {g.name}", total, "matches") as progress:
        report = check_bot(
            g,
            argv,
            seats=seats,
            rounds=rounds,
            clock=Clock(startup_ms, move_ms, bank_ms),
            slow_ms=slow_ms,
            logs=logs,
            sandbox=SandboxPolicy(mode, network),
            on_progress=lambda done, ply: progress.update(done, f"ply {ply}" if ply else ""),
        )
    # Problems and notes are display text: checkbot escaped what the bot wrote in them.
    for problem in report.problems:
        click.echo(f"problem: {problem}")
    for note in report.notes:
        click.echo(f"note: {note}")
    verdict = "clean" if report.clean else f"NOT clean ({len(report.problems)} problem(s))"
    click.echo(
        f"{verdict}: {counted(report.matches, 'match')}, {counted(report.moves, 'move')}, "
        f"slowest move {report.max_ms:.0f} ms of {move_ms} ms"
        + (
            f"; peak memory {report.peak_mb:.0f} MiB "
            "(its processes together, as max_memory_mb counts)"
            if report.peak_mb is not None
            else ""
        )
        + "".join(f"; calls itself {terminal(repr(n))}" for n in sorted(report.ready_names))
        + (f"; stderr logs in {logs}" if logs is not None else "")
        + f"; {sandbox_note(mode)}"
    )
    sys.exit(0 if report.clean else 1)
