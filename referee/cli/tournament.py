"""``referee tournament CONFIG`` (or ``--resume DIR``): play a tournament run.

The command goes in steps: check everything and load the signer before anything is
written (:func:`_prepare_new`, :func:`_prepare_resume`), make the run (connecting to
Dask first, so a failed start leaves no half-made run), then play it with a progress
bar and live standings (:class:`_Display`) and print the tables.
"""

from __future__ import annotations

import io
import os
import sys
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from referee.cli.common import EXIT_INTERRUPTED, clean_errors, load_signer, sandbox_note
from referee.cli.options import (
    affinity_option,
    concurrency_option,
    format_option,
    no_reuse_option,
    quiet_option,
    sign_key_option,
)
from referee.cli.output import print_tables, render
from referee.process.preflight import check_sandbox_access, check_script_paths, check_writable_dir
from referee.tournament.config import TournamentConfig, load_config
from referee.tournament.resultsdb import MatchRow
from referee.tournament.run import (
    Manifest,
    check_signer,
    create_run,
    dask_executor,
    load_run,
    plan_run,
    run_tournament,
    sandbox_in_force,
)
from referee.tournament.rundir import Damage, open_results, run_lock, set_aside_damage
from referee.tournament.standings import display_standings, standings
from referee.wording import counted

if TYPE_CHECKING:
    from referee.match.signing import Signer


@click.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Run directory.")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), help="Continue a run.")
@concurrency_option("Matches in parallel (worker processes).")
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
@no_reuse_option("A fresh bot process for every match, even for bots that announce reuse.")
@affinity_option(
    "Bind each worker and its bots to one CPU core  [default: the config's affinity; "
    "unset there, when --concurrency is at least the number of cores]."
)
@quiet_option("No progress bar and no live standings.")
@sign_key_option()
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
        start = _prepare_resume(resume, sign_key)
    else:
        if config is None:
            raise click.UsageError("missing CONFIG (or --resume DIR)")
        start = _prepare_new(config, out, sign_key)
    # Connect before anything is written, so a failed start leaves no half-made run.
    pool = dask_executor(scheduler) if executor == "dask" and scheduler else None
    if start.manifest is None:
        assert start.config is not None
        try:
            start.manifest = create_run(start.config, start.base_dir, start.out, start.signer)
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
    rows = _play(
        start,
        pool,
        concurrency=concurrency,
        reuse=False if no_reuse else None,
        affinity=affinity,
        display=_Display(start.manifest, quiet, fmt, standings_every, progress_every),
    )
    manifest = start.manifest
    print_tables(rows, [b.name for b in manifest.config.bots], fmt, len(manifest.schedule))
    click.echo(f"run directory: {start.out}", err=True)


@dataclass
class _Start:
    """A checked run about to be played: its directory, its manifest (``None`` until
    a new run is created from ``config``, read relative to ``base_dir``) and the
    signer of its records (``None``: unsigned)."""

    out: Path
    manifest: Manifest | None
    signer: Signer | None
    config: TournamentConfig | None = None
    base_dir: Path = Path()


def _prepare_resume(out: Path, sign_key: Path | None) -> _Start:
    """``--resume DIR``: the run's manifest, after checking its bots' scripts, that the
    sandbox hides the run directory from them and that ``sign_key`` is the run's key."""
    manifest = load_run(out)
    for argv in manifest.argv:
        check_script_paths(argv)
    mode = sandbox_in_force(manifest)
    for argv in manifest.argv:
        check_sandbox_access(argv, mode, [("the run directory", out)])
    signer = load_signer(sign_key, manifest.argv, mode)
    check_signer(manifest, out, signer)
    return _Start(out, manifest, signer)


def _prepare_new(config: Path, out: Path | None, sign_key: Path | None) -> _Start:
    """``CONFIG``: every check of creating the run (nothing written), its directory
    (``--out`` or ``runs/NAME``) and the signer."""
    cfg = load_config(config)
    for entry in cfg.bots:
        check_script_paths(entry.command, config.parent)
    out = out or Path("runs") / cfg.name
    check_writable_dir(out, "--out")
    planned = plan_run(cfg, config.parent, out)  # create_run's checks, nothing written
    for argv in planned.argv:
        check_sandbox_access(argv, planned.sandbox, [("--out", out)])
    signer = load_signer(sign_key, planned.argv, planned.sandbox)
    return _Start(out, None, signer, cfg, config.parent)


