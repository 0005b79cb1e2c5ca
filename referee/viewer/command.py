"""The ``referee view`` command."""

from __future__ import annotations

from pathlib import Path

import click

from referee.record import RecordError
from referee.viewer import write_viewer


@click.command("view")
@click.argument("record", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Output HTML file (default: beside the record).",
)
@click.option(
    "--seat",
    type=int,
    default=None,
    help="Embed only what this seat saw (shareable without leaking the others' secrets).",
)
def view(record: Path, out: Path | None, seat: int | None) -> None:
    """Write a self-contained HTML replay viewer of RECORD and print its path."""
    try:
        path = write_viewer(record, out, seat)
    except (RecordError, LookupError, ValueError, OSError) as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
    click.echo(str(path))
