"""The ``referee`` command line.

Every command turns user errors (unknown game, bad seat count, missing bot program,
malformed config, unreadable or inconsistent record: a :class:`referee.errors.RefereeError`
or an ``OSError`` about a named file) into one clear error line on stderr and exit
status 2, never a traceback, while a bug keeps its traceback (exit status 1;
``REFEREE_TRACEBACK=1`` shows the traceback of user errors too); exits with 130 on
Ctrl-C and quietly with 141 when its output pipe is closed (:class:`RefereeGroup`);
and escapes everything it prints for its output (:mod:`referee.display`).
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import secrets
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click
import msgspec
from tabulate import tabulate

from referee import __version__
from referee import loop as event_loop
from referee.bot import BotSpec, resolve_command
from referee.config import load_config
from referee.display import csv_cell, markdown_cell, terminal, terminal_json
from referee.errors import BadInput, user_errors
from referee.games import all_games, get_game
from referee.match import Adjudication, Clock, new_match_id, run_match
from referee.preflight import (
    check_key_hidden,
    check_sandbox_access,
    check_script_paths,
    check_writable_dir,
    check_writable_file,
    display_stem,
)
from referee.progress import Progress
from referee.regress import regress
from referee.replay import replay as replay_record
from referee.resultsdb import MatchRow
from referee.rundir import (
    Damage,
    check_run,
    open_results,
    refuse_damage,
    run_holder,
    run_lock,
    set_aside_damage,
)
from referee.sandbox import MODES, SandboxPolicy, resolve_mode
from referee.standings import (
    display_standings,
    pairwise,
    pairwise_data,
    seat_advantage,
    standings,
)
from referee.tournament import (
    check_signer,
    create_run,
    dask_executor,
    load_run,
    plan_run,
    run_tournament,
    sandbox_in_force,
)
from referee.viewer.command import view as view_command
from referee.viewer.report import report as report_command
from referee.viewer.watch_command import watch as watch_command
from referee.wording import counted

P = ParamSpec("P")
R = TypeVar("R")

FORMATS = ["plain", "grid", "github", "markdown", "json", "csv"]


EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status of every command stopped by Ctrl-C (SIGINT), as shells report a
process the signal ended."""

EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""Exit status when the reader of our output went away (``referee ... | head``)."""


def clean_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Run a command inside the error net (:func:`referee.errors.user_errors`): a user
    error (a :class:`referee.errors.RefereeError`, or an ``OSError`` about a named file)
    becomes ``referee: error: ...`` and exit status 2; any other exception is a bug and
    keeps its traceback (exit status 1); ``REFEREE_TRACEBACK=1`` shows the traceback of
    user errors too.  A broken pipe on our own output is left to :class:`RefereeGroup`."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with user_errors(status=2):
            return func(*args, **kwargs)

    return wrapper


def _output_gone() -> bool:
    """True if our stdout or stderr is a pipe whose reader has gone (poll: POLLERR)."""
    poller = select.poll()
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            poller.register(stream.fileno(), select.POLLOUT)  # type: ignore[union-attr]
        except (AttributeError, OSError, ValueError):
            continue
    return any(events & select.POLLERR for _, events in poller.poll(0))


class RefereeGroup(click.Group):
    """The ``referee`` group: every command exits with :data:`EXIT_INTERRUPTED` on
    Ctrl-C (after its own clean-up ran), and quietly with :data:`EXIT_BROKEN_PIPE`
    when the reader of its output went away, as Unix tools do."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            with contextlib.suppress(BrokenPipeError):
                click.echo("\nreferee: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            if not _output_gone():
                raise
            # Nothing more reaches the reader; the interpreter's last flush must not fail.
            devnull = os.open(os.devnull, os.O_WRONLY)
            for stream in (sys.__stdout__, sys.__stderr__):
                with contextlib.suppress(AttributeError, OSError, ValueError):
                    os.dup2(devnull, stream.fileno())  # type: ignore[union-attr]
            os.close(devnull)
            sys.exit(EXIT_BROKEN_PIPE)


def render(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None) -> str:
    """A table in one of :data:`FORMATS` (tabulate for the human ones).

    Every string, header or cell, is escaped for its output (:mod:`referee.display`):
    :func:`terminal_json` for json, :func:`csv_cell` for csv, :func:`markdown_cell`
    for github and markdown, :func:`terminal` for plain and grid.  Columns of text
    are never read as numbers (a bot named ``1e3`` stays ``1e3``).
    """
    if fmt == "json":
        return terminal_json(list(rows))
    keys = list(dict.fromkeys(k for row in rows for k in row))
    if fmt == "csv":
        buffer = io.StringIO()
        if rows:
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow([csv_cell(k) for k in keys])
            writer.writerows([csv_cell(row.get(k)) for k in keys] for row in rows)
        return buffer.getvalue().rstrip("\n")
    cell = markdown_cell if fmt in ("github", "markdown") else terminal
    tablefmt = "pipe" if fmt == "markdown" else fmt
    if rows:
        data = [[_cell(cell, row.get(k)) for k in keys] for row in rows]
        text_columns = [
            i for i, k in enumerate(keys) if all(isinstance(r.get(k), str) for r in rows)
        ]
        table = tabulate(
            data,
            headers=[_cell(cell, k) for k in keys],
            tablefmt=tablefmt,
            disable_numparse=text_columns or False,
        )
    else:
        table = tabulate([], headers="keys", tablefmt=tablefmt)
    return f"{title}\n{table}" if title else table


def _cell(escape: Callable[[str], str], value: Any) -> Any:
    return escape(value) if isinstance(value, str) else value


format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="plain",
    show_default=True,
    help="Table format: plain/grid/github/markdown for people, json/csv for machines.",
)