class _Display:
    """What the operator sees while a run plays, on stderr: a progress bar on a
    terminal (a progress line every ``progress_every`` s off one), live standings every
    ``standings_every`` s (0: never); ``quiet`` or a machine ``fmt`` shows neither."""

    def __init__(
        self,
        manifest: Manifest,
        quiet: bool,
        fmt: str,
        standings_every: float,
        progress_every: float,
    ) -> None:
        self.name = manifest.config.name
        self.names = [b.name for b in manifest.config.bots]
        self.total = len(manifest.schedule)
        self.quiet = quiet
        self.show = not quiet and fmt not in ("json", "csv")
        self.tty = sys.stderr.isatty()
        self.standings_every = standings_every
        self.progress_every = progress_every
        self.seen: list[MatchRow] = []
        self.fresh = 0
        self.started = self.last_table = self.last_line = time.monotonic()
        self.bar = click.progressbar(
            length=self.total,
            label=self.name,
            show_eta=True,
            show_pos=True,
            item_show_func=self.rate,
            file=sys.stderr if self.show and self.tty else io.StringIO(),
        )

    def begin(self, out: Path, seen: list[MatchRow], sandbox: str) -> None:
        """Note the rows already played and say where the run is."""
        self.seen = seen
        if not self.quiet:
            click.echo(
                f"referee: run directory {out} "
                f"({counted(len(seen), 'match', of=self.total)} done); " + sandbox_note(sandbox),
                err=True,
            )
        self.started = self.last_table = self.last_line = time.monotonic()

    def rate(self, _item: object) -> str:
        """Matches per second played by this invocation (empty before the first)."""
        elapsed = time.monotonic() - self.started
        return f"{self.fresh / elapsed:.2f} matches/s" if self.fresh and elapsed > 0 else ""

    def on_row(self, row: MatchRow) -> None:
        """One more match finished."""
        self.fresh += 1
        self.seen.append(row)
        self.bar.update(1, row)
        now = time.monotonic()
        done = len(self.seen)
        # Off a terminal the bar draws nothing: a plain progress line every few seconds.
        if (
            not self.quiet
            and not self.tty
            and (now - self.last_line >= self.progress_every or done == self.total)
        ):
            self.last_line = now
            click.echo(
                f"{self.name}: {counted(done, 'match', of=self.total)} {self.rate(row)}",
                err=True,
            )
        if self.show and self.standings_every > 0 and now - self.last_table >= self.standings_every:
            self.last_table = now
            live = display_standings(standings(self.seen, self.names))
            click.echo("\n" + render(live, "plain", "Live standings"), err=True)


def _play(
    start: _Start,
    pool: Executor | None,
    *,
    concurrency: int,
    reuse: bool | None,
    affinity: bool | None,
    display: _Display,
) -> list[MatchRow]:
    """Lock the run, set aside damaged matches, play the rest; every row.

    Ctrl-C: says how many matches are recorded and how to continue, and exits with
    :data:`referee.cli.common.EXIT_INTERRUPTED`.
    """
    out, manifest = start.out, start.manifest
    assert manifest is not None
    click.get_current_context().with_resource(run_lock(out))  # until the command ends
    db = open_results(out, create=True)
    try:
        set_aside_damage(out, db, _report_aside)
        seen = db.rows()
    finally:
        db.close()
    display.begin(out, seen, manifest.sandbox)
    try:
        with display.bar:
            display.bar.update(len(seen))
            return run_tournament(
                out,
                concurrency=concurrency,
                on_row=display.on_row,
                executor=pool,
                remote=pool is not None,
                reuse=reuse,
                affinity=affinity,
                signer=start.signer,
            )
    except KeyboardInterrupt:
        click.echo(
            f"\nreferee: interrupted; {counted(len(seen), 'match', of=len(manifest.schedule))} "
            f"recorded. Continue with: referee tournament --resume {out}",
            err=True,
        )
        sys.exit(EXIT_INTERRUPTED)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _report_aside(damage: Damage, moved: Path | None) -> None:
    """``--resume``: say that a match with a missing or damaged record is played again."""
    kept = f"; its record moved to {moved}" if moved is not None else ""
    click.echo(
        f"referee: {damage.problem}: playing it again (its old row is kept in the "
        f"set_aside table of results.sqlite{kept})",
        err=True,
    )
