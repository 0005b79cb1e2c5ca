"""``referee regress``: the command line of the regression gate (the gate itself is
:mod:`referee.regress.run`; its exit codes are documented in docs/regress.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from referee.cli.common import parse_options
from referee.cli.options import (
    affinity_option,
    clock_options,
    concurrency_option,
    game_option_option,
    max_plies_option,
    network_option,
    no_reuse_option,
    ponder_option,
    quiet_option,
    sandbox_option,
    seats_option,
    sign_key_option,
)
from referee.display import terminal
from referee.errors import BadInput, user_errors
from referee.games import get_game
from referee.process.isolation.sandbox import resolve_mode
from referee.process.preflight import check_script_paths
from referee.process.spec import resolve_command
from referee.regress.run import (
    EXIT_FAULT,
    EXIT_USAGE,
    BlockResult,
    Entrant,
    RegressSettings,
    Role,
    run_regress,
    summary_text,
)
from referee.regress.sprt import SequentialTest, sprt_bounds
from referee.tournament.schedule import new_secret


class _RegressCommand(click.Command):
    """A click command whose usage errors exit with :data:`EXIT_USAGE`, not 2 (inconclusive)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USAGE  # type: ignore[misc]  # per instance, on purpose
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USAGE  # type: ignore[misc]  # per instance, on purpose
            raise


def _entrant(role: Role, name: str, command: str) -> Entrant:
    check_script_paths(command)
    return Entrant(role, name, resolve_command(command), command)


@click.command("regress", cls=_RegressCommand)
@click.option("--game", required=True, help="Game name (see `referee games`).")
@click.option("--candidate", required=True, metavar="CMD", help="The bot under test.")
@click.option("--baseline", required=True, metavar="CMD", help="The bot it must not be worse than.")
@click.option(
    "--field",
    "field_cmds",
    multiple=True,
    metavar="CMD",
    help="Opponent for the other seats (repeat; cycled). Default: copies of the baseline.",
)
@seats_option
@click.option("--elo0", type=float, default=-20.0, show_default=True, help="H0: Elo difference.")
@click.option("--elo1", type=float, default=0.0, show_default=True, help="H1: Elo difference.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="P(pass | H0).")
@click.option("--beta", type=float, default=0.05, show_default=True, help="P(fail | H1).")
@click.option("--max-games", type=click.IntRange(min=2), default=1000, show_default=True)
@game_option_option
@clock_options
@ponder_option
@max_plies_option("Cut games after this many plies and rank them by position (0 = no limit).")
@concurrency_option()
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="Write a JSON summary here ('-' for stdout).",
)
@click.option(
    "--records",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep every game record and bot stderr log in this directory.",
)
@quiet_option("No per-block progress on stderr.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write an HTML page of the run (LLR over games against the bounds) here.",
)
@sandbox_option("Isolate every bot (bwrap), or not (none); auto: bwrap where it works.")
@network_option
@no_reuse_option("A fresh bot process for every game, even for bots that announce reuse.")
@affinity_option(
    "Bind each worker and its bots to one CPU core  [default: when --concurrency "
    "is at least the number of cores]."
)
@sign_key_option(
    "With --records: sign every record with this Ed25519 private key (PEM), "
    "each in RECORD.sig (check with `referee replay --verify-key`)."
)
@click.option("--seed-secret", hidden=True, default=None, help="Fixed secret (tests only).")
def regress(
    game: str,
    candidate: str,
    baseline: str,
    field_cmds: tuple[str, ...],
    seats: int | None,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_games: int,
    opts: tuple[str, ...],
    move_ms: int,
    bank_ms: int,
    startup_ms: int,
    ponder: bool,
    max_plies: int,
    concurrency: int,
    json_path: Path | None,
    records: Path | None,
    quiet: bool,
    html_path: Path | None,
    sandbox: str,
    network: bool,
    no_reuse: bool,
    affinity: bool | None,
    sign_key: Path | None,
    seed_secret: str | None,
) -> None:
    """Gate a bot: SPRT of CANDIDATE against BASELINE on duplicate blocks of GAME.

    Exit 0: not worse (H1 accepted); 1: regression (H0 accepted); 2: inconclusive at
    --max-games; 3: a fault of the baseline, the field or the referee stopped the
    run; 4: bad invocation.  See docs/regress.md.
    """
    with user_errors(status=EXIT_USAGE):
        g = get_game(game)
        seat_count = seats if seats is not None else g.min_seats
        g.check_seats(seat_count)
        options = parse_options(opts)
        g.parse_options(options)
        if not elo0 < elo1:
            raise BadInput(f"need --elo0 < --elo1 (got {elo0:g}, {elo1:g})")
        try:
            sprt_bounds(alpha, beta)  # raises ValueError for impossible error rates
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        settings = RegressSettings(
            game=g.name,
            seats=seat_count,
            candidate=_entrant("candidate", "candidate", candidate),
            baseline=_entrant("baseline", "baseline", baseline),
            field_bots=[_entrant("field", f"field{i + 1}", c) for i, c in enumerate(field_cmds)],
            options=options,
            clock=(startup_ms, move_ms, bank_ms),
            ponder=ponder,
            max_plies=max_plies,
            elo0=elo0,
            elo1=elo1,
            alpha=alpha,
            beta=beta,
            max_games=max_games,
            concurrency=concurrency,
            records=records,
            secret=seed_secret or new_secret(),
            sandbox=resolve_mode(sandbox),
            network=network,
            reuse=not no_reuse,
            affinity=affinity,
        )
        signer = None
        if sign_key is not None:
            if records is None:
                raise BadInput("--sign-key needs --records (it signs the records)")
            from referee.match.signing import Signer
            from referee.process.preflight import check_key_hidden

            signer = Signer(sign_key)
            bots = [settings.candidate, settings.baseline, *settings.field_bots]
            for entrant in bots:
                check_key_hidden(entrant.argv, settings.sandbox, sign_key, "--sign-key")
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)

    history: list[tuple[int, float]] = []

    def progress(result: BlockResult, test: SequentialTest) -> None:
        if signer is not None:
            for played in result.games:
                if played.record is not None:
                    signer.sign_file(played.record)
        history.append((2 * test.blocks, test.llr()))
        if not quiet:
            click.echo(
                f"block {result.block}: games {2 * test.blocks}, LLR {test.llr():.3f} "
                f"[{test.lower:.3f}, {test.upper:.3f}]",
                err=True,
            )

    summary = run_regress(settings, on_block=progress)
    if html_path is not None:
        from referee.regress.page import render_regress_page

        html_path.write_text(render_regress_page(summary, history), encoding="utf-8")
    to_stdout = json_path is not None and str(json_path) == "-"
    if json_path is not None:
        if to_stdout:
            click.echo(summary.to_json().decode(), nl=False)
        else:
            try:
                json_path.write_bytes(summary.to_json())
            except OSError as exc:
                click.echo(f"referee: error: cannot write {json_path}: {exc}", err=True)
                sys.exit(EXIT_FAULT)
    text = summary_text(summary)
    click.echo(text, err=to_stdout)
    if summary.status == "fault":
        click.echo(f"referee: error: {terminal(summary.fault or '')}", err=True)
    sys.exit(summary.exit_code)