sandbox_option = click.option(
    "--sandbox",
    type=click.Choice(MODES),
    default="auto",
    show_default=True,
    help="Isolate each bot: bubblewrap where it works (auto), bwrap (or fail), or none.",
)


sign_key_option = click.option(
    "--sign-key",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Sign records with this Ed25519 private key (PEM; see `referee keygen`): "
    "each gets a FILE.sig beside it.",
)


def load_signer(key: Path | None, argvs: Sequence[Sequence[str]], mode: str) -> Any:
    """The :class:`referee.signing.Signer` of ``--sign-key`` (``None`` without one),
    after checking that no bot could read the key (under ``--sandbox none`` a warning)."""
    if key is None:
        return None
    from referee.signing import Signer

    signer = Signer(key)
    for argv in argvs:
        check_key_hidden(argv, mode, key, "--sign-key")
    if mode == "none":
        click.echo(
            "referee: warning: --sandbox none: the bots could read the --sign-key file",
            err=True,
        )
    return signer


def sandbox_note(mode: str) -> str:
    """How a run's bots were isolated, in words (``mode`` from its manifest)."""
    if mode == "bwrap":
        return "sandbox bwrap (each bot isolated)"
    if mode == "none":
        return "sandbox none: bots were NOT isolated from each other or the run"
    return "sandbox unknown (run made before sandboxes)"


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings to a dict; raises ``click.BadParameter`` otherwise."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        out[key.strip()] = value.strip()
    return out


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Referee and tournament runner for board-game bots (protocol v1, JSON Lines).

    Matches run on uvloop where it is installed; set ``REFEREE_LOOP=asyncio`` to use
    asyncio's own event loop instead.
    """
    try:
        event_loop.loop_factory()
    except event_loop.LoopError as exc:
        raise click.UsageError(str(exc)) from None


@main.command()
@format_option
def games(fmt: str) -> None:
    """List the games with their seat counts."""
    rows = [
        {"game": name, "title": g.title, "seats": f"{g.min_seats}-{g.max_seats}"}
        for name, g in all_games().items()
    ]
    click.echo(render(rows, fmt))


@main.command()
@click.argument("game")
@clean_errors
def schema(game: str) -> None:
    """Print the JSON Schema of GAME's actions, views and options, its events and chance
    outcomes (redacted forms included) and the protocol messages."""
    from referee.wire_schema import wire_schema

    click.echo(msgspec.json.format(msgspec.json.encode(wire_schema(get_game(game)))).decode())


def _seat_clocks(
    specs: list[BotSpec], move_ms_for: Sequence[str], bank_ms_for: Sequence[str]
) -> None:
    """Give seats their own clocks from ``--move-ms-for``/``--bank-ms-for``."""
    from referee.seat_clocks import parse_seat_values

    for seat, ms in parse_seat_values(move_ms_for, len(specs), "--move-ms-for", 1).items():
        specs[seat].move_ms = ms
    for seat, ms in parse_seat_values(bank_ms_for, len(specs), "--bank-ms-for", 0).items():
        specs[seat].bank_ms = ms


@main.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, help="Bot command, one per seat.")
@click.option("--name", "names", multiple=True, help="Display names, one per --bot.")
@click.option("--seed", type=int, default=None, help="Match seed (default: random).")
@click.option(
    "--record", type=click.Path(dir_okay=False, path_type=Path), help="Write the record here."
)
@click.option("--move-ms", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--bank-ms", type=click.IntRange(min=0), default=0, show_default=True)
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
@click.option("--startup-ms", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option(
    "--ponder",
    is_flag=True,
    help="Let bots compute while other seats are on move (default: a waiting bot is "
    "stopped once the seat on move has thought 10 ms).",
)
@click.option("--option", "opts", multiple=True, metavar="KEY=VALUE", help="Game option.")
@click.option(
    "--max-plies",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="End an unfinished game after this many plies (0 = no limit).",
)
@click.option(
    "--adjudication",
    type=click.Choice(["scores", "draw"]),
    default="scores",
    show_default=True,
    help="How a game cut at --max-plies is ranked.",
)
@click.option(
    "--logs", type=click.Path(file_okay=False, path_type=Path), help="Bot stderr logs here."
)
@sandbox_option
@click.option("--network", is_flag=True, help="Let sandboxed bots use the network.")
@sign_key_option
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


@main.command()
@click.argument("record", type=click.Path(path_type=Path))
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=None,
    help="Print what this seat (0-based) was shown: one JSON line per decision; with "
    "--at, only its view before that ply.",
)
@click.option(
    "--at",
    "at_ply",
    type=click.IntRange(min=0),
    default=None,
    help="Print the position before this ply (0 .. number of plies) as one JSON object: "
    "the full state, or with --seat what that seat saw (instead of its decisions).",
)
@click.option(
    "--unchecked-chance",
    is_flag=True,
    help="Accept a record without a seed (its chance outcomes and fallbacks go unchecked).",
)
@click.option(
    "--verify-key",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also check RECORD.sig: RECORD must be exactly what this Ed25519 key (PEM) signed.",
)
@clean_errors
def replay(
    record: Path,
    seat: int | None,
    at_ply: int | None,
    unchecked_chance: bool,
    verify_key: Path | None,
) -> None:
    """Re-apply RECORD through the rules engine; exit 0 only if it is consistent.

    Chance outcomes and fallback moves are re-drawn from the seed in the result line.
    Stdout carries one output: with --at, the position before that ply (seat K's
    view with --seat K); with --seat alone, seat K's decisions, one JSON line each;
    else the verdict line (which goes to stderr when stdout carries one of the others).
    With --verify-key, the signature is checked first (a changed line is named).
    """
    signed_by = ""
    if verify_key is not None:
        from referee.signing import load_public_key, verify_file

        signed_by = verify_file(record, load_public_key(verify_key)).key[:16]
    result = replay_record(record, seat=seat, at_ply=at_ply, unchecked_chance=unchecked_chance)
    seats = len(result.header.seats)
    if seat is not None and seat >= seats:
        raise BadInput(f"--seat {seat}: {record} has seats 0-{seats - 1}")
    if at_ply is not None and at_ply > result.plies:
        raise BadInput(f"--at {at_ply}: {record} has plies 0-{result.plies}")
    encode = msgspec.json.encode
    if seat is not None and at_ply is None:
        for shown in result.shown:
            line = {
                "ply": shown.ply,
                "view": shown.view,
                "legal": shown.legal,
                "events": shown.events,
            }
            click.echo(encode(line).decode())
    if at_ply is not None:
        if result.state_at is None:
            raise BadInput(f"ply {at_ply} is beyond the end of the game ({result.plies} plies)")
        from referee.viewer.timeline import frame_at  # named fields, as the viewer draws

        named = frame_at(record, at_ply, seat)
        click.echo(msgspec.json.format(encode(named)).decode())
    click.echo(
        f"ok: {result.header.game}, {counted(len(result.header.seats), 'seat')}, "
        f"{counted(result.plies, 'ply')}, "
        f"ranks {result.result.ranks}, verdicts {list(result.result.verdicts)}"
        + (", adjudicated at the ply limit" if result.result.reason == "ply_limit" else "")
        + ("" if result.chance_checked else ", CHANCE UNCHECKED (no seed)")
        + (f", signed by key {signed_by}" if signed_by else ""),
        err=seat is not None or at_ply is not None,
    )


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Run directory.")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), help="Continue a run.")
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Matches in parallel (worker processes).",
)
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Where matches run: worker processes here, or an existing Dask cluster.",
)
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address (--executor dask).")
@click.option(
    "--standings-every",
    type=float,
    default=60.0,
    show_default=True,
    metavar="S",
    help="Print live standings to stderr every S seconds (0: never).",
)
@click.option(
    "--progress-every",
    type=click.FloatRange(min=0),
    default=5.0,
    show_default=True,
    metavar="S",
    help="When stderr is not a terminal: a progress line at most every S seconds.",
)
@click.option(
    "--no-reuse",
    is_flag=True,
    help="A fresh bot process for every match, even for bots that announce reuse.",
)
@click.option(
    "--affinity/--no-affinity",
    default=None,
    help="Bind each worker and its bots to one CPU core  [default: the config's affinity; "
    "unset there, when --concurrency is at least the number of cores].",
)
@click.option("--quiet", is_flag=True, help="No progress bar and no live standings.")
@sign_key_option
@format_option
@clean_errors
def tournament(
    config: Path | None,
    out: Path | None,
    resume: Path | None,
    concurrency: int,
    executor: str,
    scheduler: str | None,
    standings_every: float,
    progress_every: float,
    no_reuse: bool,
    affinity: bool | None,
    quiet: bool,
    sign_key: Path | None,
    fmt: str,
) -> None:
    """Run the tournament in CONFIG (TOML), or continue one with --resume DIR.

    Ctrl-C stops cleanly (running matches are ended and their bots killed; finished
    matches stay recorded); continue later with --resume DIR.
    """
    if executor == "dask" and not scheduler:
        raise click.UsageError("--executor dask needs --scheduler ADDRESS")
    if executor != "dask" and scheduler:
        raise click.UsageError("--scheduler needs --executor dask")
    if resume is not None:
        if config is not None:
            raise click.UsageError("give either CONFIG or --resume DIR, not both")
        out = resume
        manifest = load_run(out)
        for argv in manifest.argv:
            check_script_paths(argv)
        mode = sandbox_in_force(manifest)
        for argv in manifest.argv:
            check_sandbox_access(argv, mode, [("the run directory", out)])
        signer = load_signer(sign_key, manifest.argv, mode)
        check_signer(manifest, out, signer)
    else:
        if config is None:
            raise click.UsageError("missing CONFIG (or --resume DIR)")
        cfg = load_config(config)
        for entry in cfg.bots:
            check_script_paths(entry.command, config.parent)
        out = out or Path("runs") / cfg.name
        check_writable_dir(out, "--out")
        planned = plan_run(cfg, config.parent, out)  # create_run's checks, nothing written
        for argv in planned.argv:
            check_sandbox_access(argv, planned.sandbox, [("--out", out)])
        signer = load_signer(sign_key, planned.argv, planned.sandbox)
    # Connect before anything is written, so a failed start leaves no half-made run.
    pool = dask_executor(scheduler) if executor == "dask" and scheduler else None
    if resume is None:
        assert config is not None
        try:
            manifest = create_run(cfg, config.parent, out, signer)
        except BaseException:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            raise
    cores = os.cpu_count() or 1
    if executor == "local" and concurrency > cores:
        click.echo(
            f"referee: warning: --concurrency {concurrency} exceeds the {cores} cores; "
            "bots will compete for CPU and clocks become less fair",
            err=True,
        )
    names = [b.name for b in manifest.config.bots]
    click.get_current_context().with_resource(run_lock(out))  # until the command ends
    db = open_results(out, create=True)
    try:
        set_aside_damage(out, db, _report_aside)
        seen = db.rows()
    finally:
        db.close()
    show = not quiet and fmt not in ("json", "csv")
    tty = sys.stderr.isatty()
    total = len(manifest.schedule)
    if not quiet:
        click.echo(
            f"referee: run directory {out} ({counted(len(seen), 'match', of=total)} done); "
            + sandbox_note(manifest.sandbox),
            err=True,
        )
    started = time.monotonic()
    last_table = last_line = started
    fresh = 0

    def rate(_item: object) -> str:
        elapsed = time.monotonic() - started
        return f"{fresh / elapsed:.2f} matches/s" if fresh and elapsed > 0 else ""

    bar = click.progressbar(
        length=len(manifest.schedule),
        label=manifest.config.name,
        show_eta=True,
        show_pos=True,
        item_show_func=rate,
        file=sys.stderr if show and tty else io.StringIO(),
    )

    def on_row(row: MatchRow) -> None:
        nonlocal fresh, last_table, last_line
        fresh += 1
        seen.append(row)
        bar.update(1, row)
        now = time.monotonic()
        # Off a terminal the bar draws nothing: a plain progress line every few seconds.
        if not quiet and not tty and (now - last_line >= progress_every or len(seen) == total):
            last_line = now
            click.echo(
                f"{manifest.config.name}: {counted(len(seen), 'match', of=total)} {rate(row)}",
                err=True,
            )
        if show and standings_every > 0 and now - last_table >= standings_every:
            last_table = now
            live = display_standings(standings(seen, names))
            click.echo("\n" + render(live, "plain", "Live standings"), err=True)

    try:
        with bar:
            bar.update(len(seen))
            rows = run_tournament(
                out,
                concurrency=concurrency,
                on_row=on_row,
                executor=pool,
                remote=pool is not None,
                reuse=False if no_reuse else None,
                affinity=affinity,
                signer=signer,
            )
    except KeyboardInterrupt:
        click.echo(
            f"\nreferee: interrupted; {counted(len(seen), 'match', of=len(manifest.schedule))} "
            f"recorded. Continue with: referee tournament --resume {out}",
            err=True,
        )
        sys.exit(130)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    _print_tables(rows, names, fmt, len(manifest.schedule))
    click.echo(f"run directory: {out}", err=True)


def _report_aside(damage: Damage, moved: Path | None) -> None:
    """``--resume``: say that a match with a missing or damaged record is played again."""
    kept = f"; its record moved to {moved}" if moved is not None else ""
    click.echo(
        f"referee: {damage.problem}: playing it again (its old row is kept in the "
        f"set_aside table of results.sqlite{kept})",
        err=True,
    )


def _tables(rows: Sequence[Any], names: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Every results table as machine data (numbers as numbers), by table name."""
    return {
        "standings": standings(rows, names),
        "pairwise": pairwise_data(rows, names),
        "seats": seat_advantage(rows),
    }


