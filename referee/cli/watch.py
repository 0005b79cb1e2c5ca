"""The ``referee watch`` command (the server is :mod:`referee.viewer.watch`, imported
only when the command runs)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import click

from referee.errors import user_errors


@click.command("watch")
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--seat", type=int, default=None, help="Show only this seat's view.")
@click.option("--port", type=int, default=0, help="Port on 127.0.0.1 (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the URL only; open no browser.")
def watch(target: Path, seat: int | None, port: int, no_browser: bool) -> None:
    """Serve the viewer of TARGET (a record, RECORD.part of a running game, or a
    tournament run directory) on 127.0.0.1 while its games are played; new plies show
    within about a second.  Prints the URL (it carries a token; a request without it
    is refused) and serves until Ctrl-C."""
    with user_errors(status=2, prefix="error: "):
        from referee.human.web import open_browser
        from referee.viewer.watch import serve

        try:
            server = serve(target, seat, port)
        except OSError as exc:
            raise click.BadParameter(f"cannot serve on 127.0.0.1:{port}: {exc}") from None
    click.echo(server.url)
    if not no_browser:
        open_browser(server.url, os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        click.echo("referee: watch interrupted", err=True)
        raise SystemExit(130) from None
    finally:
        server.shutdown()
