"""``referee report RUN``: one self-contained HTML page for a tournament run (the page
itself is made by :func:`referee.viewer.report.render_report`)."""

from __future__ import annotations

from pathlib import Path

import click

from referee.cli.options import html_out_option
from referee.errors import user_errors
from referee.viewer.report import render_report


@click.command("report")
@click.argument("run", type=click.Path(file_okay=False, path_type=Path))
@html_out_option("Output HTML file (default: RUN/report.html).")
@click.option(
    "--viewers",
    is_flag=True,
    help="Also write each match's viewer page beside its record (links to existing ones "
    "are always made).",
)
def report(run: Path, out: Path | None, viewers: bool) -> None:
    """Write a self-contained HTML report of the tournament run in RUN and print its path."""
    target = out if out is not None else run / "report.html"
    with user_errors(status=2, prefix="error: "):
        text = render_report(run, target, make_viewers=viewers)
        target.write_text(text, encoding="utf-8")
    click.echo(str(target))