def _print_tables(
    rows: Sequence[Any],
    names: Sequence[str],
    fmt: str,
    scheduled: int | None = None,
    out_dir: Path | None = None,
) -> None:
    """Print standings, pairwise and seat tables in ``fmt`` (every format, every table).

    ``scheduled`` is the run's number of matches (shown as "N of M").  With
    ``out_dir`` (json/csv only) each table goes to ``out_dir/<table>.<fmt>`` instead.
    """
    scheduled = len(rows) if scheduled is None else scheduled
    if fmt in ("json", "csv"):
        tables = _tables(rows, names)
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            for name, table in tables.items():
                text = render(table, fmt)
                (out_dir / f"{name}.{fmt}").write_text(text + "\n", encoding="utf-8")
            click.echo(f"tables written to {out_dir}: " + ", ".join(tables), err=True)
        elif fmt == "json":
            data = {"matches": len(rows), "scheduled": scheduled, **tables}
            click.echo(terminal_json(data))
        else:
            sections = [f"# {name}\n{render(table, fmt)}" for name, table in tables.items()]
            click.echo("\n\n".join(sections))
        return
    if out_dir is not None:
        raise click.UsageError("--out-dir needs --format json or csv")
    count = (
        counted(len(rows), "match")
        if len(rows) == scheduled
        else counted(len(rows), "match", of=scheduled)
    )
    click.echo(render(display_standings(standings(rows, names)), fmt, f"Standings ({count})"))
    click.echo()
    click.echo(render(pairwise(rows, names), fmt, "Finished ahead of (row vs column, 95% CI)"))
    click.echo()
    click.echo(render(seat_advantage(rows), fmt, "Seat advantage"))
    cut = sum(1 for r in rows if r.reason == "ply_limit")
    if cut:
        click.echo(
            f"{counted(cut, 'match', of=len(rows))} "
            f"{'was' if cut == 1 else 'were'} cut at the ply limit (adjudicated)"
        )


