"""``referee view RECORD``: a self-contained HTML replay viewer of a record."""

from __future__ import annotations

from pathlib import Path

import click

from referee.cli.options import html_out_option
from referee.errors import user_errors
from referee.progress import Progress
from referee.viewer import write_viewer
from referee.viewer.timeline import Timeline


@click.command("view")
@click.argument("record", type=click.Path(path_type=Path))
@html_out_option("Output HTML file (default: beside the record).")
@click.option(
    "--seat",
    type=int,
    default=None,
    help="Embed only what this seat saw (shareable without leaking the others' secrets).",
)
@click.option(
    "--follow",
    is_flag=True,
    help="Rewrite the page whenever the record grows, until the game ends (Ctrl-C stops); "
    "the page reloads itself meanwhile.",
)
def view(record: Path, out: Path | None, seat: int | None, follow: bool) -> None:
    """Write a self-contained HTML replay viewer of RECORD and print its path.

    An unfinished record (RECORD.part, of a running or interrupted game) gives its plies
    so far, marked unfinished.
    """
    with user_errors(status=2, prefix="error: "):
        if follow:
            path = _follow(record, out, seat)
        else:
            with Progress(f"view {record.name}", None, "plies") as progress:
                path = write_viewer(
                    record, out, seat, on_ply=lambda done, total: progress.update(done, total=total)
                )
    click.echo(str(path))


def _follow(record: Path, out: Path | None, seat: int | None) -> Path:
    from referee.viewer.follow import follow

    def written(page: Path, timeline: Timeline) -> None:
        state = "finished" if timeline.finished else "unfinished, following"
        click.echo(f"{page}: {timeline.plies} plies ({state})", err=True)

    try:
        return follow(record, out, seat, on_write=written)
    except KeyboardInterrupt:
        click.echo("referee: view --follow interrupted", err=True)
        raise SystemExit(130) from None
