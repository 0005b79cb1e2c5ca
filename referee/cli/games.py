"""``referee games``: the games and their seat counts."""

from __future__ import annotations

import click

from referee.cli.options import format_option
from referee.cli.output import render
from referee.games import all_games


@click.command()
@format_option
def games(fmt: str) -> None:
    """List the games with their seat counts."""
    rows = [
        {"game": name, "title": g.title, "seats": f"{g.min_seats}-{g.max_seats}"}
        for name, g in all_games().items()
    ]
    click.echo(render(rows, fmt))