@main.command()
@click.argument("run", type=click.Path(file_okay=False, path_type=Path))
@format_option
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --format json/csv: write one file per table here (standings, pairwise, seats).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Cross-check every database row against its record (replayed with its seed); "
    "exit 1 naming each mismatch.",
)
@clean_errors
def results(run: Path, fmt: str, out_dir: Path | None, check: bool) -> None:
    """Print the tables of a finished or partial tournament run from its database.

    A missing record, or one whose result differs from its row, is an error; --check
    replays every record and compares it with its row, the schedule and the manifest.

    Every format carries every table: json as one object, csv as sections headed
    ``# standings``, ``# pairwise``, ``# seats`` (or one file each with --out-dir).
    """
    manifest = load_run(run)
    if check:
        _check_run(run, manifest)
    db = open_results(run, create=False)
    try:
        rows = db.rows()
        replayed = db.set_aside_count()
    finally:
        db.close()
    holder = run_holder(run)  # another referee playing the run now
    refuse_damage(run, rows, holder)
    scheduled = len(manifest.schedule)
    _print_tables(rows, [b.name for b in manifest.config.bots], fmt, scheduled, out_dir)
    click.echo(f"referee: {sandbox_note(manifest.sandbox)}", err=True)
    if replayed:
        click.echo(
            f"referee: {replayed} match(es) were played again because their record was "
            "missing or damaged (the old rows are in the set_aside table of results.sqlite)",
            err=True,
        )
    if len(rows) < scheduled and holder is not None:
        click.echo(
            f"referee: run in progress: {len(rows)} of {scheduled} matches played so far "
            f"(referee pid {holder} is playing it)",
            err=True,
        )
    elif len(rows) < scheduled:
        click.echo(
            f"referee: partial run: {counted(len(rows), 'match', of=scheduled)} played; "
            f"continue with: referee tournament --resume {run}",
            err=True,
        )


