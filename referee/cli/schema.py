"""``referee schema GAME``: the JSON Schema of a game and of the protocol."""

from __future__ import annotations

import click
import msgspec

from referee.cli.common import clean_errors
from referee.games import get_game


@click.command()
@click.argument("game")
@clean_errors
def schema(game: str) -> None:
    """Print the JSON Schema of GAME's actions, views and options, its events and chance
    outcomes (redacted forms included) and the protocol messages."""
    from referee.process.wire_schema import wire_schema

    click.echo(msgspec.json.format(msgspec.json.encode(wire_schema(get_game(game)))).decode())
