"""``referee play GAME``: one match between bot commands, its result on stdout."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

import click

from referee.cli.common import clean_errors, load_signer, parse_options
from referee.cli.options import (
    clock_options,
    format_option,
    game_option_option,
    logs_option,
    max_plies_option,
    network_option,
    ponder_option,
    sandbox_option,
    sign_key_option,
)
from referee.cli.output import render
from referee.cli.seat_clocks import parse_seat_values
from referee.display import terminal_json
from referee.games import get_game
from referee.match.match import Adjudication, Clock, new_match_id, run_match
from referee.process import loop as event_loop
from referee.process.isolation.sandbox import SandboxPolicy, resolve_mode
from referee.process.preflight import (
    check_sandbox_access,
    check_script_paths,
    check_writable_dir,
    check_writable_file,
    display_stem,
)
from referee.process.spec import BotSpec, resolve_command
from referee.progress import Progress
from referee.wording import counted


@click.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, help="Bot command, one per seat.")
@click.option("--name", "names", multiple=True, help="Display names, one per --bot.")
@click.option("--seed", type=int, default=None, help="Match seed (default: random).")
@click.option(
    "--record", type=click.Path(dir_okay=False, path_type=Path), help="Write the record here."
)
@clock_options
@click.option(
    "--move-ms-for",
    "move_ms_for",
    multiple=True,
    metavar="SEAT=MS",
    help="A seat's own move time (a human seat: 60000 unless given).",
)
@click.option(
    "--bank-ms-for",
    "bank_ms_for",
    multiple=True,
    metavar="SEAT=MS",
    help="A seat's own time bank (a human seat: 3600000 unless given).",
)
@ponder_option
@game_option_option
@max_plies_option("End an unfinished game after this many plies (0 = no limit).")
@click.option(
    "--adjudication",
    type=click.Choice(["scores", "draw"]),
    default="scores",
    show_default=True,
    help="How a game cut at --max-plies is ranked.",
)
@logs_option("Bot stderr logs here.")
@sandbox_option()
@network_option
@sign_key_option()
@format_option
@clean_errors
def play(
    game: str,
    bots: tuple[str, ...],
    names: tuple[str, ...],
    seed: int | None,
    record: Path | None,
    move_ms: int,
    bank_ms: int,
    move_ms_for: tuple[str, ...],
    bank_ms_for: tuple[str, ...],
    startup_ms: int,
    ponder: bool,
    opts: tuple[str, ...],
    max_plies: int,
    adjudication: Adjudication,
    logs: Path | None,
    sandbox: str,
    network: bool,
    sign_key: Path | None,
    fmt: str,
) -> None:
    """Play one match of GAME between the --bot commands (seat 0 first).

    Prints one row per seat and a line with the seed, the ply count and whether the
    game was cut at --max-plies.  --format json gives one object, ``{"match": {seed,
    plies, reason, cut_at_ply_limit, sandbox, record, signature}, "seats": [rows]}``; csv gives
    two sections headed ``# match`` and ``# seats``.
    """
    if sign_key is not None and record is None:
        raise click.UsageError("--sign-key needs --record (it signs the record)")
    g = get_game(game)
    g.check_seats(len(bots))
    options = g.parse_options(parse_options(opts))
    if names and len(names) != len(bots):
        raise click.BadParameter("give one --name per --bot", param_hint="--name")
    labels = list(names) or [_short_name(b, i) for i, b in enumerate(bots)]
    for b in bots:
        check_script_paths(b)
    specs = [BotSpec(n, resolve_command(b), b) for n, b in zip(labels, bots, strict=True)]
    _seat_clocks(specs, move_ms_for, bank_ms_for)
    if record is not None:
        check_writable_file(record, "--record")
    if logs is not None:
        check_writable_dir(logs, "--logs")
    seed = seed if seed is not None else secrets.randbits(63)
    policy = SandboxPolicy(resolve_mode(sandbox), network)
    # Absolute, so the sandbox hides these folders wherever a bot could see them.
    record = record.absolute() if record is not None else None
    logs = logs.absolute() if logs is not None else None
    hidden = [("--record", record.parent if record else None), ("--logs", logs)]
    for spec in specs:
        check_sandbox_access(spec.argv, policy.mode, hidden)
    signer = load_signer(sign_key, [spec.argv for spec in specs], policy.mode)
    with Progress(g.name, max_plies or None, "plies") as progress:
        outcome = event_loop.run(
            run_match(
                g,
                specs,
                seed=seed,
                options=options,
                clock=Clock(startup_ms, move_ms, bank_ms, ponder),
                # The match id goes to every bot: it must say nothing of the seed.
                match_id=new_match_id(),
                record_path=record,
                log_dir=logs,
                max_plies=max_plies,
                adjudication=adjudication,
                sandbox=policy,
                on_ply=progress.update,
            )
        )
    signed = signer.sign_file(record) if signer is not None and record is not None else None
    rows = [
        {
            "seat": i,
            "bot": s.name,
            "ready name": s.bot_name or "-",
            "score": outcome.scores[i],
            "rank": outcome.ranks[i],
            "verdict": s.verdict,
            "detail": s.detail or "-",
        }
        for i, s in enumerate(outcome.seats)
    ]
    cut_at_limit = outcome.reason == "ply_limit"
    if fmt in ("json", "csv"):
        match = {
            "seed": seed,
            "plies": outcome.plies,
            "reason": outcome.reason,
            "cut_at_ply_limit": cut_at_limit,
            "sandbox": policy.mode,
            "record": str(record) if record else None,
            "signature": str(signed) if signed else None,
        }
        if fmt == "json":
            click.echo(terminal_json({"match": match, "seats": rows}))
        else:
            click.echo(f"# match\n{render([match], fmt)}\n\n# seats\n{render(rows, fmt)}")
        return
    click.echo(render(rows, fmt))
    cut = ", cut at the ply limit (adjudicated)" if cut_at_limit else ""
    click.echo(
        f"seed {seed}, {counted(outcome.plies, 'ply')}{cut}, sandbox {policy.mode}"
        + (f", record {record}" if record else "")
        + (f", signed in {signed}" if signed else "")
    )


def _short_name(command: str, seat: int) -> str:
    """``SCRIPT#SEAT``: the bot's script name (or program name) and its seat."""
    return f"{display_stem(command)}#{seat}"


def _seat_clocks(
    specs: list[BotSpec], move_ms_for: Sequence[str], bank_ms_for: Sequence[str]
) -> None:
    """Give seats their own clocks from ``--move-ms-for``/``--bank-ms-for``."""
    for seat, ms in parse_seat_values(move_ms_for, len(specs), "--move-ms-for", 1).items():
        specs[seat].move_ms = ms
    for seat, ms in parse_seat_values(bank_ms_for, len(specs), "--bank-ms-for", 0).items():
        specs[seat].bank_ms = ms