def _check_run(run: Path, manifest: Any) -> None:
    """``results --check``: one line per mismatch, exit 1 if any, else 0."""
    report = check_run(run, manifest)
    for problem in report.problems:
        click.echo(f"mismatch: {terminal(problem)}")
    for note in report.notes:
        click.echo(f"note: {terminal(note)}")
    verdict = "consistent" if not report.problems else f"{len(report.problems)} mismatch(es)"
    click.echo(f"{verdict}: {report.rows} database rows checked against their records")
    sys.exit(1 if report.problems else 0)


@main.command("check-bot")
@click.argument("game")
@click.argument("command")
@click.option("--seats", type=int, default=None, help="Seat count (default: the game's minimum).")
@click.option(
    "--rounds", type=click.IntRange(min=1), default=1, show_default=True, help="Matches per seat."
)
@click.option("--move-ms", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--bank-ms", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--startup-ms", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option(
    "--slow-ms",
    type=float,
    default=None,
    help="Note moves slower than this (default: half of --move-ms); only a time-out is a problem.",
)
@click.option(
    "--logs",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the bots' stderr logs here (DIR/check-R-S/seatK.stderr.log).",
)
@sandbox_option
@click.option("--network", is_flag=True, help="Let sandboxed bots use the network.")
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
    from referee.checkbot import check_bot

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


@main.command()
@click.argument("key", type=click.Path(dir_okay=False, path_type=Path))
@clean_errors
def keygen(key: Path) -> None:
    """Make an Ed25519 key pair for --sign-key: KEY (private, PEM, mode 0600) and
    KEY.pub (public, PEM, for replay --verify-key).  Never overwrites KEY."""
    from referee.signing import generate_key

    try:
        private, public, print_ = generate_key(key)
    except FileExistsError:
        raise BadInput(f"{key} already exists (not overwritten)") from None
    click.echo(f"private key {private} (keep it secret), public key {public}")
    click.echo(f"fingerprint {print_}")


main.add_command(regress)
main.add_command(view_command)
main.add_command(watch_command)
main.add_command(report_command)


if __name__ == "__main__":
    main()
