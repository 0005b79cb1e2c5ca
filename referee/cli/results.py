"""``referee results RUN``: the tables of a tournament run, from its database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from referee.cli.common import clean_errors, sandbox_note
from referee.cli.options import format_option
from referee.cli.output import print_tables
from referee.display import terminal
from referee.tournament.run import load_run
from referee.tournament.rundir import check_run, open_results, refuse_damage, run_holder
from referee.wording import counted


@click.command()
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
    print_tables(rows, [b.name for b in manifest.config.bots], fmt, scheduled, out_dir)
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
